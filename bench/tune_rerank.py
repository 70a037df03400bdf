"""Choose the reranker's weight W for one reader on the tuning splits only.

    python bench/tune_rerank.py --reader DIR [--system hybrid:auto ...] [--depth 30[,10 ...]]
        [--weights 0,0.1,...,1] [--datasets negconstraint,excluir,nevir,comlq] [--limit N]
        [--out results/tune_rerank.json]

For each first stage (``--system``, repeatable), depth and weight it evaluates
``SYSTEM+reader=DIR,depth=D,weight=W`` on the ``logir-tune`` split of each dataset and prints
nDCG@10 and PairAcc (where the dataset labels violating passages; NevIR adds its pair accuracy).
Selection: the setting with the best mean over datasets of :func:`objective`. The reader's
scores are cached, so each (query, passage) pair is read once for the whole grid (a smaller depth
rereads a subset of a larger one's pairs). Test splits are never read. ``--limit`` keeps the
first N tune queries of each dataset (a quick look; choose the default on the full tune splits).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shared_data import DATA, folders  # noqa: E402

from logir.data.benchmarks import load_benchmark  # noqa: E402
from logir.data.splits import select_split  # noqa: E402
from logir.eval.runner import evaluate  # noqa: E402
from logir.eval.systems import ScorerPool  # noqa: E402

FOLDERS = folders("negconstraint", "boolquestions", "excluir", "nevir", "comlq", "scifact")


def objective(overall: dict[str, float]) -> float:
    """nDCG@10 plus pairwise accuracy: NevIR's (both queries of a pair right) where the dataset
    pairs its queries, else PairAcc, else nDCG@10 again (no violating labels)."""
    pair = overall.get("NevIRPairAcc", overall.get("PairAcc", overall["nDCG@10"]))
    return overall["nDCG@10"] + pair


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reader", type=Path, required=True, help="a reader folder")
    ap.add_argument(
        "--system",
        action="append",
        help="a first stage RETRIEVER[:COMPOSER] (repeatable; default hybrid:auto)",
    )
    ap.add_argument("--depth", default="30", help="first-stage hits reread (comma-separated)")
    ap.add_argument("--weights", default="0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1")
    ap.add_argument("--datasets", default="negconstraint,excluir,nevir,comlq")
    ap.add_argument("--limit", type=int, default=None, help="first N tune queries per dataset")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    weights = [float(w) for w in args.weights.split(",")]
    depths = sorted({int(d) for d in args.depth.split(",")}, reverse=True)  # deepest reads first
    systems = args.system or ["hybrid:auto"]
    names = [n.strip() for n in args.datasets.split(",") if n.strip()]
    unknown = [n for n in names if n not in FOLDERS]
    if unknown:
        ap.error(f"unknown dataset(s) {', '.join(unknown)}; known: {', '.join(FOLDERS)}")
    data = {}
    for name in names:
        ds = select_split(load_benchmark(name, DATA / FOLDERS[name]), "logir-tune")
        if args.limit is not None:
            ds = ds.subset({t.id for t in ds.queries[: args.limit]})
        data[name] = (ds, ScorerPool(ds.corpus))
    rows = []
    grid = [(system, depth, w) for system in systems for depth in depths for w in weights]
    for system, depth, w in grid:
        spec = f"{system}+reader={args.reader},depth={depth},weight={w:g}"
        row: dict = {"first_stage": system, "depth": depth, "weight": w, "system": spec}
        for name, (ds, pool) in data.items():
            s = evaluate(ds, [spec], pool=pool).systems[0]
            row[name] = {m: s.overall.get(m) for m in ("nDCG@10", "PairAcc", "NevIRPairAcc")}
            row[name]["objective"] = objective(s.overall)
        row["objective"] = sum(row[n]["objective"] for n in data) / len(data)
        rows.append(row)
        cells = "  ".join(
            f"{n} {100 * row[n]['nDCG@10']:.1f}/"
            + (f"{100 * row[n]['PairAcc']:.1f}" if row[n]["PairAcc"] is not None else "-")
            + (f"/{100 * row[n]['NevIRPairAcc']:.1f}" if row[n]["NevIRPairAcc"] is not None else "")
            for n in data
        )
        print(f"{system} d={depth} W={w:<4g} objective {row['objective']:.4f}  {cells}", flush=True)
    best = max(rows, key=lambda r: r["objective"])
    print(f"best setting on the tune splits: {best['system']}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"rows": rows, "best": best}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
