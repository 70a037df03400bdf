"""Bounds every front end shares: the CLI, the HTTP server and the composers check against these.

A value a user passes (``-k``, ``--depth``, a composer parameter such as ``sets,depth=``) is
refused with a clear message past its bound rather than left to exhaust memory or time.
"""

from __future__ import annotations

MAX_K = 1000
"""Most hits one search or one evaluation run may ask for per query (CLI, server, eval runner)."""


def k_problem(k: object, limit: int = MAX_K) -> str | None:
    """What is wrong with ``k`` as a number of hits (None when it is from 1 to ``limit``): the
    one message every front end gives."""
    ok = isinstance(k, int) and not isinstance(k, bool) and 1 <= k <= limit
    return None if ok else f"k (hits per query) must be from 1 to {limit}, got {k!r}"


MAX_DEPTH = 10_000
"""Most candidates a composer may gather per query term (``sets,depth=``, ``fuzzy,k=``, ...)."""

MAX_SHARD_SIZE = 1_000_000
"""Most documents one shard of a streamed BM25 build may hold (``--shard-size``): a shard's texts
and token lists are in memory at once (about 0.9 GB at 100,000 passages of the scale corpus)."""


def shard_size_problem(size: object, flag: str = "shard size") -> str | None:
    """What is wrong with ``size`` as documents per shard (None when it is from 1 to
    ``MAX_SHARD_SIZE``), the message naming ``flag``."""
    ok = isinstance(size, int) and not isinstance(size, bool) and 1 <= size <= MAX_SHARD_SIZE
    return None if ok else f"{flag} must be from 1 to {MAX_SHARD_SIZE}, got {size!r}"


MAX_QUERY_CHARS = 100_000
"""Longest query text any reader accepts (the server's own default limit is lower)."""

MAX_NATURAL_CHARS = 32_000
"""Longest text read as natural language; past it the reader refuses with a clear error.

The longest query of the shared datasets has 445 characters; issue 10's listed-exclusion case with
10,000 items (30,015 characters) is still read. At 32,000 characters the slowest inputs found by
``bench/fuzz.py`` take about 0.6 s on a loaded 2-core machine (time is linear in the length)."""

MAX_NATURAL_SECONDS = 0.5
"""Most CPU seconds (of the reading thread) one natural-language reading may take; past it the
reader refuses with a clear error (only texts of many thousands of characters come near it)."""
