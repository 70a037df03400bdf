"""BM25 posting-list kernels: free functions over bm25s's score arrays.

``postings`` is the CSR matrix ``[vocab, n_docs]`` that holds, for every vocabulary token, its
BM25 contribution to every document that contains it (bm25s's eager index read row-wise). A
query's score is the float32 sum of its tokens' posting lists, added in token order from 0; every
kernel here adds in that order, so all of them give ``BM25.get_scores``'s numbers bit for bit.
:class:`~logir.index.lexical.BM25Scorer` and :class:`~logir.index.bm25batch.BM25Batch` share them.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import scipy.sparse as sp

from logir.index.base import sorted_unique, sparse_row_topk
from logir.index.bm25compact import CompactPostings
from logir.index.scratch import scratch

#: posting lists: bm25s's scores as a CSR matrix, or a compact index's lists
Postings = sp.csr_matrix | CompactPostings

FEW_ROWS = 8  # rows this few are looked up one by one: numpy's fixed cost per call dominates


def posting(postings: Postings, t: int) -> tuple[np.ndarray, np.ndarray]:
    """Token ``t``'s documents and its BM25 contribution to each (views for a CSR matrix)."""
    if isinstance(postings, CompactPostings):
        return postings.posting(t)
    lo, hi = postings.indptr[t], postings.indptr[t + 1]
    return postings.indices[lo:hi], postings.data[lo:hi]


def token_ids(
    tokens: list[list[str]], vocab: Mapping[str, int], vocab_size: int
) -> list[np.ndarray]:
    """Vocabulary ids per text, in token order (repeats kept, unknown tokens dropped)."""
    out = []
    for toks in tokens:
        ids = [i for t in toks if (i := vocab.get(t)) is not None and i < vocab_size]
        out.append(np.asarray(ids, dtype=np.int64))
    return out


def posting_sums(postings: Postings, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Documents holding a token of ``ids`` and their BM25 sums without the non-occurrence
    constant, in no particular order.

    A one-token text is its posting list itself (read-only views, nothing computed); longer ones
    are summed in this thread's scratch array, which is all zero again on return.
    """
    p = postings
    if len(ids) == 1:
        return posting(p, ids[0])
    if not len(ids):
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32)
    acc, seen = scratch(p.shape[1])
    parts: list[np.ndarray] = []
    try:
        for t in ids:
            docs, data = posting(p, t)
            parts.append(docs[~seen[docs]])
            seen[parts[-1]] = True
            acc[docs] += data  # a token's documents are distinct: one add each
        docs = np.concatenate(parts)
        return docs, acc[docs]
    finally:
        for part in parts:
            acc[part] = 0.0
            seen[part] = False


def add_postings(postings: Postings, ids: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """Add the posting lists of ``ids`` to ``acc`` (all zero where they touch), in token order:
    the float32 sums :func:`posting_sums` builds. Returns every document touched, once per token
    that holds it (on an error, ``acc`` is zeroed again before it propagates)."""
    p = postings
    parts: list[np.ndarray] = []
    try:
        for t in ids:
            docs, data = posting(p, t)
            parts.append(docs)
            acc[docs] += data  # a token's documents are distinct: one add each
    except BaseException:
        for docs in parts:
            acc[docs] = 0.0
        raise
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)


def top_of_sums(
    every: np.ndarray, acc: np.ndarray, copies: int, k: int, n_docs: int
) -> tuple[np.ndarray, np.ndarray]:
    """``sparse_row_topk`` of the sums in ``acc`` at the documents ``every`` (each at most
    ``copies`` times in it), without first making each document appear once.

    When ``copies * k`` entries of ``every`` hold a sum of at least some ``s > 0``, at least ``k``
    distinct documents do, so the top k lies among the documents at ``s`` or above: only those
    are made unique.
    """
    sums = acc[every]
    need = copies * k
    if len(every) > need:
        cut = len(every) - need
        kth = np.partition(sums, cut)[cut]
        if kth > 0:
            docs = sorted_unique(every[sums >= kth])
            return sparse_row_topk(docs, acc[docs], k, n_docs)
    docs = sorted_unique(every)
    return sparse_row_topk(docs, acc[docs], k, n_docs)


def retrieved_rows(
    docs: np.ndarray, sums: np.ndarray, k: int, floor: float, ordered: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The rows a text with these sums retrieves (see :func:`~logir.index.base.retrieved`),
    ascending (``docs``'s type), and their sums: the members of its top ``k`` (ties by lower
    row) with a positive score at least ``floor`` times its best. ``sums`` must be the whole
    score (no non-occurrence constant) of every document ``docs`` holds, and every other
    document must score 0; ``ordered``: ``docs`` ascend.

    No top list is ordered: the k-th best score splits the members from the rest, and only the
    rows tied at it are chosen by row.
    """
    n = len(sums)
    if not n:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    # numpy's methods rather than its functions: a query makes a few dozen of these calls on
    # short arrays, where the functions' dispatch costs as much as the work
    kth = None
    if n > k:
        part = sums.copy()
        part.partition(n - k)
        top = part[n - k :]  # the k best scores, the k-th best first
        kth, best = top[0], top[top.argmax()]
    else:
        best = sums[sums.argmax()]
    if not best > 0:  # nothing scores above the zero of a document without the text's tokens
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    least = floor * best  # float32, as retrieved_mask computes it
    if kth is not None and kth > 0 and kth >= least:  # the members are the top k
        at = (sums >= kth).nonzero()[0]
        kept = sums.take(at)
        if len(at) > k:  # more rows tied at the k-th score than places left: the lowest go in
            tied = (kept == kth).nonzero()[0]
            if not ordered:  # by row
                tied = tied.take(docs.take(at.take(tied)).argsort(kind="stable"))
            inside = np.ones(len(at), dtype=bool)
            inside[tied[len(tied) - (len(at) - k) :]] = False
            at, kept = at[inside], kept[inside]
    else:  # fewer than k documents reach the floor (or score above 0): all are members
        at = ((sums >= least) & (sums > 0)).nonzero()[0]
        kept = sums.take(at)
    rows = docs.take(at)
    if not ordered:
        order = rows.argsort(kind="stable")
        rows, kept = rows.take(order), kept.take(order)
    return rows, kept


def add_at_rows(postings: Postings, ids: np.ndarray, doc_idx: np.ndarray, out: np.ndarray) -> None:
    """Add the sums of ``ids`` at rows ``doc_idx`` to ``out`` (all zero), one posting list at a
    time in token order, each binary-searched (every list must be sorted by document).

    The same float32 additions, in the same order, as :func:`posting_sums`: a row missing from a
    list adds 0, which changes nothing.
    """
    p = postings
    indptr = p.indptr
    for t in ids.tolist():
        if indptr[t + 1] != indptr[t]:
            add_list_at_rows(*posting(p, t), doc_idx, out)


def add_list_at_rows(
    docs: np.ndarray, data: np.ndarray, doc_idx: np.ndarray, out: np.ndarray
) -> None:
    """Add one posting list's entries (``docs``, ascending and not empty, and ``data``) at rows
    ``doc_idx`` to ``out``: :func:`add_at_rows` of one token (a row the list lacks adds
    nothing)."""
    # the rows in the list's own type: searchsorted would otherwise convert the whole list
    rows = doc_idx.astype(docs.dtype, copy=False)
    pos = docs.searchsorted(rows)  # the methods: see retrieved_rows
    if len(rows) <= FEW_ROWS:  # one by one: fewer numpy calls
        last = len(docs)
        for j, (row, p) in enumerate(zip(rows.tolist(), pos.tolist(), strict=True)):
            if p < last and docs[p] == row:
                out[j] += data[p]  # float32 + float32, as below
        return
    add = data.take(pos, mode="clip")  # a row past the list's last reads its last entry
    add *= docs.take(pos, mode="clip") == rows  # a missing row adds 0 (finite x * 0 is 0)
    out += add


def postings_length(postings: Postings, ids: np.ndarray) -> int:
    """The summed length of the posting lists of ``ids``."""
    indptr = postings.indptr
    return sum(int(indptr[t + 1] - indptr[t]) for t in ids)


def nonoccurrence_offsets(nonocc: np.ndarray | None, ids: list[np.ndarray]) -> np.ndarray:
    """Per-text non-occurrence constant (BM25L / BM25+ only; zero where ``nonocc`` is None)."""
    out = np.zeros(len(ids), dtype=np.float32)
    if nonocc is not None:
        for i, q in enumerate(ids):
            if len(q):
                out[i] = nonocc[q].sum()
    return out
