"""The API under hostile input (issue 10): bounded composer specs, a worker that never blocks the
event loop, per-request deadlines, and bodies that never arrive."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from logir.data.dataset import Document  # noqa: E402
from logir.index.store import build_index  # noqa: E402
from logir.serve import Limits, create_app  # noqa: E402
from logir.serve.live import LiveServer  # noqa: E402

PASSAGES = [
    "Vitamin D supports bone health and helps the body absorb calcium.",
    "Christopher Nolan directed Inception, Interstellar and Oppenheimer.",
    "Denis Villeneuve directed Arrival and Dune, both science fiction films.",
    "Sunlight on the skin lets the body make its own vitamin D.",
]
GUARD_S = 30  # how long a test waits for something that should happen at once (never asserted)


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = [Document(id=f"p{i}", text=t, title=f"passage {i}") for i, t in enumerate(PASSAGES)]
    return build_index(docs, tmp_path_factory.mktemp("hardening") / "index", retrievers=("bm25",))


@pytest.fixture(scope="module")
def client(index_dir: Path) -> Iterator[httpx.Client]:
    with (
        LiveServer(create_app(index_dir)) as live,
        httpx.Client(base_url=live.url, timeout=GUARD_S) as c,
    ):
        yield c


def _assert_error(r: httpx.Response, status: int, words: str) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    message = r.json()["error"]
    assert words in message, message


# -- composer specs ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "composer,words",
    [
        ("exclusion,beta=nan", "finite number"),
        ("auto,beta=nan", "finite number"),
        ("exclusion,beta=inf", "finite number"),
        ("fuzzy,k=1e12", "an integer from 1 to 10000"),
        ("sets,depth=1e12", "an integer from 1 to 10000"),
        ("sets,depth=100000000", "an integer from 1 to 10000"),
        ("fuzzy,tau=nan,lam=1", "'tau'"),
        ("vectors,k=1000000", "'k'"),
    ],
)
def test_unbounded_composer_parameters_get_400(client: httpx.Client, composer: str, words: str):
    r = client.post("/search", json={"query": "vitamin D AND NOT bone", "composer": composer})
    _assert_error(r, 400, words)


def test_deepest_allowed_composer_still_answers(client: httpx.Client) -> None:
    body = {"query": "vitamin OR films", "composer": "sets,depth=10000", "k": 1000}
    r = client.post("/search", json=body)
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("query", ["(" * 1000 + "a", ")" * 1000, "(" * 500 + "a" + ")" * 500])
def test_unbalanced_parentheses_are_a_client_error(client: httpx.Client, query: str) -> None:
    for path in ("/parse", "/search"):
        r = client.post(path, json={"query": query})
        assert 400 <= r.status_code < 500 or r.status_code == 200, r.text


# -- the event loop stays free; deadlines --------------------------------------------------------


class Gate:
    """Makes the engine's next search wait until ``release`` is set; later ones run as usual."""

    def __init__(self, engine: Any) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.finished = threading.Event()
        real: Callable[..., Any] = engine.search
        first = [True]

        def search(*args: Any, **kwargs: Any) -> Any:
            if first[0]:
                first[0] = False
                self.started.set()
                self.release.wait(GUARD_S)
                try:
                    return real(*args, **kwargs)
                finally:
                    self.finished.set()
            return real(*args, **kwargs)

        engine.search = search


def _in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(work()), daemon=True)
    thread.start()
    return thread, out


def test_healthz_answers_while_a_search_runs(index_dir: Path) -> None:
    app = create_app(index_dir)
    gate = Gate(app.state.engine)
    with LiveServer(app) as live, httpx.Client(base_url=live.url, timeout=GUARD_S) as c:
        thread, out = _in_thread(lambda: c.post("/search", json={"query": "vitamin D"}))
        assert gate.started.wait(GUARD_S)
        with httpx.Client(base_url=live.url, timeout=GUARD_S) as other:
            health = other.get("/healthz")
            info = other.get("/info")
            assert health.status_code == 200 and health.json()["status"] == "ok"
            assert info.status_code == 200 and info.json()["limits"]["request_timeout_s"] == 20
        assert thread.is_alive() and not gate.finished.is_set()  # the search was still running
        gate.release.set()
        thread.join(GUARD_S)
        assert out[0].status_code == 200 and out[0].json()["hits"]


def test_a_search_past_its_deadline_gets_503_and_the_next_ones_are_not_queued_forever(
    index_dir: Path,
) -> None:
    app = create_app(index_dir, limits=Limits(request_timeout_s=0.5))
    gate = Gate(app.state.engine)
    with LiveServer(app) as live, httpx.Client(base_url=live.url, timeout=GUARD_S) as c:
        slow = c.post("/search", json={"query": "vitamin D"})
        assert gate.started.is_set() and not gate.finished.is_set()
        _assert_error(slow, 503, "took longer than the server's limit of 0.5 s")
        assert int(slow.headers["retry-after"]) >= 1
        # the worker is still busy with it: the next request waits its own deadline, no longer
        _assert_error(c.post("/parse", json={"query": "films"}), 503, "did not start within")
        assert not gate.finished.is_set()
        # the health check does not wait at all
        assert c.get("/healthz").status_code == 200
        gate.release.set()
        assert gate.finished.wait(GUARD_S)
        r = c.post("/search", json={"query": "vitamin D"})
        assert r.status_code == 200 and r.json()["hits"]


def test_too_many_waiting_requests_get_503_at_once(index_dir: Path) -> None:
    app = create_app(index_dir, limits=Limits(max_waiting=1))
    gate = Gate(app.state.engine)
    with LiveServer(app) as live, httpx.Client(base_url=live.url, timeout=GUARD_S) as c:
        thread, out = _in_thread(lambda: c.post("/search", json={"query": "vitamin D"}))
        assert gate.started.wait(GUARD_S)
        with httpx.Client(base_url=live.url, timeout=GUARD_S) as other:
            _assert_error(other.post("/search", json={"query": "films"}), 503, "server busy")
        gate.release.set()
        thread.join(GUARD_S)
        assert out[0].status_code == 200


def test_input_nested_past_the_recursion_limit_is_a_400(index_dir: Path) -> None:
    app = create_app(index_dir)

    def too_deep(*args: Any) -> Any:
        raise RecursionError("maximum recursion depth exceeded")

    app.state.engine.parse = too_deep
    with LiveServer(app) as live, httpx.Client(base_url=live.url, timeout=GUARD_S) as c:
        _assert_error(c.post("/parse", json={"query": "(((a"}), 400, "nested too deeply")
        assert c.post("/search", json={"query": "vitamin"}).status_code == 200


# -- bodies that never arrive ------------------------------------------------------------------


def _raw(url: str, request: bytes) -> bytes:
    """Send ``request`` and read until the server closes the connection."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=GUARD_S) as s:
        s.sendall(request)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    return got


@pytest.mark.parametrize("sent", [b"", b'{"query": "vit'])
def test_a_body_that_never_arrives_gets_408_and_the_connection_closes(
    index_dir: Path, sent: bytes
) -> None:
    with LiveServer(create_app(index_dir, limits=Limits(body_timeout_s=0.3))) as live:
        head = (
            b"POST /search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n"
        )
        answer = _raw(live.url, head + sent)  # returns only once the server closed it
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert b"did not arrive within 0.3 s" in answer
        # the server is fine afterwards
        assert httpx.get(live.url + "/healthz", timeout=GUARD_S).status_code == 200


def test_a_chunked_body_that_stops_midway_gets_408(index_dir: Path) -> None:
    with LiveServer(create_app(index_dir, limits=Limits(body_timeout_s=0.3))) as live:
        head = (
            b"POST /parse HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b'Transfer-Encoding: chunked\r\n\r\n5\r\n{"que\r\n'
        )
        assert _raw(live.url, head).startswith(b"HTTP/1.1 408")


def test_an_idle_keep_alive_connection_is_closed() -> None:
    from logir.serve.cli import uvicorn_options

    options = uvicorn_options("127.0.0.1", 8000)
    assert 0 < options["timeout_keep_alive"] <= 30
    assert options["timeout_graceful_shutdown"] > 0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"request_timeout_s": 0},
        {"request_timeout_s": float("nan")},
        {"body_timeout_s": float("inf")},
        {"body_timeout_s": True},
        {"max_waiting": 0},
        {"max_k": 1001},  # past logir.limits.MAX_K, what the CLI allows
    ],
)
def test_limits_refuse_bad_timeouts(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Limits(**kwargs)
