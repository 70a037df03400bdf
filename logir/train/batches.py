"""Batches and their negatives, as pure functions of (seed, epoch, index): a resumed run
rebuilds exactly the batch an uninterrupted run would have seen, with no sampler state."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from logir.train.data import Example


@dataclass(frozen=True)
class Batch:
    """Queries with their positives and logic hard negatives (None where a query has none)."""

    queries: list[str]
    positives: list[str]
    negatives: list[str | None]

    def passages(self) -> list[str]:
        """Candidate passages for in-batch scoring: every positive, then every hard negative."""
        return self.positives + [n for n in self.negatives if n is not None]

    def false_negatives(self) -> np.ndarray:
        """``mask[i, j]`` True where passage j of :meth:`passages` is not a negative of query i:
        the same text as query i's positive in another column (NevIR pairs share documents)."""
        passages = self.passages()
        mask = np.zeros((len(self.queries), len(passages)), dtype=bool)
        for i, positive in enumerate(self.positives):
            for j, passage in enumerate(passages):
                mask[i, j] = j != i and passage == positive
        return mask


def steps_per_epoch(n_examples: int, batch_size: int) -> int:
    """Batches in one pass over `n_examples` (the last one may be smaller)."""
    return math.ceil(n_examples / batch_size)


def epoch_order(n_examples: int, seed: int, epoch: int) -> np.ndarray:
    """The shuffled order of the examples in `epoch` (the same for the same seed)."""
    return np.random.default_rng([seed, epoch]).permutation(n_examples)


def batch_at(examples: list[Example], batch_size: int, seed: int, epoch: int, index: int) -> Batch:
    """Batch number `index` of `epoch`."""
    order = epoch_order(len(examples), seed, epoch)
    chosen = [examples[i] for i in order[index * batch_size : (index + 1) * batch_size]]
    return Batch(
        queries=[ex.query for ex in chosen],
        positives=[ex.positive for ex in chosen],
        negatives=[ex.negative for ex in chosen],
    )


def step_rng(seed: int, step: int, stream: int = 0) -> np.random.Generator:
    """A generator for the random choices of one step (the same on resume)."""
    return np.random.default_rng([seed, step, stream])


def candidate_lists(batch: Batch, others: int, rng: np.random.Generator) -> list[list[str]]:
    """For each query: its positive first, its hard negative, then up to `others` passages of
    other queries in the batch (never one with the positive's text), for listwise losses."""
    pool = batch.passages()
    out: list[list[str]] = []
    for positive, negative in zip(batch.positives, batch.negatives, strict=True):
        own = [positive] if negative is None else [positive, negative]
        choices = [p for p in dict.fromkeys(pool) if p not in own]
        if others and choices:
            picked = rng.choice(len(choices), size=min(others, len(choices)), replace=False)
            own += [choices[int(k)] for k in sorted(picked)]
        out.append(own)
    return out
