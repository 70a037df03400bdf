"""ChatClient against a real local HTTP server: retries, errors, cache, JSON repair, concurrency."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from logir.errors import LogirError
from logir.llm import ChatClient, LLMConfig, LLMError, LLMOutputError, extract_json
from logir.llm.jsonout import JSONExtractError
from tests.llm.fakeserver import FakeLLMServer, Reply
from tests.ports import free_port as closed_port

SECRET = "sk-test-Zq81-very-secret"
USER = [{"role": "user", "content": "say something"}]


def make_client(srv: FakeLLMServer, tmp_path: Path, **overrides) -> ChatClient:
    values = {"backoff": 0.01, "timeout": 5.0, "cache_dir": tmp_path / "cache"}
    values.update(overrides)
    return ChatClient(LLMConfig(srv.base_url, "test-model", **values))


@contextmanager
def running(responder, tmp_path: Path, **overrides) -> Iterator[tuple[FakeLLMServer, ChatClient]]:
    """A started FakeLLMServer and a client for it, both closed on exit."""
    with FakeLLMServer(responder) as srv, make_client(srv, tmp_path, **overrides) as client:
        yield srv, client


@pytest.fixture(autouse=True)
def _secret_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOGIR_LLM_API_KEY", SECRET)


# -- retries ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "failure",
    [Reply(status=429, retry_after=0), Reply(status=500), Reply(status=503), Reply(drop=True)],
    ids=["429", "500", "503", "dropped"],
)
def test_retries_then_succeeds(tmp_path: Path, failure: Reply) -> None:
    with running(FakeLLMServer.script([failure, failure, "hello"]), tmp_path) as (srv, client):
        assert client.chat(USER) == "hello"
    assert len(srv.requests) == 3
    assert client.usage.retries == 2 and client.usage.requests == 1
    assert client.usage.failures == 0


def test_slow_reply_beyond_timeout_is_retried(tmp_path: Path) -> None:
    with running(
        FakeLLMServer.script([Reply("late", delay=0.6), "on time"]), tmp_path, timeout=0.2
    ) as (srv, client):
        assert client.chat(USER) == "on time"
    assert len(srv.requests) == 2


def test_retry_after_is_honoured(tmp_path: Path) -> None:
    delays: list[float] = []
    with FakeLLMServer(FakeLLMServer.script([Reply(status=429, retry_after=7), "ok"])) as srv:
        config = LLMConfig(srv.base_url, "m", backoff=0.01, cache_dir=None)
        with ChatClient(config, sleep=delays.append) as client:
            assert client.chat(USER) == "ok"
    assert delays == [7.0]


def test_backoff_grows_exponentially(tmp_path: Path) -> None:
    delays: list[float] = []
    with FakeLLMServer(FakeLLMServer.script([Reply(status=500)] * 4 + ["ok"])) as srv:
        config = LLMConfig(srv.base_url, "m", backoff=1.0, cache_dir=None)
        with ChatClient(config, sleep=delays.append) as client:
            assert client.chat(USER) == "ok"
    assert len(delays) == 4
    for k, d in enumerate(delays):  # base * 2**k with jitter in [0.5, 1.5)
        assert 0.5 * 2**k <= d < 1.5 * 2**k


def test_gives_up_after_max_retries_without_leaking_the_key(tmp_path: Path) -> None:
    with (
        running(Reply(status=500, content="overloaded"), tmp_path, max_retries=2) as (srv, client),
        pytest.raises(LLMError) as info,
    ):
        client.chat(USER)
    message = str(info.value)
    assert len(srv.requests) == 3
    assert srv.base_url + "/chat/completions" in message
    assert "HTTP 500" in message and "overloaded" in message and "3 attempts" in message
    assert SECRET not in message and SECRET not in repr(info.value)
    assert all(h["authorization"] == f"Bearer {SECRET}" for h in srv.headers)
    assert client.usage.failures == 1


def test_server_echoing_the_key_is_scrubbed(tmp_path: Path) -> None:
    with (
        running(Reply(status=401, content=f"bad key {SECRET}"), tmp_path) as (srv, client),
        pytest.raises(LLMError) as info,
    ):
        client.chat(USER)
    assert SECRET not in str(info.value) and "HTTP 401" in str(info.value)


def test_client_error_fails_at_once_with_server_message(tmp_path: Path) -> None:
    with (
        running(Reply(status=400, content="model 'x' not found"), tmp_path, max_retries=4) as (
            srv,
            client,
        ),
        pytest.raises(LLMError) as info,
    ):
        client.chat(USER)
    assert len(srv.requests) == 1
    assert "model 'x' not found" in str(info.value)


def test_endpoint_down_names_url_and_attempts(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    config = LLMConfig(url, "m", backoff=0.0, max_retries=1, cache_dir=None)
    with ChatClient(config) as client, pytest.raises(LLMError) as info:
        client.chat(USER)
    assert url in str(info.value) and "2 attempts" in str(info.value)
    assert "connection failed" in str(info.value)


# -- cache -----------------------------------------------------------------------------------


def test_cache_hit_makes_no_second_request(tmp_path: Path) -> None:
    with FakeLLMServer("cached answer") as srv:
        with make_client(srv, tmp_path) as client:
            assert client.chat(USER) == "cached answer"
        with make_client(srv, tmp_path) as again:  # a new client reads the same folder
            assert again.chat(USER) == "cached answer"
            assert again.chat(USER, seed=3) == "cached answer"  # a different request asks again
    assert len(srv.requests) == 2
    assert again.usage.cache_hits == 1 and again.usage.requests == 1
    files = list((tmp_path / "cache").rglob("*.json"))
    assert len(files) == 2
    for f in files:
        text = f.read_text()
        assert SECRET not in text
        assert json.loads(text)["content"] == "cached answer"
    assert not list((tmp_path / "cache").rglob(".tmp-*"))


def test_no_cache_when_cache_dir_is_none(tmp_path: Path) -> None:
    with running("x", tmp_path, cache_dir=None) as (srv, client):
        client.chat(USER)
        client.chat(USER)
    assert len(srv.requests) == 2 and not (tmp_path / "cache").exists()


def test_request_body_carries_options(tmp_path: Path) -> None:
    with running("{}", tmp_path, max_tokens=77) as (srv, client):
        client.chat(USER, json_mode=True, seed=5, temperature=0.3)
    body = srv.requests[0]
    assert body["model"] == "test-model" and body["messages"] == USER
    assert body["max_tokens"] == 77 and body["temperature"] == 0.3 and body["seed"] == 5
    assert body["response_format"] == {"type": "json_object"}


# -- JSON answers ----------------------------------------------------------------------------


def test_json_repair_after_malformed_answer(tmp_path: Path) -> None:
    script = FakeLLMServer.script(['{"a": 1,, }', 'Sure!\n```json\n{"a": 2}\n```'])
    with running(script, tmp_path) as (srv, client):
        assert client.chat_json(USER) == {"a": 2}
    second = srv.requests[1]["messages"]
    assert second[:1] == USER
    assert second[1] == {"role": "assistant", "content": '{"a": 1,, }'}
    assert second[2]["role"] == "user" and "invalid JSON" in second[2]["content"]
    assert client.usage.repairs == 1


def test_json_repair_after_validation_failure(tmp_path: Path) -> None:
    def validate(obj: object) -> int:
        if not isinstance(obj, dict) or not isinstance(obj.get("n"), int):
            raise ValueError('"n" must be an integer')
        return obj["n"]

    with FakeLLMServer(FakeLLMServer.script(['{"n": "three"}', '{"n": 3}'])) as srv:
        with make_client(srv, tmp_path) as client:
            assert client.chat_json(USER, validate=validate) == 3
        assert '"n" must be an integer' in srv.requests[1]["messages"][-1]["content"]
        # the rejected first answer was dropped from the cache: a rerun asks again
        with make_client(srv, tmp_path) as again:
            assert again.chat_json(USER, validate=validate) == 3
    assert len(srv.requests) == 3
    assert again.usage.requests == 1 and again.usage.cache_hits == 0


def test_output_error_after_max_repairs(tmp_path: Path) -> None:
    with (
        running("I cannot answer in JSON.", tmp_path) as (srv, client),
        pytest.raises(LLMOutputError) as info,
    ):
        client.chat_json(USER, max_repairs=2)
    assert len(srv.requests) == 3
    assert "no JSON object or array" in str(info.value)
    assert isinstance(info.value, LLMError)
    assert not list((tmp_path / "cache").rglob("*.json"))


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ('{"a": [1, 2]}', {"a": [1, 2]}),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ("```\n[1, 2]\n```", [1, 2]),
        ('Here it is: {"a": {"b": "}"}} hope that helps', {"a": {"b": "}"}}),
        ('<think>maybe {"x": 0}</think>{"a": 1}', {"a": 1}),
        ('{"a": [1, 2,],}', {"a": [1, 2]}),
        ('Answer: ["x", "y"].', ["x", "y"]),
    ],
)
def test_extract_json(answer: str, expected: object) -> None:
    assert extract_json(answer) == expected


@pytest.mark.parametrize(
    ("answer", "reason"),
    [("", "empty"), ("no json here", "no JSON object"), ('{"a": 1', "invalid JSON")],
)
def test_extract_json_errors(answer: str, reason: str) -> None:
    with pytest.raises(JSONExtractError, match=reason):
        extract_json(answer)


# -- concurrency, usage, config ----------------------------------------------------------------


def test_concurrency_limit_is_honoured(tmp_path: Path) -> None:
    with (
        running(Reply("ok", delay=0.05), tmp_path, concurrency=2, cache_dir=None) as (srv, client),
        ThreadPoolExecutor(max_workers=8) as pool,
    ):
        answers = list(pool.map(lambda i: client.chat(USER, seed=i), range(16)))
    assert answers == ["ok"] * 16
    assert len(srv.requests) == 16
    assert 1 <= srv.max_in_flight <= 2
    assert client.usage.requests == 16


def test_usage_and_cost_totals(tmp_path: Path) -> None:
    reply = Reply("ok", usage={"prompt_tokens": 1000, "completion_tokens": 200})
    with running(reply, tmp_path, price_in=2.0, price_out=10.0) as (srv, client):
        client.chat(USER)
        client.chat(USER, seed=1)
        client.chat(USER)  # cache hit: no tokens
    u = client.usage
    assert (u.requests, u.cache_hits, u.prompt_tokens, u.completion_tokens) == (2, 1, 2000, 400)
    assert u.cost == pytest.approx((2000 * 2.0 + 400 * 10.0) / 1e6)
    assert u.as_dict()["cost"] == pytest.approx(u.cost)


def test_fake_server_counts_words_without_usage(tmp_path: Path) -> None:
    with running("three word answer", tmp_path) as (srv, client):
        client.chat(USER)
    assert (client.usage.prompt_tokens, client.usage.completion_tokens) == (2, 3)


def test_config_from_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("LOGIR_LLM_BASE_URL", raising=False)
    with pytest.raises(LogirError, match="no LLM endpoint"):
        LLMConfig.from_env()
    monkeypatch.setenv("LOGIR_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("LOGIR_LLM_MODEL", "qwen")
    monkeypatch.setenv("LOGIR_CACHE", str(tmp_path))
    config = LLMConfig.from_env(timeout=3.0, concurrency=None)
    assert (config.base_url, config.model, config.timeout) == ("http://127.0.0.1:9/v1", "qwen", 3.0)
    assert config.concurrency is None and config.cache_dir == tmp_path / "llm"  # None: auto
    assert config.url == "http://127.0.0.1:9/v1/chat/completions"


@pytest.mark.parametrize(
    "bad",
    [{"base_url": "127.0.0.1:8080"}, {"timeout": 0}, {"concurrency": 0}, {"max_retries": -1}],
)
def test_config_rejects_bad_values(bad: dict) -> None:
    values = {"base_url": "http://h/v1", "model": "m", **bad}
    with pytest.raises(LogirError):
        LLMConfig(**values)


def test_usage_is_a_plain_dataclass(tmp_path: Path) -> None:
    import copy
    import dataclasses

    with running("a b", tmp_path) as (_srv, client):
        client.chat(USER)
    totals = dataclasses.asdict(client.usage)
    assert totals["requests"] == 1 and totals["completion_tokens"] == 2
    assert copy.deepcopy(client.usage).requests == 1


def test_cache_is_per_endpoint(tmp_path: Path) -> None:
    with running("first", tmp_path) as (_a, one), running("second", tmp_path) as (_b, two):
        assert one.chat(USER) == "first"
        assert two.chat(USER) == "second"  # same model name, other server: not a cache hit
    assert two.usage.cache_hits == 0
