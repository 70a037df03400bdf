"""`logir parse --llm` against a local fake OpenAI-compatible server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from logir.cli import main
from tests.llm.fakeserver import FakeLLMServer
from tests.ports import closed_url

QUESTION = "Which birds of New Zealand are not flightless?"
FORM = '"birds of New Zealand" AND NOT "flightless birds"'


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LOGIR_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("LOGIR_LLM_BASE_URL", raising=False)
    monkeypatch.delenv("LOGIR_LLM_MODEL", raising=False)


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["logir", *args])
    with pytest.raises(SystemExit) as info:
        main()
    captured = capsys.readouterr()
    return int(info.value.code or 0), captured.out, captured.err


def test_parse_llm_valid_answer(capsys, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MY_KEY", "sk-cli-secret")
    with FakeLLMServer(json.dumps({"logical_form": FORM})) as srv:
        args = ["parse", "--llm", "--llm-base-url", srv.base_url, "--llm-model", "tiny"]
        code, out, err = run(capsys, monkeypatch, *args, "--llm-key-env", "MY_KEY", QUESTION)
        assert code == 0, err
        code, _, _ = run(capsys, monkeypatch, *args, QUESTION)  # same request: from the cache
    assert FORM in out and "mode: llm" in out and "fallback" not in out
    assert "'birds of New Zealand' <- [6:26]" in out
    assert len(srv.requests) == 1 and srv.requests[0]["model"] == "tiny"
    assert srv.headers[0]["authorization"] == "Bearer sk-cli-secret"
    assert list((tmp_path / "cache" / "llm").rglob("*.json"))


def test_parse_llm_repair_then_valid_json_output(capsys, monkeypatch, tmp_path: Path) -> None:
    script = FakeLLMServer.script(
        ['{"logical_form": "AND birds"}', json.dumps({"logical_form": FORM})]
    )
    with FakeLLMServer(script) as srv:
        monkeypatch.setenv("LOGIR_LLM_BASE_URL", srv.base_url)
        code, out, err = run(
            capsys, monkeypatch, "parse", "--llm", "--llm-no-cache", "--json", QUESTION
        )
    assert code == 0, err
    payload = json.loads(out)
    assert payload["mode"] == "llm" and payload["query"] == FORM and payload["fallback"] is None
    assert len(srv.requests) == 2
    assert not (tmp_path / "cache" / "llm").exists()


def test_parse_llm_server_down_falls_back(capsys, monkeypatch) -> None:
    url = closed_url()
    args = ["parse", "--llm", "--llm-base-url", url, "--llm-retries", "0"]
    code, out, err = run(capsys, monkeypatch, *args, "films by Nolan but not Inception")
    assert code == 0, err
    assert '"films by Nolan" AND NOT "Inception"' in out
    mode_line = next(line for line in out.splitlines() if line.startswith("mode:"))
    assert mode_line == "mode: natural (rule-based; the LLM's form unused)"
    fallback = next(line for line in out.splitlines() if line.startswith("fallback:"))
    assert fallback.startswith("fallback: the LLM endpoint failed: LLM request to " + url)
    assert "rules: negation:but-not" in out


def test_parse_llm_conflicting_flags(capsys, monkeypatch) -> None:
    code, _, err = run(capsys, monkeypatch, "parse", "--llm", "--natural", "x")
    assert code == 2
    assert err.startswith("error: use only one of --syntax, --natural, --auto and --llm")


def test_parse_llm_without_endpoint_is_a_clean_error(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "LOGIR_LLM_BASE_URL"}
    proc = subprocess.run(
        [sys.executable, "-m", "logir.cli", "parse", "--llm", QUESTION],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    first = proc.stderr.strip().splitlines()[0]
    assert first == "error: no LLM endpoint: pass --llm-base-url or set LOGIR_LLM_BASE_URL"


def test_parse_llm_rejects_an_ungrounded_form_and_caches_the_decision(capsys, monkeypatch) -> None:
    question = "films directed by Christopher Nolan or Denis Villeneuve"
    copied = '"science fiction novels by Octavia Butler" OR "novels published after 1980"'
    with FakeLLMServer(json.dumps({"logical_form": copied})) as srv:
        args = ["parse", "--llm", "--llm-base-url", srv.base_url]
        code, out, err = run(capsys, monkeypatch, *args, question)
        assert code == 0, err
        code, out2, err2 = run(capsys, monkeypatch, *args, question)
        code, js, _ = run(capsys, monkeypatch, *args, "--json", question)
    assert len(srv.requests) == 1 and out2 == out
    assert "mode: natural (rule-based; the LLM's form unused)" in out
    assert "fallback: the LLM's form" in out and "is not grounded in the question" in out
    assert "Butler" not in out.splitlines()[0]
    assert err.strip() == "LLM requests: 1, answers from the cache: 0"
    assert err2.strip() == "LLM requests: 0, answers from the cache: 1"
    payload = json.loads(js)
    assert payload["mode"] == "natural" and "not grounded" in payload["fallback"]
    assert payload["llm_usage"]["requests"] == 0


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--llm-max-tokens", "99999999999"),
        ("--llm-context", "99999999999"),
        ("--llm-concurrency", "100000000"),
        ("--llm-retries", "100000000"),
        ("--llm-timeout", "inf"),
    ],
)
def test_llm_options_are_bounded(capsys, monkeypatch, flag: str, value: str) -> None:
    code, out, err = run(
        capsys, monkeypatch, "parse", QUESTION, "--llm", "--llm-base-url", closed_url(), flag, value
    )
    assert code == 2 and not out
    assert err.startswith("error:") and flag in err and "less than or equal" in err


def test_llm_config_refuses_values_past_its_bounds() -> None:
    from logir.errors import LogirError
    from logir.llm.client import LLMConfig

    for field in ("max_tokens", "context", "concurrency", "max_retries", "timeout"):
        with pytest.raises(LogirError, match=field.replace("max_retries", "retries")):
            LLMConfig("http://127.0.0.1:9/v1", "m", **{field: 10**12})
    with pytest.raises(LogirError, match="timeout"):
        LLMConfig("http://127.0.0.1:9/v1", "m", timeout=float("nan"))
