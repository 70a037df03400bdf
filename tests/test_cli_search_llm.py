"""`logir search --mode llm`: the LLM writes the logical form, or the rules read the query and a
warning says why (a fake OpenAI-compatible server stands in for the LLM)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from logir.cli import main
from logir.data.dataset import Document
from logir.index.store import build_index
from tests.llm.fakeserver import FakeLLMServer

PASSAGES = [
    "Christopher Nolan directed Inception, Interstellar and Oppenheimer.",
    "Denis Villeneuve directed Arrival and Dune, both science fiction films.",
    "Octavia Butler wrote Kindred and the Parable novels.",
    "Vitamin D supports bone health.",
]
QUESTION = "films directed by Christopher Nolan or Denis Villeneuve"
GROUNDED = '"films directed by Christopher Nolan" OR "films directed by Denis Villeneuve"'
COPIED = '"science fiction novels by Octavia Butler" OR "novels published after 1980"'


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = [Document(id=f"p{i}", text=t) for i, t in enumerate(PASSAGES)]
    return build_index(docs, tmp_path_factory.mktemp("llm") / "idx", retrievers=("bm25",))


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LOGIR_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("LOGIR_LLM_BASE_URL", raising=False)


def run(capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["logir", *args])
    with pytest.raises(SystemExit) as info:
        main()
    captured = capsys.readouterr()
    return int(info.value.code or 0), captured.out, captured.err


def test_search_mode_llm_uses_a_grounded_form(capsys, monkeypatch, index: Path) -> None:
    with FakeLLMServer(json.dumps({"logical_form": GROUNDED})) as srv:
        args = ["search", str(index), QUESTION, "--mode", "llm", "--llm-base-url", srv.base_url]
        code, out, err = run(capsys, monkeypatch, *args, "--json", "--composer", "fuzzy")
    assert code == 0, err
    payload = json.loads(out)
    assert payload["mode_used"] == "llm" and payload["fallback"] is None
    assert payload["logical_form"] == GROUNDED
    assert {h["id"] for h in payload["hits"][:2]} == {"p0", "p1"}
    assert len(srv.requests) == 1 and "warning" not in err


def test_search_mode_llm_falls_back_with_the_reason(capsys, monkeypatch, index: Path) -> None:
    with FakeLLMServer(json.dumps({"logical_form": COPIED})) as srv:
        args = ["search", str(index), QUESTION, "--mode", "llm", "--llm-base-url", srv.base_url]
        code, out, err = run(capsys, monkeypatch, *args, "--json")
        code2, text, err2 = run(capsys, monkeypatch, *args)
    assert code == 0 and code2 == 0, err
    payload = json.loads(out)
    assert payload["mode_used"] == "natural" and "not grounded" in payload["fallback"]
    assert err.startswith("warning: the LLM's form ") and "read by the rules instead" in err
    assert err2 == err and len(srv.requests) == 1  # the decision came from the cache


def test_search_mode_llm_needs_an_endpoint(capsys, monkeypatch, index: Path) -> None:
    code, _, err = run(capsys, monkeypatch, "search", str(index), QUESTION, "--mode", "llm")
    assert code == 2
    assert err.startswith("error: no LLM endpoint: pass --llm-base-url")
    code, _, err = run(capsys, monkeypatch, "search", str(index), QUESTION, "--mode", "gpt")
    assert code == 2 and "known: auto, syntax, natural, llm" in err
