"""A timed slice of a real `logir train` recipe: steps/s, CPU seconds per step, loss trend.

Runs the recipe's first steps for `--seconds` (after loading and the step-0 held-out
evaluation), then stops without writing a model. CPU seconds per step (user + system of this
process) divided by the threads estimates the wall time per step on an idle machine when the
machine is shared. Any option after ``--`` goes to the trainer, as for ``python -m
logir.train.run``.

Usage: python bench/train_slice.py --seconds 180 -- reader --data D --out /tmp/x --threads 2
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


class _Enough(Exception):
    pass


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=180.0)
    p.add_argument("trainer", nargs=argparse.REMAINDER)
    a = p.parse_args()
    from logir.train.loop import train
    from logir.train.progress import Silent
    from logir.train.run import config_from, parser

    args = [x for x in a.trainer if x != "--"]
    config = config_from(parser().parse_args(args))
    config.fresh = True
    marks: list[tuple[int, float, float, float]] = []

    def on_step(step: int, loss: float) -> None:
        t = os.times()
        marks.append((step, time.monotonic(), t.user + t.system, loss))
        if marks[-1][1] - marks[0][1] >= a.seconds:
            raise _Enough

    with contextlib.suppress(_Enough):
        train(config, Silent(), on_step=on_step)
    if len(marks) < 2:
        raise SystemExit("fewer than 2 steps ran: raise --seconds")
    (s0, w0, c0, _), (s1, w1, c1, _) = marks[0], marks[-1]
    steps = s1 - s0
    losses = [m[3] for m in marks]
    k = max(1, len(losses) // 4)
    print(
        f"{config.kind}: batch {config.batch_size}, {steps} steps timed (after step {s0}): "
        f"{steps / (w1 - w0):.3f} steps/s wall, {(c1 - c0) / steps:.2f} CPU s/step "
        f"({config.threads or os.cpu_count()} threads); loss mean first {k} "
        f"{sum(losses[:k]) / k:.4f}, last {k} {sum(losses[-k:]) / k:.4f}"
    )


if __name__ == "__main__":
    main()
