"""`logir train` on the command line, and the trainer's entry point without CLI dependencies."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
