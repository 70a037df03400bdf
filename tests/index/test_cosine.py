"""Every dense score is a function of its query vector and document row alone: the same bits
whichever rows are scored together (all, a subset, a permutation, a shard, ANN candidates)."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from logir.index import cosine
from logir.index.base import topk
from logir.index.dense import DenseScorer
from logir.index.sharded import LocalShards, shard_bounds, sharded

with contextlib.suppress(ImportError):
    import torch  # noqa: F401  (dense search runs its BLAS product in torch when it is loaded)

DIM = 384


def _unit(rng: np.random.Generator, n: int) -> np.ndarray:
    x = rng.normal(size=(n, DIM)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


@pytest.fixture(scope="module")
def vectors() -> tuple[np.ndarray, np.ndarray]:
    """6,000 random unit documents and 3 queries: sizes where a BLAS product over the whole
    corpus and over a shard's rows round some values differently."""
    rng = np.random.default_rng(3)
    return _unit(rng, 6000), _unit(rng, 3)


def test_scores_do_not_depend_on_the_rows_scored_with_them(
    vectors: tuple[np.ndarray, np.ndarray],
) -> None:
    docs, q = vectors
    scorer = DenseScorer(docs)
    full = scorer.score_vectors(q)
    n = len(docs)
    rng = np.random.default_rng(0)
    for shards in (2, 3, 4, 7):
        b = shard_bounds(n, shards).tolist()
        cuts = zip(b[:-1], b[1:], strict=True)
        parts = [DenseScorer(docs[lo:hi]).score_vectors(q) for lo, hi in cuts]
        np.testing.assert_array_equal(np.concatenate(parts, axis=1), full)
    for size in (1, 2, 137, n):
        rows = rng.permutation(n)[:size]
        np.testing.assert_array_equal(scorer.score_vectors(q, rows), full[:, rows])
        np.testing.assert_array_equal(scorer.dot(q, rows), full[:, rows])
        np.testing.assert_array_equal(DenseScorer(docs[rows]).score_vectors(q), full[:, rows])
    for i in range(len(q)):  # a query alone or beside others
        np.testing.assert_array_equal(scorer.score_vectors(q[i]), full[i : i + 1])
    for r in range(40):  # a document alone
        np.testing.assert_array_equal(scorer.score_vectors(q, [r]), full[:, r : r + 1])


def test_search_returns_the_scores_and_order_of_score(
    vectors: tuple[np.ndarray, np.ndarray],
) -> None:
    docs, q = vectors
    docs = docs.copy()
    docs[100:110] = docs[5000]  # exact ties, broken by the lower row
    scorer = DenseScorer(docs)
    full = scorer.score_vectors(q)
    for k in (1, 10, 100, 7000):
        idx, val = scorer.search_vectors(q, k)
        ref_idx, ref_val = topk(full, k)
        np.testing.assert_array_equal(idx, ref_idx)
        np.testing.assert_array_equal(val, ref_val)
    top = scorer.search_vectors(docs[5000], 12)[0][0]
    assert top[:11].tolist() == [*range(100, 110), 5000]


def test_sharded_dense_equals_one_process(vectors: tuple[np.ndarray, np.ndarray]) -> None:
    docs, q = vectors
    scorer = DenseScorer(docs)
    for shards in (3, 4):
        split = sharded(scorer, shards, LocalShards)
        for k in (10, 100):
            ref_idx, ref_val = scorer.search_vectors(q, k)
            idx, val = split.search_vectors(q, k)  # type: ignore[attr-defined]
            np.testing.assert_array_equal(idx, ref_idx)
            np.testing.assert_array_equal(val, ref_val)
        rows = np.random.default_rng(shards).permutation(len(docs))[:500]
        got = split.dot(q, rows)  # type: ignore[attr-defined]
        np.testing.assert_array_equal(got, scorer.score_vectors(q, rows))


def test_fixed_top_holds_when_the_fast_product_errs_by_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The candidates come from a product that may differ from the returned one by twice the
    error bound (each is off by the bound either way). The worst case: cosines a 50th of the
    bound apart, every one pushed up by twice the bound but the 50th best, pushed down by it."""
    rng = np.random.default_rng(11)
    q = _unit(rng, 1)
    g = cosine.error_bound(DIM) * 1.0000005  # unit vectors: the bound of every value
    other = rng.normal(size=(400, DIM))
    other -= np.outer(other @ q[0].astype(np.float64), q[0])
    other /= np.linalg.norm(other, axis=1, keepdims=True)
    c = 0.5 + (g / 50) * rng.permutation(400)
    docs = (c[:, None] * q[0] + np.sqrt(1 - c**2)[:, None] * other).astype(np.float32)
    docs = np.vstack([docs, _unit(rng, 600)])
    exact = cosine.fixed_dot(q, docs)
    ref_idx, ref_val = topk(exact, 50)
    push = np.full(exact.shape, 2 * g)
    push[0, ref_idx[0, -1]] = -2 * g
    monkeypatch.setattr(cosine, "blas_product", lambda a, b: exact + push)
    norm = cosine.max_row_norm(docs)
    idx, val = cosine.fixed_top(q, docs, 50, norm)
    np.testing.assert_array_equal(idx, ref_idx)
    np.testing.assert_array_equal(val, ref_val)


def test_error_bound_is_gamma() -> None:
    u = 2.0**-24
    assert cosine.error_bound(384) == pytest.approx(384 * u / (1 - 384 * u))
    assert cosine.max_row_norm(np.array([[3.0, 4.0], [1.0, 0.0]], dtype=np.float32)) == 5.0
    assert cosine.max_row_norm(np.zeros((0, 4), dtype=np.float32)) == 0.0
    rows = np.ones((20_000, 4), dtype=np.float32)  # read in blocks: the largest in the last one
    rows[19_999] = 2.0
    assert cosine.max_row_norm(rows) == 4.0
