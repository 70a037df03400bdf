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
