"""How deep a reranker must read to see both passages of a query's pair.

    python bench/pair_depth.py nevir [--split logir-test] [-s hybrid -s hybrid:auto]

For each system, the share of the split's queries (with a satisfying and a violating passage)
whose satisfying and violating passages both rank within the top N, for N in 2, 3, 5, 10, 20:
a reader reranking the top N can only reorder a pair it sees whole (a violating passage below
rank N stays below). Runs only the first stage; nothing is learned from the split.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
from shared_data import DATA, folders

from logir.data.benchmarks import load_benchmark
from logir.data.splits import select_split
from logir.data.trec import read_run
from logir.eval.runner import evaluate
from logir.eval.systems import ScorerPool

FOLDERS = folders("nevir", "excluir", "negconstraint")
DEPTHS = (2, 3, 5, 10, 20)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", choices=sorted(FOLDERS))
    ap.add_argument("--split", default="logir-test")
    ap.add_argument("-s", "--system", action="append", dest="systems")
    args = ap.parse_args()
    ds = select_split(load_benchmark(args.dataset, DATA / FOLDERS[args.dataset]), args.split)
    systems = args.systems or ["hybrid", "hybrid:auto"]
    runs = Path(tempfile.mkdtemp(prefix="pair_depth-"))
    pool = ScorerPool(ds.corpus)
    result = evaluate(ds, systems, k=max(DEPTHS), pool=pool, measures=["R@20"], runs_dir=runs)
    pairs = [t for t in ds.queries if ds.violating.get(t.id) and ds.qrels.get(t.id)]
    print(f"{ds.name} {args.split}: {len(pairs)} queries with a satisfying and a violating passage")
    for s in result.systems:
        deepest = []
        run = read_run(s.run_file)
        for t in pairs:
            ranked = sorted(run.get(t.id, {}), key=lambda d: (-run[t.id][d], d))
            docs = [d for d, g in ds.qrels[t.id].items() if g > 0] + list(ds.violating[t.id])
            deepest.append(max(ranked.index(d) + 1 if d in ranked else 10**9 for d in docs))
        arr = np.array(deepest)
        cells = ", ".join(f"top {n}: {100 * float((arr <= n).mean()):.1f} %" for n in DEPTHS)
        print(f"{s.name}: both within {cells}")


if __name__ == "__main__":
    main()
