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
the set's negation kind. --per-query adds each query's nDCG@10 and violating count per system;
--written-form also ranks each set's own logical form of the query (read as logir syntax) with
every system, to tell what the reading costs from what the ranking does. With several sets a
last table gives the mean over all their queries, and by negation kind.
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
from logir.query.reading import Reading

SHOWN = 10  # the hits `logir search` prints by default
DEPTH = 100  # hits ranked per query and system (--depth)
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
    searcher: Searcher, ds: Dataset, systems: list[str], depth: int, written: bool = False
) -> dict[str, dict[str, list[str]]]:
    """system -> query id -> ranked doc ids (each query read once, shared by every system);
    with ``written``, each system also ranks the set's written form of the query (read as
    logir syntax), as ``SYSTEM @form``."""
    specs = [parse_system(s) for s in systems]
    ranked: dict[str, dict[str, list[str]]] = {s.name: {} for s in specs}
    if written:
        ranked.update({f"{s.name} @form": {} for s in specs})
    for topic in ds.queries:
        readings = {"": searcher.read(topic.text)}
        if written:
            readings[" @form"] = searcher.read(topic.logical_form or topic.text, mode="syntax")
        for spec in specs:
            for suffix, reading in readings.items():
                result = searcher.search(
                    reading, k=depth, retriever=spec.retriever, composer=spec.composer
                )
                ranked[spec.name + suffix][topic.id] = [h.id for h in result.hits]
    return ranked


def query_ndcg(
    searcher: Searcher,
    reading: Reading,
    ds: Dataset,
    qid: str,
    retriever: str,
    composer: str,
    depth: int = DEPTH,
) -> float:
    """nDCG@10 of one query of ``ds``, ``reading`` ranked to ``depth`` by ``retriever`` and
    ``composer`` (what bench/spelling.py and bench/plan_check.py compare, query by query)."""
    hits = searcher.search(reading, k=depth, retriever=retriever, composer=composer).hits
    run = {qid: {h.id: float(-i) for i, h in enumerate(hits)}}
    _, by_query = standard({qid: ds.qrels[qid]}, run, ["nDCG@10"])
    return by_query[qid]["nDCG@10"]


Scores = dict[str, dict[str, tuple[str, float]]]
"""system -> "set/query id" -> (negation kind, nDCG@10): what the closing table sums."""


def report(
    ds: Dataset, ranked: dict[str, dict[str, list[str]]], per_query: bool, scores: Scores
) -> None:
    """The tables for one set; each query's nDCG@10 is added to ``scores``."""
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
            scores.setdefault(system, {})[f"{ds.name}/{q}"] = (kinds[q], by_query[q]["nDCG@10"])
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


def summary(scores: Scores, n_sets: int) -> None:
    """Mean nDCG@10 over every query of every set, and by negation kind."""
    queries = len(next(iter(scores.values()))) if scores else 0
    print(f"\nall {n_sets} sets: {queries} queries")
    print("\n| system | nDCG@10 | " + " | ".join(f"nDCG@10 {k}" for k in KINDS) + " |")
    print("|---|---:|" + "---:|" * len(KINDS))
    for system, per in scores.items():
        cells = []
        for k in KINDS:
            got = [v for kind, v in per.values() if kind == k]
            cells.append(f"{sum(got) / len(got):.4f} ({len(got)})" if got else "-")
        mean = sum(v for _, v in per.values()) / len(per)
        print(f"| {system} | {mean:.4f} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", dest="sets", choices=sorted(SET_CORPORA))
    ap.add_argument("--data-root", type=Path, help="shared datasets folder")
    ap.add_argument("--index-dir", type=Path, default=Path("results/handwritten"))
    ap.add_argument("-s", "--system", action="append", dest="systems")
    ap.add_argument("--depth", type=int, default=DEPTH, help="hits ranked per query and system")
    ap.add_argument("--per-query", action="store_true")
    ap.add_argument(
        "--written-form",
        action="store_true",
        help="also rank each set's written form of the query with every system (SYSTEM @form)",
    )
    args = ap.parse_args()
    root = args.data_root or os.environ.get("LOGIR_SHARED_DATASETS")
    if not root:
        ap.error("pass --data-root or set LOGIR_SHARED_DATASETS (the shared datasets folder)")
    if args.depth < SHOWN:
        ap.error(f"--depth must be at least {SHOWN}")
    systems = args.systems or DEFAULT_SYSTEMS
    names = args.sets or ["comlq"]
    scores: Scores = {}
    searchers: dict[str, Searcher] = {}
    try:
        for name in names:
            ds = load_handwritten(name, root)
            folder = SET_CORPORA[name]
            if folder not in searchers:
                corpus = Path(root) / folder / "corpus.jsonl"
                searchers[folder] = open_index(ds, corpus, args.index_dir / folder)
            ranked = rank_all(searchers[folder], ds, systems, args.depth, args.written_form)
            report(ds, ranked, args.per_query, scores)
    except LogirError as exc:
        sys.exit(f"error: {exc}")
    if len(names) > 1:
        summary(scores, len(names))


if __name__ == "__main__":
    main()
