import numpy as np

from logir.index.base import topk


def test_topk_breaks_boundary_ties_by_lower_index() -> None:
    idx, sc = topk(np.array([[0, 0, 0, 0, 0, 1, 0]], dtype=np.float32), 3)
    assert idx.tolist() == [[5, 0, 1]]
    assert sc.tolist() == [[1.0, 0.0, 0.0]]


def test_topk_matches_full_sort() -> None:
    rng = np.random.default_rng(0)
    s = rng.integers(0, 4, size=(20, 50)).astype(np.float32)
    idx, _ = topk(s, 7)
    for i in range(20):
        ref = sorted(range(50), key=lambda j: (-s[i, j], j))[:7]
        assert idx[i].tolist() == ref


def test_topk_pads_when_k_exceeds_columns() -> None:
    idx, sc = topk(np.array([[1.0, 3.0, 2.0]], dtype=np.float32), 5)
    assert idx.tolist() == [[1, 2, 0, -1, -1]]
    assert np.isneginf(sc[0, 3:]).all()


def test_sparse_row_topk_equals_dense_topk() -> None:
    from logir.index.base import sparse_row_topk

    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.integers(1, 60))
        nnz = int(rng.integers(0, n + 1))
        docs = rng.permutation(n)[:nnz].astype(np.int64)
        # few distinct values, so ties (also with the absent documents' 0) are common
        scores = rng.choice(np.array([-1.0, 0.5, 1.0, 2.0, 3.0], dtype=np.float32), size=nnz)
        dense = np.zeros(n, dtype=np.float32)
        dense[docs] = scores
        for k in {1, min(3, n), n}:  # callers pass k <= n
            ref_i, ref_s = topk(dense[None], k)
            got_i, got_s = sparse_row_topk(docs, scores, k, n)
            assert got_i.tolist() == ref_i[0].tolist()
            assert got_s.tolist() == ref_s[0].tolist()
