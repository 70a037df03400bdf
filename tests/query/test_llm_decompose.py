"""LLM decomposition (logir.query.llm) against a local fake OpenAI-compatible server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logir.errors import LogirError
from logir.llm import ChatClient, LLMConfig, LLMOutputError
from logir.query import And, Not, Or, Term, parse, understand
from logir.query.llm import (
    DEMONSTRATIONS,
    MAX_TERMS,
    SYSTEM_PROMPT,
    build_messages,
    decompose_llm,
    validate_logical_form,
)
from tests.llm.fakeserver import FakeLLMServer, Reply
from tests.ports import closed_url

QUESTION = "Which garden plants of Asia are not trees?"
GOOD = json.dumps({"logical_form": '"garden plants of Asia" AND NOT "trees"'})


def client_for(url: str, tmp_path: Path, **overrides) -> ChatClient:
    values = {"backoff": 0.0, "max_retries": 1, "cache_dir": tmp_path / "cache", **overrides}
    return ChatClient(LLMConfig(url, "m", **values))


def test_valid_answer(tmp_path: Path) -> None:
    with FakeLLMServer(GOOD) as srv, client_for(srv.base_url, tmp_path) as client:
        d = decompose_llm(QUESTION, client)
    assert d.query == And((Term("garden plants of Asia"), Not(Term("trees"))))
    assert d.mode_used == "llm" and d.fallback is None and d.notes == []
    assert d.spans == {"garden plants of Asia": (6, 27), "trees": (36, 41)}
    messages = srv.requests[0]["messages"]
    assert messages[0] == {"role": "system", "content": SYSTEM_PROMPT}
    assert messages[-1] == {"role": "user", "content": f"Question: {QUESTION}"}
    assert len(messages) == 2 + 2 * len(DEMONSTRATIONS)


def test_answer_with_fence_and_prose(tmp_path: Path) -> None:
    answer = f"Here is the query:\n```json\n{GOOD}\n```\nHope it helps."
    with FakeLLMServer(answer) as srv, client_for(srv.base_url, tmp_path) as client:
        assert decompose_llm(QUESTION, client).mode_used == "llm"


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        ('{"logical_form": "\\"garden plants\\" AND"}', "does not parse"),
        ('{"query": "x"}', '"logical_form" must be a non-empty string'),
        ("garden plants AND NOT trees", "no JSON object"),
    ],
)
def test_repair_then_valid(tmp_path: Path, bad: str, problem: str) -> None:
    with (
        FakeLLMServer(FakeLLMServer.script([bad, GOOD])) as srv,
        client_for(srv.base_url, tmp_path) as client,
    ):
        d = decompose_llm(QUESTION, client)
    assert d.mode_used == "llm" and d.query == parse('"garden plants of Asia" AND NOT trees')
    repair = srv.requests[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": bad}
    assert problem in repair[-1]["content"]


def test_never_valid_falls_back_to_rules(tmp_path: Path) -> None:
    with (
        FakeLLMServer('{"logical_form": "(unclosed"}') as srv,
        client_for(srv.base_url, tmp_path) as client,
    ):
        d = decompose_llm("films by Nolan but not Inception", client, max_repairs=1)
        with pytest.raises(LLMOutputError):
            decompose_llm("films by Nolan but not Inception", client, fallback=False)
    assert len(srv.requests) == 2 + 3
    assert d.mode_used == "natural"
    assert d.query == And((Term("films by Nolan"), Not(Term("Inception"))))
    assert d.notes[0].startswith("llm fallback: the LLM's answer was unusable (")
    assert "unclosed" in d.notes[0] and d.fallback_kind == "unusable"
    assert d.fallback is not None and "does not parse" in d.fallback
    assert "endpoint failed" not in d.fallback


def test_server_down_falls_back_with_note(tmp_path: Path) -> None:
    url = closed_url()
    with client_for(url, tmp_path) as client:
        d = decompose_llm("cats or dogs", client)
    assert d.mode_used == "natural" and d.fallback_kind == "endpoint"
    assert d.notes[0].startswith("llm fallback: the LLM endpoint failed: LLM request to " + url)
    assert "2 attempts" in d.notes[0]


def test_understand_llm_mode(tmp_path: Path) -> None:
    with FakeLLMServer(GOOD) as srv, client_for(srv.base_url, tmp_path) as client:
        u = understand(QUESTION, "llm", client)
    assert u.mode_used == "llm" and u.fallback is None
    assert u.query == parse('"garden plants of Asia" AND NOT "trees"')
    with client_for(closed_url(), tmp_path, max_retries=0) as client:
        u = understand("films by Nolan but not Inception", "llm", client)
    assert u.mode_used == "natural" and u.fallback and u.notes[0].startswith("llm fallback:")
    assert u.cues == ("negation:but-not",) and u.notes[1:] == u.cues
    with pytest.raises(ValueError, match="needs a client"):
        understand(QUESTION, "llm")
    assert understand("cats OR dogs").query == Or((Term("cats"), Term("dogs")))


def test_validate_logical_form() -> None:
    assert validate_logical_form({"logical_form": '"a" OR "b"'}) == Or((Term("a"), Term("b")))
    assert validate_logical_form([{"logical_form": "a"}]) == Term("a")
    with pytest.raises(ValueError, match="column"):
        validate_logical_form({"logical_form": '"a" "b"'})
    with pytest.raises(ValueError, match="JSON object"):
        validate_logical_form("a AND b")
    many = " AND ".join(f'"t{i}"' for i in range(MAX_TERMS + 1))
    with pytest.raises(ValueError, match=f"at most {MAX_TERMS}"):
        validate_logical_form({"logical_form": many})


def test_demonstrations_are_valid_answers() -> None:
    for question, form in DEMONSTRATIONS:
        q = validate_logical_form({"logical_form": form})
        assert str(q) == form or parse(str(q)) == q
        assert question.strip()
    messages = build_messages("  x  ")
    assert messages[-1]["content"] == "Question: x"
    assert all(json.loads(m["content"]) for m in messages if m["role"] == "assistant")


def test_empty_question_is_a_user_error(tmp_path: Path) -> None:
    with client_for(closed_url(), tmp_path) as client, pytest.raises(LogirError):
        decompose_llm("   ", client)


NOLAN = "films directed by Christopher Nolan or Denis Villeneuve"
COPIED = json.dumps({"logical_form": DEMONSTRATIONS[1][1]})


def test_copied_example_is_rejected_and_the_decision_cached(tmp_path: Path) -> None:
    with FakeLLMServer(COPIED) as srv, client_for(srv.base_url, tmp_path) as client:
        first = decompose_llm(NOLAN, client)
        again = decompose_llm(NOLAN, client)
        assert len(srv.requests) == 1 and client.usage.cache_hits == 1
        with pytest.raises(LogirError, match="not grounded"):
            decompose_llm(NOLAN, client, fallback=False)
    assert first.mode_used == "natural" and first.fallback_kind == "ungrounded"
    assert first.fallback is not None and "Le Guin" in first.fallback
    assert "repeats worked example 2 of the prompt" in first.fallback
    assert first.notes[0] == f"llm fallback: {first.fallback}"
    assert again.query == first.query and again.fallback == first.fallback and again.from_cache
    assert first.query == parse(
        '"films directed by Christopher Nolan" OR "films directed by Denis Villeneuve"'
    )


def test_sampling_is_deterministic(tmp_path: Path) -> None:
    with FakeLLMServer(GOOD) as srv, client_for(srv.base_url, tmp_path) as client:
        decompose_llm(QUESTION, client)
    assert srv.requests[0]["temperature"] == 0.0 and srv.requests[0]["seed"] == 0


def test_accepted_and_unusable_decisions_are_cached(tmp_path: Path) -> None:
    with FakeLLMServer(GOOD) as srv, client_for(srv.base_url, tmp_path) as client:
        assert decompose_llm(QUESTION, client).mode_used == "llm"
    with FakeLLMServer("no json") as srv, client_for(srv.base_url, tmp_path) as client:
        hit = decompose_llm(QUESTION, client)  # another port, another endpoint: asked afresh
        assert hit.fallback_kind == "unusable" and len(srv.requests) == 3
        again = decompose_llm(QUESTION, client)
        assert len(srv.requests) == 3 and again.fallback == hit.fallback and again.from_cache


def test_endpoint_failure_is_not_cached(tmp_path: Path) -> None:
    with (
        FakeLLMServer(FakeLLMServer.script([Reply(status=500), GOOD])) as srv,
        client_for(srv.base_url, tmp_path, max_retries=0) as client,
    ):
        down = decompose_llm(QUESTION, client)
        up = decompose_llm(QUESTION, client)
    assert down.fallback_kind == "endpoint" and "HTTP 500" in (down.fallback or "")
    assert up.mode_used == "llm" and len(srv.requests) == 2


def test_no_cache_asks_every_time(tmp_path: Path) -> None:
    with FakeLLMServer(COPIED) as srv, client_for(srv.base_url, tmp_path, cache_dir=None) as c:
        decompose_llm(NOLAN, c)
        decompose_llm(NOLAN, c)
    assert len(srv.requests) == 2


def test_a_prompt_over_the_context_is_not_an_endpoint_failure(tmp_path: Path) -> None:
    with FakeLLMServer(GOOD) as srv, client_for(srv.base_url, tmp_path, context=300) as client:
        d = decompose_llm(QUESTION, client)
        again = decompose_llm(QUESTION, client)
    assert srv.requests == [] and d.fallback_kind == "context" and not again.from_cache
    assert d.fallback is not None and d.fallback.startswith("the request did not fit the LLM's")
    assert "endpoint failed" not in d.fallback


def test_a_cached_form_is_judged_again_on_every_read(tmp_path: Path) -> None:
    with FakeLLMServer(GOOD) as srv, client_for(srv.base_url, tmp_path) as client:
        assert decompose_llm(QUESTION, client).mode_used == "llm"
        records = [p for p in (tmp_path / "cache").rglob("*.json") if '"decision"' in p.read_text()]
        assert len(records) == 1
        record = json.loads(records[0].read_text())
        form = str(parse(json.loads(GOOD)["logical_form"]))
        assert record == {"decision": "form", "logical_form": form}
        record["logical_form"] = '"garden plants of Asia" AND NOT "jazz trumpeters"'
        records[0].write_text(json.dumps(record))
        d = decompose_llm(QUESTION, client)
    assert len(srv.requests) == 1 and d.from_cache and d.fallback_kind == "ungrounded"
    assert "term 'jazz trumpeters' has no content word of the question" in (d.fallback or "")
