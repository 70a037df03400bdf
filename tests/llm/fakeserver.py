"""A scripted OpenAI-compatible chat server on 127.0.0.1 for tests (real HTTP, own thread)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeLLMServer", "Reply"]


@dataclass(frozen=True)
class Reply:
    """One scripted answer: content (or error text), status, delay, drop, Retry-After, usage."""

    content: str | None = None
    status: int = 200
    delay: float = 0.0
    drop: bool = False
    retry_after: float | str | None = None
    usage: dict[str, int] | None = None


Responder = Callable[[dict[str, Any]], "Reply | str"]


def _words(text: str) -> int:
    return len(text.split())


class FakeLLMServer:
    """``with FakeLLMServer(responder) as srv:`` serves POST /v1/chat/completions at srv.base_url.

    Records every JSON body in ``srv.requests`` and its headers in ``srv.headers``;
    ``srv.max_in_flight`` is the most requests handled at once.

    To play a llama.cpp server: ``props`` is answered on GET /props (e.g. ``{"total_slots": 1,
    "default_generation_settings": {"n_ctx": 512}}``) and POST /tokenize counts words as tokens
    (``tokenize=True``); ``refuse_formats`` lists response_format types answered with HTTP 400
    naming ``response_format``; ``context`` makes a request whose prompt words + max_tokens
    exceed it fail with llama-cpp-python's HTTP 400. GET and tokenize calls go to ``srv.gets``.
    """

    def __init__(
        self,
        responder: Responder | Reply | str,
        *,
        props: dict[str, Any] | None = None,
        tokenize: bool = False,
        refuse_formats: Sequence[str] = (),
        context: int | None = None,
    ) -> None:
        if isinstance(responder, Reply | str):
            fixed = responder
            responder = lambda body: fixed  # noqa: E731
        self.responder: Responder = responder
        self.props = props
        self.tokenize = tokenize
        self.refuse_formats = tuple(refuse_formats)
        self.context = context
        self.gets: list[str] = []
        self.refused: list[dict[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.max_in_flight = 0
        self._in_flight = 0
        self._lock = threading.Lock()
        self._local = threading.local()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._port: int | None = None

    @staticmethod
    def script(replies: Sequence[Reply | str]) -> Responder:
        """A responder giving ``replies`` in order, then the last one again and again."""
        if not replies:
            raise ValueError("script() needs at least one reply")
        items = list(replies)
        lock = threading.Lock()
        state = {"next": 0}

        def responder(body: dict[str, Any]) -> Reply | str:
            with lock:
                i = min(state["next"], len(items) - 1)
                state["next"] += 1
            return items[i]

        return responder

    # -- lifecycle -------------------------------------------------------------------------
    @property
    def port(self) -> int:
        assert self._port is not None, "server not started"
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeLLMServer:
        """Serve (again a no-op once started)."""
        if self._httpd is not None:
            return self
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802
                server._handle(self)

            def do_GET(self) -> None:  # noqa: N802
                server._get(self)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._port = self._httpd.server_address[1]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- one request -----------------------------------------------------------------------
    def _get(self, h: BaseHTTPRequestHandler) -> None:
        with self._lock:
            self.gets.append(f"GET {h.path}")
        if h.path.rstrip("/") == "/props" and self.props is not None:
            self._send(h, 200, self.props)
        else:
            self._send(h, 404, {"error": {"message": f"no route {h.path}"}})

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        with self._lock:
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
        self._local.counted = True
        try:
            self._answer(h)
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass  # the client gave up (timeout) before the answer was written
        finally:
            self._done()

    def _done(self) -> None:
        """The request stops counting as in flight (once), before its answer leaves: a client
        that starts its next request on reading the answer must not find this one still counted."""
        if getattr(self._local, "counted", False):
            self._local.counted = False
            with self._lock:
                self._in_flight -= 1

    def _answer(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            self._send(h, 400, {"error": {"message": "request body is not JSON"}})
            return
        with self._lock:
            self.requests.append(body)
            self.headers.append({k.lower(): v for k, v in h.headers.items()})
        if h.path.rstrip("/") in ("/tokenize", "/extras/tokenize"):  # not a chat request
            with self._lock:
                self.gets.append(f"POST {h.path}")
                self.requests.pop()
                self.headers.pop()
            if self.tokenize and h.path.rstrip("/") == "/tokenize":
                words = _words(str(body.get("content", "")))
                self._send(h, 200, {"tokens": list(range(words))})
            else:
                self._send(h, 404, {"error": {"message": f"no route {h.path}"}})
            return
        if h.path.rstrip("/") != "/v1/chat/completions":
            self._send(h, 404, {"error": {"message": f"no route {h.path}"}})
            return
        kind = (body.get("response_format") or {}).get("type")
        if kind is not None and kind in self.refuse_formats:
            with self._lock:
                self.refused.append(body)
                self.requests.pop()
                self.headers.pop()
            message = f"response_format type {kind!r} is not supported"
            self._send(h, 400, {"error": {"message": message}})
            return
        if self.context is not None:
            prompt = sum(_words(str(m.get("content", ""))) for m in body.get("messages", []))
            wanted = prompt + int(body.get("max_tokens") or 0)
            if wanted > self.context:
                message = f"Requested tokens ({wanted}) exceed context window of {self.context}"
                self._send(h, 400, {"error": {"message": message}})
                return
        reply = self.responder(body)
        if isinstance(reply, str):
            reply = Reply(content=reply)
        if reply.delay:
            time.sleep(reply.delay)
        if reply.drop:
            h.close_connection = True
            self._done()
            with contextlib.suppress(OSError):
                h.connection.shutdown(socket.SHUT_RDWR)
            return
        if reply.status != 200:
            extra = {} if reply.retry_after is None else {"Retry-After": str(reply.retry_after)}
            message = reply.content or f"fake error {reply.status}"
            self._send(h, reply.status, {"error": {"message": message}}, extra)
            return
        content = reply.content or ""
        prompt = " ".join(str(m.get("content", "")) for m in body.get("messages", []))
        usage = reply.usage or {
            "prompt_tokens": _words(prompt),
            "completion_tokens": _words(content),
        }
        usage = {**usage, "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]}
        self._send(
            h,
            200,
            {
                "id": f"chatcmpl-fake-{len(self.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "fake"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": usage,
            },
        )

    def _send(
        self,
        h: BaseHTTPRequestHandler,
        status: int,
        payload: dict[str, Any],
        headers: dict[str, str] | None = None,
    ) -> None:
        data = json.dumps(payload).encode("utf-8")
        self._done()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            h.send_header(name, value)
        h.end_headers()
        h.wfile.write(data)
