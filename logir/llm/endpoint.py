"""What a chat endpoint is: its context size, its slots, whether it is a local llama.cpp server.

Asked once per client, on the first request that is not a cache hit, with a few short GETs that
any server may refuse (a refusal just leaves the field unknown):

- ``GET {root}/props``: llama.cpp's server answers ``n_ctx`` (in ``default_generation_settings``)
  and ``total_slots``;
- ``GET {base}/models``: llama.cpp lists ``meta``; llama-cpp-python's server is known by its
  owner ``"me"`` (it does not say its context size: give ``--llm-context``, or it is learnt
  from its first overflow error);
- ``POST {root}/extras/tokenize``: llama-cpp-python's tokenizer (llama.cpp's is ``/tokenize``).

llama-cpp-python serves one request at a time; llama.cpp serves ``total_slots`` at once.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import httpx

__all__ = ["EndpointInfo", "context_from_error", "is_loopback", "probe", "server_root"]

LLAMA_CPP = "llama.cpp"
LLAMA_CPP_PYTHON = "llama-cpp-python"

#: a context overflow as servers word it: llama-cpp-python (raw, then OpenAI-style), llama.cpp
_OVERFLOW = (
    re.compile(r"exceed context window of (\d+)"),
    re.compile(r"maximum context length is (\d+)"),
    re.compile(r"context size[^0-9]{0,40}?(\d+)"),
    re.compile(r"n_ctx[^0-9]{0,20}?(\d+)"),
)


@dataclass(frozen=True)
class EndpointInfo:
    """What is known of an endpoint; None where the server did not say."""

    server: str | None = None  # "llama.cpp", "llama-cpp-python" or None
    context: int | None = None  # tokens of context per request (per slot)
    slots: int | None = None  # requests the server works on at once
    tokenize_url: str | None = None  # POST here to count tokens
    local: bool = False  # on this machine (loopback address)

    def describe(self) -> str:
        """One line on what was learnt, for the user."""
        where = "local" if self.local else "remote"
        kind = self.server or "OpenAI-compatible"
        slots = f"{self.slots} slot{'s' if self.slots != 1 else ''}" if self.slots else "slots ?"
        context = f"context {self.context} tokens" if self.context else "context unknown"
        return f"{where} {kind} server, {slots}, {context}"


def server_root(base_url: str) -> str:
    """``base_url`` without a trailing ``/v1`` (where llama.cpp's own routes live)."""
    root = base_url.rstrip("/")
    return root[: -len("/v1")] if root.endswith("/v1") else root


def is_loopback(base_url: str) -> bool:
    """Whether ``base_url`` names this machine (localhost, 127.0.0.0/8, ::1)."""
    host = (urlsplit(base_url).hostname or "").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def context_from_error(message: str) -> int | None:
    """The context size a server names in a context-overflow error, else None."""
    for pattern in _OVERFLOW:
        match = pattern.search(message)
        if match:
            value = int(match.group(1))
            if value > 0:
                return value
    return None


def _get_json(http: httpx.Client, url: str, headers: dict[str, str], timeout: float) -> Any:
    import httpx

    try:
        response = http.get(url, headers=headers, timeout=timeout)
    except httpx.HTTPError:
        return None
    if response.status_code != 200:
        return None
    try:
        return response.json()
    except (ValueError, RecursionError):  # RecursionError: a body nested too deeply
        return None


def _positive(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _from_props(props: Any) -> tuple[int | None, int | None]:
    """(context, slots) from llama.cpp's ``/props``."""
    if not isinstance(props, dict):
        return None, None
    settings = props.get("default_generation_settings")
    context = _positive(settings.get("n_ctx")) if isinstance(settings, dict) else None
    return context or _positive(props.get("n_ctx")), _positive(props.get("total_slots"))


def _from_models(models: Any) -> tuple[str | None, int | None]:
    """(server kind, context) from ``/models``."""
    data = models.get("data") if isinstance(models, dict) else None
    if not isinstance(data, list) or not data or not isinstance(data[0], dict):
        return None, None
    first = data[0]
    meta = first.get("meta") if isinstance(first.get("meta"), dict) else {}
    context = _positive(meta.get("n_ctx"))
    if first.get("owned_by") == "me" and "permissions" in first:
        return LLAMA_CPP_PYTHON, context
    if first.get("owned_by") == "llamacpp":
        return LLAMA_CPP, context
    return None, context


def _tokenizes(http: httpx.Client, url: str, headers: dict[str, str], timeout: float) -> bool:
    import httpx

    try:
        response = http.post(url, json={"input": "a b", "content": "a b"}, headers=headers,
                             timeout=timeout)  # fmt: skip
        tokens = response.json().get("tokens") if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError, AttributeError, RecursionError):
        return False
    return isinstance(tokens, list)


def probe(
    http: httpx.Client, base_url: str, headers: dict[str, str], timeout: float = 5.0
) -> EndpointInfo:
    """What ``base_url``'s server says of itself (never raises; unknown fields stay None)."""
    root = server_root(base_url)
    local = is_loopback(base_url)
    context, slots = _from_props(_get_json(http, root + "/props", headers, timeout))
    server, models_context = _from_models(
        _get_json(http, base_url.rstrip("/") + "/models", headers, timeout)
    )
    if slots is not None:
        server = server or LLAMA_CPP
    context = context or models_context
    tokenize_url = None
    if server == LLAMA_CPP_PYTHON:
        slots = 1  # its server holds a lock around the model: one request at a time
        if _tokenizes(http, root + "/extras/tokenize", headers, timeout):
            tokenize_url = root + "/extras/tokenize"
    elif server == LLAMA_CPP and _tokenizes(http, root + "/tokenize", headers, timeout):
        tokenize_url = root + "/tokenize"
    return EndpointInfo(server, context, slots, tokenize_url, local)
