"""Query batches sized by time: small while queries are slow, large while they are fast."""

from __future__ import annotations

import pytest

from logir.data.dataset import Dataset, Topic
from logir.eval.pacing import paced_batches
from logir.eval.runner import evaluate
from tests.eval.test_runner import DOCS


class FakeClock:
    """A clock that moves only when the test says a batch took time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_batch_sizes_follow_the_time_per_query() -> None:
    clock = FakeClock()
    sizes = []
    per_query = [0.1, 0.1, 0.001, 0.001, 0.001]  # seconds a query takes in each batch
    for i, (start, end) in enumerate(paced_batches(1000, 256, 0.5, 8, clock)):
        sizes.append(end - start)
        clock.now += (end - start) * per_query[min(i, len(per_query) - 1)]
    assert sizes[:3] == [8, 8, 8]  # 0.1 s a query: the smallest batch
    assert sizes[3] == 256  # after a batch of fast queries: the largest
    assert sum(sizes) == 1000


def test_slices_cover_every_query_once_and_refuse_bad_sizes() -> None:
    clock = FakeClock()
    slices = list(paced_batches(20, 5, 0.5, 8, clock))  # least is capped by most
    assert slices == [(0, 5), (5, 10), (10, 15), (15, 20)]
    assert list(paced_batches(0, 5, clock=clock)) == []
    with pytest.raises(ValueError, match="most"):
        list(paced_batches(3, 0))


def test_eval_reports_progress_per_small_batch_with_the_same_figures() -> None:
    texts = ["vitamin D immune", "vitamin D but not bone", "Nolan films", "bone calcium"]
    queries = [Topic(f"q{i}", texts[i % 4]) for i in range(20)]
    qrels = {f"q{i}": {f"d{i % 4 + 1}": 1} for i in range(20)}
    ds = Dataset("paced", DOCS, queries, qrels)
    steps: list[int] = []
    paced = evaluate(ds, ["bm25:auto"], k=5, pace=1e-9, progress=lambda s, d, t: steps.append(d))
    assert steps == [0, 8, 16, 20]  # not once for all 20: batch_size is 256
    whole = evaluate(ds, ["bm25:auto"], k=5, pace=None)
    assert paced.systems[0].per_query == whole.systems[0].per_query
