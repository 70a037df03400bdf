"""One synthesis run per --out folder: a second run stops at once naming the holder, and the
lock of a run killed with SIGKILL does not block the next one (real commands, fake LLM)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from logir.synth.folder_lock import LOCK_NAME, FolderBusy, folder_lock
from tests.clirun import cli_env, logir
from tests.llm.fakeserver import FakeLLMServer, Reply
from tests.synth.synthfakes import itlr_passages, synth_answer, write_jsonl


def test_folder_lock_is_exclusive_and_names_the_holder(tmp_path: Path) -> None:
    out = tmp_path / "o"
    with folder_lock(out) as path:
        assert path == out / LOCK_NAME
        assert json.loads(path.read_text())["pid"] == os.getpid()
        with pytest.raises(FolderBusy) as info, folder_lock(out):
            pass
        message = str(info.value)
        assert message.startswith(f"{out} is being written by another synthesis run (pid ")
        assert f"pid {os.getpid()} on " in message and str(path) in message
    with folder_lock(out):  # released when the block ends
        pass


def test_second_run_stops_and_a_killed_holder_does_not_block(tmp_path: Path) -> None:
    corpus = write_jsonl(tmp_path / "seeds.jsonl", itlr_passages(4))
    out = tmp_path / "out"
    args = ["synth", "itlr", "--corpus", str(corpus), "--out", str(out), "--llm-no-cache",
            "--max-items", "4", "--llm-concurrency", "1"]  # fmt: skip

    def slow(body: dict[str, Any]) -> Reply:
        return Reply(content=synth_answer(body), delay=1.0)

    with FakeLLMServer(slow) as srv:
        first = subprocess.Popen(
            [sys.executable, "-m", "logir.cli", *args, "--llm-base-url", srv.base_url],
            env=cli_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and first.poll() is None and not srv.requests:
                time.sleep(0.02)  # the first run holds the lock before its first request
            assert first.poll() is None and srv.requests
            with FakeLLMServer(synth_answer) as other:
                second = logir(*args, "--llm-base-url", other.base_url)
            assert other.requests == []
            assert second.returncode == 2, second.stderr
            errors = [x for x in second.stderr.splitlines() if x.startswith("error:")]
            assert len(errors) == 1 and "Traceback" not in second.stderr
            assert errors[0].startswith(
                f"error: {out} is being written by another synthesis run (pid {first.pid} on "
            )
            assert "synth itlr" in errors[0]
            assert first.poll() is None  # the first run is still going
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait()
    assert (out / LOCK_NAME).exists()  # left behind by the killed run
    with FakeLLMServer(synth_answer) as srv:
        third = logir(*args, "--llm-base-url", srv.base_url)
    assert third.returncode == 0, third.stderr
    assert "itlr: 4/4 items ok" in third.stdout


@pytest.mark.parametrize("written", ['{"pid": 7, "command": 5}', "[1]", "{bad", ""])
def test_a_lock_file_of_odd_content_still_names_a_holder(tmp_path: Path, written: str) -> None:
    import fcntl

    from logir.synth.folder_lock import LOCK_NAME, FolderBusy, folder_lock

    path = tmp_path / LOCK_NAME
    path.write_text(written, encoding="utf-8")
    with path.open("r+") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        busy = pytest.raises(FolderBusy, match="is being written by another synthesis run")
        with busy, folder_lock(tmp_path):
            pass
