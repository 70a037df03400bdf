"""ITLR's operator grid (its Table 2) on logir's benchmarks: every fuzzy operator family.

    python bench/operator_grid.py --out results/operator_grid.json

For each retriever (bm25, dense) and every combination of AND (product, sum, min), OR (sum,
max), NOT (one_minus, inverse) and calibration (none, minmax, sigmoid, rank), it evaluates
``RETRIEVER:fuzzy,and=..,or=..,not=..,calib=..`` on the **test** split of each dataset and prints
one Markdown row per combination: nDCG@10 and, where the benchmark has explicit violating
documents, PairAcc. The flat retriever is the first row of each block. ComLQ is reported on its
query types that have an operator (OR only occurs there).
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

SETS = folders("negconstraint", "boolquestions", "comlq")
AND = ("product", "sum", "min")
OR = ("sum", "max")
NOT = ("one_minus", "inverse")
CALIB = ("none", "minmax", "sigmoid", "rank")
#: ComLQ types with at least one AND / OR / NOT (1p, 2p, 3p are single-chain lookups)
COMLQ_LOGICAL = ("2i", "3i", "pi", "ip", "2u", "up", "2in", "3in", "inp", "pin", "pni")


def figures(result, name: str) -> tuple[float, float | None]:
    """nDCG@10 (ComLQ: mean over its logical types' queries) and PairAcc of one system."""
    if name != "comlq":
        return result.overall["nDCG@10"], result.overall.get("PairAcc")
    by_type = result.breakdown["type"]
    num = sum(by_type[t]["nDCG@10"] * by_type[t]["n"] for t in COMLQ_LOGICAL if t in by_type)
    den = sum(by_type[t]["n"] for t in COMLQ_LOGICAL if t in by_type)
    return num / den, None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--retrievers", default="bm25,dense")
    ap.add_argument("--datasets", default=",".join(SETS))
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    names = args.datasets.split(",")
    data = {}
    for name in names:
        ds = select_split(load_benchmark(name, DATA / SETS[name]), "logir-test")
        data[name] = (ds, ScorerPool(ds.corpus))
    head = " | ".join(f"{n} nDCG@10" + (" | PairAcc" if n != "comlq" else "") for n in names)
    print(f"| system | {head} |")
    print("|---" * (1 + sum(2 if n != "comlq" else 1 for n in names)) + "|")
    rows = []
    for retriever in args.retrievers.split(","):
        combos = [None, *itertools.product(AND, OR, NOT, CALIB)]
        for combo in combos:
            if combo is None:
                spec = retriever
            else:
                a, o, n, c = combo
                spec = f"{retriever}:fuzzy,and={a},or={o},not={n},calib={c}"
            row: dict = {"system": spec}
            cells = []
            for name in names:
                ds, pool = data[name]
                ndcg, pair = figures(evaluate(ds, [spec], pool=pool).systems[0], name)
                row[name] = {"nDCG@10": ndcg, "PairAcc": pair}
                cells.append(f"{100 * ndcg:.1f}")
                if name != "comlq":
                    cells.append("–" if pair is None else f"{100 * pair:.1f}")
            rows.append(row)
            print(f"| {spec} | " + " | ".join(cells) + " |", flush=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
