"""What both servers (``logir serve``, ``logir review``) need before they start listening."""

from __future__ import annotations

import os
import socket

from logir.errors import LogirError


def read_token(token_env: str | None, default_env: str) -> str | None:
    """The bearer token from the environment, never from the command line.

    ``token_env`` (``--token-env NAME``) must be set when named explicitly; ``default_env`` is
    optional (unset or empty means no token).
    """
    name = token_env or default_env
    value = os.environ.get(name, "").strip()
    if token_env and not value:
        raise LogirError(f"--token-env {token_env}: environment variable {token_env} is not set")
    return value or None


def check_port(host: str, port: int) -> None:
    """Fail with a one-line message, before loading anything, when host:port cannot be bound."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise LogirError(f"cannot resolve host {host!r}: {exc.strerror}") from None
    family, _, _, _, addr = infos[0]
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(addr)
    except OSError as exc:
        msg = f"cannot listen on {host}:{port} ({exc.strerror or exc}); choose another --port"
        raise LogirError(msg) from None
