"""What ranking queries in smaller batches costs `logir eval` (its progress moves per batch).

    python bench/eval_batch_cost.py [--dataset negconstraint] [--split logir-tune] \
        [-s bm25:auto -s hybrid:auto] [--batch 256 --batch 8] [--repeat 5]

The scorers are built once; then, for each system, every batching ranks the split's queries
``--repeat`` times: fixed batches of each ``--batch`` size, and ``paced`` (what `logir eval`
does: at most 256, sized to take about half a second each, see logir/eval/pacing.py). They take
turns, so that a load that comes and goes on the machine falls on all of them alike. It prints
the fastest and the median seconds of each (wall clock, and CPU time of this process, steadier
on a shared machine), how many batches ``paced`` made, and whether every
batching gives the same figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from logir.data.benchmarks import load_benchmark
from logir.data.splits import select_split
from logir.eval.pacing import DEFAULT_SECONDS
from logir.eval.runner import evaluate
from logir.eval.systems import ScorerPool

DATA = Path(os.environ.get("LOGIR_SHARED_DATASETS", "../shared/datasets"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", default="negconstraint")
    ap.add_argument("--split", default="logir-tune")
    ap.add_argument("-s", "--system", action="append")
    ap.add_argument("--batch", action="append", type=int)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    systems = args.system or ["bm25:auto"]
    batches = args.batch or [256]
    ds = select_split(load_benchmark(args.dataset, DATA / args.dataset), args.split)
    pool = ScorerPool(ds.corpus)
    print(f"{ds.name} {args.split}: {len(ds.queries)} queries, {len(ds.corpus)} documents")
    ways: list[tuple[str, int, float | None]] = [(str(b), b, None) for b in batches]
    ways.append(("paced", 256, DEFAULT_SECONDS))
    steps: list[int] = []  # the progress steps of the last evaluation

    def note(_system: str, done: int, _total: int) -> None:
        steps.append(done)

    for system in systems:
        evaluate(ds, [system], pool=pool)  # builds the scorer and warms every cache
        seconds: dict[str, list[float]] = {name: [] for name, _, _ in ways}
        cpu: dict[str, list[float]] = {name: [] for name, _, _ in ways}
        figures: dict[str, dict[str, float]] = {}
        for _ in range(args.repeat):
            for name, size, pace in ways:
                steps.clear()
                start, start_cpu = time.perf_counter(), time.process_time()
                result = evaluate(
                    ds,
                    [system],
                    pool=pool,
                    batch_size=size,
                    pace=pace,
                    progress=note,
                )
                seconds[name].append(time.perf_counter() - start)
                cpu[name].append(time.process_time() - start_cpu)
                figures[name] = result.systems[0].overall
        for name, _, _ in ways:
            best, median = min(seconds[name]), statistics.median(seconds[name])
            print(
                f"{system} {name:>5}: wall fastest {best:.3f} s, median {median:.3f} s; "
                f"CPU fastest {min(cpu[name]):.3f} s, median {statistics.median(cpu[name]):.3f} s"
            )
        print(f"{system} paced: {len(steps) - 1} batches (the last run)")
        same = all(f == figures["paced"] for f in figures.values())
        print(f"{system}: the same figures for every batching: {same}")


if __name__ == "__main__":
    main()
