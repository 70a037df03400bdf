"""The reading's time budget: CPU time of the reading's own work, not the collector's."""

from __future__ import annotations

import pytest

from logir.query.natural import build
from logir.query.natural.build import Builder, QueryTooComplex


def test_the_budget_leaves_out_garbage_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(build.time, "thread_time", lambda: clock[0])
    b = Builder(seconds=0.5)
    build._gc_clock("start", {"generation": 2})
    clock[0] += 2.0  # a full collection over a large heap
    build._gc_clock("stop", {"generation": 2})
    b.check()  # the collection does not count
    clock[0] += 0.4
    b.check()
    clock[0] += 0.2  # the reading's own work passes 0.5 s
    with pytest.raises(QueryTooComplex, match="took over 0.5 s"):
        b.check()


def test_a_stop_without_a_start_counts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [5.0]
    monkeypatch.setattr(build.time, "thread_time", lambda: clock[0])
    before = build.reading_clock()
    build._gc_clock("stop", {"generation": 0})  # the callback was added mid-collection
    assert build.reading_clock() == before
