"""A fake scorer with fixed scores per text, for hand-computed composer tests."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from logir.index.base import topk


class FakeScorer:
    """Returns the score row given for each text; unknown texts (the flat query) score 0."""

    name = "fake"
    score_range = "whatever the test gives"

    def __init__(self, rows: dict[str, list[float]]) -> None:
        self.rows = {t: np.asarray(v, dtype=np.float32) for t, v in rows.items()}
        self._n = len(next(iter(self.rows.values())))
        self.searched: list[str] = []

    @property
    def n_docs(self) -> int:
        return self._n

    def score(self, texts: list[str], doc_idx: np.ndarray | None = None) -> np.ndarray:
        zero = np.zeros(self._n, dtype=np.float32)
        full = np.stack([self.rows.get(t, zero) for t in texts]) if texts else zero[None][:0]
        return full if doc_idx is None else full[:, np.asarray(doc_idx, dtype=np.int64)]

    def search(self, texts: list[str], k: int) -> tuple[np.ndarray, np.ndarray]:
        self.searched.extend(texts)
        return topk(self.score(texts), k)


@pytest.fixture
def fake() -> Callable[[dict[str, list[float]]], FakeScorer]:
    return FakeScorer
