"""Indexing work cut into tasks: each shard's BM25 token counts, each slice's dense embeddings.

A :class:`TaskMap` runs a function over argument tuples and yields the results in order:
:class:`LocalTasks` one after another here, :class:`RayTasks` as Ray tasks across a cluster,
a bounded number in flight so memory stays bounded by a few shards. The task functions are
module-level so every Ray worker imports them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Protocol

import numpy as np

from logir.index.bm25shards import Shard, count_shard
from logir.index.lexical import analyzer


class TaskMap(Protocol):
    """``map(fn, args)``: ``fn(*a)`` for each tuple of ``args``, results yielded in order."""

    def map(self, fn: Callable[..., Any], args: Iterable[tuple[Any, ...]]) -> Iterator[Any]: ...


class LocalTasks:
    """Every task in this process, one after another."""

    def map(self, fn: Callable[..., Any], args: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
        for a in args:
            yield fn(*a)


class RayTasks:
    """Each task a Ray task (one CPU each) on the cluster this process is connected to
    (:func:`logir.index.rayshards.connect`); at most ``in_flight`` submitted and not yet
    collected (default: the cluster's CPUs plus one)."""

    def __init__(self, in_flight: int | None = None) -> None:
        from logir.index.rayshards import ray_module

        self._ray = ray_module()
        cpus = int(self._ray.cluster_resources().get("CPU", 1))
        self.in_flight = max(1, in_flight or cpus + 1)

    def map(self, fn: Callable[..., Any], args: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
        remote = self._ray.remote(num_cpus=1)(fn)
        pending: deque[Any] = deque()
        for a in args:
            pending.append(remote.remote(*a))
            if len(pending) >= self.in_flight:
                yield self._ray.get(pending.popleft())
        while pending:
            yield self._ray.get(pending.popleft())


def bm25_counts(texts: list[str], params: Mapping[str, Any]) -> Shard:
    """The token counts of one BM25 shard (its texts in row order), as a streamed build
    tokenises them (:mod:`logir.index.streambuild`)."""
    tokenize = analyzer(params["stemmer"], params["stopwords"], params["tokenizer"])
    return count_shard(tokenize(texts))


def dense_embeddings(texts: list[str], model: str | None, cache_dir: str | None) -> np.ndarray:
    """The document embeddings of one slice of a corpus (through the embedding cache)."""
    from logir.index.dense import DenseScorer

    built = DenseScorer.build(texts, model=model, cache_dir=cache_dir, show_progress=False)
    return built.embeddings
