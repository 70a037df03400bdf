"""Shards served by Ray actors: one actor per shard, queried in parallel (see :mod:`sharded`).

``connect(address)`` joins an existing Ray cluster (``auto``, ``HOST:PORT``, ``ray://...``) or
starts a local one in this process (``local``); every node must be able to import logir. Ray
is the optional ``ray`` extra, imported only here.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence
from typing import Any

from logir.errors import LogirError
from logir.index.sharded import ShardServer, ShardSource

_MISSING_EXTRA = "--ray needs the 'ray' extra: pip install 'logir[ray]'"
#: what ``--ray`` means without an address: a Ray cluster started in this process
LOCAL = "local"


def ray_module() -> Any:
    """The ``ray`` module (a LogirError naming the extra when it is not installed)."""
    try:
        import ray
    except ImportError:
        raise LogirError(_MISSING_EXTRA) from None
    return ray


def connect(address: str = LOCAL, num_cpus: int | None = None) -> None:
    """Join the Ray cluster at ``address``, or start a local one (``local``: with ``num_cpus``
    CPUs, default all); a no-op when this process is already connected."""
    ray = ray_module()
    if ray.is_initialized():
        return
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    # the workers import logir as this process does (a source checkout included)
    path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), _source_root()) if p)
    kwargs["runtime_env"] = {"env_vars": {"PYTHONPATH": path}}
    if address != LOCAL:
        _check_reachable(address)
    try:
        if address == LOCAL:
            ray.init(num_cpus=num_cpus, **kwargs)
        else:
            ray.init(address=address, **kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise LogirError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Refuse a ``HOST:PORT`` (or ``ray://HOST:PORT``) where nothing answers, at once: Ray
    itself keeps retrying an unreachable cluster for minutes before it gives up."""
    hostport = address.removeprefix("ray://")
    host, colon, port = hostport.rpartition(":")
    if not colon:  # "auto": Ray finds the address itself
        return
    ok = port.isascii() and port.isdigit() and len(port) <= 5 and 0 < int(port) < 65536
    if not ok or not host:
        raise LogirError(f"--ray: {address!r} is not a Ray address (auto, HOST:PORT, ray://...)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise LogirError(f"cannot reach the Ray cluster at {address!r}: {reason}") from None


def _source_root() -> str:
    """The folder that holds the ``logir`` package this process imported."""
    import logir

    return os.path.dirname(os.path.dirname(os.path.abspath(logir.__file__)))


class RayShards:
    """Each shard in a Ray actor of its own (no CPU reserved: it serves, the tasks compute);
    ``call`` sends one request to every shard at once and waits for all."""

    def __init__(self, sources: Sequence[ShardSource]) -> None:
        ray = ray_module()
        if not ray.is_initialized():
            connect()
        self._ray = ray
        server = ray.remote(num_cpus=0)(ShardServer)
        self.actors = [server.remote(s) for s in sources]

    def call(self, method: str, args: Sequence[tuple[Any, ...] | None]) -> list[Any]:
        asked = [(i, a, x) for i, (a, x) in enumerate(zip(self.actors, args, strict=True)) if x]
        found = self._ray.get([getattr(a, method).remote(*x) for _, a, x in asked])
        out: list[Any] = [None] * len(self.actors)
        for (i, _, _), result in zip(asked, found, strict=True):
            out[i] = result
        return out
