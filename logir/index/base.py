"""The Scorer contract: term texts in, document scores out. A scorer knows nothing about logic.

A `VectorScorer` also exposes its vector space, for composers that build query vectors. A scorer
made of other scorers declares them in ``parts`` (read with :func:`scorer_parts`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Scorer(Protocol):
    """Scores texts against a fixed corpus.

    - ``score(texts, doc_idx=None)`` -> float32 array ``[len(texts), n]``: every document, or only
      the rows ``doc_idx`` (shared by all texts) in that order.
    - ``search(texts, k)`` -> ``(doc_idx [m, k], scores [m, k])``, best first; rows with fewer than
      k scored documents are padded with index -1 and score -inf.
    - ``score_range``: a short statement of the range of scores (for calibration).

    Optional: ``parts``, the scorers it is made of that a composer may read by name
    (:data:`LEXICAL_PART`, :data:`DENSE_PART`), read with :func:`scorer_parts`; ``passages``, the
    corpus texts by row (:func:`scorer_passages`); ``prepare`` (see :class:`QueryBatch`); and
    ``warm`` and ``ahead`` (see :func:`warm`, :func:`ahead`).
    """

    name: str
    score_range: str

    @property
    def n_docs(self) -> int: ...

    def score(self, texts: list[str], doc_idx: np.ndarray | None = None) -> np.ndarray: ...

    def search(self, texts: list[str], k: int) -> tuple[np.ndarray, np.ndarray]: ...


#: the part names a composer may ask a scorer for (see :func:`scorer_parts`)
LEXICAL_PART = "lexical"
DENSE_PART = "dense"
NO_PARTS: Mapping[str, Scorer] = MappingProxyType({})


def scorer_parts(scorer: Scorer) -> Mapping[str, Scorer]:
    """The parts ``scorer`` declares (its ``parts``), by name; none where it declares none."""
    parts: Mapping[str, Scorer] = getattr(scorer, "parts", NO_PARTS)
    return parts


def scorer_passages(scorer: Scorer) -> Sequence[str] | None:
    """The corpus texts by row that ``scorer`` carries (its ``passages``: what was indexed for
    each document), or None where it carries none."""
    passages: Sequence[str] | None = getattr(scorer, "passages", None)
    return passages


def attach_passages(scorer: Scorer, passages: Sequence[str]) -> None:
    """Give ``scorer`` the corpus texts by row, for composers that read passages (see
    :func:`scorer_passages`); the texts must be the ones it indexed, one per document."""
    if len(passages) != scorer.n_docs:
        raise ValueError(f"{len(passages)} passages for a scorer over {scorer.n_docs} documents")
    scorer.passages = passages  # type: ignore[attr-defined]


@runtime_checkable
class VectorScorer(Scorer, Protocol):
    """A scorer whose score is the dot product of a query vector and a document vector.

    - ``lexical``: True when each dimension is a vocabulary term (sparse), False for dense.
    - ``dim``: the length of the vectors.
    - ``encode_queries(texts)`` -> ``[len(texts), dim]`` (a scipy CSR matrix or an array).
    - ``dot(vectors, doc_idx)`` -> float32 ``[m, len(doc_idx)]``: each value depends only on its
      query vector and its document, never on the other rows asked for.
    - ``search_vectors(vectors, k)``: top-k documents of each vector, as ``search``.
    """

    lexical: bool

    @property
    def dim(self) -> int: ...

    def encode_queries(self, texts: list[str]) -> Any: ...

    def dot(self, vectors: Any, doc_idx: np.ndarray) -> np.ndarray: ...

    def search_vectors(self, vectors: Any, k: int) -> tuple[np.ndarray, np.ndarray]: ...


def topk(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Row-wise top-k of a dense score matrix, best first, ties broken by lower index.

    When k exceeds the number of columns, rows are padded with index -1 and score -inf.
    """
    scores = np.atleast_2d(scores)
    m, n = scores.shape
    k_eff = min(k, n)
    idx = np.empty((m, k_eff), dtype=np.int64)
    if k_eff:
        # the k-th largest value of each row; every column at or above it is a candidate, so a
        # tie at the boundary is resolved by index rather than by argpartition's arbitrary pick
        kth = np.partition(scores, n - k_eff, axis=1)[:, n - k_eff]
        for i in range(m):
            row = scores[i]
            cand = np.flatnonzero(row >= kth[i])
            order = np.lexsort((cand, -row[cand]))[:k_eff]
            idx[i] = cand[order]
    top = np.take_along_axis(scores, idx, axis=1).astype(np.float32)
    if k_eff < k:
        idx = np.pad(idx, ((0, 0), (0, k - k_eff)), constant_values=-1)
        top = np.pad(top, ((0, 0), (0, k - k_eff)), constant_values=-np.inf)
    return idx, top


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """``np.unique`` of a small integer array by sorting (numpy's hash-based path is slower)."""
    s = values.copy()
    s.sort()  # the method: numpy's function costs more than the sort of a short array
    if len(s) < 2:
        return s
    keep = np.empty(len(s), dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def sparse_row_topk(
    docs: np.ndarray, scores: np.ndarray, k: int, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Top-k of a sparse score row over `n` documents (absent documents score 0)."""
    if 0 < k <= len(docs):
        kth = np.partition(scores, len(scores) - k)[len(scores) - k]
        if kth > 0:  # k stored scores beat every absent document: no zero-score filler needed
            keep = np.flatnonzero(scores >= kth)
            order = keep[np.lexsort((docs[keep], -scores[keep]))[:k]]
            return docs[order], scores[order]
    # the k lowest rows with no entry are the only zero-score documents that can make the top k
    span = min(n, k + len(docs))
    present = np.zeros(span, dtype=bool)
    present[docs[docs < span]] = True
    fill = np.flatnonzero(~present)[:k]
    cand_d = np.concatenate([docs, fill])
    cand_s = np.concatenate([scores, np.zeros(len(fill), dtype=np.float32)])
    if len(cand_s) > k:
        kth = np.partition(-cand_s, k - 1)[k - 1]
        keep = -cand_s <= kth  # ties at the boundary stay, resolved by row below
        cand_d, cand_s = cand_d[keep], cand_s[keep]
    order = np.lexsort((cand_d, -cand_s))[:k]
    return cand_d[order], cand_s[order]


@runtime_checkable
class QueryBatch(Protocol):
    """Texts a scorer has read once (tokenised, embedded), to search and score without re-reading.

    - ``search(k)``: the same as ``scorer.search(texts, k)``.
    - ``score(rows, doc_idx)``: the same numbers as ``scorer.score(texts[rows], doc_idx)``.

    A scorer may offer ``prepare(texts) -> QueryBatch``; :func:`prepare` falls back to plain calls.
    """

    def search(self, k: int) -> tuple[np.ndarray, np.ndarray]: ...

    def score(self, rows: slice, doc_idx: np.ndarray) -> np.ndarray: ...


class _PlainBatch:
    """A QueryBatch for scorers without ``prepare``: each call goes to the scorer."""

    def __init__(self, scorer: Scorer, texts: list[str]) -> None:
        self._scorer, self._texts = scorer, list(texts)

    def search(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        return self._scorer.search(self._texts, k)

    def score(self, rows: slice, doc_idx: np.ndarray) -> np.ndarray:
        return self._scorer.score(self._texts[rows], doc_idx)


def warm(scorer: Scorer, texts: Sequence[str]) -> None:
    """Let ``scorer`` read ``texts`` ahead, all at once, where it can (``scorer.warm``: a dense
    scorer embeds them in one encoder call); later calls over any of them reuse that reading.
    Nothing happens for a scorer without ``warm``: the calls then read each text as they come."""
    own = getattr(scorer, "warm", None)
    unique = list(dict.fromkeys(texts))
    if callable(own) and unique:
        own(unique)


def ahead(
    scorer: Scorer,
    requests: Sequence[tuple[Sequence[str], np.ndarray]],
    best: Sequence[str] = (),
) -> None:
    """Tell ``scorer`` what the next calls ask: each request's texts scored on its rows, and the
    best score (top 1) of each ``best`` text. A scorer whose calls cost a round trip (sharded:
    ``scorer.ahead``) fetches them all at once; for any other this does nothing."""
    own = getattr(scorer, "ahead", None)
    if callable(own) and (requests or best):
        own(requests, best)


def retrieved_mask(rows: np.ndarray, top: np.ndarray, floor: float) -> np.ndarray:
    """Which entries of top lists (``search``'s ``rows`` and ``top`` scores ``[m, K]``) a text
    retrieves: a positive score, not padding, and at least ``floor`` times the text's best."""
    best = np.maximum(top[:, :1], 0.0) if top.shape[1] else np.zeros((len(top), 1))
    return (rows >= 0) & (top > 0) & (top >= floor * best)


#: the rows a text retrieves, ascending (integers of any width), and its scores there (the
#: same as ``score`` gives)
Retrieved = tuple[np.ndarray, np.ndarray]


def retrieved(batch: QueryBatch, k: int, floor: float) -> list[Retrieved]:
    """The rows each text of ``batch`` retrieves, ascending, with its scores on them: the
    members of its top ``k`` (``search(k)``) that :func:`retrieved_mask` keeps.
    ``batch.retrieved(k, floor)`` where the batch has it (the same rows, found without ordering
    whole top lists), else from ``search``."""
    own = getattr(batch, "retrieved", None)
    if callable(own):
        found: list[Retrieved] = own(k, floor)
        return found
    return retrieved_by_search(batch, k, floor)


def retrieved_by_search(batch: QueryBatch, k: int, floor: float) -> list[Retrieved]:
    """:func:`retrieved` read from ``batch.search(k)``: the general way, for any batch."""
    rows, top = batch.search(k)
    keep = retrieved_mask(rows, top, floor)
    out = []
    for r, t, m in zip(rows, top, keep, strict=True):
        order = np.argsort(r[m], kind="stable")
        out.append((r[m][order].astype(np.int64, copy=False), t[m][order]))
    return out


def prepare(scorer: Scorer, texts: list[str]) -> QueryBatch:
    """``scorer.prepare(texts)`` where the scorer has it, else a batch of plain calls."""
    own = getattr(scorer, "prepare", None)
    return own(list(texts)) if callable(own) else _PlainBatch(scorer, texts)
