"""What one request may ask of the server, and the middleware that caps request bodies.

The body cap is enforced before anything parses the body: a ``Content-Length`` over the cap is
answered 413 at once (the body is read and dropped, up to a hard bound, so that the client sees
the answer rather than a reset connection); a chunked body is counted as it arrives. A body that
has not fully arrived within the time limit is answered 408 and its connection closed, so a
client that declares a body and never sends it holds nothing for long.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from logir.limits import MAX_K

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class Limits:
    """Caps on one request: query length in characters, hits, terms, body size in bytes, and
    time: ``body_timeout_s`` to receive the whole body, ``request_timeout_s`` for the answer
    (waiting for earlier requests included), ``max_waiting`` requests queued at once."""

    max_query_chars: int = 1000
    max_k: int = MAX_K
    max_terms: int = 16
    max_body_bytes: int = 32 * 1024
    request_timeout_s: float = 20.0
    body_timeout_s: float = 10.0
    max_waiting: int = 16

    def __post_init__(self) -> None:
        for name in ("max_query_chars", "max_k", "max_terms", "max_body_bytes", "max_waiting"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"Limits.{name} must be a positive integer, got {value!r}")
        if self.max_k > MAX_K:
            raise ValueError(f"Limits.max_k must be at most {MAX_K} (logir.limits.MAX_K)")
        for name in ("request_timeout_s", "body_timeout_s"):
            value = getattr(self, name)
            ok = isinstance(value, int | float) and not isinstance(value, bool)
            if not ok or not 0 < value <= MAX_TIMEOUT_S:
                raise ValueError(
                    f"Limits.{name} must be a number of seconds in (0, {MAX_TIMEOUT_S:g}], "
                    f"got {value!r}"
                )


#: the longest a server may be told to wait for one body or one answer (an hour)
MAX_TIMEOUT_S = 3600.0

#: a body this much larger than the cap is not read to its end: the connection is closed instead
DRAIN_FACTOR = 64


async def send_error(
    send: Send,
    status: int,
    message: str,
    close: bool = False,
    extra_headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    """Answer ``{"error": message}`` with ``status`` straight on the ASGI channel."""
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += extra_headers or []
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """ASGI middleware: requests whose body exceeds ``max_bytes`` get 413 before any parsing, and
    those whose body has not fully arrived ``timeout_s`` seconds after the headers get 408 and
    a closed connection."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout_s: float = 10.0) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = None
        for key, value in scope.get("headers", []):
            if key == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await send_error(send, 400, "the Content-Length header is not a number")
                    return
        deadline = asyncio.get_running_loop().time() + self.timeout_s

        async def within(receive: Receive = receive) -> Message:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError
            return await asyncio.wait_for(receive(), left)

        try:
            body = await self._read(within, send, declared)
        except TimeoutError:
            await send_error(
                send, 408, f"the request body did not arrive within {self.timeout_s:g} s", True
            )
            return
        if body is None:
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _read(self, receive: Receive, send: Send, declared: int | None) -> bytes | None:
        """The whole body, or None once an answer was sent (413) or the client went away."""
        too_big = f"request body too large: the limit is {self.max_bytes} bytes"
        if declared is not None and declared > self.max_bytes:
            drained = await self._drain(receive, self.max_bytes * DRAIN_FACTOR)
            await send_error(send, 413, too_big, close=not drained)
            return None
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            more = message.get("more_body", False)
            if size > self.max_bytes:
                # read the rest (if any) so the answer reaches the client and the connection lives
                drained = not more or await self._drain(
                    receive, self.max_bytes * DRAIN_FACTOR - size
                )
                await send_error(send, 413, too_big, close=not drained)
                return None
            chunks.append(chunk)
        return b"".join(chunks)

    @staticmethod
    async def _drain(receive: Receive, budget: int) -> bool:
        """Read and drop the rest of the body; False when it ran past ``budget`` bytes."""
        while budget >= 0:
            message = await receive()
            if message["type"] != "http.request":
                return False
            budget -= len(message.get("body", b""))
            if not message.get("more_body", False):
                return budget >= 0
        return False
