"""``--ray [ADDRESS]`` and ``--shards N``: the options of the commands that can run on Ray.

``--ray`` alone starts a local Ray cluster in the process; with an address (``auto``,
``HOST:PORT`` or ``ray://HOST:PORT``) it joins that cluster. Click options take a value or none,
not either, so :func:`ray_default` gives a bare ``--ray`` its value before the line is parsed:
the next word is taken as the address only when it looks like one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from logir.errors import LogirError
from logir.index.base import Scorer

LOCAL = "local"
MAX_SHARDS = 1024

RayOpt = Annotated[
    str | None,
    typer.Option(
        "--ray",
        help="Serve the index from shards in Ray actors: bare, a local cluster started here; "
        "or the ADDRESS of one (auto, HOST:PORT, ray://HOST:PORT). Scores equal a run without.",
    ),
]
ShardsOpt = Annotated[
    int, typer.Option("--shards", help=f"Shards with --ray (1 to {MAX_SHARDS}).", min=1)
]


def looks_like_address(word: str) -> bool:
    """Whether ``word`` after ``--ray`` is its address rather than the next argument."""
    return word in (LOCAL, "auto") or ":" in word


def ray_default(argv: list[str]) -> list[str]:
    """``argv`` with ``local`` after each bare ``--ray`` (one not followed by an address)."""
    out: list[str] = []
    for i, word in enumerate(argv):
        out.append(word)
        if word == "--ray":
            nxt = argv[i + 1] if i + 1 < len(argv) else None
            if nxt is None or not looks_like_address(nxt):
                out.append(LOCAL)
    return out


def ray_tasks(address: str | None) -> Any:
    """With ``--ray``: indexing work as Ray tasks on that cluster (joined or started here), a
    :class:`logir.index.tasks.TaskMap`; None without ``--ray``."""
    if address is None:
        return None
    if not looks_like_address(address):
        raise LogirError(f"--ray: {address!r} is not a Ray address (auto, HOST:PORT, ray://...)")
    from logir.index.rayshards import connect
    from logir.index.tasks import RayTasks

    connect(address)
    return RayTasks()


def ray_sharding(address: str | None, shards: int) -> Callable[[Scorer], Scorer] | None:
    """What a built scorer becomes with ``--ray``: cut into ``shards`` served by Ray actors
    (after joining or starting the cluster); None without ``--ray``."""
    if not 1 <= shards <= MAX_SHARDS:  # with or without --ray: a bad value is never ignored
        raise LogirError(f"--shards must be from 1 to {MAX_SHARDS}, got {shards}")
    if address is None:
        return None
    if not looks_like_address(address):
        raise LogirError(f"--ray: {address!r} is not a Ray address (auto, HOST:PORT, ray://...)")
    from logir.index.rayshards import RayShards, connect
    from logir.index.sharded import sharded

    connect(address)
    return lambda scorer: sharded(scorer, shards, RayShards)
