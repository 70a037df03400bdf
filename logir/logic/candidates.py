"""The candidate set of a query: where a composer looks, and each term's exact scores there.

For a query with term texts ``t_1 .. t_m`` and flat text ``q`` (the query text as typed), the
candidates are the union of ``search([t_1 .. t_m, q], K)``: each term's top K and the flat top K.
Every term is then scored exactly on those rows with one ``scorer.score`` call. Negated terms
contribute their top K too, so a query such as ``NOT a`` still has documents to rank (they are
ranked by the composed score, which pushes ``a``'s best matches down).

When ``K >= n_docs`` every search covers the whole corpus, so composing over the candidates is
the same as composing over every document.

A composer that can prove the flat top K changes nothing it returns (see ``Fuzzy`` and ``Sets``)
asks for the terms' top K alone (flat text ``None``) and adds the flat top K later with
:func:`add_flat` only where it cannot: the flat text is then never read (for a dense scorer,
never embedded) for most queries.

:func:`retrieved_sets` serves a composer that needs only the rows its terms retrieve (their top K
above a floor of their best score, ``sets``): each term's retrieved rows with their scores, and
scores of other terms only on the rows it asks for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from logir.index.base import Scorer, prepare, retrieved, sorted_unique

if TYPE_CHECKING:
    from logir.query import Query
    from logir.query.reading import Reading

DEFAULT_K = 100
BATCH_TEXTS = 256  # texts per prepared batch (bounds the per-text state a scorer holds)
_NO_ROWS = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class CandidateSet:
    """Candidate rows of one query and the statistics composers and calibration read.

    - ``rows``: candidate document rows, sorted ascending, unique ``[c]``.
    - ``terms``: the term texts, in query order ``[m]``.
    - ``scores``: exact scores of each term on ``rows`` ``[m, c]``.
    - ``top_scores``: each term's own top-K scores, best first ``[m, K]`` (-inf padding when the
      corpus holds fewer than K documents).
    - ``top_rows``: the rows of those top-K scores ``[m, K]`` (-1 padding), when known.
    - ``flat``: whether ``rows`` hold the flat text's top K (False: the terms' top K only).
    """

    rows: np.ndarray
    terms: list[str]
    scores: np.ndarray
    top_scores: np.ndarray
    top_rows: np.ndarray | None = None
    flat: bool = True

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


MAX_CODED_TERMS = 16  # a query of at most this many terms codes its rows' sets in 16 bits
_SHIFTS = np.arange(MAX_CODED_TERMS, dtype=np.uint16)
_WEIGHTS = np.left_shift(1, np.arange(MAX_CODED_TERMS, dtype=np.int64))  # term i's bit
_FEW_COLUMNS = 16  # columns this few are read on Python ints
_BIT16 = [np.uint16(1 << i) for i in range(MAX_CODED_TERMS)]


@dataclass(frozen=True)
class Membership:
    """Which of a query's ``m`` terms retrieves which of its rows ``[c]``: for at most
    ``MAX_CODED_TERMS`` terms each row's ``codes`` entry (bit ``i`` set: term ``i`` retrieves
    it, uint16), else ``matrix[i, j]`` (term ``i`` retrieves row ``j``)."""

    m: int
    codes: np.ndarray | None = None
    matrix: np.ndarray | None = None

    def at(self, cols: np.ndarray) -> np.ndarray:
        """``[m, len(cols)]``: whether term ``i`` retrieves the row of each column ``cols``."""
        if self.codes is None:
            assert self.matrix is not None
            return self.matrix.take(cols, axis=1)
        return (self.codes.take(cols) >> _SHIFTS[: self.m, None]) & 1 == 1

    def codes_at(self, cols: np.ndarray) -> list[int]:
        """Each column's code (bit ``i`` set: term ``i`` retrieves its row); ``m`` at most
        ``MAX_CODED_TERMS``."""
        if self.codes is not None:
            return self.codes.take(cols).tolist()
        assert self.matrix is not None and self.m <= MAX_CODED_TERMS
        return (_WEIGHTS[: self.m] @ self.matrix.take(cols, axis=1)).tolist()

    def whole(self, cols: np.ndarray) -> list[int]:
        """The terms (ascending) that retrieve the rows of every column ``cols``."""
        if self.codes is None:
            return self.at(cols).all(axis=1).nonzero()[0].tolist()
        every = -1
        if len(cols) <= _FEW_COLUMNS:  # a few: Python's & costs less than numpy's reduction
            for code in self.codes.take(cols).tolist():
                every &= code
        else:
            every = int(np.bitwise_and.reduce(self.codes.take(cols)))
        return [i for i in range(self.m) if every >> i & 1]


@dataclass(frozen=True)
class Cover:
    """What a composer knows of the rows it keeps before any is found, for
    :func:`retrieved_sets`: ``terms``, the positions of terms whose rows hold every row it
    keeps; ``always``, the bits (``1 << i``) of the terms that retrieve every row it keeps;
    ``never``, those of the terms that retrieve none of them."""

    terms: tuple[int, ...]
    always: int = 0
    never: int = 0


#: ``keep(query position, rows, member)``: the columns of ``rows`` (ascending) whose scores a
#: composer needs, given which term retrieves which row (see :class:`RetrievedSet`)
Keep = Callable[[int, np.ndarray, Membership], np.ndarray]


@dataclass(frozen=True)
class RetrievedSet:
    """The rows a query's terms retrieve, and each term's exact scores on those asked for.

    - ``terms``: the term texts, in query order ``[m]``.
    - ``rows``: the rows any term retrieves (:func:`~logir.index.base.retrieved`), ascending
      ``[c]`` (any integer type), or, given a cover, the rows its terms retrieve.
    - ``member``: which term retrieves which of ``rows``.
    - ``cols``: the columns of ``rows`` that were scored, ascending ``[s]``.
    - ``scores``: exact scores of each term on ``rows[cols]`` ``[m, s]``.
    """

    rows: np.ndarray
    terms: list[str]
    member: Membership
    cols: np.ndarray
    scores: np.ndarray


def retrieved_sets(
    scorer: Scorer,
    queries: list[list[str]],
    k: int,
    floor: float,
    keep: Keep | None = None,
    cover: Sequence[Cover] | None = None,
) -> list[RetrievedSet] | None:
    """For each query (its term texts): the rows its terms retrieve from their top ``k`` at
    ``floor``, and every term scored on the columns ``keep`` names (all of them when None),
    from one batch of texts (per ``BATCH_TEXTS``). ``cover[q]``, where given, says what
    ``keep`` keeps of query ``q``: its rows are then those of the cover's terms alone (the
    other terms' rows could not be kept; for one term, no union is made).

    The scores are those :func:`candidate_sets` gives the same rows. None where the scorer's
    batches do not score each column independently (``independent_columns``): the caller then
    scores every candidate, as :func:`candidate_sets` does.
    """
    if k < 1:
        raise ValueError(f"candidate depth k must be at least 1, got {k}")
    out: list[RetrievedSet] = []
    limit = BATCH_TEXTS if callable(getattr(scorer, "prepare", None)) else None
    pairs: list[tuple[list[str], str | None]] = [(terms, None) for terms in queries]
    for chunk in [pairs] if len(pairs) == 1 else _chunks(pairs, limit):  # one: one chunk
        batch = prepare(scorer, [t for terms, _ in chunk for t in terms])
        if not getattr(batch, "independent_columns", False):
            return None
        found = retrieved(batch, k, floor)
        lo = 0
        for terms, _ in chunk:
            m = len(terms)
            mine = found[lo : lo + m]
            got = [r for r, _ in mine]
            known = Cover(tuple(range(m))) if cover is None else cover[len(out)]
            rows, member = _membership(got, known.terms)
            cols = np.arange(len(rows)) if keep is None else keep(len(out), rows, member)
            scores = np.empty((m, len(cols)), dtype=np.float32)
            if len(cols):
                asked = rows.take(cols)
                # a term that retrieves every row asked for brought its scores with them; the
                # others (a run of them, from the first to the last) are asked of the batch
                a, b, whole = m, m, None
                for i in range(m):
                    if known.always >> i & 1:
                        continue
                    if not known.never >> i & 1:
                        whole = member.whole(cols) if whole is None else whole
                        if i in whole:
                            continue
                    a, b = min(a, i), i + 1
                for i, (got_i, values) in enumerate(mine):
                    if not a <= i < b:
                        scores[i] = values.take(got_i.searchsorted(asked))
                if a < b:
                    scores[a:b] = batch.score(slice(lo + a, lo + b), asked)
            out.append(RetrievedSet(rows, list(terms), member, cols, scores))
            lo += m
    return out


def _in_sorted(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Whether each of ``rows`` is in ``values`` (ascending, not empty)."""
    return values.take(values.searchsorted(rows), mode="clip") == rows


def _membership(got: list[np.ndarray], over: Sequence[int]) -> tuple[np.ndarray, Membership]:
    """The rows (ascending) the terms ``over`` retrieve, and which term retrieves which of
    them (``got[i]``: term ``i``'s rows, ascending). One term's rows (few kept, as a rule) get
    codes; a union, a matrix."""
    m = len(got)
    if len(over) == 1 and m <= MAX_CODED_TERMS:  # ascending and distinct already
        rows = got[over[0]]
        codes = np.full(len(rows), 1 << over[0], dtype=np.uint16)
        for i, mine in enumerate(got):
            if i != over[0] and len(mine) and len(rows):
                # distinct bits: adding one sets it (cheaper than a masked or)
                codes += _in_sorted(mine, rows) * _BIT16[i]
        return rows, Membership(m, codes=codes)
    parts = [got[i] for i in over]
    every = np.concatenate(parts) if parts else _NO_ROWS
    rows = sorted_unique(every)
    matrix = np.zeros((m, len(rows)), dtype=bool)
    at = np.asarray(over, dtype=np.intp).repeat([len(r) for r in parts])
    matrix[at, rows.searchsorted(every)] = True  # each term's rows are distinct
    inside = set(over)
    for i, mine in enumerate(got):
        if i not in inside and len(mine) and len(rows):
            matrix[i] = _in_sorted(mine, rows)
    return rows, Membership(m, matrix=matrix)


def candidate_sets(
    scorer: Scorer,
    queries: list[tuple[list[str], str | None]],
    k: int = DEFAULT_K,
) -> list[CandidateSet]:
    """Candidate sets for many queries, each given as ``(term texts, flat text)``.

    All term and flat texts go to the scorer as one batch (:func:`~logir.index.base.prepare`):
    read once, one search over all of them, then each query's term scores on its candidates.
    A flat text ``None`` leaves the flat top K out (``CandidateSet.flat`` is then False).
    A scorer with its own ``prepare`` keeps per-text state, so it gets batches of whole queries
    of at most ``BATCH_TEXTS`` texts. (A composer that needs only the rows its terms retrieve
    takes :func:`retrieved_sets` instead.)
    """
    if k < 1:
        raise ValueError(f"candidate depth k must be at least 1, got {k}")
    out: list[CandidateSet] = []
    limit = BATCH_TEXTS if callable(getattr(scorer, "prepare", None)) else None
    for chunk in _chunks(queries, limit):
        texts = [t for term_texts, flat in chunk for t in (*term_texts, flat) if t is not None]
        batch = prepare(scorer, texts)
        hold = getattr(batch, "hold", None)  # a scorer may keep per-text state for score
        with hold() if callable(hold) else nullcontext():
            idx, top = batch.search(k)
            lo = 0
            for term_texts, flat in chunk:
                m = len(term_texts)
                hi = lo + m + (flat is not None)
                found = idx[lo:hi].ravel()
                rows = sorted_unique(found[found >= 0])
                scores = (
                    batch.score(slice(lo, lo + m), rows)
                    if m
                    else np.zeros((0, len(rows)), dtype=np.float32)
                )
                out.append(
                    CandidateSet(
                        rows=rows.astype(np.int64, copy=False),
                        terms=list(term_texts),
                        scores=np.asarray(scores, dtype=np.float32),
                        top_scores=np.asarray(top[lo : lo + m], dtype=np.float32),
                        top_rows=idx[lo : lo + m],
                        flat=flat is not None,
                    )
                )
                lo = hi
    return out


def add_flat(
    scorer: Scorer, items: list[tuple[CandidateSet, str]], k: int = DEFAULT_K
) -> list[CandidateSet]:
    """Each ``(candidate set, flat text)`` with the flat text's top K added to its rows.

    The result equals :func:`candidate_sets` given the flat text in the first place: the same
    rows, the terms scored exactly on all of them. One search over the flat texts, then one
    batch for the terms of the sets that gained rows.
    """
    if k < 1:
        raise ValueError(f"candidate depth k must be at least 1, got {k}")
    out = [cs for cs, _ in items]
    todo = [i for i, (cs, _) in enumerate(items) if not cs.flat]
    limit = BATCH_TEXTS if callable(getattr(scorer, "prepare", None)) else None
    step = limit or max(len(todo), 1)
    grown: list[tuple[int, np.ndarray]] = []
    for start in range(0, len(todo), step):
        part = todo[start : start + step]
        idx, _ = prepare(scorer, [items[i][1] for i in part]).search(k)
        for i, found in zip(part, idx, strict=True):
            cs = items[i][0]
            rows = sorted_unique(np.concatenate([cs.rows, found[found >= 0]]))
            if len(rows) == len(cs.rows):
                out[i] = replace(cs, flat=True)
            else:
                grown.append((i, rows.astype(np.int64, copy=False)))
    for chunk in _chunks([(out[i].terms, None) for i, _ in grown], limit):
        group, grown = grown[: len(chunk)], grown[len(chunk) :]
        batch = prepare(scorer, [t for terms, _ in chunk for t in terms])
        # a batch whose every score depends on its text and document alone (not on the other
        # rows asked for) scores only the rows that are new; the others keep their values
        reuse = getattr(batch, "independent_columns", False)
        lo = 0
        for i, rows in group:
            m = len(out[i].terms)
            if not m:
                scores = np.zeros((0, len(rows)), dtype=np.float32)
            elif reuse:
                inside, col = out[i].lookup(rows)
                scores = np.empty((m, len(rows)), dtype=np.float32)
                scores[:, inside] = out[i].scores[:, col[inside]]
                scores[:, ~inside] = batch.score(slice(lo, lo + m), rows[~inside])
            else:
                scores = np.asarray(batch.score(slice(lo, lo + m), rows), dtype=np.float32)
            out[i] = replace(out[i], rows=rows, scores=scores, flat=True)
            lo += m
    return out


def _chunks(
    queries: list[tuple[list[str], str | None]], limit: int | None
) -> list[list[tuple[list[str], str | None]]]:
    """Consecutive runs of whole queries with at most `limit` texts each (or a single query)."""
    chunks: list[list[tuple[list[str], str | None]]] = []
    size = 0
    for q in queries:
        n = len(q[0]) + (q[1] is not None)
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
    scorer: Scorer,
    readings: list[Reading],
    k: int = DEFAULT_K,
    flat: Callable[[Query], bool] | None = None,
) -> list[CandidateSet]:
    """Each reading's candidate set: its terms' top K and its text's own top K.

    ``flat(query)`` False leaves that reading's own top K out (see :func:`add_flat`).
    """
    from logir.query import terms

    pairs: list[tuple[list[str], str | None]] = [
        ([t.text for t in terms(r.query)], r.text if flat is None or flat(r.query) else None)
        for r in readings
    ]
    return candidate_sets(scorer, pairs, k)
