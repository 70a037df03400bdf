"""Per-thread scratch arrays the size of the corpus, reused across calls (BM25 scoring).

Callers borrow them and restore them to all zero / all False before they return, so no call
allocates an array the size of the corpus.
"""

from __future__ import annotations

import threading

import numpy as np

_LOCAL = threading.local()


def scratch(n: int) -> tuple[np.ndarray, np.ndarray]:
    """This thread's all-zero float32 and all-False bool arrays of length `n` (callers restore
    them to all zero / all False before they return)."""
    acc: np.ndarray | None = getattr(_LOCAL, "acc", None)
    if acc is None or len(acc) < n:
        _LOCAL.acc = acc = np.zeros(n, dtype=np.float32)
        _LOCAL.seen = np.zeros(n, dtype=bool)
    return acc[:n], _LOCAL.seen[:n]


def free_dense(n: int) -> list[np.ndarray]:
    """This thread's spare all-zero float32 arrays of length `n`, for ``BM25Batch.hold``."""
    pools: dict[int, list[np.ndarray]] | None = getattr(_LOCAL, "dense", None)
    if pools is None:
        _LOCAL.dense = pools = {}
    return pools.setdefault(n, [])
