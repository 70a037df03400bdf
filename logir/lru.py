"""A bounded mapping that forgets its least recently used key first; safe across threads."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

__all__ = ["LRU"]

K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    """A mapping that keeps the ``limit`` most recently used keys; safe to share between threads.

    For caches that callers (a server's clients among them) can feed new keys without end.
    """

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"an LRU needs room for at least one key, got {limit}")
        self.limit = limit
        self._d: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._d.get(key)
            if value is not None:
                self._d.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._d[key] = value
            self._d.move_to_end(key)
            while len(self._d) > self.limit:
                self._d.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._d.clear()

    def __len__(self) -> int:
        return len(self._d)
