"""The one training loop every model shares: seeded batches with in-batch and logic hard
negatives, AdamW with linear warmup and decay, held-out pairwise accuracy each epoch, atomic
checkpoints every N steps and exact resume, and the trained model written as a folder."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logir.errors import LogirError
from logir.index.splade_head import SpladeHead
from logir.train.batches import batch_at, step_rng, steps_per_epoch
from logir.train.checkpoint import (
    load_checkpoint,
    remove_checkpoint,
    restore_rng_states,
    rng_states,
    save_checkpoint,
)
from logir.train.data import fingerprint, load_examples, split_heldout
from logir.train.evaluate import pairwise_accuracy
from logir.train.models import build_model
from logir.train.models.base import read_meta, resolve_base, write_meta
from logir.train.progress import Progress, Silent
from logir.train.runtime import (
    autocast,
    deterministic,
    import_torch,
    quiet_libraries,
    resolve_device,
    resolve_precision,
    seed_everything,
    set_threads,
    step_seed,
)

FORMAT = 1
RUNTIME_FIELDS = ("out", "device", "threads", "checkpoint_every", "quiet", "fresh")
"""Settings that do not change the trained weights (a resumed run may change them)."""


@dataclass
class TrainConfig:
    """Everything one training run needs; see `python -m logir.train.run --help`."""

    kind: str
    data: list[str]
    out: str
    base: str | None = None
    split: str = "train"
    epochs: int = 1
    max_steps: int = 0
    batch_size: int = 16
    lr: float = 2e-5
    warmup: float = 0.1
    weight_decay: float = 0.01
    grad_clip: float = 1.0
    max_length: int = 256
    others: int = 2
    activation: str = "relu"
    aggregation: str = "auto"
    epsilon: float = 1.0
    flops_query: float = 3e-4
    flops_doc: float = 1e-4
    seed: int = 0
    holdout: float = 0.05
    holdout_max: int = 300
    checkpoint_every: int = 50
    device: str = "auto"
    threads: int = 0
    precision: str = "auto"
    quiet: bool = False
    fresh: bool = False

    def check(self) -> None:
        """A LogirError naming the first setting out of range."""
        positive = {"epochs": self.epochs, "batch_size": self.batch_size}
        positive |= {"max_length": self.max_length, "checkpoint_every": self.checkpoint_every}
        for name, value in positive.items():
            if value < 1:
                raise LogirError(f"--{name.replace('_', '-')} must be >= 1, got {value}")
        for name, value in {"max_steps": self.max_steps, "others": self.others}.items():
            if value < 0:
                raise LogirError(f"--{name.replace('_', '-')} must be >= 0, got {value}")
        if not self.lr > 0:
            raise LogirError(f"--lr must be > 0, got {self.lr}")
        if not 0 <= self.warmup < 1:
            raise LogirError(f"--warmup must be a fraction in [0, 1), got {self.warmup}")
        if self.flops_query < 0 or self.flops_doc < 0:
            raise LogirError("--flops-query and --flops-doc must be >= 0")
        self.splade_head()

    def splade_head(self) -> SpladeHead:
        """The SPLADE head these settings name (aggregation auto: max for relu, sum else)."""
        aggregation = self.aggregation
        if aggregation == "auto":
            aggregation = "max" if self.activation == "relu" else "sum"
        return SpladeHead(self.activation, aggregation, self.epsilon)

    def recipe(self) -> dict[str, Any]:
        """The settings that decide the trained weights."""
        return {k: v for k, v in dataclasses.asdict(self).items() if k not in RUNTIME_FIELDS}


@dataclass
class TrainResult:
    """What a call to :func:`train` did."""

    out: Path
    step: int
    total_steps: int
    finished: bool
    history: list[dict[str, Any]] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)
    seconds: float = 0.0


def _optimizer(module: Any, config: TrainConfig) -> Any:
    torch = import_torch()
    decay, plain = [], []
    for name, param in module.named_parameters():
        if not param.requires_grad:
            continue
        (plain if name.endswith("bias") or "LayerNorm" in name or "norm" in name else decay).append(
            param
        )
    groups = [
        {"params": decay, "weight_decay": config.weight_decay},
        {"params": plain, "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=config.lr)


def _scheduler(optimizer: Any, total: int, warmup: float) -> Any:
    torch = import_torch()
    warm = int(total * warmup)

    def factor(step: int) -> float:
        if step < warm:
            return (step + 1) / (warm + 1)
        return max(0.0, (total - step) / max(1, total - warm))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, factor)


def _check_out(out: Path, kind: str, fresh: bool) -> None:
    if out.exists() and not out.is_dir():
        raise LogirError(f"--out must be a folder, found a file: {out}")
    meta = read_meta(out) if out.is_dir() else {}
    if meta.get("finished") and meta.get("kind") != kind:
        raise LogirError(
            f"{out} holds a trained {meta.get('kind')} model; train a {kind} model into "
            "another --out (--fresh only retrains the same kind)"
        )
    if meta.get("finished") and not fresh:
        raise LogirError(
            f"{out} already holds a trained {meta.get('kind')} model; pass --fresh to train "
            "again over it, or choose another --out"
        )
    if fresh:
        remove_checkpoint(out)


def train(
    config: TrainConfig,
    progress: Progress | None = None,
    stop_after: int | None = None,
    on_step: Callable[[int, float], None] | None = None,
) -> TrainResult:
    """Train (or resume) the run `config` describes; see the module docstring.

    `stop_after` ends this call after that many steps with a checkpoint written (a resumable
    pause); `on_step(step, loss)` is called after each optimizer step (tests use it to crash).
    """
    config.check()
    progress = progress or Silent()
    out = Path(config.out)
    _check_out(out, config.kind, config.fresh)
    examples = load_examples(config.data, config.split)
    train_set, held = split_heldout(examples, config.holdout, config.holdout_max, config.seed)
    torch = import_torch()
    quiet_libraries()
    deterministic()
    device = resolve_device(config.device)
    threads = set_threads(config.threads)
    precision = resolve_precision(config.precision, device)
    per_epoch = steps_per_epoch(len(train_set), config.batch_size)
    total = config.max_steps or config.epochs * per_epoch
    recipe = config.recipe() | {"precision": precision, "data_sha256": fingerprint(train_set)}

    seed_everything(config.seed)
    base = resolve_base(config.base, config.kind)
    model = build_model(
        config.kind,
        base,
        config.max_length,
        device,
        config.others,
        config.splade_head(),
        (config.flops_query, config.flops_doc),
    )
    model.module.train()
    optimizer = _optimizer(model.module, config)
    scheduler = _scheduler(optimizer, total, config.warmup)
    history: list[dict[str, Any]] = []
    losses: list[float] = []
    step = 0
    state = load_checkpoint(out)
    if state is not None:
        if state["recipe"] != recipe:
            changed = sorted(
                k
                for k in recipe.keys() | state["recipe"].keys()
                if recipe.get(k) != state["recipe"].get(k)
            )
            raise LogirError(
                f"{out} holds a checkpoint of a different run (changed: {', '.join(changed)}); "
                "run it with the same settings to resume, or pass --fresh to start over"
            )
        model.module.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        restore_rng_states(state["rng"])
        step = int(state["position"]["step"])
        history, losses = list(state["history"]), list(state["losses"])
        progress.note(f"resuming {out} at step {step} of {total}")
    else:
        progress.note(
            f"training a {config.kind} model from {base}: {len(train_set)} examples, "
            f"{len(held)} held out, {total} steps on {device} ({threads} threads, {precision})"
        )

    def evaluate(epoch: float) -> None:
        # in float32 whatever the training precision: bf16 rounds two close scores to one
        # value, and a tie counts as a loss (NevIR's near-twin passages tied that way)
        result = pairwise_accuracy(model, held, config.batch_size)
        window = losses[-per_epoch:]
        entry = {
            "step": step,
            "epoch": epoch,
            "heldout_pairwise_accuracy": result.accuracy,
            "heldout_pairs": result.pairs,
            "mean_loss": sum(window) / len(window) if window else None,
        }
        history.append(entry)
        progress.note(
            f"step {step}: held-out pairwise accuracy {result.accuracy:.4f} "
            f"({result.pairs} pairs)" + (f", mean loss {entry['mean_loss']:.4f}" if window else "")
        )

    def checkpoint() -> None:
        save_checkpoint(
            out,
            {
                "format": FORMAT,
                "recipe": recipe,
                "model": model.module.state_dict(),
                "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(),
                "rng": rng_states(),
                "position": {"step": step, "epoch": step // per_epoch, "index": step % per_epoch},
                "history": history,
                "losses": losses,
            },
        )

    if step == 0 and held:
        evaluate(0.0)
    started, t0 = step, time.monotonic()
    progress.start(total, step)
    try:
        while step < total:
            epoch, index = divmod(step, per_epoch)
            batch = batch_at(train_set, config.batch_size, config.seed, epoch, index)
            torch.manual_seed(step_seed(config.seed, step))
            with autocast(device, precision):
                loss = model.loss(batch, step_rng(config.seed, step))
            if not torch.isfinite(loss.detach()):
                raise LogirError(
                    f"the loss is not finite at step {step + 1} ({float(loss.detach())}); "
                    "lower --lr or --max-length, or use --precision fp32 (the last checkpoint "
                    "is kept)"
                )
            loss.backward()
            if config.grad_clip > 0:
                torch.nn.utils.clip_grad_norm_(model.module.parameters(), config.grad_clip)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            step += 1
            value = float(loss.detach())
            losses.append(value)
            progress.step(step, value)
            if on_step is not None:
                on_step(step, value)
            if held and (step % per_epoch == 0 or step == total):
                evaluate(round(step / per_epoch, 3))
            if step < total and (
                step % config.checkpoint_every == 0
                or (stop_after is not None and step - started >= stop_after)
            ):
                checkpoint()
            if stop_after is not None and step - started >= stop_after and step < total:
                return TrainResult(out, step, total, False, history, losses, time.monotonic() - t0)
    finally:
        progress.close()
    seconds = time.monotonic() - t0
    out.mkdir(parents=True, exist_ok=True)
    model.save(out)
    write_meta(
        out,
        {
            "format": FORMAT,
            "kind": config.kind,
            "finished": True,
            "base": base,
            "max_length": config.max_length,
            "data": [str(p) for p in config.data],
            "train_examples": len(train_set),
            "heldout_examples": len(held),
            "steps": total,
            "recipe": recipe,
            "history": history,
            "device": device,
            "seconds_last_session": round(seconds, 3),
        }
        | model.meta(),
    )
    remove_checkpoint(out)
    return TrainResult(out, step, total, True, history, losses, seconds)
