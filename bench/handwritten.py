"""Hand-written logical queries over shared corpora (bench/handwritten) under several systems.

    python bench/handwritten.py --set comlq [--set negconstraint] [--index-dir DIR] \
        [--data-root DIR] [-s SYSTEM ...] [--depth N] [--per-query]

For each set, the shared corpus it judges (``<data root>/<folder>/corpus.jsonl``; the data root
is --data-root or LOGIR_SHARED_DATASETS) is indexed once as `logir index` does by default (bm25 +
dense) under ``--index-dir/<folder>`` (an index already there is reused), and every query is
read once and ranked by each system (``RETRIEVER[:COMPOSER]``, composer flat when none is
given; default: bm25, dense, hybrid, hybrid:auto, hybrid:exclusion, bm25:auto). Printed per set
and system: nDCG@10 over all queries; over the queries that negate (exclude + predicate), in how
many a violating passage shown in the top 10 ranks above a grade-2 passage (one not ranked
counts as below it), and the mean number of violating passages in the top 10; and nDCG@10 by
the set's negation kind. --per-query adds each query's nDCG@10 and violating count per system.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from logir import Searcher
from logir.data.benchmarks.handwritten import SET_CORPORA, load_handwritten
from logir.data.dataset import Dataset
from logir.errors import LogirError
from logir.eval.metrics import outranking_violations, standard
from logir.eval.systems import parse_system
from logir.index.store import build_index, load_corpus

SHOWN = 10  # the hits `logir search` prints by default
DEFAULT_SYSTEMS = ["bm25", "dense", "hybrid", "hybrid:auto", "hybrid:exclusion", "bm25:auto"]
KINDS = ("exclude", "predicate", "none")


def open_index(ds: Dataset, corpus: Path, index_dir: Path) -> Searcher:
    """A searcher over ``corpus``'s index in ``index_dir`` (built there first when missing)."""
    if not index_dir.exists():
        print(f"indexing {corpus} -> {index_dir}", file=sys.stderr)
        build_index(load_corpus(corpus), index_dir, retrievers=("bm25", "dense"))
    searcher = Searcher(index_dir)
    if searcher.index.n_docs != len(ds.corpus):
        raise LogirError(
            f"the index at {index_dir} holds {searcher.index.n_docs} passages, the corpus "
            f"{corpus} {len(ds.corpus)}: remove the index or pass another --index-dir"
        )
    return searcher


def rank_all(
    searcher: Searcher, ds: Dataset, systems: list[str], depth: int
) -> dict[str, dict[str, list[str]]]:
    """system -> query id -> ranked doc ids (each query read once, shared by every system)."""
    specs = [parse_system(s) for s in systems]
    ranked: dict[str, dict[str, list[str]]] = {s.name: {} for s in specs}
    for topic in ds.queries:
        reading = searcher.read(topic.text)
        for spec in specs:
            result = searcher.search(
                reading, k=depth, retriever=spec.retriever, composer=spec.composer
            )
            ranked[spec.name][topic.id] = [h.id for h in result.hits]
    return ranked


def report(ds: Dataset, ranked: dict[str, dict[str, list[str]]], per_query: bool) -> None:
    """The tables for one set."""
    kinds = {t.id: t.facets["negation"] for t in ds.queries}
    negating = [q for q, k in kinds.items() if k != "none"]
    count = {k: sum(1 for v in kinds.values() if v == k) for k in KINDS}
    print(
        f"\n{ds.name}: {len(ds.queries)} queries ("
        + ", ".join(f"{count[k]} {k}" for k in KINDS)
        + f"), {len(ds.corpus)} passages"
    )
    print(
        f"\n| system | nDCG@10 | negating queries with a violating passage above a grade-2 one "
        f"in the top {SHOWN} (of {len(negating)}) | mean violating in the top {SHOWN} | "
        + " | ".join(f"nDCG@10 {k}" for k in KINDS)
        + " |"
    )
    print("|---|---:|---:|---:|" + "---:|" * len(KINDS))
    per: dict[str, dict[str, tuple[float, int]]] = {}
    for system, runs in ranked.items():
        run = {q: {d: float(-i) for i, d in enumerate(ids)} for q, ids in runs.items()}
        mean, by_query = standard(ds.qrels, run, ["nDCG@10"])
        failing = 0
        shown_bad = 0
        per[system] = {}
        for q in kinds:
            ids = runs[q]
            bad = set(ds.violating.get(q, ()))
            good = {d for d, g in ds.qrels[q].items() if g == 2}
            n_bad = sum(1 for d in ids[:SHOWN] if d in bad)
            per[system][q] = (by_query[q]["nDCG@10"], n_bad)
            if q in negating:
                failing += bool(outranking_violations(ids, good, bad, k=SHOWN))
                shown_bad += n_bad
        by_kind = []
        for k in KINDS:
            qs = [q for q, v in kinds.items() if v == k]
            by_kind.append(
                f"{sum(by_query[q]['nDCG@10'] for q in qs) / len(qs):.3f}" if qs else "-"
            )
        mean_bad = f"{shown_bad / len(negating):.2f}" if negating else "-"
        print(
            f"| {system} | {mean['nDCG@10']:.3f} | {failing} | {mean_bad} | "
            + " | ".join(by_kind)
            + " |"
        )
    if per_query:
        systems = list(ranked)
        print("\nper query: nDCG@10 / violating passages in the top 10, by system")
        print(f"{'query':<6}{'kind':<10}" + "".join(f"{s:>18}" for s in systems) + "  text")
        for t in ds.queries:
            cells = "".join(f"{per[s][t.id][0]:>12.3f} / {per[s][t.id][1]:<3}" for s in systems)
            print(f"{t.id:<6}{kinds[t.id]:<10}{cells}  {t.text}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", dest="sets", choices=sorted(SET_CORPORA))
    ap.add_argument("--data-root", type=Path, help="shared datasets folder")
    ap.add_argument("--index-dir", type=Path, default=Path("results/handwritten"))
    ap.add_argument("-s", "--system", action="append", dest="systems")
    ap.add_argument("--depth", type=int, default=100, help="hits ranked per query and system")
    ap.add_argument("--per-query", action="store_true")
    args = ap.parse_args()
    root = args.data_root or os.environ.get("LOGIR_SHARED_DATASETS")
    if not root:
        ap.error("pass --data-root or set LOGIR_SHARED_DATASETS (the shared datasets folder)")
    if args.depth < SHOWN:
        ap.error(f"--depth must be at least {SHOWN}")
    systems = args.systems or DEFAULT_SYSTEMS
    try:
        for name in args.sets or ["comlq"]:
            ds = load_handwritten(name, root)
            folder = SET_CORPORA[name]
            searcher = open_index(ds, Path(root) / folder / "corpus.jsonl", args.index_dir / folder)
            report(ds, rank_all(searcher, ds, systems, args.depth), args.per_query)
    except LogirError as exc:
        sys.exit(f"error: {exc}")


if __name__ == "__main__":
    main()
