"""A fake scorer with fixed scores per text, for hand-computed composer tests."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from logir.data.dataset import Dataset, Document, Topic
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


@pytest.fixture
def tiny_logic_dataset() -> Dataset:
    """Four passages; a NOT query whose satisfying passage (d1) loses to d2 on "vitamin D" alone,
    and an AND query."""
    docs = [
        Document("d1", "vitamin D supports the immune system"),
        Document("d2", "vitamin D builds strong bone"),
        Document("d3", "bone health needs calcium"),
        Document("d4", "sunny weather all week"),
    ]
    topics = [
        Topic("q1", '"vitamin D" AND NOT "bone"', facets={"type": "not"}),
        Topic("q2", '"bone" AND "calcium"', facets={"type": "and"}),
    ]
    qrels = {"q1": {"d1": 1}, "q2": {"d3": 1}}
    ds = Dataset("tiny", docs, topics, qrels, violating={"q1": ["d2"]})
    return ds
