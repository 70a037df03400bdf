"""The Scorer contract: term texts in, document scores out. A scorer knows nothing about logic."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Scorer(Protocol):
    """Scores texts against a fixed corpus.

    - ``score(texts, doc_idx=None)`` -> float32 array ``[len(texts), n]``: every document, or only
      the rows ``doc_idx`` (shared by all texts) in that order.
    - ``search(texts, k)`` -> ``(doc_idx [m, k], scores [m, k])``, best first; rows with fewer than
      k scored documents are padded with index -1 and score -inf.
    - ``score_range``: a short statement of the range of scores (for calibration).
    """

    name: str
    score_range: str

    @property
    def n_docs(self) -> int: ...

    def score(self, texts: list[str], doc_idx: np.ndarray | None = None) -> np.ndarray: ...

    def search(self, texts: list[str], k: int) -> tuple[np.ndarray, np.ndarray]: ...


def topk(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Row-wise top-k of a dense score matrix, best first (ties broken by lower index)."""
    scores = np.atleast_2d(scores)
    m, n = scores.shape
    k_eff = min(k, n)
    if k_eff == 0:
        return np.zeros((m, 0), dtype=np.int64), np.zeros((m, 0), dtype=np.float32)
    if k_eff < n:
        part = np.argpartition(-scores, k_eff - 1, axis=1)[:, :k_eff]
    else:
        part = np.tile(np.arange(n), (m, 1))
    part_scores = np.take_along_axis(scores, part, axis=1)
    # stable order: score desc, then doc index asc
    order = np.lexsort((part, -part_scores), axis=1)
    idx = np.take_along_axis(part, order, axis=1)
    return idx.astype(np.int64), np.take_along_axis(scores, idx, axis=1).astype(np.float32)
