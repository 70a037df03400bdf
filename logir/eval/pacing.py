"""Batches of queries sized by time, so that ``logir eval``'s progress moves while a slow
system runs and a fast one still ranks in large batches.

The first batch holds ``least`` queries; each later one holds as many as the batch before it
says will take about ``seconds``, between ``least`` and ``most``. Rankings do not depend on the
batches, only how often progress is reported: every composer ranks each reading on its own, and a
dense query vector is a function of its text alone (:mod:`logir.index.textalone`; a model it does
not know is encoded in padded batches, whose vectors can move by about 1e-7 with the batch).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

#: seconds a batch should take: the progress bar moves about twice a second
DEFAULT_SECONDS = 0.5
#: the smallest batch (query encoders and LLM clients work on several queries at once)
LEAST = 8


def paced_batches(
    total: int,
    most: int,
    seconds: float = DEFAULT_SECONDS,
    least: int = LEAST,
    clock: Callable[[], float] = time.perf_counter,
) -> Iterator[tuple[int, int]]:
    """``(start, end)`` slices covering ``range(total)``; the caller does a batch's work before
    asking for the next one, and that time sizes the batches that follow."""
    if most < 1 or least < 1 or seconds <= 0:
        raise ValueError(
            f"batches need most, least >= 1 and seconds > 0: {most}, {least}, {seconds}"
        )
    least = min(least, most)
    size, start = least, 0
    while start < total:
        end = min(start + size, total)
        began = clock()
        yield start, end
        per_query = (clock() - began) / (end - start)
        start = end
        size = most if per_query <= 0 else max(least, min(most, int(seconds / per_query)))
