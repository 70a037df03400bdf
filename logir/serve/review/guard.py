"""Who may talk to the review server: the Host it is reached by and where a change comes from.

A browser page on another site can send a form post (urlencoded or ``text/plain``) to any
address, and a name the attacker controls can be re-pointed at 127.0.0.1 (DNS rebinding).
So every request must name an allowed host, and every state-changing request must carry JSON
and come from the review page's own origin (or from no browser at all, like curl).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import socket
from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain"})
WILDCARDS = frozenset({"", "0.0.0.0", "::", "[::]"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def host_names(bound: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names a server bound to `bound` answers to, besides IP addresses: localhost,
    `bound` itself when it is a name, this machine's names when it listens everywhere, and
    `extra` (``--allow-host``)."""
    names = set(LOCAL_NAMES)
    if bound in WILDCARDS:
        names |= {socket.gethostname(), socket.getfqdn()}
    elif not _is_ip(bound):
        names.add(bound)
    names |= set(extra)
    return frozenset(n.strip().lower().rstrip(".") for n in names if n.strip())


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def _split_host(host: str) -> tuple[str, int | None] | None:
    """(name, port) of a Host header value, or None when it is malformed."""
    try:
        parts = urlsplit("//" + host)
        return (parts.hostname or "").rstrip("."), parts.port
    except ValueError:
        return None


def host_allowed(host: str | None, names: frozenset[str]) -> bool:
    """Whether a Host header names this server: an IP address (DNS rebinding needs a name) or
    one of `names`. A request without Host (HTTP/1.0) is let through."""
    if host is None:
        return True
    split = _split_host(host)
    if split is None or not split[0]:
        return False
    name = split[0]
    return _is_ip(name) or name in names


def same_origin(url: str, scheme: str, host: str | None) -> bool:
    """Whether `url` (an Origin or Referer) is ``scheme://host`` of this server."""
    if host is None:
        return False
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return False
    own = _split_host(host)
    if own is None or parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return False
    default = _DEFAULT_PORTS[parts.scheme]
    return (
        parts.scheme == scheme
        and parts.hostname.rstrip(".") == own[0].lower()
        and (port or default) == (own[1] or _DEFAULT_PORTS.get(scheme, default))
    )


def cross_site_reason(headers: Mapping[str, str], scheme: str) -> str | None:
    """Why a state-changing request may come from another site, or None when it is ours.

    ``Origin`` decides when present; else ``Sec-Fetch-Site``; else a ``Referer`` must be ours.
    A request with none of them comes from no browser (curl, scripts) and is accepted.
    """
    host = headers.get("host")
    origin = headers.get("origin")
    if origin is not None:
        if same_origin(origin, scheme, host):
            return None
        return f"cross-origin request refused (Origin {origin[:100]!r})"
    site = headers.get("sec-fetch-site")
    if site is not None:
        if site in ("same-origin", "none"):
            return None
        return f"cross-site request refused (Sec-Fetch-Site {site[:40]!r})"
    referer = headers.get("referer")
    if referer is not None and not same_origin(referer, scheme, host):
        return "request from another site refused (Referer)"
    return None


def is_json(content_type: str | None) -> bool:
    """Whether a Content-Type header is ``application/json`` (parameters allowed)."""
    if not content_type:
        return False
    return content_type.split(";", 1)[0].strip().lower() == "application/json"


def session_value(token: str) -> str:
    """The login cookie's value for `token`: proof of it that does not reveal it."""
    return hmac.new(token.encode(), b"logir-review-session", hashlib.sha256).hexdigest()
