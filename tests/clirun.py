"""Run the real ``logir`` command in a subprocess, as a user would (shared by the CLI tests)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def cli_env(
    extra: Mapping[str, str] | None = None, drop_prefix: str | None = None
) -> dict[str, str]:
    """This process's environment, offline and with wide tables, plus ``extra``; variables whose
    names start with ``drop_prefix`` are left out (e.g. the caller's own LLM endpoint)."""
    env = {k: v for k, v in os.environ.items() if not (drop_prefix and k.startswith(drop_prefix))}
    env.update(HF_HUB_OFFLINE="1", COLUMNS="200")
    env.update(extra or {})
    return env


def logir(
    *args: str,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    drop_prefix: str | None = None,
    timeout: float = 600,
) -> subprocess.CompletedProcess[str]:
    """``logir ARGS`` with captured text output; ``env`` adds variables to :func:`cli_env`."""
    return subprocess.run(
        [sys.executable, "-m", "logir.cli", *args],
        capture_output=True,
        text=True,
        env=cli_env(env, drop_prefix),
        cwd=cwd,
        timeout=timeout,
    )
