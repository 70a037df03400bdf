"""The HTTP API's mode "llm": a server started with an LLM endpoint (a fake one here) reads
queries with it, falls back to the rules with the reason, and a server without one refuses."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from logir.data.dataset import Document  # noqa: E402
from logir.index.store import build_index  # noqa: E402
from logir.llm import ChatClient, LLMConfig  # noqa: E402
from logir.serve import create_app  # noqa: E402
from logir.serve.live import LiveServer  # noqa: E402
from tests.llm.fakeserver import FakeLLMServer  # noqa: E402

PASSAGES = [
    "Christopher Nolan directed Inception, Interstellar and Oppenheimer.",
    "Denis Villeneuve directed Arrival and Dune, both science fiction films.",
    "Octavia Butler wrote Kindred and the Parable novels.",
]
GROUNDED = "films by Nolan or Villeneuve"
COPIED = "films directed by Denis Villeneuve"
FORMS = {
    GROUNDED: '"films by Nolan" OR "films by Villeneuve"',
    COPIED: '"science fiction novels by Octavia Butler"',
}


def _answer(body: dict) -> str:
    question = body["messages"][-1]["content"].removeprefix("Question: ")
    return json.dumps({"logical_form": FORMS.get(question, '"x')})


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = [Document(id=f"p{i}", text=t) for i, t in enumerate(PASSAGES)]
    return build_index(docs, tmp_path_factory.mktemp("api-llm") / "idx", retrievers=("bm25",))


@pytest.fixture(scope="module")
def llm_server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(_answer) as srv:
        yield srv


@pytest.fixture(scope="module")
def client(
    index_dir: Path, llm_server: FakeLLMServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[httpx.Client]:
    config = LLMConfig(
        llm_server.base_url, "m", max_retries=0, cache_dir=tmp_path_factory.mktemp("cache")
    )
    with (
        ChatClient(config) as llm,
        LiveServer(create_app(index_dir, llm=llm)) as live,
        httpx.Client(base_url=live.url, timeout=30) as c,
    ):
        yield c


def test_mode_llm_reads_with_the_llm(client: httpx.Client) -> None:
    r = client.post("/search", json={"query": GROUNDED, "mode": "llm", "composer": "fuzzy"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["mode_used"] == "llm" and body["fallback"] is None
    assert body["logical_form"] == FORMS[GROUNDED]
    assert client.get("/info").json()["llm"] is True


def test_mode_llm_falls_back_with_the_reason(client: httpx.Client) -> None:
    for path in ("/parse", "/search"):
        r = client.post(path, json={"query": COPIED, "mode": "llm"})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["mode_used"] == "natural" and body["logical_form"] == f'"{COPIED}"'
        assert "repeats worked example 2 of the prompt" in body["fallback"]
    r = client.post("/parse", json={"query": "cats but not dogs", "mode": "llm"})
    body = r.json()
    assert body["mode_used"] == "natural" and "answer was unusable" in body["fallback"]
    assert "endpoint failed" not in body["fallback"]


def test_server_without_llm_refuses_mode_llm(index_dir: Path) -> None:
    with (
        LiveServer(create_app(index_dir)) as live,
        httpx.Client(base_url=live.url, timeout=30) as c,
    ):
        for path in ("/parse", "/search"):
            r = c.post(path, json={"query": GROUNDED, "mode": "llm"})
            assert r.status_code == 400 and "no LLM endpoint" in r.json()["error"], r.text
        assert c.post("/parse", json={"query": GROUNDED, "mode": "gpt"}).status_code == 422
        body = c.post("/parse", json={"query": GROUNDED}).json()
        assert body["mode_used"] == "natural" and body["fallback"] is None
        assert c.get("/info").json()["llm"] is False


def test_serve_command_builds_a_bounded_llm_client(
    index_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc
    import sys

    import uvicorn

    import logir.serve.app as app_module
    from logir.cli import main

    seen: dict = {}
    real = app_module.create_app

    def spy(index, **kwargs):
        seen.update(kwargs)
        return real(index, **kwargs)

    monkeypatch.setattr(app_module, "create_app", spy)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    monkeypatch.setattr(gc, "freeze", lambda: None)  # serve's settings stay out of this process
    monkeypatch.setattr(sys, "setswitchinterval", lambda seconds: None)
    monkeypatch.delenv("LOGIR_LLM_BASE_URL", raising=False)
    args = ["logir", "serve", str(index_dir), "--port", "0", "--request-timeout", "7"]
    for extra, timeout in (([], None), (["--llm-base-url", "http://127.0.0.1:9/v1"], 7.0)):
        seen.clear()
        monkeypatch.setattr(sys, "argv", [*args, *extra])
        with pytest.raises(SystemExit) as info:
            main()
        assert info.value.code in (0, None)
        llm = seen["llm"]
        if timeout is None:
            assert llm is None
        else:
            assert llm.config.timeout == timeout and llm.config.concurrency == 1
