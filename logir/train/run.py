"""``python -m logir.train.run KIND --data PATH --out DIR``: the trainer's own entry point.

It needs only torch, transformers, sentence-transformers and numpy (rich for the bar when
present), so it runs on machines without logir's CLI dependencies; ``logir train KIND`` passes
its arguments here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from logir.errors import LogirError
from logir.train import DESCRIPTIONS, KINDS
from logir.train.loop import TrainConfig, train
from logir.train.models.reader import DEFAULT_MAX_LENGTH
from logir.train.progress import make_progress
from logir.train.runtime import PRECISIONS


def parser(prog: str = "python -m logir.train.run") -> argparse.ArgumentParser:
    """The argument parser of every training command."""
    top = argparse.ArgumentParser(prog=prog, description="Train a logir model.")
    kinds = top.add_subparsers(dest="kind", required=True, metavar="KIND")
    d = TrainConfig("", [], "")
    for kind in KINDS:
        p = kinds.add_parser(
            kind, help=DESCRIPTIONS[kind], description=f"Train {DESCRIPTIONS[kind]}."
        )
        p.add_argument(
            "--data",
            action="append",
            required=True,
            metavar="PATH",
            help="training data (repeatable): a triplet JSONL (query, positive, "
            "negative|hard_negative), a NevIR-layout train folder, or a BEIR folder "
            "whose `violating` documents are hard negatives",
        )
        p.add_argument("--out", required=True, help="model folder to write (checkpoints too)")
        p.add_argument(
            "--base",
            default=None,
            help="base model path or name (default: the offline all-MiniLM-L6-v2)",
        )
        p.add_argument("--split", default=d.split, help="qrels split of BEIR folders (not test)")
        p.add_argument("--epochs", type=int, default=d.epochs)
        p.add_argument(
            "--max-steps",
            type=int,
            default=d.max_steps,
            help="stop after this many steps in all (0: --epochs decides)",
        )
        p.add_argument("--batch-size", type=int, default=d.batch_size)
        p.add_argument("--lr", type=float, default=d.lr)
        p.add_argument("--warmup", type=float, default=d.warmup, help="warmup fraction of steps")
        p.add_argument("--weight-decay", type=float, default=d.weight_decay)
        p.add_argument("--grad-clip", type=float, default=d.grad_clip, help="0: no clipping")
        p.add_argument("--max-length", type=int, default=DEFAULT_MAX_LENGTH, help="tokens")
        p.add_argument(
            "--others",
            type=int,
            default=d.others,
            help="reader: passages of other queries added to each query's list",
        )
        if kind == "splade":
            p.add_argument(
                "--activation",
                choices=("relu", "snrelu"),
                default=d.activation,
                help="relu: vanilla SPLADE; snrelu: signed weights (negatives too)",
            )
            p.add_argument(
                "--aggregation",
                choices=("auto", "max", "sum", "absmax"),
                default=d.aggregation,
                help="auto: max for relu, sum for snrelu",
            )
            p.add_argument(
                "--epsilon",
                type=float,
                default=d.epsilon,
                help="snrelu: logits in [-epsilon, epsilon] give weight 0",
            )
            p.add_argument("--flops-query", type=float, default=d.flops_query)
            p.add_argument("--flops-doc", type=float, default=d.flops_doc)
        p.add_argument("--seed", type=int, default=d.seed)
        p.add_argument(
            "--holdout",
            type=float,
            default=d.holdout,
            help="fraction of query groups held out for evaluation each epoch",
        )
        p.add_argument("--holdout-max", type=int, default=d.holdout_max)
        p.add_argument("--checkpoint-every", type=int, default=d.checkpoint_every, help="steps")
        p.add_argument("--device", default=d.device, help="auto, cpu, cuda or cuda:N")
        p.add_argument("--threads", type=int, default=d.threads, help="CPU threads (0: all)")
        p.add_argument(
            "--precision",
            choices=PRECISIONS,
            default=d.precision,
            help="auto: bf16 on a GPU or CPU with bf16 instructions, else fp32",
        )
        p.add_argument("--quiet", action="store_true", help="no progress on stderr")
        p.add_argument(
            "--fresh",
            action="store_true",
            help="ignore a checkpoint or model in --out and start over",
        )
    return top


def config_from(args: argparse.Namespace) -> TrainConfig:
    """The TrainConfig of parsed arguments."""
    values = vars(args)
    return TrainConfig(**{f: values[f] for f in TrainConfig.__dataclass_fields__ if f in values})


def main(argv: Sequence[str] | None = None, prog: str = "python -m logir.train.run") -> int:
    """Parse `argv`, train, print where the model is; LogirErrors propagate to the caller."""
    args = parser(prog).parse_args(argv)
    config = config_from(args)
    result = train(config, make_progress(config.quiet))
    last = result.history[-1] if result.history else {}
    acc = last.get("heldout_pairwise_accuracy")
    tail = f"; held-out pairwise accuracy {acc:.4f}" if isinstance(acc, float) else ""
    print(f"trained {config.kind} model: {result.out} ({result.total_steps} steps{tail})")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except LogirError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
