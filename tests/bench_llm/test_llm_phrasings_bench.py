"""bench/llm_phrasings.py end to end on three phrasings against a fake LLM server: an ungrounded
form is never reported as llm, and the second run makes no request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.llm_phrasings import main
from tests.llm.fakeserver import FakeLLMServer

ROWS = [
    {"id": "a", "text": "films by Nolan or Villeneuve but not sci-fi",
     "forms": ['("films by Nolan" OR "films by Villeneuve") AND NOT "sci-fi"'],
     "negation": "exclude"},
    {"id": "b", "text": "vegetarian Italian dishes that are not spicy",
     "forms": ['"vegetarian Italian dishes" AND NOT "spicy"'], "negation": "exclude"},
    {"id": "c", "text": "benefits of vitamin D other than bone health",
     "forms": ['"benefits of vitamin D" AND NOT "bone health"'], "negation": "exclude"},
]  # fmt: skip
ANSWERS = {
    "a": '("films by Nolan" OR "films by Villeneuve") AND NOT "sci-fi"',  # grounded
    "b": '"novels by Octavia Butler"',  # not grounded: falls back to the rules
}


def responder(body: dict) -> str:
    asked = [m["content"] for m in body["messages"] if m["content"].startswith("Question: ")]
    question = asked[-1].removeprefix("Question: ")
    row = next(r for r in ROWS if r["text"] == question)
    form = ANSWERS.get(row["id"])
    return json.dumps({"logical_form": form}) if form else "no JSON here"


def test_bench_reports_grounding_and_a_second_run_without_requests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LOGIR_CACHE", str(tmp_path / "cache"))
    # the six `logir parse` processes fall back to the regex reader, not spaCy (2 s each to
    # load): what is checked here is the bench's bookkeeping, the same with either reader
    monkeypatch.setenv("LOGIR_NO_SPACY", "1")
    data = tmp_path / "p.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    out = tmp_path / "r.json"
    with FakeLLMServer(responder) as srv:
        code = main([str(data), "--llm-base-url", srv.base_url, "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert len(srv.requests) == 1 + 1 + 3  # c: the first answer and two repairs
    first, second = json.loads(out.read_text())
    assert first["modes"] == {
        "llm": 1,
        "fallback: not grounded": 1,
        "fallback: answer unusable": 1,
    }
    assert first["llm_forms_not_grounded"] == 0 and first["llm_forms_matching"] == 1
    assert second["requests"] == 0 and second["cache_hits"] == 3
    assert "run 2: 3 queries" in printed and "LLM requests 0," in printed
    assert "later runs give the same mode and form for every query: True" in printed
