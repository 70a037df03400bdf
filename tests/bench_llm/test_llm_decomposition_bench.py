"""bench/llm_decomposition.py end to end on three QUEST records against a fake LLM server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.llm_decomposition import main
from tests.llm.fakeserver import FakeLLMServer, Reply

RECORDS = [
    ("Birds of New Zealand that aren't flightless",
     "<mark>Birds of New Zealand</mark> that are not <mark>Flightless birds</mark>",
     "_ that are not _"),
    ("1990s horror films set in Japan",
     "<mark>1990s horror films</mark> that are also <mark>Films set in Japan</mark>",
     "_ that are also _"),
    ("Fish of Lake Malawi",
     "<mark>Fish of Africa</mark> that are also <mark>Fauna of Lake Malawi</mark>",
     "_ that are also _"),
]  # fmt: skip
ANSWERS = {
    RECORDS[0][0]: '"birds of New Zealand" AND NOT "flightless birds"',  # right
    RECORDS[1][0]: '"1990s horror films set in Japan"',  # one atom, wrong structure
}


def responder(body: dict) -> Reply | str:
    question = next(
        m["content"].removeprefix("Question: ")
        for m in reversed(body["messages"])
        if m["role"] == "user" and m["content"].startswith("Question: ")
    )
    if question in ANSWERS:
        return json.dumps({"logical_form": ANSWERS[question]})
    return Reply(status=500, content="model crashed")  # the third one falls back to the rules


def test_bench_scores_llm_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("LOGIR_CACHE", str(tmp_path / "cache"))
    data = tmp_path / "quest.jsonl"
    with data.open("w") as fh:
        for query, original, template in RECORDS:
            record = {"query": query, "docs": ["x"], "original_query": original,
                      "metadata": {"template": template, "domain": "test"}}  # fmt: skip
            fh.write(json.dumps(record) + "\n")
    out = tmp_path / "result.json"
    with FakeLLMServer(responder) as srv:
        args = ["--data", str(data), "--out", str(out), "--llm-base-url", srv.base_url,
                "--llm-retries", "0", "--llm-concurrency", "2"]  # fmt: skip
        assert main(args) == 0
    printed = capsys.readouterr().out
    # atoms: 2/2 + 1/2 (the long term matches one atom) + 1/2 (rules keep the text whole) = 4/6
    assert "atom accuracy: 0.667" in printed
    assert "structure accuracy: 0.333" in printed
    assert "fallbacks to rules: 1 of 3" in printed
    assert len(srv.requests) == 3
    result = json.loads(out.read_text())
    assert result["llm"]["fallbacks"] == 1 and result["usage"]["failures"] == 1
    rows = {r["question"]: r for r in result["rows"]}
    assert rows[RECORDS[2][0]]["fallback"] and "HTTP 500" in rows[RECORDS[2][0]]["fallback"]
    assert rows[RECORDS[0][0]]["predicted"] == ANSWERS[RECORDS[0][0]]


def test_bench_without_endpoint_is_an_error(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.delenv("LOGIR_LLM_BASE_URL", raising=False)
    assert main(["--llm-base-url", ""]) == 2
    assert "no LLM endpoint" in capsys.readouterr().err
