"""A batch of BM25 query texts tokenised once, each text's sparse row built at most once.

``BM25Scorer.prepare(texts)`` returns one; composers use it to search and then score candidates
from the same sums (:func:`logir.index.base.prepare`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np

from logir.errors import LogirError
from logir.index.base import Retrieved, retrieved_by_search, sparse_row_topk
from logir.index.bm25kernels import (
    FEW_ROWS,
    Postings,
    add_at_rows,
    add_list_at_rows,
    add_postings,
    posting,
    posting_sums,
    postings_length,
    retrieved_rows,
    top_of_sums,
)
from logir.index.impacts import MAX_HEAD, Head, Impacts, head_retrieved
from logir.index.scratch import free_dense, scratch

_HELD = 8  # texts whose sums BM25Batch.hold keeps in whole-corpus arrays at once
_LOOKUP_MIN = 1024  # a one-token row at least this long is searched, not scattered, in score
_LOOKUP_COST = 4  # rows looked up per posting list, against list entries a built row touches


class BM25Batch:
    """Texts tokenised once, each text's sparse BM25 row computed at most once, when first read.

    ``search(k)`` equals ``BM25Scorer.search(texts, k)`` and ``score(rows, doc_idx)`` equals
    ``BM25Scorer.score(texts[rows], doc_idx)`` bit for bit: both read the same float32 sums.
    Holds one sparse row per text, so callers batch a bounded number of texts (as ``search``).

    ``search`` finds the top k of a text of several tokens from its sums in a whole-corpus array
    without building its row; ``score`` looks a few rows up in the posting lists of a text whose
    row was never built, and reads the sums of the texts ``hold`` keeps.

    Built from the arrays alone: ``postings`` (:mod:`logir.index.bm25kernels`), each text's
    vocabulary ids, each text's non-occurrence constant, and ``sorted_postings``, which says
    (when first asked) whether every posting list is sorted by document. ``impacts``, where
    given, keeps the score-ordered heads of the lists (:mod:`logir.index.impacts`): a text of one
    token then finds its top k and the rows it retrieves in its list's head.
    """

    independent_columns = True  # a score depends on its text and document alone

    def __init__(
        self,
        postings: Postings,
        ids: list[np.ndarray],
        offsets: np.ndarray,
        sorted_postings: Callable[[], bool],
        impacts: Impacts | None = None,
    ) -> None:
        self._postings = postings
        self._impacts = impacts
        self._n = int(postings.shape[1])
        self._ids = ids
        self.offsets = offsets
        self._offset = any(offsets.tolist())  # BM25L / BM25+: a constant added to every score
        self._sorted = sorted_postings
        self._rows: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._dense: dict[int, tuple[np.ndarray, np.ndarray]] | None = None  # see hold

    @contextmanager
    def hold(self) -> Iterator[BM25Batch]:
        """Keep the summed scores of texts of several tokens (at most ``_HELD`` of them, first
        come) in whole-corpus arrays while the block runs, so ``score`` reads them directly
        instead of building and scattering each text's row. Nothing else changes: the same
        numbers."""
        if self._dense is not None:
            yield self
            return
        self._dense = {}
        try:
            yield self
        finally:
            held, self._dense = self._dense, None
            free = free_dense(self._n)
            for dense, every in held.values():
                dense[every] = 0.0
                if len(free) < _HELD:
                    free.append(dense)

    def row(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Documents holding a token of text `i` and their sums without the offset (read-only)."""
        got = self._rows.get(i)
        if got is None:
            got = self._rows[i] = posting_sums(self._postings, self._ids[i])
        return got

    def _top(self, i: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """``sparse_row_topk(*self.row(i), k, n)`` of a text of several tokens, from its sums in
        a whole-corpus array: held (see ``hold``) or this thread's scratch, zeroed again."""
        ids, held, n = self._ids[i], self._dense, self._n
        if held is None:
            acc, _ = scratch(n)
            every = add_postings(self._postings, ids, acc)
            try:
                return top_of_sums(every, acc, len(ids), k, n)
            finally:
                acc[every] = 0.0
        if i not in held:
            if len(held) >= _HELD:  # no room: build the row, which score reads later
                return sparse_row_topk(*self.row(i), k, n)
            free = free_dense(n)
            dense = free.pop() if free else np.zeros(n, dtype=np.float32)
            held[i] = (dense, add_postings(self._postings, ids, dense))
        dense, every = held[i]
        return top_of_sums(every, dense, len(ids), k, n)

    def _head(self, i: int, k: int) -> Head | None:
        """The score-ordered head of text ``i``'s posting list, at least ``k`` deep (see
        :class:`~logir.index.impacts.Impacts`), for a text of one token; else None."""
        ids, impacts = self._ids[i], self._impacts
        if impacts is None or len(ids) != 1 or k > MAX_HEAD:
            return None
        t = int(ids[0])
        head = impacts.get(t, k)
        return head if head is not None else impacts.make(t, k, *posting(self._postings, t))

    def _lookup_pays(self, ids: np.ndarray, doc_idx: np.ndarray) -> bool:
        """Whether looking ``doc_idx`` up in each posting list of ``ids`` costs less than
        building the text's row (which touches every entry of every list several times)."""
        total = postings_length(self._postings, ids)
        return len(doc_idx) * len(ids) * _LOOKUP_COST <= total

    def search(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k per text, as ``BM25Scorer.search``."""
        m, n = len(self._ids), self._n
        idx = np.full((m, k), -1, dtype=np.int64)
        val = np.full((m, k), -np.inf, dtype=np.float32)
        k_eff = min(k, n)
        if k_eff <= 0:
            return idx, val
        for r in range(m):
            head = self._head(r, k_eff)
            if head is not None and len(head.rows) >= k_eff and head.scores[k_eff - 1] > 0:
                top_d, top_s = head.rows[:k_eff], head.scores[:k_eff]  # sparse_row_topk's
            elif len(self._ids[r]) > 1 and r not in self._rows:
                top_d, top_s = self._top(r, k_eff)
            else:
                top_d, top_s = sparse_row_topk(*self.row(r), k_eff, n)
            idx[r, :k_eff] = top_d
            val[r, :k_eff] = top_s + self.offsets[r]
        return idx, val

    def retrieved(self, k: int, floor: float) -> list[Retrieved]:
        """The rows each text retrieves and its scores there (:func:`~logir.index.base.retrieved`),
        from its sparse row: the same as from ``search(k)``, without ordering its top list."""
        if self._offset:  # a document without the tokens scores the offset, not 0
            return retrieved_by_search(self, k, floor)
        k_eff = min(k, self._n)
        if k_eff <= 0:
            return [(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)) for _ in self._ids]
        out = []
        for i, ids in enumerate(self._ids):
            head = self._head(i, k_eff)
            if head is not None:
                out.append(head_retrieved(head, k_eff, floor))
                continue
            docs, sums = self.row(i)
            ordered = len(ids) == 1 and self._sorted()  # a list's own documents ascend
            out.append(retrieved_rows(docs, sums, k_eff, floor, ordered))
        return out

    def score(self, rows: slice, doc_idx: np.ndarray) -> np.ndarray:
        """Scores ``[len(texts[rows]), len(doc_idx)]``, read from the sparse rows."""
        n = self._n
        doc_idx = np.asarray(doc_idx).ravel()
        if len(doc_idx) <= FEW_ROWS and doc_idx.dtype.kind in "iu":  # any integer type: read
            listed = doc_idx.tolist()  # a few rows, Python's min and max cost less than numpy's
            bad = bool(listed) and (min(listed) < 0 or max(listed) >= n)
        else:  # a negative row wraps past n
            doc_idx = np.ascontiguousarray(doc_idx, dtype=np.int64)
            bad = bool(len(doc_idx)) and bool(doc_idx.view(np.uint64).max() >= n)
        if bad:
            raise LogirError(f"document rows out of range 0..{n - 1}")
        r0, r1, step = rows.indices(len(self._ids))
        if step != 1:
            raise ValueError("rows must be a contiguous slice")
        out = np.zeros((max(r1 - r0, 0), len(doc_idx)), dtype=np.float32)
        if len(doc_idx):
            held = self._dense or {}
            ordered = self._sorted()
            indptr = self._postings.indptr
            for i in range(len(out)):
                r = r0 + i
                if r in held:
                    out[i] = held[r][0][doc_idx]
                    continue
                ids = self._ids[r]
                if len(ids) == 1 and ordered:  # its row is its list: look up or scatter
                    t = int(ids[0])
                    length = int(indptr[t + 1] - indptr[t])
                    if len(doc_idx) * _LOOKUP_COST <= length or length >= _LOOKUP_MIN:
                        if length:
                            add_list_at_rows(*posting(self._postings, t), doc_idx, out[i])
                        continue
                elif r not in self._rows and ordered and self._lookup_pays(ids, doc_idx):
                    add_at_rows(self._postings, ids, doc_idx, out[i])  # no row to build
                    continue
                docs, sums = self.row(r)
                acc, _ = scratch(n)  # the row scattered into it, read at doc_idx, then cleared
                try:
                    acc[docs] = sums
                    out[i] = acc[doc_idx]
                finally:
                    acc[docs] = 0.0
        if self._offset:
            out += self.offsets[r0 : r0 + len(out), None]
        return out
