"""Set algebra over per-term result lists: BoolQuestions' "Boolean operation on decomposed query".

Each term (sub-question) retrieves its top ``depth`` documents (the paper takes 2k for a depth-k
evaluation; ``depth`` defaults to 200). The lists are merged by the query's operators:

- AND: intersection; the score is the sum of the children's scores.
- OR: union; the score is the maximum over the children whose set holds the document.
- NOT: difference; ``a AND NOT b`` keeps ``a``'s documents that are not in ``b``'s list and
  scores them ``s_a - s_b`` (a NOT node scores ``-s``).

A term's list holds the documents it retrieved with a positive score: BM25 pads a top-k list with
zero-score rows that match no token, and those are not retrieved (a cosine <= 0 is no match either).
Nor is a document scoring below ``floor`` times the term's best score (default 0.6, chosen on the
BoolQuestions tune split: nDCG@10 of ``bm25:sets`` 32.3 with no floor, 72.0 with it). Over a corpus
not much larger than ``depth`` every document is in a dense or hybrid top list, with a small
positive cosine, and ``a AND NOT b`` would then keep only what neither term is about.
A NOT that is not subtracted from a positive sibling (``NOT a``, ``a OR NOT b``) needs a universe
to take the complement in: here it is every row the searches returned (each term's top ``depth``
and the flat query text's top ``depth``, padding included), the same rows as the fuzzy composer's
candidate set at ``k = depth``. A query that needs no universe (every document it keeps is in some
term's list, as in ``a AND NOT b``) never reads the flat text: its result is the same without it.
Scores are exact scorer scores of each term on the documents (for BM25 the same numbers as in the
lists). The merged set is ranked by score and nothing else
fills it, so a query may return fewer than k documents. ``score`` gives a document outside the
final set ``-inf``: below every ranked document, and tied with every other unranked one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, reduce
from typing import ClassVar

import numpy as np

from logir.index.base import Scorer, retrieved_mask
from logir.limits import MAX_DEPTH
from logir.logic.candidates import (
    CandidateSet,
    query_candidate_sets,
    retrieved_sets,
)
from logir.logic.contract import Composer, Param, StateCache
from logir.logic.ranking import Ranking
from logir.query import And, Not, Or, Query, Term, signed_terms, terms
from logir.query.reading import Reading

DEFAULT_DEPTH = 200
DEFAULT_FLOOR = 0.6


@dataclass(frozen=True)
class _Result:
    """The merged set of one query: rows best first, their scores, per-term raw scores."""

    query: Query
    rows: np.ndarray
    scores: np.ndarray
    term_scores: dict[str, np.ndarray]


@dataclass(frozen=True)
class _Plan:
    """What ``sets`` reads off a logical form, once per form: its term texts (query order),
    whether it keeps documents in no term's list (:func:`needs_universe`), the evidence labels
    (label, term position) and the canonical form."""

    texts: list[str]
    outsiders: bool
    labels: tuple[tuple[str, int], ...]
    form: str


@lru_cache(maxsize=4096)
def _plan(query: Query) -> _Plan:
    texts = [t.text for t in terms(query)]
    positive, negated = signed_terms(query)
    plus = {t.text: str(t) for t in positive}
    minus = {t.text: f"NOT {t}" for t in negated}
    labels: list[tuple[str, int]] = []
    for i, text in enumerate(texts):  # in query order, as the terms were searched
        if text in plus:
            labels.append((plus[text], i))
        if text in minus:
            labels.append((minus[text], i))
    return _Plan(texts, needs_universe(query), tuple(labels), str(query))


class Sets(Composer):
    """Intersection / union / difference of per-term top lists, re-scored by sum / max / minus."""

    name: ClassVar[str] = "sets"
    PARAMS: ClassVar[dict[str, Param]] = {
        "depth": Param("depth", int, minimum=1, maximum=MAX_DEPTH),
        "floor": Param("floor", float, minimum=0.0, maximum=1.0),
    }

    def __init__(self, depth: int = DEFAULT_DEPTH, floor: float = DEFAULT_FLOOR) -> None:
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        if not 0.0 <= floor <= 1.0:
            raise ValueError(f"floor must be in [0, 1], got {floor}")
        self.depth, self.floor = depth, floor
        self._results: StateCache[_Result] = StateCache()

    def rank_readings(self, readings: list[Reading], scorer: Scorer, k: int) -> list[Ranking]:
        out = []
        for res in self._prepare(readings, scorer):
            evidence = {label: v[:k] for label, v in res.term_scores.items()}
            out.append(Ranking(res.rows[:k], res.scores[:k], evidence, _plan(res.query).form))
        return out

    def score_reading(self, reading: Reading, scorer: Scorer, doc_idx: np.ndarray) -> np.ndarray:
        res = self._prepare([reading], scorer)[0]
        doc_idx = doc_idx.ravel()
        order = np.argsort(res.rows, kind="stable")
        sorted_rows = res.rows[order]
        pos = np.minimum(np.searchsorted(sorted_rows, doc_idx), max(len(sorted_rows) - 1, 0))
        out = np.full(len(doc_idx), -np.inf, dtype=np.float32)
        if len(sorted_rows):
            inside = sorted_rows[pos] == doc_idx
            out[inside] = res.scores[order[pos[inside]]]
        return out

    def _prepare(self, readings: list[Reading], scorer: Scorer) -> list[_Result]:
        keys = [(r.text, r.query) for r in readings]
        found, todo = self._results.split(keys, scorer)
        # a query that keeps no document outside its terms' lists ranks their members only:
        # the other candidates need no score, nor do the members the set algebra drops
        simple = [key for key in todo if not _plan(key[1]).outsiders]
        texts = [_plan(q).texts for _, q in simple]

        def kept(q: int, rows: np.ndarray, member: np.ndarray) -> np.ndarray:
            return _kept(simple[q][1], texts[q], member)

        lists = retrieved_sets(scorer, texts, self.depth, self.floor, kept) if simple else []
        if lists is not None:  # None: the scorer's columns are not independent
            for key, rs in zip(simple, lists, strict=True):
                found[key] = _combine(key[1], rs.terms, rs.rows, rs.member, rs.cols, rs.scores)
        # the universe is the candidate set at k = depth: each term's and the flat text's top lists
        first = {key: r for key, r in zip(keys, readings, strict=True)}
        rest = [key for key in todo if key not in found]
        if rest:
            wanted = [first[key] for key in rest]
            built = query_candidate_sets(scorer, wanted, self.depth, needs_universe)
            for key, c in zip(rest, built, strict=True):
                found[key] = self._merge(key[1], c)
        for key in todo:
            self._results.put(scorer, key, found[key])
        return [found[key] for key in keys]

    def _merge(self, query: Query, cands: CandidateSet) -> _Result:
        """Evaluate the set algebra over the candidate set (each term's top list and scores)."""
        universe = cands.rows
        lists, top = cands.top_rows, cands.top_scores
        assert lists is not None
        # member[i, j]: universe row j is in term i's list (retrieved: a positive score, not
        # top-k padding, at least floor times the term's best); every row of a list is in the
        # universe
        term_of, at = np.nonzero(retrieved_mask(lists, top, self.floor))
        member = np.zeros((len(cands.terms), len(universe)), dtype=bool)
        member[term_of, np.searchsorted(universe, lists[term_of, at])] = True
        cols = _kept(query, cands.terms, member)
        return _combine(query, cands.terms, universe, member, cols, cands.scores[:, cols])


def _kept(query: Query, texts: list[str], member: np.ndarray) -> np.ndarray:
    """The columns the set algebra of ``query`` keeps: ``member[i, j]`` says whether term
    ``texts[i]`` retrieves the row of column ``j``."""
    row = {t: i for i, t in enumerate(texts)}

    def walk(q: Query) -> np.ndarray:
        if isinstance(q, Term):
            return member[row[q.text]]
        if isinstance(q, Not):
            return ~walk(q.child)
        parts = [walk(c) for c in q.children]
        return reduce(np.logical_and if isinstance(q, And) else np.logical_or, parts)

    return walk(query).nonzero()[0]


def _combine(
    query: Query,
    texts: list[str],
    universe: np.ndarray,
    member: np.ndarray,
    cols: np.ndarray,
    scores: np.ndarray,
) -> _Result:
    """The ranking of the columns ``cols`` the set algebra of ``query`` keeps (:func:`_kept`)
    over ``universe`` (rows ascending); ``scores[i]`` is term ``texts[i]``'s exact score on
    ``universe[cols]``."""
    if len(cols):
        hits, rows, final = _ranked(query, texts, member, cols, scores)
    else:  # nothing kept
        hits, rows, final = scores, cols, np.zeros(0, dtype=np.float32)
    term_scores = {label: hits[i] for label, i in _plan(query).labels}
    return _Result(query, universe.take(rows), final, term_scores)


def _ranked(
    query: Query, texts: list[str], member: np.ndarray, cols: np.ndarray, scores: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kept columns ``cols`` best first: each term's scores on them, the columns, and
    their composed scores (float32); see :func:`_combine`."""
    # numpy's methods, not its functions: on a few hundred columns the dispatch is the cost
    exact = scores.astype(np.float64)
    inside = member.take(cols, axis=1)
    row = {t: i for i, t in enumerate(texts)}

    def walk(q: Query) -> tuple[np.ndarray, np.ndarray]:
        if isinstance(q, Term):
            i = row[q.text]
            return inside[i], exact[i]
        if isinstance(q, Not):
            mask, score = walk(q.child)
            return ~mask, -score
        parts = [walk(c) for c in q.children]
        if isinstance(q, And):  # all children; the sum of their scores, child by child
            return (
                reduce(np.logical_and, [p[0] for p in parts]),
                reduce(np.add, [p[1] for p in parts]),
            )
        # any child; the best score among the children whose set holds the document
        return (
            reduce(np.logical_or, [p[0] for p in parts]),
            reduce(np.maximum, [np.where(p[0], p[1], -np.inf) for p in parts]),
        )

    _, score = walk(query)
    order = (-score).argsort(kind="stable")  # columns ascend: ties to the lower row
    hits = scores.take(order, axis=1)  # the float32 scores, exact
    return hits, cols.take(order), score.take(order).astype(np.float32)


def needs_universe(query: Query) -> bool:
    """Whether ``query`` keeps documents that are in no term's list (``NOT a``, ``a OR NOT b``)."""

    def keeps_outsider(q: Query) -> bool:  # the set mask of a document in no list
        if isinstance(q, Term):
            return False
        if isinstance(q, Not):
            return not keeps_outsider(q.child)
        kept = [keeps_outsider(c) for c in q.children]
        assert isinstance(q, And | Or)
        return all(kept) if isinstance(q, And) else any(kept)

    return keeps_outsider(query)
