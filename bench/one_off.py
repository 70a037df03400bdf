"""Seconds of a one-off `logir search` with the default retriever, with and without the lean
query encoder (logir/index/leanbert.py).

    python bench/one_off.py INDEX [--runs 5] [--query TEXT]

Runs ``logir search INDEX QUERY -k 3`` in a fresh interpreter ``--runs`` times per setting,
alternating ``LOGIR_LEAN_ENCODER=1`` (the default: the query is encoded in plain torch) and ``=0``
(sentence-transformers loads the model), and prints each setting's median wall time and median
CPU time (user + system of the child), and whether both settings printed the same hits.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

SETTINGS = {"lean (default)": "1", "sentence-transformers": "0"}


def _once(index: Path, query: str, lean: str) -> tuple[float, float, str]:
    env = dict(os.environ, LOGIR_LEAN_ENCODER=lean, HF_HUB_OFFLINE="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "logir.cli", "search", str(index), query, "-k", "3"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("index", type=Path)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--query", default="Christopher Nolan movies that aren't science fiction")
    args = ap.parse_args()
    walls: dict[str, list[float]] = {name: [] for name in SETTINGS}
    cpus: dict[str, list[float]] = {name: [] for name in SETTINGS}
    outputs: dict[str, set[str]] = {name: set() for name in SETTINGS}
    for _ in range(args.runs):
        for name, flag in SETTINGS.items():
            wall, cpu, out = _once(args.index, args.query, flag)
            walls[name].append(wall)
            cpus[name].append(cpu)
            outputs[name].add(out)
    print(f"logir search {args.index} {args.query!r} -k 3; {args.runs} runs each, alternating")
    print(f"{'query encoder':<24}{'median wall s':>14}{'median CPU s':>14}")
    for name in SETTINGS:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(f"{name:<24}{wall:>14.2f}{cpu:>14.2f}")
    same = len(set.union(*outputs.values())) == 1
    print("same hits and scores printed by every run:", "yes" if same else "NO")


if __name__ == "__main__":
    main()
