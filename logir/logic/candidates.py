"""The candidate set of a query: where a composer looks, and each term's exact scores there.

For a query with term texts ``t_1 .. t_m`` and flat text ``q`` (the query text as typed), the
candidates are the union of ``search([t_1 .. t_m, q], K)``: each term's top K and the flat top K.
Every term is then scored exactly on those rows with one ``scorer.score`` call. Negated terms
contribute their top K too, so a query such as ``NOT a`` still has documents to rank (they are
ranked by the composed score, which pushes ``a``'s best matches down).

When ``K >= n_docs`` every search covers the whole corpus, so composing over the candidates is
the same as composing over every document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from logir.index.base import Scorer, prepare

if TYPE_CHECKING:
    from logir.query import Query

DEFAULT_K = 100
BATCH_TEXTS = 256  # texts per prepared batch (bounds the per-text state a scorer holds)


@dataclass(frozen=True)
class CandidateSet:
    """Candidate rows of one query and the statistics composers and calibration read.

    - ``rows``: candidate document rows, sorted ascending, unique ``[c]``.
    - ``terms``: the term texts, in query order ``[m]``.
    - ``scores``: exact scores of each term on ``rows`` ``[m, c]``.
    - ``top_scores``: each term's own top-K scores, best first ``[m, K]`` (-inf padding when the
      corpus holds fewer than K documents).
    - ``top_rows``: the rows of those top-K scores ``[m, K]`` (-1 padding), when known.
    """

    rows: np.ndarray
    terms: list[str]
    scores: np.ndarray
    top_scores: np.ndarray
    top_rows: np.ndarray | None = None

    def __len__(self) -> int:
        return int(len(self.rows))

    def lookup(self, doc_idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each row of ``doc_idx``: whether it is a candidate, and its column (or 0)."""
        doc_idx = np.asarray(doc_idx, dtype=np.int64)
        pos = np.searchsorted(self.rows, doc_idx)
        pos = np.minimum(pos, max(len(self.rows) - 1, 0))
        inside = (self.rows[pos] == doc_idx) if len(self.rows) else np.zeros(len(doc_idx), bool)
        return inside, np.where(inside, pos, 0)

    def term_scores(self, scorer: Scorer, doc_idx: np.ndarray) -> np.ndarray:
        """Exact term scores ``[m, len(doc_idx)]``; candidate rows reuse the stored values.

        Reusing them makes a document's score bit-identical whether it is scored alone or inside
        ``rank`` (a scorer need not return the same last bits for different row subsets).
        """
        doc_idx = np.asarray(doc_idx, dtype=np.int64).ravel()
        out = np.empty((len(self.terms), len(doc_idx)), dtype=np.float32)
        inside, col = self.lookup(doc_idx)
        out[:, inside] = self.scores[:, col[inside]]
        if (~inside).any():
            out[:, ~inside] = scorer.score(self.terms, doc_idx[~inside])
        return out


def candidate_sets(
    scorer: Scorer, queries: list[tuple[list[str], str]], k: int = DEFAULT_K
) -> list[CandidateSet]:
    """Candidate sets for many queries, each given as ``(term texts, flat text)``.

    All term and flat texts go to the scorer as one batch (:func:`~logir.index.base.prepare`):
    read once, one search over all of them, then each query's term scores on its candidates.
    A scorer with its own ``prepare`` keeps per-text state, so it gets batches of whole queries
    of at most ``BATCH_TEXTS`` texts.
    """
    if k < 1:
        raise ValueError(f"candidate depth k must be at least 1, got {k}")
    out: list[CandidateSet] = []
    limit = BATCH_TEXTS if callable(getattr(scorer, "prepare", None)) else None
    for chunk in _chunks(queries, limit):
        texts = [t for term_texts, flat in chunk for t in (*term_texts, flat)]
        batch = prepare(scorer, texts)
        idx, top = batch.search(k)
        lo = 0
        for term_texts, _ in chunk:
            hi = lo + len(term_texts) + 1
            found = idx[lo:hi].ravel()
            rows = _sorted_unique(found[found >= 0])
            scores = (
                batch.score(slice(lo, hi - 1), rows)
                if term_texts
                else np.zeros((0, len(rows)), dtype=np.float32)
            )
            out.append(
                CandidateSet(
                    rows=rows.astype(np.int64, copy=False),
                    terms=list(term_texts),
                    scores=np.asarray(scores, dtype=np.float32),
                    top_scores=np.asarray(top[lo : hi - 1], dtype=np.float32),
                    top_rows=idx[lo : hi - 1],
                )
            )
            lo = hi
    return out


def _sorted_unique(values: np.ndarray) -> np.ndarray:
    """``np.unique`` of a small integer array by sorting (numpy's hash-based path is slower)."""
    s = np.sort(values)
    if len(s) < 2:
        return s
    keep = np.empty(len(s), dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def _chunks(
    queries: list[tuple[list[str], str]], limit: int | None
) -> list[list[tuple[list[str], str]]]:
    """Consecutive runs of whole queries with at most `limit` texts each (or a single query)."""
    chunks: list[list[tuple[list[str], str]]] = []
    size = 0
    for q in queries:
        n = len(q[0]) + 1
        if not chunks or (limit is not None and size + n > limit):
            chunks.append([])
            size = 0
        chunks[-1].append(q)
        size += n
    return chunks


def candidate_set(
    scorer: Scorer, term_texts: list[str], flat_text: str, k: int = DEFAULT_K
) -> CandidateSet:
    """The candidate set of one query; see :func:`candidate_sets`."""
    return candidate_sets(scorer, [(term_texts, flat_text)], k)[0]


def query_candidate_sets(
    scorer: Scorer, texts: list[str], k: int = DEFAULT_K
) -> list[tuple[Query, CandidateSet]]:
    """Each query text's logical form and its candidate set (its terms' and its own top K)."""
    from logir.logic.base import query_of
    from logir.query import terms

    forms = [query_of(text) for text in texts]
    pairs = [([t.text for t in terms(q)], text) for q, text in zip(forms, texts, strict=True)]
    sets = candidate_sets(scorer, pairs, k)
    return list(zip(forms, sets, strict=True))
