"""Ray shards against one process: the same runs, and throughput with 1 and 2 workers.

1. **Equality**: ``logir eval DATASET --split test -s ... --runs-dir`` (``--limit``: the first N
   queries only) run twice, once as is
   and once with ``--ray --shards 4`` (a local Ray cluster started in the process); every run
   file of the second is compared with the first (``bench/compare_runs.py``: the same documents
   in the same order, scores within ``--tol``).
2. **Throughput**: the queries of the test split ranked by ``--throughput-systems``
   (``evaluate`` over a pool whose scorers are already built, so only ranking is timed), in a
   child process pinned to ``W`` cores (``os.sched_setaffinity``; Ray's local cluster, started
   after it with ``num_cpus=W``, and its actors inherit the pinning), for W = 1 and 2, with 4
   shards in Ray actors, and without Ray for reference. Scale-out efficiency = (rate at 2) /
   (2 x rate at 1).
   This machine has 2 cores: 2 workers is all it can show.

Usage: python bench/ray_scale.py [--datasets comlq,negconstraint] [--limit comlq=300]
       [--system S ...] [--throughput negconstraint] [--throughput-systems bm25:auto]
       [--out ray_scale.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_runs import compare, read_run  # noqa: E402

SYSTEMS = ("bm25", "bm25:auto", "dense:auto", "hybrid:auto")
DATA = Path(os.environ.get("LOGIR_SHARED_DATASETS", "/work/shared/datasets"))


def eval_runs(
    dataset: str, out: Path, ray: bool, shards: int, limit: int | None, systems: list[str]
) -> float:
    """Run ``logir eval`` once (the first ``limit`` test queries; None: all); its seconds."""
    cmd = [sys.executable, "-m", "logir.cli", "eval", dataset, "--split", "test", "-q"]
    cmd += ["--data", str(DATA / dataset)]
    if limit:
        cmd += ["--limit", str(limit)]
    for s in systems:
        cmd += ["-s", s]
    cmd += ["--runs-dir", str(out)]
    if ray:
        cmd += ["--ray", "--shards", str(shards)]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def equality(before: Path, after: Path, tol: float) -> dict:
    """Per run file: its queries and ``compare_runs.compare``'s verdict and detail."""
    out = {}
    for path in sorted(before.glob("*.trec")):
        verdict, detail = compare(path, after / path.name, tol)
        out[path.stem] = {"queries": len(read_run(path)), "verdict": verdict, "detail": detail}
    return out


def throughput_child(dataset: str, workers: int, shards: int, ray: bool, systems: str) -> None:
    """Pinned to ``workers`` cores: rank the test split with every system; print JSON."""
    os.sched_setaffinity(0, set(range(workers)))
    import torch

    torch.set_num_threads(workers)
    from logir.cli_eval import resolve_split
    from logir.data.benchmarks import load_benchmark
    from logir.data.splits import select_split
    from logir.eval.runner import evaluate
    from logir.eval.systems import ScorerPool

    chosen = resolve_split(dataset, "test")
    ds = select_split(load_benchmark(dataset, DATA / dataset, chosen.qrels), chosen.part)
    shard = None
    if ray:
        from logir.index.rayshards import RayShards, connect
        from logir.index.sharded import sharded

        connect(num_cpus=workers)
        shard = lambda s: sharded(s, shards, RayShards)  # noqa: E731
    pool = ScorerPool(ds.corpus, show_progress=False, shard=shard)
    names = systems.split(",")
    for name in names:
        pool.get(name.partition(":")[0])
    evaluate(ds.subset({t.id for t in ds.queries[:20]}), names, pool=pool)  # warm-up
    start = time.perf_counter()
    evaluate(ds, names, pool=pool)
    seconds = time.perf_counter() - start
    n = len(ds.queries) * len(names)
    print(json.dumps({"rankings": n, "seconds": seconds, "per_s": n / seconds}))


def throughput(dataset: str, workers: int, shards: int, ray: bool, systems: str) -> dict:
    cmd = [sys.executable, __file__, "--child", dataset, str(workers), str(shards), str(int(ray))]
    cmd += [systems]
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        dataset, workers, shards, ray, systems = sys.argv[2:7]
        throughput_child(dataset, int(workers), int(shards), bool(int(ray)), systems)
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--datasets", default="comlq,negconstraint")
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--tol", type=float, default=1e-5)
    ap.add_argument("--work", type=Path, default=Path("/tmp/ray_scale"))
    ap.add_argument("--skip-equality", action="store_true")
    ap.add_argument("--throughput", default="negconstraint", help="datasets timed, comma-separated")
    ap.add_argument("--throughput-systems", default="bm25:auto", help="systems timed")
    ap.add_argument(
        "--limit",
        default="",
        help="DATASET=N,...: only the first N test queries of DATASET in the equality runs "
        "(default: every query)",
    )
    ap.add_argument(
        "--system",
        action="append",
        help=f"a system of the equality runs, repeated (default: {', '.join(SYSTEMS)})",
    )
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    systems = args.system or list(SYSTEMS)
    pairs = (item.split("=", 1) for item in args.limit.split(",") if item)
    limits = {k: int(v) for k, v in pairs}
    result: dict = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_version()}",
        "shards": args.shards,
        "systems": systems,
        "throughput_systems": args.throughput_systems,
        "datasets": {},
    }
    for dataset in [d for d in args.datasets.split(",") if d]:
        row: dict = {}
        if not args.skip_equality:
            single, ray = args.work / dataset / "single", args.work / dataset / "ray"
            limit = limits.get(dataset)
            row["limit"] = limit
            row["eval_s"] = {
                "single": eval_runs(dataset, single, False, args.shards, limit, systems),
                "ray": eval_runs(dataset, ray, True, args.shards, limit, systems),
            }
            row["equality"] = equality(single, ray, args.tol)
        if dataset in args.throughput.split(","):
            row["throughput"] = {
                f"{'ray' if ray else 'single'}-{w}": throughput(
                    dataset, w, args.shards, ray, args.throughput_systems
                )
                for ray in (False, True)
                for w in (1, 2)
            }
            t = row["throughput"]
            row["efficiency"] = {
                kind: t[f"{kind}-2"]["per_s"] / (2 * t[f"{kind}-1"]["per_s"])
                for kind in ("single", "ray")
            }
        result["datasets"][dataset] = row
        print(json.dumps({dataset: row}), file=sys.stderr)
    if args.out:
        args.out.write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(markdown(result))
    return 0


def markdown(r: dict) -> str:
    lines = [f"{r['shards']} shards, systems {', '.join(r['systems'])}; {r['machine']}", ""]
    for ds, row in r["datasets"].items():
        if row.get("limit"):
            lines.append(f"{ds}: the first {row['limit']} test queries")
        if row.get("eval_s"):
            e = row["eval_s"]
            secs = f"{e['single']:.1f} s in one process, {e['ray']:.1f} s with --ray"
            lines.append(f"{ds}: logir eval {secs}")
    lines += ["| dataset | run file | queries | verdict (--ray vs one process) | detail |"]
    lines += ["|---|---|---|---|---|"]
    for ds, row in r["datasets"].items():
        for run, e in row.get("equality", {}).items():
            lines.append(f"| {ds} | {run} | {e['queries']} | {e['verdict']} | {e['detail']} |")
    lines += ["", f"Throughput of {r['throughput_systems']} (every test query):", ""]
    lines += ["| dataset | mode | workers (cores) | rankings/s | scale-out efficiency |"]
    lines += ["|---|---|---|---|---|"]
    for ds, row in r["datasets"].items():
        for key, t in row.get("throughput", {}).items():
            kind, w = key.split("-")
            eff = f"{row['efficiency'][kind]:.2f}" if w == "2" else ""
            lines.append(f"| {ds} | {kind} | {w} | {t['per_s']:.1f} | {eff} |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
