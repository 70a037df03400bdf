"""Per-term score calibration: raw scorer scores -> comparable truth values before composition.

Raw scores of different terms live on different scales (BM25 of a rare phrase can be ten times
that of a common word), so a product or a ``1 - x`` over raw scores means little. Every method
here is fitted from one query's :class:`~logir.logic.candidates.CandidateSet` alone, so a
document's calibrated score is the same whether it is scored alone or inside a full ranking.

Methods (values per term):

- ``none``: the raw score, unchanged.
- ``minmax``: ``(s - lo) / (hi - lo)`` with ``lo``/``hi`` the term's lowest and highest score over
  the candidate set, clipped to [0, 1] (rows outside the set may fall outside the range). A term
  with ``hi == lo`` says nothing about the candidates and gets 0.5 everywhere.
- ``sigmoid``: ``sigmoid((s - tau) * lam)``, the calibration model of ITLR (appendix E). With
  ``tau`` and ``lam`` given, one curve serves every term (the paper fits one curve per embedding
  model, on labelled positive and negative documents). Without labels, each term gets its own
  curve, fitted to the term's own top-K scores in one of two ways (``sigmoid_fit``):

  - ``anchors`` (default): the curve through (best top-K score, 0.99) and (K-th score, 0.01),
    i.e. ``tau`` = the middle of the top-K range and ``lam = 2 ln 99 / (best - K-th)``. The top
    K spans the sloped part of the curve, so score gaps among strong matches survive.
  - ``cdf``: the curve that best matches the empirical CDF of the top K under cross-entropy,
    the target of a score being ``(b + 1/2) / K`` with ``b`` the number of top-K scores strictly
    below it (a score tied with many, such as BM25's zero-score padding, beats none of them).
    The loss is convex with a finite minimum; Newton steps from the moment-matched logistic
    (``tau`` = mean, ``lam`` = pi / (sqrt(3) std)) find it. This is the closest analogue of the
    paper's gradient-descent fit, but on heavy-tailed BM25 the bulk of the top K sets the slope:
    every strong match saturates near 1 and the gap between the best match and the tenth is
    lost (nDCG@10 0.33 vs 0.66 with ``anchors`` on NegConstraint, BM25).

  A term whose top-K scores are all equal says nothing: ``lam = 0``, 0.5 everywhere.
- ``rank``: ``(b + 1/2) / c`` with ``b`` the number of the term's candidate-set scores strictly
  below the score and ``c`` the set's size: keeps only order, ignores score gaps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from logir.logic.candidates import CandidateSet

CALIBRATIONS = ("none", "minmax", "sigmoid", "rank")
SIGMOID_FITS = ("anchors", "cdf")
ANCHOR = 0.99  # calibrated value of a term's best top-K score (1 - ANCHOR at the K-th)
_ANCHOR_SPAN = 2.0 * math.log(ANCHOR / (1.0 - ANCHOR))  # lam * (best - K-th)
_NEWTON_STEPS = 30
_RIDGE = 1e-6


@dataclass(frozen=True)
class Calibrator:
    """A fitted calibration for the terms of one query; ``apply`` maps raw ``[m, r]`` scores."""

    method: str
    lo: np.ndarray | None = None  # minmax
    hi: np.ndarray | None = None  # minmax
    tau: np.ndarray | None = None  # sigmoid
    lam: np.ndarray | None = None  # sigmoid
    sorted_scores: list[np.ndarray] | None = None  # rank: each term's sorted candidate scores

    def apply(self, raw: np.ndarray) -> np.ndarray:
        """Calibrated scores, same shape as ``raw`` (float64)."""
        if self.method == "sigmoid":
            assert self.tau is not None and self.lam is not None
            x = np.subtract(raw, self.tau[:, None], dtype=np.float64)  # float32 raw: exact
            x *= self.lam[:, None]
            return _sigmoid(x)
        raw = np.asarray(raw, dtype=np.float64)
        if self.method == "none":
            return raw
        if self.method == "minmax":
            assert self.lo is not None and self.hi is not None
            span = self.hi - self.lo
            flat = span <= 0
            scaled = (raw - self.lo[:, None]) / np.where(flat, 1.0, span)[:, None]
            return np.where(flat[:, None], 0.5, np.clip(scaled, 0.0, 1.0))
        if self.method == "rank":
            assert self.sorted_scores is not None
            out = np.empty_like(raw)
            for i, ref in enumerate(self.sorted_scores):
                if not len(ref):
                    out[i] = 0.5
                    continue
                out[i] = (np.searchsorted(ref, raw[i], side="left") + 0.5) / len(ref)
            return out
        raise ValueError(f"unknown calibration {self.method!r}")

    def describe(self) -> list[dict[str, float]]:
        """Per-term fitted parameters (for explanations and debugging)."""
        if self.method == "minmax" and self.lo is not None and self.hi is not None:
            return [{"lo": float(a), "hi": float(b)} for a, b in zip(self.lo, self.hi, strict=True)]
        if self.method == "sigmoid" and self.tau is not None and self.lam is not None:
            return [
                {"tau": float(a), "lam": float(b)} for a, b in zip(self.tau, self.lam, strict=True)
            ]
        return []


def fit(
    method: str,
    cands: CandidateSet,
    tau: float | None = None,
    lam: float | None = None,
    sigmoid_fit: str = "anchors",
) -> Calibrator:
    """Fit ``method`` to one query's candidate set (``tau``/``lam`` fix the sigmoid)."""
    if method not in CALIBRATIONS:
        raise ValueError(f"unknown calibration {method!r}; choose from {', '.join(CALIBRATIONS)}")
    if sigmoid_fit not in SIGMOID_FITS:
        raise ValueError(f"unknown sigmoid fit {sigmoid_fit!r}; choose from {SIGMOID_FITS}")
    m = len(cands.terms)
    if method == "none":
        return Calibrator("none")
    scores = np.asarray(cands.scores, dtype=np.float64)
    if method == "minmax":
        if scores.shape[1] == 0:
            return Calibrator("minmax", lo=np.zeros(m), hi=np.zeros(m))
        return Calibrator("minmax", lo=scores.min(axis=1), hi=scores.max(axis=1))
    if method == "rank":
        return Calibrator("rank", sorted_scores=[np.sort(row) for row in scores])
    if (tau is None) != (lam is None):
        raise ValueError("sigmoid calibration needs both tau and lam, or neither")
    if tau is not None and lam is not None:
        return Calibrator("sigmoid", tau=np.full(m, float(tau)), lam=np.full(m, float(lam)))
    top = np.asarray(cands.top_scores)  # float32 or float64: the same extremes as floats
    params = _anchors(top) if sigmoid_fit == "anchors" else [fit_sigmoid(row) for row in top]
    return Calibrator(
        "sigmoid",
        tau=np.array([p[0] for p in params], dtype=np.float64),
        lam=np.array([p[1] for p in params], dtype=np.float64),
    )


def fit_sigmoid_anchors(top_scores: np.ndarray) -> tuple[float, float]:
    """``(tau, lam)`` of the logistic curve through (best, ANCHOR) and (K-th, 1 - ANCHOR).

    Non-finite entries (padding) are ignored; equal scores give ``(value, 0.0)``: 0.5.
    """
    s = np.asarray(top_scores, dtype=np.float64)
    s = s[np.isfinite(s)]
    if len(s) == 0:
        return 0.0, 0.0
    return _through_anchors(float(s.min()), float(s.max()))


def _through_anchors(lo: float, hi: float) -> tuple[float, float]:
    """``(tau, lam)`` through (hi, ANCHOR) and (lo, 1 - ANCHOR); ``(lo, 0.0)`` when hi <= lo."""
    if hi <= lo:
        return lo, 0.0
    return (lo + hi) / 2.0, _ANCHOR_SPAN / (hi - lo)


def _anchors(top: np.ndarray) -> list[tuple[float, float]]:
    """``fit_sigmoid_anchors`` of each row of ``top`` ``[m, K]`` (any float type), the same
    numbers, with the lowest and highest finite score of every row found at once."""
    if top.shape[1] == 0:
        return [(0.0, 0.0)] * len(top)
    finite = np.isfinite(top)
    if finite.all():
        lows, highs = top.min(axis=1).tolist(), top.max(axis=1).tolist()
    else:
        lows = np.where(finite, top, np.inf).min(axis=1).tolist()
        highs = np.where(finite, top, -np.inf).max(axis=1).tolist()
    return [
        (0.0, 0.0) if lo > hi else _through_anchors(lo, hi)  # lo > hi: no finite score
        for lo, hi in zip(lows, highs, strict=True)
    ]


def fit_sigmoid(top_scores: np.ndarray) -> tuple[float, float]:
    """``(tau, lam)`` of the logistic curve that best matches the empirical CDF of ``top_scores``.

    Non-finite entries (padding) are ignored. Fewer than two distinct values give
    ``(value, 0.0)``: a constant 0.5.
    """
    s = np.asarray(top_scores, dtype=np.float64)
    s = s[np.isfinite(s)]
    if len(s) == 0:
        return 0.0, 0.0
    mean, std = float(s.mean()), float(s.std())
    if len(s) < 2 or std <= 0.0:
        return mean, 0.0
    below = np.searchsorted(np.sort(s), s, side="left")
    target = (below + 0.5) / len(s)  # share of the top K beaten, strictly inside (0, 1)
    z = (s - mean) / std
    x = np.stack([z, np.ones_like(z)], axis=1)  # model: sigmoid(a * z + c)
    w = np.array([math.pi / math.sqrt(3.0), 0.0])
    for _ in range(_NEWTON_STEPS):
        p = _sigmoid(x @ w)
        grad = x.T @ (p - target)
        hess = (x * (p * (1.0 - p))[:, None]).T @ x + _RIDGE * np.eye(2)
        step = np.linalg.solve(hess, grad)
        w = w - step
        if float(np.abs(step).max()) < 1e-10:
            break
    a, c = float(w[0]), float(w[1])
    if not (math.isfinite(a) and math.isfinite(c)) or a <= 0.0:
        return mean, math.pi / (math.sqrt(3.0) * std)
    # a * (s - mean) / std + c == (s - tau) * lam
    return mean - c * std / a, a / std


def _sigmoid(x: np.ndarray) -> np.ndarray:
    """Numerically stable logistic function: ``1 / (1 + e^-x)`` where ``x >= 0``, else
    ``e^x / (1 + e^x)``; both read ``e = exp(-|x|)``, which never overflows."""
    x = np.asarray(x, dtype=np.float64)
    e = np.abs(x)
    np.negative(e, out=e)
    np.exp(e, out=e)
    out = np.where(x >= 0, 1.0, e)
    e += 1.0
    out /= e
    return out
