"""Seconds of a one-off `logir search` (and, with ``--data``, `logir index`) with the default
retriever, with and without the lean encoder (logir/index/leanbert.py).

    python bench/one_off.py INDEX [--runs 5] [--query TEXT] [--data examples/first-hour]

Runs ``logir search INDEX QUERY -k 3`` in a fresh interpreter ``--runs`` times per setting,
alternating ``LOGIR_LEAN_ENCODER=1`` (the default: texts are encoded in plain torch) and ``=0``
(sentence-transformers loads the model), and prints each setting's median wall time and median
CPU time (user + system of the child), and whether both settings printed the same hits. With
``--data``, ``logir index DATA`` (bm25 + dense) into a temporary folder, with an empty
``LOGIR_CACHE`` each time so that every run encodes the corpus, timed the same way; and whether
every run wrote the same document vectors.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SETTINGS = {"lean (default)": "1", "sentence-transformers": "0"}


def _timed(args: list[str], lean: str, extra: dict[str, str]) -> tuple[float, float, str]:
    env = dict(os.environ, LOGIR_LEAN_ENCODER=lean, HF_HUB_OFFLINE="1", **extra)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "logir.cli", *args], capture_output=True, text=True, env=env,
        check=True,
    )  # fmt: skip
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def _once(index: Path, query: str, lean: str) -> tuple[float, float, str]:
    return _timed(["search", str(index), query, "-k", "3"], lean, {})


def _index_once(data: Path, lean: str) -> tuple[float, float, str]:
    with tempfile.TemporaryDirectory() as tmp:
        out, cache = Path(tmp) / "idx", Path(tmp) / "cache"
        args = ["index", str(data), "--out", str(out)]
        wall, cpu, _ = _timed(args, lean, {"LOGIR_CACHE": str(cache)})
        vectors = hashlib.sha256((out / "dense" / "embeddings.npy").read_bytes()).hexdigest()
    return wall, cpu, vectors


def _table(title: str, walls: dict[str, list[float]], cpus: dict[str, list[float]]) -> None:
    print(title)
    print(f"{'encoder':<24}{'median wall s':>14}{'median CPU s':>14}")
    for name in SETTINGS:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(f"{name:<24}{wall:>14.2f}{cpu:>14.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("index", type=Path)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--query", default="Christopher Nolan movies that aren't science fiction")
    ap.add_argument("--data", type=Path, help="a corpus to time `logir index` on as well")
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
    _table(f"logir search {args.index} {args.query!r} -k 3; {args.runs} runs each, alternating",
           walls, cpus)  # fmt: skip
    same = len(set.union(*outputs.values())) == 1
    print("same hits and scores printed by every run:", "yes" if same else "NO")
    if args.data is None:
        return
    walls = {name: [] for name in SETTINGS}
    cpus = {name: [] for name in SETTINGS}
    outputs = {name: set() for name in SETTINGS}
    for _ in range(args.runs):
        for name, flag in SETTINGS.items():
            wall, cpu, out = _index_once(args.data, flag)
            walls[name].append(wall)
            cpus[name].append(cpu)
            outputs[name].add(out)
    title = f"logir index {args.data} (empty cache); {args.runs} runs each, alternating"
    _table(title, walls, cpus)
    same = len(set.union(*outputs.values())) == 1
    print("same document vectors written by every run:", "yes" if same else "NO")


if __name__ == "__main__":
    main()
