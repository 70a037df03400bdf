"""Progress of long commands on stderr: rich bars on a terminal, plain lines elsewhere.

On a terminal each task (a system being evaluated, a retriever being built, a topics file being
searched, a benchmark being synthesised) gets a bar with its count, elapsed and remaining time.
When stderr is a file or a pipe, a task prints one line when it ends (or, with ``plain_steps``,
one each time another share of it is done), or one per update with ``LOGIR_VERBOSE`` set.
``quiet`` prints nothing at all.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from types import TracebackType
from typing import Any

from rich.console import Console

#: ``update(task, done, total)``: how far a named task has come
Update = Callable[[str, int, int], None]


def verbose() -> bool:
    """Whether ``LOGIR_VERBOSE`` asks for a line per update where no bar can be drawn."""
    return os.environ.get("LOGIR_VERBOSE", "").strip() not in ("", "0")


class Bars:
    """Progress bars for tasks counted in ``unit`` (``queries``, ``documents``), as a context:
    ``with Bars("queries ranked") as bars: bars.update("bm25", 10, 300)``.

    Without a terminal a task prints a line when it ends; ``plain_steps=10`` prints one at each
    tenth done as well (for tasks of hours, whose log should show them moving)."""

    def __init__(
        self,
        unit: str,
        quiet: bool = False,
        console: Console | None = None,
        plain_steps: int = 1,
    ) -> None:
        if plain_steps < 1:
            raise ValueError(f"plain_steps must be at least 1, got {plain_steps}")
        self.unit = unit
        self.quiet = quiet
        self.console = console or Console(stderr=True)
        self.live = not quiet and self.console.is_terminal
        self.plain_steps = plain_steps
        self._bar: Any = None
        self._tasks: dict[str, Any] = {}
        self._shown: dict[str, int] = {}  # task -> the last share printed (no terminal)

    def __enter__(self) -> Bars:
        if self.live:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[unit]}", markup=False),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                TextColumn("{task.fields[info]}", markup=False),
                console=self.console,
                transient=False,
            )
            self._bar.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop drawing (the bars drawn stay on screen)."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def update(
        self, task: str, done: int, total: int, *, unit: str | None = None, info: str = ""
    ) -> None:
        """Task ``task`` has ``done`` of ``total`` units finished; ``unit`` names them when they
        are not the bars' own unit, ``info`` is shown after the times (e.g. tokens so far)."""
        if self.quiet:
            return
        unit = unit or self.unit
        if done == 0:  # the task starts (again): its lines are shown afresh
            self._shown.pop(task, None)
        if self._bar is not None:
            if task not in self._tasks:
                self._tasks[task] = self._bar.add_task(task, total=total, unit=unit, info=info)
            self._bar.update(self._tasks[task], completed=done, total=total, info=info)
            return
        share = self.plain_steps if done >= total else done * self.plain_steps // max(total, 1)
        if share > self._shown.get(task, 0) or verbose():
            self._shown[task] = max(share, self._shown.get(task, 0))
            extra = f" ({info})" if info else ""
            self.console.print(
                f"{task}: {done}/{total} {unit}".rstrip() + extra,
                style="dim",
                markup=False,
                highlight=False,
            )

    def note(self, text: str) -> None:
        """A line above the bars (or a plain line); nothing when quiet."""
        if not self.quiet:
            self.console.print(text, style="dim", markup=False, highlight=False)


def terminal_progress(quiet: bool = False) -> bool:
    """Whether the libraries' own progress bars (tqdm) may draw on stderr."""
    return not quiet and sys.stderr.isatty()


class _Quiet:
    def update(self, n: int) -> None: ...

    def close(self) -> None: ...


def encoder_bar(total: int, what: str, show: bool) -> Any:
    """A tqdm bar over ``total`` documents an encoder embeds (the dense extra ships tqdm), or a
    silent stand-in when ``show`` is false or tqdm is missing."""
    if not show:
        return _Quiet()
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _Quiet()
    return tqdm(total=total, desc=f"{what} documents", unit="doc")
