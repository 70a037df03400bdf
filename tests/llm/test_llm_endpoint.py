"""What the client sends to a real-server-like endpoint: JSON schemas as response_format (with the
fallback learnt once), per-task max_tokens, context budgeting, slots, retries shown, progress."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from logir.llm import ChatClient, LLMConfig, LLMContextError, LLMOutputError
from logir.llm import schema as js
from logir.llm.endpoint import context_from_error, is_loopback
from logir.llm.formats import FormatMemory
from logir.progress import Bars
from tests.llm.fakeserver import FakeLLMServer, Reply

USER = [{"role": "user", "content": "say something"}]
SCHEMA = js.obj("pair", a=js.integer(), b=js.string(1, 20))
LLAMA_CPP_ONE_SLOT = {"total_slots": 1, "default_generation_settings": {"n_ctx": 60}}


@pytest.fixture(autouse=True)
def _fresh_memory() -> None:
    FormatMemory.forget_process()


def client_for(srv: FakeLLMServer, tmp_path: Path, **overrides) -> ChatClient:
    values = {"backoff": 0.0, "cache_dir": tmp_path / "cache", **overrides}
    return ChatClient(LLMConfig(srv.base_url, "m", **values), notify=lambda line: None)


def test_schema_is_sent_as_json_schema_response_format(tmp_path: Path) -> None:
    with FakeLLMServer('{"a": 1, "b": "x"}') as srv, client_for(srv, tmp_path) as client:
        assert client.chat_json(USER, schema=SCHEMA) == {"a": 1, "b": "x"}
    fmt = srv.requests[0]["response_format"]
    assert fmt == {"type": "json_schema", "json_schema": {"name": "pair", "schema": SCHEMA}}


def test_refused_json_schema_falls_back_once_and_is_remembered(tmp_path: Path) -> None:
    lines: list[str] = []
    answer = '{"a": 1, "b": "x"}'
    with FakeLLMServer(answer, refuse_formats=["json_schema"]) as srv:
        config = LLMConfig(srv.base_url, "m", cache_dir=tmp_path / "cache")
        with ChatClient(config, notify=lines.append) as client:
            client.chat_json(USER, schema=SCHEMA)
            client.chat_json(USER, schema=SCHEMA, seed=1)
        assert len(srv.refused) == 1  # asked once, then remembered for the process
        sent = [r["response_format"] for r in srv.requests]
        assert sent == [{"type": "json_object", "schema": SCHEMA}] * 2
        assert any("json_schema" in line and "json_object_schema" in line for line in lines)
        stored = json.loads((tmp_path / "cache" / "endpoints.json").read_text())
        assert stored[srv.base_url + "/chat/completions"] == {
            "response_format": "json_object_schema"
        }
        FormatMemory.forget_process()  # a new process reads it from the cache folder
        with client_for(srv, tmp_path) as again:
            again.chat_json(USER, schema=SCHEMA, seed=2)
    assert len(srv.refused) == 1 and len(srv.requests) == 3


def test_every_form_refused_ends_with_plain_requests(tmp_path: Path) -> None:
    refuse = ["json_schema", "json_object"]
    srv = FakeLLMServer('{"a": 1, "b": "x"}', refuse_formats=refuse).start()
    with srv, client_for(srv, tmp_path) as client:
        assert client.chat_json(USER, schema=SCHEMA) == {"a": 1, "b": "x"}
    assert [r["response_format"]["type"] for r in srv.refused] == ["json_schema"] + [
        "json_object"
    ] * 2
    assert "response_format" not in srv.requests[0]


def test_task_max_tokens_and_the_override(tmp_path: Path) -> None:
    with FakeLLMServer("{}") as srv:
        with client_for(srv, tmp_path, cache_dir=None) as client:
            client.chat(USER, max_tokens=160)
            client.chat(USER)
        with client_for(srv, tmp_path, cache_dir=None, max_tokens=50) as capped:
            capped.chat(USER, max_tokens=160)
    assert [r["max_tokens"] for r in srv.requests] == [160, 1024, 50]


def test_local_llama_cpp_slots_and_context_are_learnt(tmp_path: Path) -> None:
    props = {"total_slots": 1, "default_generation_settings": {"n_ctx": 4096}}
    with (
        FakeLLMServer(Reply("ok", delay=0.05), props=props, tokenize=True) as srv,
        client_for(srv, tmp_path, cache_dir=None) as client,
        ThreadPoolExecutor(max_workers=4) as pool,
    ):
        assert client.workers == 4  # threads may queue, but in the client
        list(pool.map(lambda i: client.chat(USER, seed=i), range(8)))
        info = client.endpoint
    assert (info.server, info.slots, info.context, info.local) == ("llama.cpp", 1, 4096, True)
    assert srv.max_in_flight == 1 and len(srv.requests) == 8
    assert srv.gets.count("GET /props") == 1  # asked once per client


def test_a_request_that_cannot_fit_is_not_sent(tmp_path: Path) -> None:
    long = [{"role": "user", "content": "word " * 30}]
    srv = FakeLLMServer("{}", props=LLAMA_CPP_ONE_SLOT, tokenize=True).start()
    with srv, client_for(srv, tmp_path) as client, pytest.raises(LLMContextError) as info:
        client.chat(long, max_tokens=40)
    assert srv.requests == []
    assert "counted by the server" in str(info.value) and "> 60" in str(info.value)
    assert info.value.context == 60


def test_a_repair_turn_that_cannot_fit_is_not_sent(tmp_path: Path) -> None:
    prompt = [{"role": "user", "content": "a b c d e"}]
    srv = FakeLLMServer("not json at all", props=LLAMA_CPP_ONE_SLOT, tokenize=True).start()
    with srv, client_for(srv, tmp_path) as client, pytest.raises(LLMOutputError) as info:
        client.chat_json(prompt, max_tokens=20)
    assert len(srv.requests) == 1  # the first turn fits (5 + 8 + 16 + 20); the repair does not
    assert "repair turn would not fit" in str(info.value) and "no JSON" in str(info.value)


def test_context_named_by_an_overflow_error_is_learnt(tmp_path: Path) -> None:
    prompt = [{"role": "user", "content": "one two three"}]
    with FakeLLMServer("{}", context=100) as srv, client_for(srv, tmp_path) as client:
        with pytest.raises(LLMContextError) as info:
            client.chat(prompt, max_tokens=500)
        assert client.context == 100 and info.value.context == 100
        with pytest.raises(LLMContextError):  # now refused before sending
            client.chat(prompt, max_tokens=400)
    assert len(srv.requests) == 1


def test_context_option_budgets_without_asking(tmp_path: Path) -> None:
    with FakeLLMServer("{}") as srv, client_for(srv, tmp_path, context=64) as client:
        with pytest.raises(LLMContextError, match="estimated"):
            client.chat([{"role": "user", "content": "x" * 300}], max_tokens=8)
        assert client.chat(USER, max_tokens=8) == "{}"
    assert len(srv.requests) == 1


def test_retries_are_shown_with_their_reason(tmp_path: Path) -> None:
    lines: list[str] = []
    script = FakeLLMServer.script([Reply(status=503, content="loading model"), "fine"])
    with FakeLLMServer(script) as srv:
        config = LLMConfig(srv.base_url, "m", backoff=0.0, cache_dir=None)
        with ChatClient(config, notify=lines.append) as client:
            assert client.chat(USER) == "fine"
    assert [x for x in lines if "retry" in x] == [
        "llm: retry 1 of 4 in 0.0s: HTTP 503: loading model"
    ]


def test_phase_reports_calls_requests_and_tokens(tmp_path: Path) -> None:
    seen: list[tuple] = []
    with FakeLLMServer("two words") as srv, client_for(srv, tmp_path) as client:
        client.report = lambda task, done, total, **kw: seen.append((task, done, total, kw))
        with client.phase("hyde: LLM calls", 3) as tick:
            for seed in (0, 1, 0):
                client.chat(USER, seed=seed)
                tick()
    assert [s[1:3] for s in seen] == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert seen[-1][3] == {
        "unit": "LLM calls",
        "info": "2 sent, 1 cached, 4 answer tokens",
    }


def test_bars_show_unit_and_info_without_a_terminal() -> None:
    from io import StringIO

    from rich.console import Console

    buffer = StringIO()
    with Bars("queries ranked", console=Console(file=buffer, width=200)) as bars:
        bars.update("hyde: LLM calls", 2, 2, unit="LLM calls", info="2 sent, 0 cached")
    assert buffer.getvalue().strip() == "hyde: LLM calls: 2/2 LLM calls (2 sent, 0 cached)"


@pytest.mark.parametrize(
    ("message", "context"),
    [
        ("Requested tokens (3118) exceed context window of 2048", 2048),
        ("the request exceeds the available context size (4096 tokens)", 4096),
        ("This model's maximum context length is 2048 tokens. However, you requested", 2048),
        ("model 'x' not found", None),
    ],
)
def test_context_from_error(message: str, context: int | None) -> None:
    assert context_from_error(message) == context


def test_loopback() -> None:
    assert is_loopback("http://127.0.0.1:8080/v1") and is_loopback("http://localhost/v1")
    assert not is_loopback("https://api.example.com/v1")


def test_llama_cpp_python_refusal_is_a_500_validation_error() -> None:
    from logir.llm.formats import rejects_format

    said = (
        "1 validation error: {'type': 'literal_error', 'loc': ('body', 'response_format', "
        "'type'), 'msg': \"Input should be 'text' or 'json_object'\"}"
    )
    assert rejects_format(500, said)
    assert not rejects_format(500, "CUDA out of memory") and not rejects_format(503, said)


def test_a_local_one_slot_server_is_never_timed_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import logir.llm.client as client_module

    monkeypatch.setattr(client_module, "DEFAULT_TIMEOUT", 0.2)
    slow = Reply("late but fine", delay=0.6)
    local = FakeLLMServer(slow, props={"total_slots": 1}).start()
    with local, client_for(local, tmp_path, cache_dir=None) as client:
        assert client.chat(USER) == "late but fine"
    assert len(local.requests) == 1 and client.usage.retries == 0
    unknown = FakeLLMServer(FakeLLMServer.script([slow, "second"])).start()  # says nothing
    with unknown, client_for(unknown, tmp_path, cache_dir=None) as client:
        assert client.chat(USER) == "second"
    assert len(unknown.requests) == 2 and client.usage.retries == 1


def test_a_body_nested_too_deeply_is_an_unusable_answer_not_a_crash(tmp_path: Path) -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from logir.llm import LLMError
    from logir.llm.endpoint import probe

    class Deep(BaseHTTPRequestHandler):
        def _send(self) -> None:
            self.rfile.read(int(self.headers.get("content-length") or 0))
            body = b"[" * 200_000  # json.loads raises RecursionError, not ValueError
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _send

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Deep)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    import httpx

    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/v1"

        with httpx.Client() as http:
            assert probe(http, url, {}).server is None  # nothing learnt, nothing raised
        config = LLMConfig(url, "m", max_retries=0, cache_dir=tmp_path / "cache")
        client = ChatClient(config, notify=lambda line: None)
        with client, pytest.raises(LLMError, match="not a chat completion"):
            client.chat(USER)
    finally:
        server.shutdown()
        server.server_close()
