"""Reader scores computed on one machine (a GPU), evaluated on another (this CPU).

A reader's score of a (query, passage) pair depends on nothing but the pair, so the pairs an
evaluation will ask for can be listed first, scored where a GPU is, and served back to the very
same evaluation commands, which then run unchanged (first stage, mixing, measures):

    python bench/reader_table.py record --table T -- bash bench/reader_eval.sh R negconstraint
    python bench/reader_table.py pack --table T --out T/pairs.json.xz
    python bench/reader_table.py score --reader R --pairs T/pairs.json.xz --out T/scores.npy  # GPU
    python bench/reader_table.py replay --table T -- bash bench/reader_eval.sh R negconstraint

``record`` runs the command with a reader that writes down every pair it is asked for and
answers 0 (its figures mean nothing); ``pack`` keeps each pair once (queries and passages stored
once each); ``score`` reads them with the real reader (``logir.rerank.reader``, on the GPU when
torch sees one); ``replay`` runs the command again with a reader that answers from the table and
stops with an error at a pair the table lacks. Every Python process the command starts is
patched (``bench/readertable/sitecustomize.py`` on ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
HOOK = ROOT / "bench" / "readertable"


def _run(mode: str, table: Path, command: list[str]) -> int:
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        raise SystemExit("no command given after --")
    table.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(HOOK), str(ROOT / "bench"), str(ROOT), env.get("PYTHONPATH", "")) if p
    )
    env["LOGIR_READER_TABLE"] = str(table.resolve())
    env["LOGIR_READER_TABLE_MODE"] = mode
    return subprocess.call(command, env=env)


def pack(table: Path, out: Path) -> None:
    """Every ``recorded-*.jsonl`` of ``table`` as one file: unique queries, passages, pairs."""
    queries: dict[str, int] = {}
    passages: dict[str, int] = {}
    pairs: dict[tuple[int, int], None] = {}
    files = sorted(table.glob("recorded-*.jsonl"))
    if not files:
        raise SystemExit(f"no recorded-*.jsonl in {table}: run `record` first")
    for f in files:
        with f.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                try:
                    row = json.loads(line)
                    q, ps = row["q"], row["p"]
                except (ValueError, KeyError) as exc:
                    raise SystemExit(f"{f}:{n}: not a recorded line ({exc})") from None
                qi = queries.setdefault(q, len(queries))
                for p in ps:
                    pairs[(qi, passages.setdefault(p, len(passages)))] = None
    body = {"queries": list(queries), "passages": list(passages), "pairs": list(pairs)}
    out.parent.mkdir(parents=True, exist_ok=True)
    with lzma.open(out, "wt", encoding="utf-8", preset=6) as fh:
        json.dump(body, fh)
    print(
        f"{len(pairs)} pairs ({len(queries)} queries, {len(passages)} passages) from "
        f"{len(files)} files -> {out} ({out.stat().st_size / 1e6:.1f} MB)"
    )


def load_pairs(path: Path) -> tuple[list[str], list[str], list[list[int]]]:
    with lzma.open(path, "rt", encoding="utf-8") as fh:
        body = json.load(fh)
    return body["queries"], body["passages"], body["pairs"]


def score(reader_dir: Path, pairs_path: Path, out: Path, batch_size: int, device: str) -> None:
    """Score every pair with the reader in ``reader_dir``; float32 scores in pair order."""
    import time

    sys.path.insert(0, str(ROOT))
    from logir.rerank.reader import InferenceReader

    queries, passages, pairs = load_pairs(pairs_path)
    reader = InferenceReader(reader_dir, device=device, batch_size=batch_size, cache_pairs=1)
    # longest passages first, so that each batch pads to lengths alike
    order = sorted(range(len(pairs)), key=lambda j: -len(passages[pairs[j][1]]))
    scores = np.zeros(len(pairs), np.float32)
    started = time.perf_counter()
    step = 16 * batch_size
    for start in range(0, len(order), step):
        js = order[start : start + step]
        scores[js] = reader.score_pairs(
            [queries[pairs[j][0]] for j in js], [passages[pairs[j][1]] for j in js]
        )
        done = min(start + step, len(order))
        print(f"{done}/{len(order)} pairs scored", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - started
    out.parent.mkdir(parents=True, exist_ok=True)
    np.save(out, scores)
    print(
        f"{len(pairs)} pairs scored on {reader.device} ({reader.precision}) in {seconds:.1f} s "
        f"({len(pairs) / max(seconds, 1e-9):.0f} pairs/s) -> {out}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="verb", required=True)
    for verb in ("record", "replay"):
        p = sub.add_parser(verb)
        p.add_argument("--table", type=Path, required=True)
        p.add_argument("command", nargs=argparse.REMAINDER)
    p = sub.add_parser("pack")
    p.add_argument("--table", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    p = sub.add_parser("score")
    p.add_argument("--reader", type=Path, required=True)
    p.add_argument("--pairs", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--device", default="auto")
    args = ap.parse_args(argv)
    if args.verb in ("record", "replay"):
        return _run(args.verb, args.table, args.command)
    if args.verb == "pack":
        pack(args.table, args.out)
    else:
        score(args.reader, args.pairs, args.out, args.batch_size, args.device)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
