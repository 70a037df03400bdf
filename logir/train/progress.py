"""Training progress on stderr: a rich bar with ETA and loss when rich is installed, else a
plain line every few seconds (the GPU machines run the trainer without rich)."""

from __future__ import annotations

import sys
import time
from typing import Any, Protocol


class Progress(Protocol):
    """What the training loop reports to."""

    def start(self, total: int, done: int) -> None: ...
    def step(self, done: int, loss: float) -> None: ...
    def note(self, message: str) -> None: ...
    def close(self) -> None: ...


class Silent:
    """Reports nothing."""

    def start(self, total: int, done: int) -> None:
        pass

    def step(self, done: int, loss: float) -> None:
        pass

    def note(self, message: str) -> None:
        pass

    def close(self) -> None:
        pass


class PlainProgress:
    """A line on stderr every `every` seconds: step, loss (running mean), steps/s, ETA."""

    def __init__(self, every: float = 10.0) -> None:
        self.every = every
        self.total = 0
        self.first = 0
        self.t0 = self.last = time.monotonic()
        self.mean: float | None = None

    def start(self, total: int, done: int) -> None:
        self.total, self.first = total, done
        self.t0 = self.last = time.monotonic()

    def step(self, done: int, loss: float) -> None:
        self.mean = loss if self.mean is None else 0.9 * self.mean + 0.1 * loss
        now = time.monotonic()
        if now - self.last < self.every and done < self.total:
            return
        self.last = now
        rate = (done - self.first) / max(now - self.t0, 1e-9)
        eta = (self.total - done) / rate if rate > 0 else float("inf")
        print(
            f"step {done}/{self.total}  loss {self.mean:.4f}  {rate:.2f} steps/s  ETA {eta:.0f} s",
            file=sys.stderr,
            flush=True,
        )

    def note(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    def close(self) -> None:
        pass


class RichProgress:
    """A rich progress bar on stderr with steps, ETA and the running loss."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichBar

        self.console = Console(stderr=True)
        self.bar: Any = RichBar(
            TextColumn("training"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("loss {task.fields[loss]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=self.console,
        )
        self.task: Any = None
        self.mean: float | None = None

    def start(self, total: int, done: int) -> None:
        self.bar.start()
        self.task = self.bar.add_task("train", total=total, completed=done, loss="-")

    def step(self, done: int, loss: float) -> None:
        self.mean = loss if self.mean is None else 0.9 * self.mean + 0.1 * loss
        self.bar.update(self.task, completed=done, loss=f"{self.mean:.4f}")

    def note(self, message: str) -> None:
        self.bar.console.print(message, markup=False, highlight=False)

    def close(self) -> None:
        self.bar.stop()


def make_progress(quiet: bool = False) -> Progress:
    """Silent when `quiet`; a rich bar on a terminal when rich is importable, else plain lines
    (a log file gets a readable line every 10 s instead of bar redraws)."""
    if quiet:
        return Silent()
    if not sys.stderr.isatty():
        return PlainProgress()
    try:
        return RichProgress()
    except ImportError:
        return PlainProgress()
