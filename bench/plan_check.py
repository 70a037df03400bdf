"""A reading policy checked on the hand-written sets: the queries one rule picks, ranked flat, by
`auto` and by the exclusion formula, by the judge's negation kind.

    python bench/plan_check.py --why "entity-seeking" [--index-dir DIR] [--data-root DIR]
    python bench/plan_check.py --text "instead of|rather than|as opposed to" --plan exclude

A query is picked when its text matches ``--text`` (a regular expression, case-insensitive),
``auto``'s reason for its plan contains ``--why``, and its plan is ``--plan`` (flat or exclude),
each where given. Every picked query is ranked by ``RETRIEVER:flat``, ``RETRIEVER:auto`` and
``RETRIEVER:exclusion`` (``--retriever``, hybrid by default) over its corpus's index under
``--index-dir/<folder>`` (built as bench/handwritten.py builds it when missing). Printed: nDCG@10
of each, by the judge's kind (exclude / predicate / none); --per-query adds each query's figures.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from handwritten import KINDS, open_index, query_ndcg  # noqa: E402
from shared_data import DATA  # noqa: E402

from logir import Searcher  # noqa: E402
from logir.data.benchmarks.handwritten import SET_CORPORA, load_handwritten  # noqa: E402
from logir.errors import LogirError  # noqa: E402
from logir.logic.auto import plan_query  # noqa: E402

COMPOSERS = ("flat", "auto", "exclusion")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--text", help="a regular expression the query text must match")
    ap.add_argument("--why", help="words auto's reason for its plan must contain")
    ap.add_argument("--plan", choices=("flat", "exclude"), help="the plan auto must choose")
    ap.add_argument("--set", action="append", dest="sets", help="a set name (default: all)")
    ap.add_argument("--retriever", default="hybrid")
    ap.add_argument("--index-dir", type=Path, default=Path("bench-indexes"))
    ap.add_argument("--data-root", type=Path, default=None)
    ap.add_argument("--per-query", action="store_true")
    ap.add_argument(
        "--composer",
        action="append",
        default=[],
        help="another composer spec to rank by, after the three ('exclusion,beta=0.1')",
    )
    args = ap.parse_args(argv)
    composers = (*COMPOSERS, *args.composer)
    if not (args.text or args.why or args.plan):
        print("give at least one of --text, --why, --plan", file=sys.stderr)
        return 2
    try:
        pattern = re.compile(args.text, re.I) if args.text else None
    except re.error as exc:
        print(f"bad --text pattern: {exc}", file=sys.stderr)
        return 2
    unknown = [s for s in args.sets or () if s not in SET_CORPORA]
    if unknown:
        print(f"unknown set(s): {', '.join(unknown)}", file=sys.stderr)
        return 2
    root = args.data_root or DATA
    figures: dict[str, list[list[float]]] = {k: [] for k in KINDS}
    searchers: dict[str, Searcher] = {}
    try:
        for name in args.sets or sorted(SET_CORPORA):
            ds = load_handwritten(name, root)
            folder = SET_CORPORA[name]
            for topic in ds.queries:
                if pattern is not None and not pattern.search(topic.text):
                    continue
                if folder not in searchers:
                    corpus = root / folder / "corpus.jsonl"
                    searchers[folder] = open_index(ds, corpus, args.index_dir / folder)
                searcher = searchers[folder]
                reading = searcher.read(topic.text)
                plan = plan_query(reading, "cues")
                if args.why and args.why not in plan.why or args.plan and plan.kind != args.plan:
                    continue
                got = [
                    query_ndcg(searcher, reading, ds, topic.id, args.retriever, composer)
                    for composer in composers
                ]
                kind = str(topic.facets.get("negation", ""))
                figures.setdefault(kind, []).append(got)
                if args.per_query:
                    cells = "\t".join(f"{x:.4f}" for x in got)
                    print(f"{name}/{topic.id}\t{kind}\t{plan.kind}\t{cells}\t{topic.text}")
    except LogirError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"| judged | queries | {' | '.join(f'{args.retriever}:{c}' for c in composers)} |")
    print("|---|---|" + "---|" * len(composers))
    for kind, rows in figures.items():
        if rows:
            means = [sum(r[i] for r in rows) / len(rows) for i in range(len(composers))]
            print(f"| {kind} | {len(rows)} | {' | '.join(f'{x:.4f}' for x in means)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
