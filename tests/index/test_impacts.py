"""Impact-ordered list heads (``logir.index.impacts``) give the numbers the whole lists give:
the rows a one-token text retrieves, its top k, and a BM25 batch's answers with and without them.
"""

from __future__ import annotations

import numpy as np
import pytest

from logir.index.base import sparse_row_topk
from logir.index.bm25kernels import retrieved_rows
from logir.index.impacts import MAX_HEAD, Impacts, head_retrieved, impact_head
from logir.index.lexical import BM25Scorer


def _list(seed: int, size: int, ordered: bool) -> tuple[np.ndarray, np.ndarray]:
    """A posting list of ``size`` distinct rows whose scores take few values (many ties)."""
    rng = np.random.default_rng(seed)
    docs = rng.choice(10 * size + 5, size=size, replace=False).astype(np.int32)
    if ordered:
        docs.sort()
    values = np.asarray([0.5, 1.25, 2.0, 3.5], dtype=np.float32)
    return docs, values[rng.integers(len(values), size=size)]


@pytest.mark.parametrize("ordered", [True, False])
@pytest.mark.parametrize("size", [1, 5, 60, 400])
@pytest.mark.parametrize("k", [1, 3, 50, 200])
@pytest.mark.parametrize("floor", [0.0, 0.3, 0.6, 1.0])
def test_head_retrieves_the_rows_of_the_whole_list(
    ordered: bool, size: int, k: int, floor: float
) -> None:
    docs, data = _list(size + k, size, ordered)
    want_rows, want_scores = retrieved_rows(docs, data, k, floor, ordered)
    for depth in (k, k + 7):  # a head built for exactly k, and a deeper one
        rows, scores = head_retrieved(impact_head(docs, data, depth), k, floor)
        np.testing.assert_array_equal(rows, want_rows)
        np.testing.assert_array_equal(scores, want_scores)
        assert scores.dtype == np.float32


@pytest.mark.parametrize("ordered", [True, False])
@pytest.mark.parametrize("k", [1, 4, 37])
def test_head_is_the_top_k_of_the_list(ordered: bool, k: int) -> None:
    docs, data = _list(k, 120, ordered)
    head = impact_head(docs, data, k)
    want_rows, want_scores = sparse_row_topk(docs, data, k, 10_000)
    np.testing.assert_array_equal(head.rows, want_rows)
    np.testing.assert_array_equal(head.scores, want_scores)
    assert not head.rows.flags.writeable and not head.by_row.flags.writeable


@pytest.mark.parametrize("floor", [0.0, 0.5])
def test_zero_scores_are_not_retrieved(floor: float) -> None:
    docs = np.arange(6, dtype=np.int32)
    data = np.asarray([0.0, 2.0, 0.0, 1.0, 0.0, 3.0], dtype=np.float32)
    for k in (3, 4, 6):
        want = retrieved_rows(docs, data, k, floor, True)
        got = head_retrieved(impact_head(docs, data, k), k, floor)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])


def test_a_list_without_positive_scores_retrieves_nothing() -> None:
    docs = np.asarray([4, 1, 9], dtype=np.int32)
    data = np.zeros(3, dtype=np.float32)
    rows, scores = head_retrieved(impact_head(docs, data, 2), 2, 0.5)
    assert len(rows) == 0 and len(scores) == 0


def test_heads_are_kept_and_rebuilt_when_too_short() -> None:
    docs, data = _list(1, 50, True)
    impacts = Impacts(tokens=2)
    assert impacts.get(7, 10) is None
    assert len(impacts.make(7, 10, docs, data).rows) == 10
    assert len(impacts.get(7, 5).rows) == 10  # kept, deep enough
    assert impacts.get(7, 20) is None  # too short: the caller makes a deeper one
    assert len(impacts.make(7, 80, docs, data).rows) == 50
    assert len(impacts.get(7, 90).rows) == 50  # the whole list: as deep as it gets
    impacts.make(8, 5, docs, data)
    impacts.make(9, 5, docs, data)
    assert impacts.get(7, 1) is None and impacts.get(9, 5) is not None  # the oldest went
    deep = Impacts(tokens=2)
    assert len(deep.make(7, MAX_HEAD + 1, docs, data).rows) == 50
    assert deep.get(7, 1) is None  # a head past MAX_HEAD is not kept
    none = Impacts(tokens=0)
    none.make(7, 10, docs, data)
    assert none.get(7, 10) is None  # nothing kept


@pytest.mark.parametrize("method", ["lucene", "bm25+"])
def test_a_batch_answers_the_same_with_and_without_heads(method: str) -> None:
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(12)]
    docs = [" ".join(rng.choice(words, size=int(rng.integers(1, 6)))) for _ in range(300)]
    texts = [*words, "w1 w2", "nowhere"]
    scorer = BM25Scorer.build(docs, method=method)
    plain = BM25Scorer.build(docs, method=method)
    plain._impacts = None  # noqa: SLF001 (the reference: every list read whole)
    for k in (1, 5, 40, 299, 300, 2000):
        got, want = scorer.prepare(texts), plain.prepare(texts)
        for a, b in zip(got.search(k), want.search(k), strict=True):
            np.testing.assert_array_equal(a, b)
        for floor in (0.0, 0.6):
            for a, b in zip(got.retrieved(k, floor), want.retrieved(k, floor), strict=True):
                np.testing.assert_array_equal(a[0], b[0])
                np.testing.assert_array_equal(a[1], b[1])
