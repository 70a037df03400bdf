"""What BM25's spelling correction does to the hand-written sets and the benchmarks.

    python bench/spelling.py [--set comlq1 ...] [-s hybrid:auto ...] [--index-dir DIR] \
        [--data-root DIR] [--per-query]
    python bench/spelling.py --benchmark scifact [--benchmark nevir ...] [--split logir-test] ...

Every query (of the hand-written sets, all registered sets by default; or of the shared
benchmarks named by --benchmark, whose folders lie under the data root) whose BM25 words the
index's speller corrects (:mod:`logir.index.spelling`) is ranked by each system twice, with
spelling off and on, over the index of its corpus under ``--index-dir/<folder>`` (built as
bench/handwritten.py builds it when missing: bm25 + dense). Printed per system: how many queries
have a correction, nDCG@10 off and on over them, and how many go up and down; --per-query adds
each query's corrections and its two figures. Queries without a correction rank the same either
way and are not ranked.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from handwritten import open_index, query_ndcg  # noqa: E402
from shared_data import DATA, FOLDER_OF  # noqa: E402

from logir import Searcher  # noqa: E402
from logir.data.benchmarks import BENCHMARKS  # noqa: E402
from logir.data.benchmarks.handwritten import SET_CORPORA, load_handwritten  # noqa: E402
from logir.data.dataset import Dataset  # noqa: E402
from logir.data.splits import select_split  # noqa: E402
from logir.errors import LogirError  # noqa: E402
from logir.eval.systems import parse_system  # noqa: E402
from logir.index.spelling import corrections  # noqa: E402

#: a benchmark name -> its folder under the shared datasets (QUEST's sample ships no corpus)
FOLDERS = {name: folder for name, folder in FOLDER_OF.items() if name != "quest"}


def _sources(args: argparse.Namespace, root: Path) -> Iterator[tuple[str, Dataset, str]]:
    """(label, dataset, corpus folder) per hand-written set or benchmark asked for."""
    if args.benchmarks:
        for name in args.benchmarks:
            ds = select_split(BENCHMARKS[name](root / FOLDERS[name]), args.split)
            yield name, ds, FOLDERS[name]
        return
    for name in args.sets or sorted(SET_CORPORA):
        yield name, load_handwritten(name, root), SET_CORPORA[name]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--set", action="append", dest="sets", help="a set name (default: all)")
    ap.add_argument("--benchmark", action="append", dest="benchmarks", choices=sorted(FOLDERS))
    ap.add_argument("--split", default="all", help="a benchmark's split (default: all)")
    ap.add_argument("-s", "--system", action="append", dest="systems", help="default: hybrid:auto")
    ap.add_argument("--index-dir", type=Path, default=Path("bench-indexes"))
    ap.add_argument("--data-root", type=Path, default=None)
    ap.add_argument("--per-query", action="store_true")
    args = ap.parse_args(argv)
    root = args.data_root or DATA
    unknown = [s for s in args.sets or () if s not in SET_CORPORA]
    if unknown:
        print(f"unknown set(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    specs = [parse_system(s) for s in args.systems or ["hybrid:auto"]]
    figures: dict[str, list[tuple[float, float]]] = {s.name: [] for s in specs}
    searchers: dict[str, Searcher] = {}
    try:
        for label, ds, folder in _sources(args, root):
            if folder not in searchers:
                corpus = root / folder / "corpus.jsonl"
                searchers[folder] = open_index(ds, corpus, args.index_dir / folder)
            searcher = searchers[folder]
            _, bm25 = searcher.scorer("bm25")
            for topic in ds.queries:
                searcher.use_spelling(True)
                fixed = corrections(bm25, topic.text)
                if not fixed or topic.id not in ds.qrels:
                    continue
                reading = searcher.read(topic.text)
                for spec in specs:
                    got = []
                    for on in (False, True):
                        searcher.use_spelling(on)
                        got.append(
                            query_ndcg(
                                searcher, reading, ds, topic.id, spec.retriever, spec.composer
                            )
                        )
                    figures[spec.name].append((got[0], got[1]))
                    if args.per_query:
                        print(
                            f"{label}/{topic.id}\t{spec.name}\t{got[0]:.4f}\t{got[1]:.4f}\t"
                            f"{got[1] - got[0]:+.4f}\t{fixed}"
                        )
    except LogirError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print("| system | queries corrected | nDCG@10 off | on | up | down |")
    print("|---|---|---|---|---|---|")
    for system, pairs in figures.items():
        n = len(pairs) or 1
        off = sum(a for a, _ in pairs) / n
        on = sum(b for _, b in pairs) / n
        up = sum(b > a + 1e-9 for a, b in pairs)
        down = sum(b < a - 1e-9 for a, b in pairs)
        print(f"| {system} | {len(pairs)} | {off:.4f} | {on:.4f} | {up} | {down} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
