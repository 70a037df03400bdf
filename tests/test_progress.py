"""Progress on stderr: bars on a terminal, lines elsewhere, nothing when quiet."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from logir.progress import Bars


def _console(terminal: bool) -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=terminal, width=100), buf


def test_a_terminal_gets_a_bar_per_task(monkeypatch: pytest.MonkeyPatch) -> None:
    console, buf = _console(True)
    with Bars("queries ranked", console=console) as bars:
        bars.update("hybrid:auto", 0, 366)
        bars.update("hybrid:auto", 256, 366)
        bars.update("bm25", 366, 366)
    text = buf.getvalue()
    assert "hybrid:auto" in text and "256/366" in text and "366/366" in text
    assert "━" in text  # a bar was drawn


def test_elsewhere_one_line_per_task_or_per_step_when_verbose(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("LOGIR_VERBOSE", raising=False)
    console, buf = _console(False)
    with Bars("queries ranked", console=console) as bars:
        for done in (0, 256, 366):
            bars.update("bm25", done, 366)
    assert buf.getvalue().splitlines() == ["bm25: 366/366 queries ranked"]
    monkeypatch.setenv("LOGIR_VERBOSE", "1")
    console, buf = _console(False)
    with Bars("queries ranked", console=console) as bars:
        for done in (0, 256, 366):
            bars.update("bm25", done, 366)
    assert len(buf.getvalue().splitlines()) == 3


def test_quiet_prints_nothing() -> None:
    for terminal in (True, False):
        console, buf = _console(terminal)
        with Bars("queries ranked", quiet=True, console=console) as bars:
            bars.update("bm25", 366, 366)
            bars.note("bm25: built")
        assert buf.getvalue() == ""


def test_plain_steps_print_a_line_per_share_done(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOGIR_VERBOSE", raising=False)
    console, buf = _console(False)
    with Bars("units", console=console, plain_steps=4) as bars:
        for done in range(0, 11):
            bars.update("itlr", done, 10)
        bars.update("itlr", 10, 10)  # the end told twice prints once
    assert buf.getvalue().splitlines() == [
        "itlr: 3/10 units",
        "itlr: 5/10 units",
        "itlr: 8/10 units",
        "itlr: 10/10 units",
    ]
    with pytest.raises(ValueError, match="plain_steps"):
        Bars("units", plain_steps=0)
