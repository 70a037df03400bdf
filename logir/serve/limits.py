"""What one request may ask of the server, and the middleware that caps request bodies.

The body cap is enforced before anything parses the body: a ``Content-Length`` over the cap is
answered 413 at once (the body is read and dropped, up to a hard bound, so that the client sees
the answer rather than a reset connection); a chunked body is counted as it arrives.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class Limits:
    """Caps on one request: query length in characters, hits, terms and body size in bytes."""

    max_query_chars: int = 1000
    max_k: int = 1000
    max_terms: int = 16
    max_body_bytes: int = 32 * 1024

    def __post_init__(self) -> None:
        for name in ("max_query_chars", "max_k", "max_terms", "max_body_bytes"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"Limits.{name} must be a positive integer, got {value!r}")


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
    """ASGI middleware: requests whose body exceeds ``max_bytes`` get 413 before any parsing."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

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
        too_big = f"request body too large: the limit is {self.max_bytes} bytes"
        if declared is not None and declared > self.max_bytes:
            drained = await self._drain(receive, self.max_bytes * DRAIN_FACTOR)
            await send_error(send, 413, too_big, close=not drained)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            more = message.get("more_body", False)
            if size > self.max_bytes:
                # read the rest (if any) so the answer reaches the client and the connection lives
                drained = not more or await self._drain(
                    receive, self.max_bytes * DRAIN_FACTOR - size
                )
                await send_error(send, 413, too_big, close=not drained)
                return
            chunks.append(chunk)
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

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
