"""A reader alone on a benchmark's labelled pairs: NevIR's own measure, no first stage.

    python bench/reader_pairwise.py --reader DIR [--data ../shared/datasets/nevir]
        [--split all|logir-tune|logir-test] [--limit N] [--precision auto|fp32|bf16]
        [--out F.json]

Each query of a folder in the labelled layout of NevIR (``queries.jsonl`` with
``constraint_satisfying_doc_ids`` / ``constraint_violating_doc_ids``) has a passage that
satisfies it and one that violates it. The reader scores both; a query is right when the
satisfying passage scores strictly higher. It reads in float32 by default: under bf16 two
close scores round to a tie, which counts as wrong (figures before session 23 were read with
``--precision auto``, bf16 on that CPU and GPU). NevIR's pairwise
accuracy counts a pair of queries (one the negation of the other, over the same two passages)
right only when both of its queries are right: random scores get 25 %. Prints per-query
accuracy, pair accuracy and the reader's time per pair. Reads the split it is given: run it
on test splits only to report.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from logir.data.benchmarks.nevir import load_nevir  # noqa: E402
from logir.data.splits import select_split  # noqa: E402
from logir.rerank.reader import InferenceReader  # noqa: E402

DATA = Path(os.environ.get("LOGIR_SHARED_DATASETS", ROOT.parent / "shared" / "datasets"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reader", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=DATA / "nevir")
    ap.add_argument("--split", default="all")
    ap.add_argument("--limit", type=int, default=None, help="first N pairs of queries")
    ap.add_argument("--device", default="auto")
    ap.add_argument(
        "--precision",
        default="fp32",
        choices=["auto", "fp32", "bf16"],
        help="fp32 (default): bf16 rounds two close scores to a tie, which counts as wrong",
    )
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    dataset = load_nevir(args.data)
    if args.split != "all":
        dataset = select_split(dataset, args.split)
    texts = {d.id: d.full_text for d in dataset.corpus}
    groups: dict[str, list[bool]] = {}
    reader = InferenceReader(args.reader, device=args.device, precision=args.precision)
    started = time.perf_counter()
    for topic in dataset.queries:
        pair = str(topic.meta.get("pair") or topic.id)
        if args.limit is not None and pair not in groups and len(groups) >= args.limit:
            continue
        good = [d for d, grade in dataset.qrels.get(topic.id, {}).items() if grade > 0]
        bad = [d for d in dataset.violating.get(topic.id, []) if d not in good]
        if not good or not bad:
            continue
        scores = reader.score(topic.text, [texts[d] for d in good + bad])
        if groups and len(groups) % 100 == 0 and pair not in groups:
            print(f"{len(groups)} pairs of queries read", file=sys.stderr, flush=True)
        groups.setdefault(pair, []).append(
            bool(scores[: len(good)].min() > scores[len(good) :].max())
        )
    seconds = time.perf_counter() - started
    right = [r for rs in groups.values() for r in rs]
    pairs = [all(rs) for rs in groups.values() if len(rs) == 2]
    result = {
        "reader": str(args.reader),
        "data": str(args.data),
        "split": args.split,
        "queries": len(right),
        "query_accuracy": sum(right) / max(len(right), 1),
        "pairs": len(pairs),
        "pair_accuracy": sum(pairs) / max(len(pairs), 1),
        "device": reader.device,
        "precision": reader.precision,
        "ms_per_pair": 1000 * seconds / max(2 * len(right), 1),
    }
    print(
        f"{args.data.name} ({args.split}): {result['queries']} queries, per-query accuracy "
        f"{100 * result['query_accuracy']:.1f} %; {result['pairs']} pairs of queries, pair "
        f"accuracy {100 * result['pair_accuracy']:.1f} % (chance 25 %); reader on "
        f"{reader.device}, {result['ms_per_pair']:.1f} ms per (query, passage)"
    )
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
