"""The final score of a reranked hit: the first-stage score, min-max normalised over the top N,
and the reader's logit through a sigmoid, mixed with weight W (the reader's share).

    final = (1 - W) * minmax(first) + W * sigmoid(reader)       for the top N (in [0, 1])
    final = minmax(first) - 1                                    below rank N (below 0)

minmax uses the top N's lowest and highest first-stage scores, so the hits below rank N get
values at most 0 before the shift and keep their first-stage order under every reranked hit.
W = 0 gives back the first-stage order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FIRST = "first stage"
READER = "reader"
BELOW = "below the reranked top N"


@dataclass(frozen=True)
class Scale:
    """The top N's min-max normalisation of first-stage scores."""

    low: float
    span: float

    @classmethod
    def of(cls, top: np.ndarray) -> Scale:
        """The scale of the top N's first-stage scores (their finite ones)."""
        finite = top[np.isfinite(top)]
        if not len(finite):
            return cls(0.0, 1.0)
        low, high = float(finite.min()), float(finite.max())
        return cls(low, high - low if high > low else 1.0)

    def __call__(self, scores: np.ndarray) -> np.ndarray:
        """``scores`` normalised (infinities clipped to finite values one span beyond)."""
        s = np.asarray(scores, np.float64)
        s = np.nan_to_num(s, nan=self.low, posinf=self.low + self.span, neginf=self.low - self.span)
        return (s - self.low) / self.span


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function, without overflow warnings."""
    x = np.clip(np.asarray(x, np.float64), -60.0, 60.0)
    return 1.0 / (1.0 + np.exp(-x))


def mix_top(
    first: np.ndarray, reader: np.ndarray, scale: Scale, weight: float
) -> dict[str, np.ndarray]:
    """The parts of the top N's final scores (they add up to it): first stage, reader, and a
    zero shift."""
    return {
        FIRST: (1.0 - weight) * scale(first),
        READER: weight * sigmoid(reader),
        BELOW: np.zeros(len(first)),
    }


def mix_below(first: np.ndarray, scale: Scale) -> dict[str, np.ndarray]:
    """The parts of the final scores of hits below rank N: first stage, no reader, shift -1."""
    return {
        FIRST: scale(first),
        READER: np.zeros(len(first)),
        BELOW: np.full(len(first), -1.0),
    }


def total(parts: dict[str, np.ndarray]) -> np.ndarray:
    """The final score: the sum of the parts."""
    return parts[FIRST] + parts[READER] + parts[BELOW]
