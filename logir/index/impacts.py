"""Impact-ordered heads of BM25 posting lists: each token's best entries, best first.

A one-token text's top k is the head of its posting list in score order (ties by the lower
row), so a query that asks the same token again reads a slice instead of partitioning the
whole list. :class:`Impacts` keeps the heads of the tokens asked for lately, each built when
first asked (a bounded cache; a posting list never changes once an index is open).
The heads hold the posting lists' own numbers, so everything read from them equals what the
lists give: :func:`head_retrieved` the rows :func:`~logir.index.bm25kernels.retrieved_rows`
keeps, and a head of at least k positive entries ``sparse_row_topk``'s top k.
"""

from __future__ import annotations

import threading

import numpy as np

__all__ = ["Impacts", "head_retrieved", "impact_head"]

DEFAULT_TOKENS = 8192  # heads kept: 24 to 32 bytes an entry, 40 to 52 MB if all hold 200
MAX_HEAD = 1024  # a top k deeper than this is read off the whole list, not kept
_KEPT_READS = 4  # (k, floor) settings whose retrieved rows a head keeps


class Head:
    """A token's head: its best entries in score order (``rows``, ``scores``: best first, ties by
    the lower row) and the same entries in row order (``by_row``, ``by_row_scores``, and each
    one's ``rank``: its position in score order). All read-only. ``retrieved`` keeps what
    :func:`head_retrieved` read off it lately, by ``(k, floor)`` (at most ``_KEPT_READS``)."""

    __slots__ = ("by_row", "by_row_scores", "rank", "retrieved", "rows", "scores")

    def __init__(self, rows: np.ndarray, scores: np.ndarray) -> None:
        order = rows.argsort()  # distinct rows: any sort is the stable one
        self.rows, self.scores = rows, scores
        # the entry at order[j] in score order is the j-th by row: its rank is order[j]
        self.by_row, self.by_row_scores, self.rank = rows.take(order), scores.take(order), order
        for a in (self.rows, self.scores, self.by_row, self.by_row_scores, self.rank):
            a.setflags(write=False)
        self.retrieved: dict[tuple[int, float], tuple[np.ndarray, np.ndarray]] = {}


def impact_head(docs: np.ndarray, data: np.ndarray, k: int) -> Head:
    """The ``k`` best entries of one posting list (``docs``, ``data``: its documents, each
    once, and their scores), best first, ties by the lower row; all of them when fewer."""
    n = len(data)
    if n > k:
        part = data.copy()
        part.partition(n - k)
        at = (data >= part[n - k]).nonzero()[0]  # the k best, and any tied with the k-th
    else:
        at = np.arange(n)
    d, s = docs.take(at), data.take(at)
    order = np.lexsort((d, -s))[:k]
    return Head(d.take(order), s.take(order))


def head_retrieved(head: Head, k: int, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """The rows (ascending) and scores a one-token text retrieves from its top ``k`` at
    ``floor`` (see :func:`~logir.index.base.retrieved`), read off its head of at least ``k``
    entries (or the whole list): those of the first k with a positive score at least ``floor``
    times the best. Best first, both conditions keep a prefix of the head. Read-only arrays,
    kept on the head for the next ask with the same ``k`` and ``floor``."""
    got = head.retrieved.get((k, floor))
    if got is None:
        got = _read_retrieved(head, k, floor)
        for a in got:
            a.setflags(write=False)
        if len(head.retrieved) >= _KEPT_READS:  # a few settings at a time: forget the others
            head.retrieved.clear()
        head.retrieved[(k, floor)] = got
    return got


def _read_retrieved(head: Head, k: int, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`head_retrieved`, read off the head."""
    top = head.scores[:k]
    if not len(top) or not top[0] > 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    least = floor * top[0]  # float32, as retrieved_rows computes it
    last = top[len(top) - 1]
    if last >= least and last > 0:  # all of the first k
        count = len(top)
    else:
        count = int(np.count_nonzero(top >= least) if least > 0 else np.count_nonzero(top > 0))
    if count == len(head.rows):  # the whole head (read-only views)
        return head.by_row, head.by_row_scores
    inside = head.rank < count
    return head.by_row[inside], head.by_row_scores[inside]


class Impacts:
    """Heads of recently used tokens' posting lists (see the module docstring), at most
    ``tokens`` of them (the oldest made goes first; 0 keeps none). Safe across threads: a read
    is one dict lookup, a new head is stored under a lock.

    ``get(t, k)`` gives token ``t``'s head when one is kept at least ``k`` entries deep (or
    whole), else None; ``make(t, k, docs, data)`` builds it from the token's list and keeps it.
    A ``k`` over ``MAX_HEAD`` is never kept (the caller reads the list itself)."""

    def __init__(self, tokens: int = DEFAULT_TOKENS) -> None:
        self.tokens = tokens
        self._heads: dict[int, tuple[int, Head]] = {}
        self._lock = threading.Lock()

    def get(self, t: int, k: int) -> Head | None:
        """Token ``t``'s kept head, when it is at least ``k`` entries deep or the whole list."""
        kept = self._heads.get(t)
        if kept is not None and (kept[0] >= k or len(kept[1].rows) < kept[0]):
            return kept[1]
        return None

    def make(self, t: int, k: int, docs: np.ndarray, data: np.ndarray) -> Head:
        """Token ``t``'s head ``k`` entries deep, built from its list (``docs``, ``data``), kept
        where ``k`` is at most ``MAX_HEAD``."""
        head = impact_head(docs, data, k)
        if self.tokens > 0 and k <= MAX_HEAD:
            with self._lock:
                self._heads[t] = (k, head)
                while len(self._heads) > self.tokens:
                    del self._heads[next(iter(self._heads))]
        return head
