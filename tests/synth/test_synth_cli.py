"""`logir synth` as a real command against a real HTTP fake LLM: outputs, kill + resume, failure."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from logir.errors import LogirError
from logir.synth.cli import run_kind
from tests.clirun import cli_env, logir
from tests.llm.fakeserver import FakeLLMServer, Reply
from tests.synth.synthfakes import itlr_passages, multiconir_documents, synth_answer, write_jsonl

BEIR_FILES = ("corpus.jsonl", "queries.jsonl", "qrels/test.tsv")


def synth(kind: str, corpus: Path, out: Path, url: str, *extra: str) -> list[str]:
    return [
        "synth", kind, "--corpus", str(corpus), "--out", str(out),
        "--llm-base-url", url, "--llm-no-cache", *extra,
    ]  # fmt: skip


def ok_keys(out: Path) -> list[str]:
    rows = [json.loads(x) for x in (out / "checkpoint.jsonl").read_text().splitlines()]
    return [r["key"] for r in rows if r["status"] == "ok"]


def error_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [x for x in proc.stderr.splitlines() if x.startswith("error:")]


@pytest.fixture
def itlr_corpus(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "seeds.jsonl", itlr_passages(6))


@pytest.fixture
def mc_corpus(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "docs.jsonl", multiconir_documents(3))


def test_itlr_writes_a_beir_folder_that_eval_reads(tmp_path: Path, itlr_corpus: Path):
    out = tmp_path / "itlr"
    with FakeLLMServer(synth_answer) as srv:
        proc = logir(*synth("itlr", itlr_corpus, out, srv.base_url, "--max-items", "8"))
    assert proc.returncode == 0, proc.stderr
    assert "itlr: 8/8 items ok, 0 failed" in proc.stdout
    assert "tokens" in proc.stdout and "Traceback" not in proc.stderr
    assert len(srv.requests) == 16
    assert all((out / f).is_file() for f in BEIR_FILES)
    ev = logir("eval", "beir", "--data", str(out), "-s", "bm25")
    assert ev.returncode == 0, ev.stderr
    assert "nDCG@10" in ev.stdout


def test_progress_goes_to_stderr_by_tenths_and_quiet_prints_none(tmp_path: Path, itlr_corpus: Path):
    args = ("--max-items", "10", "--llm-concurrency", "1")
    with FakeLLMServer(synth_answer) as srv:
        shown = logir(*synth("itlr", itlr_corpus, tmp_path / "a", srv.base_url, *args))
        quiet = logir(*synth("itlr", itlr_corpus, tmp_path / "b", srv.base_url, *args, "-q"))
    assert shown.returncode == 0 and quiet.returncode == 0, shown.stderr + quiet.stderr
    lines = [x for x in shown.stderr.splitlines() if x.startswith("itlr: ")]
    assert [x.split(" (")[0] for x in lines] == [f"itlr: {n}/10 units" for n in range(1, 11)]
    assert lines[-1].endswith("(20 LLM requests, 0 retries, 930 answer tokens)"), lines[-1]
    assert "units" not in quiet.stderr
    assert quiet.stdout == shown.stdout.replace(str(tmp_path / "a"), str(tmp_path / "b"))


def test_multiconir_writes_beir_and_csv_that_eval_reads(tmp_path: Path, mc_corpus: Path):
    out = tmp_path / "mc"
    with FakeLLMServer(synth_answer) as srv:
        proc = logir(*synth("multiconir", mc_corpus, out, srv.base_url, "--opt", "domain=movie"))
    assert proc.returncode == 0, proc.stderr
    assert "multiconir: 3/3 items ok" in proc.stdout
    ev = logir("eval", "beir", "--data", str(out), "-s", "bm25")
    assert ev.returncode == 0, ev.stderr
    assert "WinRate" in ev.stdout
    adapter = logir("eval", "multiconir", "--data", str(out), "-s", "bm25")
    assert adapter.returncode == 0, adapter.stderr
    assert "WinRate" in adapter.stdout


@pytest.mark.dense
def test_both_outputs_evaluate_with_dense(tmp_path: Path, itlr_corpus: Path, mc_corpus: Path):
    with FakeLLMServer(synth_answer) as srv:
        a = logir(*synth("itlr", itlr_corpus, tmp_path / "i", srv.base_url, "--max-items", "4"))
        b = logir(*synth("multiconir", mc_corpus, tmp_path / "m", srv.base_url))
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    for folder in ("i", "m"):
        ev = logir("eval", "beir", "--data", str(tmp_path / folder), "-s", "bm25", "-s", "dense")
        assert ev.returncode == 0, ev.stderr


def test_killed_run_resumes_to_the_same_items_as_an_uninterrupted_run(
    tmp_path: Path, itlr_corpus: Path
):
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    args = ("--max-items", "6", "--llm-concurrency", "1")
    with FakeLLMServer(synth_answer) as srv:
        assert logir(*synth("itlr", itlr_corpus, whole, srv.base_url, *args)).returncode == 0

    def slow(body: dict[str, Any]) -> Reply:
        return Reply(content=synth_answer(body), delay=0.25)

    with FakeLLMServer(slow) as srv:
        cmd = [sys.executable, "-m", "logir.cli", *synth("itlr", itlr_corpus, killed,
                                                          srv.base_url, *args)]  # fmt: skip
        proc = subprocess.Popen(
            cmd, env=cli_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        ckpt = killed / "checkpoint.jsonl"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if ckpt.exists() and len(ckpt.read_bytes().splitlines()) >= 2:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stderr.close()  # type: ignore[union-attr]
    done_before = ok_keys(killed)
    assert 2 <= len(done_before) < 6  # killed mid-run, with some work already kept

    with FakeLLMServer(synth_answer) as srv:
        again = logir(*synth("itlr", itlr_corpus, killed, srv.base_url, *args))
        assert again.returncode == 0, again.stderr
        assert len(srv.requests) == 2 * (6 - len(done_before))  # finished units are not redone
    assert f"({len(done_before)} from earlier runs" in again.stdout
    keys = ok_keys(killed)
    assert len(keys) == len(set(keys)) == 6
    assert sorted(keys) == sorted(ok_keys(whole))
    for name in BEIR_FILES:
        assert (killed / name).read_text() == (whole / name).read_text()


def test_sigterm_leaves_a_consistent_checkpoint_and_says_how_to_resume(
    tmp_path: Path, itlr_corpus: Path
):
    out = tmp_path / "o"

    def slow(body: dict[str, Any]) -> Reply:
        return Reply(content=synth_answer(body), delay=0.2)

    with FakeLLMServer(slow) as srv:
        cmd = [sys.executable, "-m", "logir.cli", *synth("itlr", itlr_corpus, out, srv.base_url,
                                                          "--max-items", "6")]  # fmt: skip
        proc = subprocess.Popen(
            cmd, env=cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        ckpt = out / "checkpoint.jsonl"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (ckpt.exists() and ckpt.read_bytes()):
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "run the same command again to resume" in stderr and "Traceback" not in stderr
    assert ckpt.read_bytes().endswith(b"\n")
    assert all(json.loads(x)["status"] == "ok" for x in ckpt.read_text().splitlines())


def test_an_endpoint_that_always_fails_ends_with_one_error_line(tmp_path: Path, itlr_corpus: Path):
    out = tmp_path / "o"
    with FakeLLMServer(Reply(status=500, content="model overloaded")) as srv:
        proc = logir(*synth("itlr", itlr_corpus, out, srv.base_url, "--llm-retries", "0"))
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    errors = error_lines(proc)
    assert len(errors) == 1 and proc.stderr.strip().splitlines()[-1] == errors[0]
    assert "3 endpoint failures in a row" in errors[0] and "500" in errors[0]
    assert "0 of 320 items are kept" in errors[0]
    assert "run the same command again to resume" in errors[0]
    assert (out / "checkpoint.jsonl").is_file()


def test_a_failing_endpoint_keeps_what_was_finished_and_the_rerun_completes(
    tmp_path: Path, itlr_corpus: Path
):
    out, whole = tmp_path / "o", tmp_path / "whole"
    args = ("--max-items", "6", "--llm-concurrency", "1", "--llm-retries", "0")
    state = {"n": 0}

    def dies_after_two_units(body: dict[str, Any]) -> Reply | str:
        state["n"] += 1
        return synth_answer(body) if state["n"] <= 4 else Reply(status=503)

    with FakeLLMServer(dies_after_two_units) as srv:
        proc = logir(*synth("itlr", itlr_corpus, out, srv.base_url, *args))
    assert proc.returncode == 2
    assert "2 of 6 items are kept" in error_lines(proc)[0]
    assert (
        len(ok_keys(out)) == 2
        and len(json.loads((out / "summary.json").read_text())["failures"]) == 3
    )

    with FakeLLMServer(synth_answer) as srv:
        assert logir(*synth("itlr", itlr_corpus, whole, srv.base_url, *args)).returncode == 0
        again = logir(*synth("itlr", itlr_corpus, out, srv.base_url, *args))
    assert again.returncode == 0, again.stderr
    for name in BEIR_FILES:
        assert (out / name).read_text() == (whole / name).read_text()


def test_a_user_mistake_is_one_error_line(tmp_path: Path, itlr_corpus: Path):
    proc = logir(*synth("multiconir", itlr_corpus, tmp_path / "o", "http://127.0.0.1:9/v1"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert error_lines(proc) == [proc.stderr.strip().splitlines()[0]]
    assert "no corpus document has 10 sentences" in error_lines(proc)[0]


@pytest.mark.parametrize(
    ("corpus", "out", "opts", "needle"),
    [
        ("seeds.jsonl", None, [], "needs --corpus PATH and --out DIR"),
        ("missing.jsonl", "o", [], "missing.jsonl"),
        ("seeds.jsonl", "o", ["bogus=1"], "unknown option(s) for synth itlr: bogus"),
        ("seeds.jsonl", "o", ["x"], "expected key=value"),
        ("seeds.jsonl", "o", ["query_style=poetic"], "query_style must be natural or logical"),
    ],
)
def test_user_mistakes_raise_logir_errors(tmp_path, itlr_corpus, corpus, out, opts, needle):
    llm = {"base_url": "http://127.0.0.1:9/v1"}
    with pytest.raises(LogirError) as info:
        run_kind("itlr", tmp_path / corpus, out and tmp_path / out, None, 0, opts, llm)
    assert needle in str(info.value)


def test_opt_help_lists_the_pipeline_options():
    proc = logir("synth", "multiconir", "--opt", "help")
    assert proc.returncode == 0, proc.stderr
    assert '--opt strategy="alter"' in proc.stdout and "--opt verify=true" in proc.stdout


def test_resume_accepts_spelled_out_defaults_and_refuses_other_options(
    tmp_path: Path, itlr_corpus: Path, capsys: pytest.CaptureFixture[str]
):
    out = tmp_path / "o"
    with FakeLLMServer(synth_answer) as srv:
        llm = {"base_url": srv.base_url, "no_cache": True}
        run_kind("itlr", itlr_corpus, out, 2, 0, [], llm)
        run_kind("itlr", itlr_corpus, out, 3, 0, ["per_template=10"], llm)
        assert (
            "itlr: 3/3 items ok, 0 failed (2 from earlier runs, 1 new)" in capsys.readouterr().out
        )
        with pytest.raises(LogirError, match="other settings .*'per_template': 2"):
            run_kind("itlr", itlr_corpus, out, 3, 0, ["per_template=2"], llm)
