"""Choose the `auto` composer's parameters on the tuning splits only.

    python bench/tune_auto.py --out results/tune_auto.json [--retriever hybrid] [--limit N] \
        [--variant 'shared=0,passing=0.5' ...]

For every configuration of the grid it evaluates `RETRIEVER:auto,...` on the tune split of each
dataset and prints nDCG@10 and PairAcc (``--limit`` keeps the first N tune queries of each
dataset, for a quick look). Selection: among the configurations where no ComLQ query
type falls more than one point below flat, the best mean over datasets of (nDCG@10 + PairAcc where
defined); where no configuration meets the ComLQ rule, the best over all. Test splits are never
read. Issue 12 chose its defaults from this script's printout by hand, keeping only settings that
also pass tests/logic/test_exclusion_probe.py (see BENCHMARKS.md, "Logic composers").
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path

from shared_data import DATA, folders

from logir.data.benchmarks import load_benchmark
from logir.data.splits import select_split
from logir.eval.runner import evaluate
from logir.eval.systems import ScorerPool

SETS = folders("negconstraint", "boolquestions", "excluir", "comlq")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--beta", default="0.2,0.4,0.6")
    ap.add_argument("--tau", default="0,0.2,0.4")
    ap.add_argument("--pos-dense", default="0.5,1.0")
    ap.add_argument("--neg-dense", default="0.5")
    ap.add_argument("--flat-weight", default="0,0.5")
    ap.add_argument(
        "--variant",
        action="append",
        default=[],
        help="more parameters for every grid point, e.g. 'mentions=all' or 'shared=0,passing=0.5' "
        "(repeat for alternatives; default: none)",
    )
    ap.add_argument("--retriever", default="hybrid")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    grid = list(
        itertools.product(
            *(
                map(float, v.split(","))
                for v in (args.beta, args.tau, args.pos_dense, args.neg_dense, args.flat_weight)
            )
        )
    )
    data = {}
    for name, folder in SETS.items():
        ds = select_split(load_benchmark(name, DATA / folder), "logir-tune")
        if args.limit:
            ds = ds.subset({t.id for t in ds.queries[: args.limit]})
        data[name] = (ds, ScorerPool(ds.corpus))
    flat = args.retriever
    base = {n: evaluate(ds, [flat], pool=pool).systems[0] for n, (ds, pool) in data.items()}
    rows = []
    for (beta, tau, pd, nd, fw), variant in itertools.product(grid, args.variant or [""]):
        spec = (
            f"{flat}:auto,beta={beta:g},tau={tau:g},pos_dense={pd:g},neg_dense={nd:g},"
            f"flat_weight={fw:g}" + (f",{variant}" if variant else "")
        )
        row: dict = {"system": spec}
        objective = []
        for name, (ds, pool) in data.items():
            s = evaluate(ds, [spec], pool=pool).systems[0]
            row[name] = {k: s.overall.get(k) for k in ("nDCG@10", "PairAcc")}
            objective.append(s.overall["nDCG@10"] + s.overall.get("PairAcc", s.overall["nDCG@10"]))
            if name == "comlq":
                worst = min(
                    s.breakdown["type"][t]["nDCG@10"] - base[name].breakdown["type"][t]["nDCG@10"]
                    for t in s.breakdown["type"]
                )
                row["comlq_worst_type_diff"] = worst
        row["objective"] = sum(objective) / len(data)
        rows.append(row)
        cells = "  ".join(
            f"{n} {100 * row[n]['nDCG@10']:.1f}/"
            + (f"{100 * row[n]['PairAcc']:.1f}" if row[n]["PairAcc"] is not None else "-")
            for n in data
        )
        print(
            f"{spec:90s} {cells}  comlq worst type {100 * row['comlq_worst_type_diff']:+.1f}"
            f"  obj {row['objective']:.3f}",
            flush=True,
        )
    allowed = [r for r in rows if r.get("comlq_worst_type_diff", 0.0) >= -0.01] or rows
    best = max(allowed, key=lambda r: r["objective"])
    print(f"flat {flat}:", {n: round(100 * b.overall["nDCG@10"], 1) for n, b in base.items()})
    print("best:", best["system"])
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"grid": rows, "best": best}, indent=1))


if __name__ == "__main__":
    main()
