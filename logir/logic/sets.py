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
    MAX_CODED_TERMS,
    CandidateSet,
    Cover,
    Membership,
    query_candidate_sets,
    retrieved_sets,
)
from logir.logic.contract import Composer, Param, StateCache
from logir.logic.ranking import Ranking
from logir.logic.setrows import RowScore, ranked_rows, row_scorer
from logir.query import And, Not, Or, Query, Term, signed_terms, terms
from logir.query.reading import Reading

DEFAULT_DEPTH = 200
DEFAULT_FLOOR = 0.6


MAX_TABLE_TERMS = 12  # a form of at most this many terms keeps its truth table (4096 entries)
FEW_COLUMNS = 16  # kept rows this few are scored one by one (logic.setrows)


@dataclass(frozen=True)
class _Result:
    """The merged set of one query: rows best first, their scores, per-term raw scores, and
    the canonical form of the query."""

    form: str
    rows: np.ndarray
    scores: np.ndarray
    term_scores: dict[str, np.ndarray]


@dataclass(frozen=True)
class _Plan:
    """What ``sets`` reads off a logical form, once per form: its term texts (query order) and
    each one's position, whether it keeps documents in no term's list (:func:`needs_universe`),
    the evidence labels (label, term position), the canonical form, whether it has an OR (the
    only node that reads its children's sets when scoring), and, for a form of at most
    ``MAX_TABLE_TERMS`` terms, its truth table: ``table[b]`` says whether a row whose term
    ``i`` retrieves it exactly when bit ``i`` of ``b`` is set is kept (with ``weights``, bit
    ``i``'s value), what it says of the kept rows (``cover``: for ``a AND (b OR c)``, only
    ``a``'s rows need a look, and ``a`` retrieves them all), and its row scorer
    (:mod:`logir.logic.setrows`)."""

    query: Query
    texts: list[str]
    row: dict[str, int]
    outsiders: bool
    labels: tuple[tuple[str, int], ...]
    form: str
    has_or: bool
    table: np.ndarray | None
    weights: np.ndarray | None
    cover: Cover
    row_score: RowScore


@lru_cache(maxsize=4096)
def _plan(query: Query) -> _Plan:
    texts = [t.text for t in terms(query)]
    row = {t: i for i, t in enumerate(texts)}
    positive, negated = signed_terms(query)
    plus = {t.text: str(t) for t in positive}
    minus = {t.text: f"NOT {t}" for t in negated}
    labels: list[tuple[str, int]] = []
    for i, text in enumerate(texts):  # in query order, as the terms were searched
        if text in plus:
            labels.append((plus[text], i))
        if text in minus:
            labels.append((minus[text], i))
    table = weights = None
    cover = Cover(tuple(range(len(texts))))
    if len(texts) <= MAX_TABLE_TERMS:  # every combination of the terms' sets, as columns
        combos = np.arange(1 << len(texts))
        member = (combos[None, :] >> np.arange(len(texts))[:, None]) & 1 == 1
        table = np.zeros(len(combos), dtype=bool)
        table[_walk_kept(query, row, member)] = True
        weights = np.left_shift(1, np.arange(len(texts)))
        cover = _cover(table, len(texts))
    return _Plan(
        query,
        texts,
        row,
        needs_universe(query),
        tuple(labels),
        str(query),
        _has_or(query),
        table,
        weights,
        cover,
        row_scorer(query, row),
    )


def _cover(table: np.ndarray, m: int) -> Cover:
    """What the truth table of a form of ``m`` terms says of the rows it keeps (see
    :class:`~logir.logic.candidates.Cover`): the positions of the fewest terms (the first such
    set in position order) such that every combination of sets it keeps holds one of them (all
    of them past 8 terms), and the terms in every kept combination, and in none."""
    kept = table.nonzero()[0].tolist()
    always = reduce(lambda a, b: a & b, kept, (1 << m) - 1)
    never = ~reduce(lambda a, b: a | b, kept, 0) & ((1 << m) - 1)
    terms = tuple(range(m))
    if m <= 8:
        for s in sorted(range(1 << m), key=lambda s: (s.bit_count(), s)):
            if all(b & s for b in kept):
                terms = tuple(i for i in range(m) if s >> i & 1)
                break
    return Cover(terms, always, never)


def _has_or(query: Query) -> bool:
    """Whether ``query`` holds an OR node."""
    todo = [query]
    while todo:
        q = todo.pop()
        if isinstance(q, Or):
            return True
        if isinstance(q, Not):
            todo.append(q.child)
        elif isinstance(q, And):
            todo.extend(q.children)
    return False


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
            out.append(Ranking(res.rows[:k], res.scores[:k], evidence, res.form))
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
        # a form's canonical string stands for it (a string's hash is kept, a form's is not)
        of: dict[tuple[str, str], _Plan] = {}
        keys = []
        for r in readings:
            plan = _plan(r.query)
            keys.append((r.text, plan.form))
            of[keys[-1]] = plan
        found, todo = self._results.split(keys, scorer)
        plans = [of[key] for key in todo]
        built: list[_Result | None] = [None] * len(todo)
        # a query that keeps no document outside its terms' lists ranks their members only:
        # the other candidates need no score, nor do the members the set algebra drops
        simple = [i for i, p in enumerate(plans) if not p.outsiders]

        def kept(q: int, rows: np.ndarray, member: Membership) -> np.ndarray:
            return _kept(plans[simple[q]], member)

        texts = [plans[i].texts for i in simple]
        cover = [plans[i].cover for i in simple]
        lists = retrieved_sets(scorer, texts, self.depth, self.floor, kept, cover) if simple else []
        if lists is not None:  # None: the scorer's columns are not independent
            for i, rs in zip(simple, lists, strict=True):
                built[i] = _combine(plans[i], rs.rows, rs.member, rs.cols, rs.scores)
        # the universe is the candidate set at k = depth: each term's and the flat text's top lists
        rest = [i for i, res in enumerate(built) if res is None]
        if rest:
            first = {key: r for key, r in zip(keys, readings, strict=True)}
            wanted = [first[todo[i]] for i in rest]
            sets = query_candidate_sets(scorer, wanted, self.depth, needs_universe)
            for i, c in zip(rest, sets, strict=True):
                built[i] = self._merge(plans[i], c)
        for key, res in zip(todo, built, strict=True):
            assert res is not None
            self._results.put(scorer, key, res)
        if not found and len(todo) == len(keys):  # each key new and asked once: in order
            return built  # type: ignore[return-value]  (every entry built above)
        found.update(zip(todo, built, strict=True))  # type: ignore[arg-type]
        return [found[key] for key in keys]

    def _merge(self, plan: _Plan, cands: CandidateSet) -> _Result:
        """Evaluate the set algebra over the candidate set (each term's top list and scores)."""
        universe = cands.rows
        lists, top = cands.top_rows, cands.top_scores
        assert lists is not None
        # member[i, j]: universe row j is in term i's list (retrieved: a positive score, not
        # top-k padding, at least floor times the term's best); every row of a list is in the
        # universe
        term_of, at = np.nonzero(retrieved_mask(lists, top, self.floor))
        matrix = np.zeros((len(cands.terms), len(universe)), dtype=bool)
        matrix[term_of, np.searchsorted(universe, lists[term_of, at])] = True
        member = Membership(len(cands.terms), matrix=matrix)
        cols = _kept(plan, member)
        return _combine(plan, universe, member, cols, cands.scores[:, cols])


def _kept(plan: _Plan, member: Membership) -> np.ndarray:
    """The columns the set algebra of the plan's form keeps, given which term of
    ``plan.texts`` retrieves the row of each column. Read off the plan's truth table where it
    has one (one lookup, whatever the form)."""
    if plan.table is None or plan.weights is None:
        matrix = member.matrix
        if matrix is None:
            assert member.codes is not None
            matrix = member.at(np.arange(len(member.codes)))
        return _walk_kept(plan.query, plan.row, matrix)
    # each column's combination of sets, as table positions
    combo = member.codes if member.codes is not None else plan.weights @ member.matrix
    return plan.table.take(combo).nonzero()[0]


def _walk_kept(query: Query, row: dict[str, int], member: np.ndarray) -> np.ndarray:
    """:func:`_kept` by walking the form: ``row`` maps a term's text to its row of ``member``."""

    def walk(q: Query) -> np.ndarray:
        if isinstance(q, Term):
            return member[row[q.text]]
        if isinstance(q, Not):
            return ~walk(q.child)
        parts = [walk(c) for c in q.children]
        return reduce(np.logical_and if isinstance(q, And) else np.logical_or, parts)

    return walk(query).nonzero()[0]


def _combine(
    plan: _Plan,
    universe: np.ndarray,
    member: Membership,
    cols: np.ndarray,
    scores: np.ndarray,
) -> _Result:
    """The ranking of the columns ``cols`` the set algebra of the plan's form keeps
    (:func:`_kept`) over ``universe`` (rows ascending); ``scores[i]`` is term ``i``'s exact
    score on ``universe[cols]``."""
    if len(cols):
        hits, rows, final = _ranked(plan, member, cols, scores)
    else:  # nothing kept
        hits, rows, final = scores, cols, np.zeros(0, dtype=np.float32)
    term_scores = {label: hits[i] for label, i in plan.labels}
    return _Result(plan.form, universe.take(rows).astype(np.int64, copy=False), final, term_scores)


def _ranked(
    plan: _Plan, member: Membership, cols: np.ndarray, scores: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kept columns ``cols`` best first: each term's scores on them, the columns, and
    their composed scores (float32); see :func:`_combine`."""
    if len(cols) <= FEW_COLUMNS and member.m <= MAX_CODED_TERMS:  # one by one: see setrows
        codes = member.codes_at(cols) if plan.has_or else [0] * len(cols)
        order, final = ranked_rows(plan.row_score, scores.T.tolist(), codes)
        at = np.asarray(order, dtype=np.intp)
        return scores.take(at, axis=1), cols.take(at), np.asarray(final, dtype=np.float32)
    # numpy's methods, not its functions: on a few hundred columns the dispatch is the cost
    exact = scores.astype(np.float64)
    if plan.has_or:  # an OR reads its children's sets; a term's own: its score or -inf
        inside = member.at(cols)
        score = _walk_scores(plan, inside, exact, np.where(inside, exact, -np.inf))
    else:  # a kept column is in every AND child's set: only the scores count
        score = _walk_scores(plan, None, exact, exact)
    order = (-score).argsort(kind="stable")  # columns ascend: ties to the lower row
    hits = scores.take(order, axis=1)  # the float32 scores, exact
    return hits, cols.take(order), score.take(order).astype(np.float32)


def _walk_scores(
    plan: _Plan, inside: np.ndarray | None, exact: np.ndarray, held: np.ndarray
) -> np.ndarray:
    """The composed score of each kept column: ``exact[i]`` is term ``i``'s score there
    (float64), ``inside[i]`` its set (None when no OR reads a set) and ``held[i]`` its score
    where its set holds the column, else -inf. An OR takes the best score among the children
    whose set holds the column; a node's set is made only where an OR above it reads it."""
    row = plan.row

    def walk(q: Query, need: bool) -> tuple[np.ndarray | None, np.ndarray]:
        # need: the caller reads the node's set
        if isinstance(q, Term):
            i = row[q.text]
            return (inside[i] if need and inside is not None else None), exact[i]
        if isinstance(q, Not):
            mask, score = walk(q.child, need)
            return (None if mask is None else ~mask), -score
        if isinstance(q, And):  # all children; the sum of their scores, child by child
            parts = [walk(c, need) for c in q.children]
            masks = [m for m, _ in parts]
            mask = reduce(np.logical_and, masks) if need else None  # type: ignore[arg-type]
            return mask, reduce(np.add, [v for _, v in parts])
        best = []  # any child: each child's score where its set holds the column, else -inf
        sets = []
        for c in q.children:
            if isinstance(c, Term):
                i = row[c.text]
                best.append(held[i])
                sets.append(inside[i] if inside is not None else None)
            else:
                m, v = walk(c, True)
                best.append(np.where(m, v, -np.inf))
                sets.append(m)
        mask = reduce(np.logical_or, sets) if need else None  # type: ignore[arg-type]
        return mask, reduce(np.maximum, best)

    return walk(plan.query, False)[1]


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
