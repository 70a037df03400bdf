"""``sets`` scores only its terms' list members where a query keeps nothing else: the same
rankings and scores as scoring every candidate (the reference path)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from logir.index.lexical import BM25Scorer
from logir.logic.sets import Sets

WORDS = [f"w{i}" for i in range(24)]
QUERIES = [
    '"w1" AND "w2" AND NOT "w3"',
    '"w1" AND ("w4" OR "w5")',
    '("w6" OR "w7") AND NOT "w8"',
    '"w2" AND "w9" AND "w10"',
    '"w11" OR "w12" OR "w13"',
    'NOT "w1"',
    '"w3" OR NOT "w14"',
    '"w0 w1" AND NOT "w15 w16"',
    '"w17" AND NOT "nowhere"',
]


class _Batch:
    """A BM25 batch that counts the columns it scores; ``independent`` False hides that its
    columns are independent, so every candidate is scored (the reference path)."""

    def __init__(self, inner: Any, independent: bool, scored: list[int]) -> None:
        self._inner, self._scored = inner, scored
        self.hold = inner.hold
        if independent:
            self.independent_columns = True

    def search(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        return self._inner.search(k)

    def score(self, rows: slice, doc_idx: np.ndarray) -> np.ndarray:
        self._scored.append(len(doc_idx))
        return self._inner.score(rows, doc_idx)


class _Counting:
    """The same scorer, through counting batches."""

    def __init__(self, inner: BM25Scorer, independent: bool) -> None:
        self._inner, self._independent = inner, independent
        self.name, self.n_docs = inner.name, inner.n_docs
        self.scored: list[int] = []

    def score(self, texts: list[str], doc_idx: np.ndarray | None = None) -> np.ndarray:
        return self._inner.score(texts, doc_idx)

    def search(self, texts: list[str], k: int) -> tuple[np.ndarray, np.ndarray]:
        return self._inner.search(texts, k)

    def prepare(self, texts: list[str]) -> _Batch:
        return _Batch(self._inner.prepare(texts), self._independent, self.scored)


@pytest.fixture(scope="module")
def scorer() -> BM25Scorer:
    rng = np.random.default_rng(11)
    texts = [" ".join(rng.choice(WORDS, size=int(rng.integers(2, 12)))) for _ in range(400)]
    return BM25Scorer.build(texts)


@pytest.mark.parametrize(("depth", "floor"), [(5, 0.6), (40, 0.6), (40, 0.0), (1000, 0.3)])
def test_narrowed_sets_equal_scoring_every_candidate(
    scorer: BM25Scorer, depth: int, floor: float
) -> None:
    fast, ref = Sets(depth=depth, floor=floor), Sets(depth=depth, floor=floor)
    narrow, whole = _Counting(scorer, True), _Counting(scorer, False)
    got = fast.rank(QUERIES, narrow, 25)
    want = ref.rank(QUERIES, whole, 25)
    rows = np.arange(scorer.n_docs)
    for q, a, b in zip(QUERIES, got, want, strict=True):
        np.testing.assert_array_equal(a.doc_idx, b.doc_idx, err_msg=q)
        np.testing.assert_array_equal(a.scores, b.scores, err_msg=q)
        assert a.evidence.keys() == b.evidence.keys()
        for label in a.evidence:
            np.testing.assert_array_equal(a.evidence[label], b.evidence[label], err_msg=q)
        np.testing.assert_array_equal(fast.score(q, narrow, rows), ref.score(q, whole, rows))
    if floor > 0:  # members only: fewer columns scored than every candidate
        assert sum(narrow.scored) < sum(whole.scored)
