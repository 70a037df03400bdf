"""Local ports for tests: one free to listen on, or an endpoint nothing answers."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (nothing listens on it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def closed_url() -> str:
    """An OpenAI-style API root on 127.0.0.1 where no server listens (connections are refused)."""
    return f"http://127.0.0.1:{free_port()}/v1"
