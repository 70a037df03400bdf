"""Optional bearer token: every route but the public ones needs ``Authorization: Bearer TOKEN``."""

from __future__ import annotations

import hmac

from logir.serve.limits import ASGIApp, Receive, Scope, Send, send_error

#: paths open without the token: the health check, the pages and their assets, the API docs
PUBLIC_PATHS = frozenset({"/", "/healthz", "/docs", "/docs/oauth2-redirect", "/openapi.json"})
PUBLIC_PREFIXES = ("/static/",)


def is_public(path: str) -> bool:
    return path in PUBLIC_PATHS or path.startswith(PUBLIC_PREFIXES)


class BearerAuth:
    """ASGI middleware answering 401 with a message when the token is missing or wrong."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        if not token:
            raise ValueError("the bearer token must not be empty")
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or is_public(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope.get("headers", []) if k == b"authorization"), None)
        if given is None:
            await _unauthorized(send, "missing Authorization header: send 'Bearer <token>'")
        elif not hmac.compare_digest(given, self.expected):
            await _unauthorized(send, "invalid bearer token in the Authorization header")
        else:
            await self.app(scope, receive, send)


async def _unauthorized(send: Send, message: str) -> None:
    await send_error(send, 401, message, extra_headers=[(b"www-authenticate", b"Bearer")])
