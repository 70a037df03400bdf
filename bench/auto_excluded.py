"""Composer settings compared on the queries `auto` ranks as exclusions, and only those.

    python bench/auto_excluded.py DATASET [DATASET ...] [--split logir-tune] \
        [--system hybrid:auto --system 'hybrid:auto,gate=0.3' ...] [--per-query]

Every setting of the ``exclusion`` / ``auto`` composer leaves the queries that `auto` ranks flat
as they are, so a comparison of settings only needs the others: this script keeps the queries
whose `auto` plan is an exclusion, evaluates the flat
retriever and each ``--system`` on them, and prints nDCG@10 (and PairAcc where the dataset has
violating passages) of that subset; ``--per-query`` adds each query's nDCG@10 with its text. A
dataset's other queries score the same under every setting, so the full split's figures follow
from these. Datasets: negconstraint, boolquestions, excluir, comlq, scifact (under
$LOGIR_SHARED_DATASETS). Tune on the tune split (the default); the test split is for reporting.
"""

from __future__ import annotations

import argparse

from shared_data import DATA, folders

from logir.data.benchmarks import load_benchmark
from logir.data.splits import select_split
from logir.eval.runner import evaluate
from logir.eval.systems import ScorerPool
from logir.logic.auto import Auto
from logir.query.reading import read

FOLDERS = folders("negconstraint", "boolquestions", "excluir", "comlq", "scifact")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("datasets", nargs="+", choices=sorted(FOLDERS))
    ap.add_argument("--split", default="logir-tune")
    ap.add_argument("--system", action="append", default=[], help="default: hybrid:auto")
    ap.add_argument("--per-query", action="store_true")
    args = ap.parse_args()
    systems = args.system or ["hybrid:auto"]
    flat = systems[0].split(":")[0]
    planner = Auto()
    for name in args.datasets:
        ds = select_split(load_benchmark(name, DATA / FOLDERS[name]), args.split)
        kept = [t.id for t in ds.queries if planner.plan(read(t.text, "auto")).kind == "exclude"]
        print(
            f"{name} ({args.split}): {len(kept)} of {len(ds.queries)} queries ranked as exclusions"
        )
        if not kept:
            continue
        sub = ds.subset(kept)
        res = evaluate(sub, [flat, *systems], pool=ScorerPool(ds.corpus))
        for s in res.systems:
            pair = s.overall.get("PairAcc")
            cells = f"nDCG@10 {100 * s.overall['nDCG@10']:.1f}"
            if pair is not None:
                cells += f"  PairAcc {100 * pair:.1f}"
            print(f"  {s.name:60s} {cells}", flush=True)
        if args.per_query:
            for t in sub.queries:
                vals = " ".join(f"{s.per_query[t.id]['nDCG@10']:.3f}" for s in res.systems)
                kind = t.facets.get("type", "")
                print(f"  {t.id:>8} {kind:5s} {vals}  {t.text}")


if __name__ == "__main__":
    main()
