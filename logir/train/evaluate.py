"""Held-out evaluation during training: pairwise accuracy, the share of examples whose
positive scores strictly above its logic hard negative."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from logir.train.data import Example
from logir.train.models.base import Trainable


@dataclass(frozen=True)
class PairwiseResult:
    """Pairwise accuracy over `pairs` held-out examples."""

    accuracy: float
    pairs: int


def pairwise_accuracy(
    model: Trainable, examples: list[Example], batch_size: int = 32
) -> PairwiseResult:
    """Score each held-out (query, positive) and (query, negative); examples without a
    negative are skipped. The module is put in eval mode and back in train mode after."""
    pairs = [ex for ex in examples if ex.negative is not None]
    if not pairs:
        return PairwiseResult(float("nan"), 0)
    model.module.eval()
    wins = 0
    try:
        for start in range(0, len(pairs), batch_size):
            chunk = pairs[start : start + batch_size]
            queries = [ex.query for ex in chunk]
            pos = model.score_pairs(queries, [ex.positive for ex in chunk])
            neg = model.score_pairs(queries, [str(ex.negative) for ex in chunk])
            wins += int(np.sum(pos > neg))
    finally:
        model.module.train()
    return PairwiseResult(wins / len(pairs), len(pairs))
