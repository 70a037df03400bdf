"""Batches as pure functions of (seed, epoch, index), and which passages count as negatives."""

from __future__ import annotations

import numpy as np

from logir.train.batches import Batch, batch_at, candidate_lists, steps_per_epoch
from logir.train.data import Example


def _examples(n: int) -> list[Example]:
    return [Example(f"q{i}", f"p{i}", f"n{i}", f"g{i}", "test") for i in range(n)]


def test_an_epoch_visits_every_example_once_in_a_seeded_order() -> None:
    examples = _examples(10)
    seen = [
        q for i in range(steps_per_epoch(10, 4)) for q in batch_at(examples, 4, 7, 0, i).queries
    ]
    assert sorted(seen) == sorted(e.query for e in examples)
    assert batch_at(examples, 4, 7, 0, 1) == batch_at(examples, 4, 7, 0, 1)
    assert batch_at(examples, 4, 7, 1, 0) != batch_at(examples, 4, 7, 0, 0)


def test_a_copy_of_the_positive_is_not_a_negative() -> None:
    # NevIR: two queries share a document; the second query's negative is the first's positive
    batch = Batch(["q1", "q2", "q3"], ["d1", "d2", "d1"], ["d2", "d1", None])
    assert batch.passages() == ["d1", "d2", "d1", "d2", "d1"]
    mask = batch.false_negatives()
    assert mask.tolist() == [
        [False, False, True, False, True],
        [False, False, False, True, False],
        [True, False, False, False, True],
    ]


def test_candidate_lists_put_the_positive_first_and_never_repeat_it() -> None:
    batch = Batch(["q1", "q2", "q3"], ["d1", "d2", "d1"], ["d2", "d1", None])
    lists = candidate_lists(batch, 2, np.random.default_rng(0))
    assert lists[0] == ["d1", "d2"]  # the only other text is its own positive
    assert lists[1] == ["d2", "d1"]
    assert lists[2] == ["d1", "d2"]
    assert all(cands.count(cands[0]) == 1 for cands in lists)
