"""kill -9 during a sharded BM25 build, the same command again, the result against a clean one.

1. ``logir index CORPUS --out WORK/resumed -r bm25`` starts; once ``--kill-after`` shards are
   finished it is sent SIGKILL (the shards on disk are counted, the process is not told).
2. The same command runs again: it says how many shards it found and builds only the rest.
3. ``logir index CORPUS --out WORK/clean -r bm25`` runs from nothing (its wall time and peak RSS
   are the build figures).
4. The two indexes' manifests must record the same files (every file's size and SHA-256: the
   posting arrays, the vocabulary, the parameters and docs.jsonl).

Usage: python bench/kill_resume.py --corpus /tmp/corpus-1m --work /tmp/kr [--kill-after 3]
       [--shard-size 100000]
Prints one line per step and ``identical: True/False``; exit 1 when the indexes differ.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path


def command(corpus: Path, out: Path, shard_size: int) -> list[str]:
    return [sys.executable, "-m", "logir.cli", "index", str(corpus), "--out", str(out)] + [
        "-r",
        "bm25",
        "--shard-size",
        str(shard_size),
        "--quiet",
    ]


def finished_shards(out: Path) -> int:
    shards = out.parent / f".{out.name}.shards" / "shards"
    try:
        return sum(1 for p in shards.iterdir() if p.is_dir() and not p.name.endswith(".tmp"))
    except OSError:
        return 0


def timed(cmd: list[str]) -> tuple[float, int, subprocess.CompletedProcess[str]]:
    """Run ``cmd``; its wall seconds, peak RSS in MB (of this child), and the process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    out, err = proc.stdout.read() if proc.stdout else "", proc.stderr.read() if proc.stderr else ""
    done = subprocess.CompletedProcess(cmd, os.waitstatus_to_exitcode(status), out, err)
    return wall, usage.ru_maxrss // 1024, done


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--work", type=Path, required=True, help="folder for the two indexes")
    ap.add_argument("--kill-after", type=int, default=3, help="finished shards before SIGKILL")
    ap.add_argument("--shard-size", type=int, default=100_000)
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    resumed, clean = args.work / "resumed", args.work / "clean"
    for path in (resumed, clean, args.work / ".resumed.shards", args.work / ".clean.shards"):
        shutil.rmtree(path, ignore_errors=True)

    start = time.perf_counter()
    proc = subprocess.Popen(command(args.corpus, resumed, args.shard_size))
    while finished_shards(resumed) < args.kill_after:
        if proc.poll() is not None:
            print(f"error: the build ended (exit {proc.returncode}) before it was killed")
            return 2
        time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    killed_at = time.perf_counter() - start
    print(
        f"killed: SIGKILL after {killed_at:.1f} s with {finished_shards(resumed)} shards "
        f"finished (exit {proc.returncode}); index there: {resumed.exists()}"
    )

    wall, rss, again = timed(command(args.corpus, resumed, args.shard_size)[:-1])
    note = [line for line in again.stderr.splitlines() if "resuming" in line]
    print(f"resumed: exit {again.returncode} in {wall:.1f} s, peak RSS {rss} MB; {note}")
    wall, rss, fresh = timed(command(args.corpus, clean, args.shard_size))
    print(f"clean build: exit {fresh.returncode} in {wall:.1f} s, peak RSS {rss} MB")
    if again.returncode or fresh.returncode:
        print(again.stderr[-2000:], fresh.stderr[-2000:])
        return 2
    a = json.loads((resumed / "manifest.json").read_text())
    b = json.loads((clean / "manifest.json").read_text())
    same = a["files"] == b["files"] and a["retrievers"] == b["retrievers"]
    size = sum(r["bytes"] for name, r in b["files"].items() if name.startswith("bm25/"))
    print(f"files compared: {len(b['files'])} ({size / 2**20:.1f} MB of bm25/); identical: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
