"""`logir train` on the command line, and the trainer's entry point without CLI dependencies."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clirun import cli_env, logir


def test_broken_training_data_is_one_error_line_naming_file_and_line(tmp_path: Path) -> None:
    data = tmp_path / "t.jsonl"
    data.write_text(json.dumps({"query": "q", "positive": "p"}) + "\n", encoding="utf-8")
    result = logir("train", "reader", "--data", str(data), "--out", str(tmp_path / "m"))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert lines == [f"error: {data}:1: missing field 'negative' or 'hard_negative'"]


def test_help_lists_the_options() -> None:
    result = logir("train", "dense", "--help")
    assert result.returncode == 0
    assert "--data" in result.stdout and "--checkpoint-every" in result.stdout


def test_the_trainer_imports_without_typer_rich_or_bm25s(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "for name in ('typer', 'rich', 'bm25s', 'ir_measures'):\n"
        "    sys.modules[name] = None\n"
        "import logir.train.run\n"
        "from logir.train.progress import make_progress\n"
        "print(type(make_progress()).__name__)\n"
    )
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=cli_env({"PYTHONPATH": str(root)}),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "PlainProgress"


def test_kill_9_then_the_same_command_ends_with_the_uninterrupted_weights(
    tiny_base: Path, triplets: Path, tmp_path: Path
) -> None:
    """The killed run is a real process; the straight run and the resumed one run in this
    process (the same code and settings: one torch start-up instead of three)."""
    import signal
    import time

    torch = pytest.importorskip("torch")
    from safetensors.torch import load_file

    from logir.train.loop import train
    from logir.train.run import config_from, parser

    args = ["reader", "--data", str(triplets), "--base", str(tiny_base), "--max-length", "32"]
    args += ["--batch-size", "4", "--lr", "1e-2", "--max-steps", "80", "--checkpoint-every", "20"]
    args += ["--threads", "1", "--holdout", "0", "--quiet"]
    straight, killed = tmp_path / "straight", tmp_path / "killed"
    train(config_from(parser().parse_args([*args, "--out", str(straight)])))
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-m", "logir.train.run", *args, "--out", str(killed)],
        env=cli_env({"PYTHONPATH": str(root)}),
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300
    while not (killed / "checkpoint.pt").exists() and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.002)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL  # killed mid-run, not finished
    assert not (killed / "model.safetensors").exists()
    steps: list[int] = []
    config = config_from(parser().parse_args([*args, "--out", str(killed)]))
    resumed = train(config, on_step=lambda step, loss: steps.append(step))
    assert resumed.finished and steps[0] > 20 and steps[0] % 20 == 1  # from a checkpoint
    a, b = load_file(straight / "model.safetensors"), load_file(killed / "model.safetensors")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
