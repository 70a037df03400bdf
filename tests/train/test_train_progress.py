"""Progress reporting: the rich bar and the plain lines both show the step, loss and ETA."""

from __future__ import annotations

import io

import pytest

from logir.train.progress import PlainProgress, RichProgress


def test_rich_bar_shows_steps_loss_and_eta() -> None:
    pytest.importorskip("rich")
    from rich.console import Console

    bar = RichProgress()
    sink = io.StringIO()
    bar.console = Console(file=sink, force_terminal=False, width=120)
    bar.bar.live.console = bar.console
    bar.start(10, 0)
    for step in range(1, 4):
        bar.step(step, 1.0 / step)
    bar.note("held-out pairwise accuracy 0.5")
    bar.close()
    text = sink.getvalue()
    assert "3/10" in text and "loss" in text and "ETA" in text
    assert "held-out pairwise accuracy 0.5" in text


def test_plain_lines_show_steps_loss_rate_and_eta(capsys: pytest.CaptureFixture[str]) -> None:
    progress = PlainProgress(every=0.0)
    progress.start(4, 0)
    progress.step(1, 2.0)
    progress.step(4, 1.0)
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[0].startswith("step 1/4  loss 2.0000")
    assert lines[-1].startswith("step 4/4  loss 1.9000") and "steps/s  ETA" in lines[-1]
