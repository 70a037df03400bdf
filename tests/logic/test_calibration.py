"""Calibration methods: hand values, fitted sigmoid, stats from the candidate set only."""

from __future__ import annotations

import math

import numpy as np
import pytest

from logir.logic.calibration import fit, fit_sigmoid, fit_sigmoid_anchors
from logir.logic.candidates import CandidateSet


def cands(scores: list[list[float]], top: list[list[float]] | None = None) -> CandidateSet:
    s = np.asarray(scores, dtype=np.float32)
    return CandidateSet(
        rows=np.arange(s.shape[1]),
        terms=[f"t{i}" for i in range(len(s))],
        scores=s,
        top_scores=np.asarray(top if top is not None else scores, dtype=np.float32),
    )


def test_none_is_identity() -> None:
    raw = np.array([[3.0, -1.0]])
    assert fit("none", cands([[0.0, 1.0]])).apply(raw).tolist() == [[3.0, -1.0]]


def test_minmax_per_term_with_clip_and_flat_term() -> None:
    cal = fit("minmax", cands([[2.0, 4.0, 6.0], [1.0, 1.0, 1.0]]))
    got = cal.apply(np.array([[2.0, 5.0, 10.0], [1.0, 0.0, 3.0]]))
    assert got.tolist() == [[0.0, 0.75, 1.0], [0.5, 0.5, 0.5]]
    assert cal.describe()[0] == {"lo": 2.0, "hi": 6.0}


def test_rank_counts_strictly_lower_candidates() -> None:
    cal = fit("rank", cands([[0.0, 0.0, 1.0, 3.0]]))
    got = cal.apply(np.array([[0.0, 1.0, 3.0, 2.0, 9.0]]))
    assert got[0].tolist() == pytest.approx([0.125, 0.625, 0.875, 0.875, 1.125])


def test_sigmoid_with_given_parameters() -> None:
    cal = fit("sigmoid", cands([[0.0, 1.0], [5.0, 6.0]]), tau=0.5, lam=4.0)
    got = cal.apply(np.array([[0.5, 1.0], [0.0, 0.5]]))
    s = 1.0 / (1.0 + math.exp(-2.0))
    assert np.allclose(got, [[0.5, s], [1.0 - s, 0.5]])


def test_sigmoid_needs_both_parameters() -> None:
    with pytest.raises(ValueError):
        fit("sigmoid", cands([[0.0, 1.0]]), tau=0.5)
    with pytest.raises(ValueError):
        fit("platt", cands([[0.0, 1.0]]))


def test_cdf_fitted_sigmoid_recovers_a_logistic_cdf() -> None:
    # scores whose empirical CDF is exactly a logistic curve with tau=2, lam=3
    n = 200
    p = (np.arange(n) + 0.5) / n
    scores = 2.0 + np.log(p / (1 - p)) / 3.0
    tau, lam = fit_sigmoid(scores[::-1])
    assert tau == pytest.approx(2.0, abs=1e-6)
    assert lam == pytest.approx(3.0, rel=1e-6)


def test_anchored_sigmoid_maps_best_and_kth_to_the_anchors() -> None:
    top = [[8.0, 5.0, 3.0, 2.0, -np.inf], [1.0, 0.5, 0.0, 0.0, 0.0]]
    cal = fit("sigmoid", cands([[8.0, 2.0, 5.0], [1.0, 0.0, 0.5]], top=top))
    got = cal.apply(np.array([[8.0, 2.0, 5.0, 0.0], [1.0, 0.0, 0.5, 2.0]]))
    assert np.allclose(got[:, :3], [[0.99, 0.01, 0.5], [0.99, 0.01, 0.5]])
    assert got[0, 3] < 0.01 and got[1, 3] > 0.99
    assert fit_sigmoid_anchors(np.array([3.0, 3.0])) == (3.0, 0.0)
    assert fit_sigmoid_anchors(np.array([-np.inf])) == (0.0, 0.0)
    with pytest.raises(ValueError):
        fit("sigmoid", cands([[0.0, 1.0]]), sigmoid_fit="platt")


def test_cdf_fitted_sigmoid_per_term_and_degenerate_cases() -> None:
    top = [[9.0, 5.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [2.0] * 8]
    cal = fit("sigmoid", cands([[9.0, 0.0], [2.0, 2.0]], top=top), sigmoid_fit="cdf")
    got = cal.apply(np.array([[9.0, 0.0], [2.0, 7.0]]))
    assert got[0, 0] > 0.8 and got[0, 1] < 0.2  # a tie group at the bottom maps low
    assert got[1].tolist() == [0.5, 0.5]  # a term whose top K is flat says nothing
    assert fit_sigmoid(np.array([1.0, -np.inf, 3.0, -np.inf]))[1] > 0  # padding ignored
    assert fit_sigmoid(np.array([-np.inf])) == (0.0, 0.0)


def test_cdf_fitted_sigmoid_is_monotone_and_bounded() -> None:
    rng = np.random.default_rng(0)
    top = np.sort(rng.gamma(2.0, 3.0, size=100))[::-1]
    cal = fit("sigmoid", cands([top.tolist()]), sigmoid_fit="cdf")
    grid = np.linspace(-5, 40, 200)[None, :]
    y = cal.apply(grid)[0]
    assert np.all(np.diff(y) >= 0) and y.min() >= 0 and y.max() <= 1


def test_sigmoid_equals_the_two_sided_formula_bit_for_bit() -> None:
    from logir.logic.calibration import _sigmoid

    rng = np.random.default_rng(5)
    x = np.concatenate(
        [
            rng.normal(scale=s, size=2000)
            for s in (1e-3, 1.0, 10.0, 300.0, 1e4)  # exp(-|x|) down to 0
        ]
        + [np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 709.0, -709.0, 746.0, -746.0])]
    )
    want = np.empty_like(x)
    pos = x >= 0
    want[pos] = 1.0 / (1.0 + np.exp(-x[pos]))
    ex = np.exp(x[~pos])
    want[~pos] = ex / (1.0 + ex)
    got = _sigmoid(x)
    np.testing.assert_array_equal(got, want)
    number = ~np.isnan(want)
    assert np.array_equal(np.signbit(got[number]), np.signbit(want[number]))  # no -0.0
    np.testing.assert_array_equal(_sigmoid(x[:10000].reshape(10, -1)), want[:10000].reshape(10, -1))


def test_anchors_fitted_together_equal_one_term_at_a_time() -> None:
    from logir.logic.calibration import _anchors

    rng = np.random.default_rng(6)
    top = np.sort(rng.gamma(2.0, size=(40, 12)), axis=1)[:, ::-1].copy()
    top[3, 5:] = -np.inf  # a short list
    top[4, :] = -np.inf  # an empty one
    top[5, :] = 2.5  # all equal
    top[6, 1:] = -np.inf  # one score
    top[7, 2] = np.nan
    for scores in (top, top.astype(np.float32), top[8:]):  # top[8:]: every score finite
        assert _anchors(scores) == [fit_sigmoid_anchors(row) for row in scores]
    assert _anchors(np.zeros((3, 0))) == [fit_sigmoid_anchors(row) for row in np.zeros((3, 0))]
