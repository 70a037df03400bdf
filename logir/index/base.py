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
    """Row-wise top-k of a dense score matrix, best first, ties broken by lower index.

    When k exceeds the number of columns, rows are padded with index -1 and score -inf.
    """
    scores = np.atleast_2d(scores)
    m, n = scores.shape
    k_eff = min(k, n)
    idx = np.empty((m, k_eff), dtype=np.int64)
    if k_eff:
        # the k-th largest value of each row; every column at or above it is a candidate, so a
        # tie at the boundary is resolved by index rather than by argpartition's arbitrary pick
        kth = np.partition(scores, n - k_eff, axis=1)[:, n - k_eff]
        for i in range(m):
            row = scores[i]
            cand = np.flatnonzero(row >= kth[i])
            order = np.lexsort((cand, -row[cand]))[:k_eff]
            idx[i] = cand[order]
    top = np.take_along_axis(scores, idx, axis=1).astype(np.float32)
    if k_eff < k:
        idx = np.pad(idx, ((0, 0), (0, k - k_eff)), constant_values=-1)
        top = np.pad(top, ((0, 0), (0, k - k_eff)), constant_values=-np.inf)
    return idx, top
