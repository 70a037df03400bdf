"""Fuzzy score composition (ITLR): each term's calibrated score is a truth value; the query's
AND / OR / NOT tree combines them.

Operator families (ITLR section 2.3; n-ary nodes fold over all children):

- AND: ``product`` (x * y, the paper's default), ``sum`` (x + y), ``min``.
- OR: ``sum`` (x + y, default), ``max``.
- NOT: ``one_minus`` (1 - x, default), ``inverse`` (1 / x, with x raised to at least 1e-3 so a
  zero score gives 1000 rather than infinity).

Term scores are calibrated first (``calib``: none, minmax, sigmoid, rank; see
:mod:`logir.logic.calibration`). The default is a sigmoid per term anchored on the term's own
top K (``fit=anchors``), which measured best of the four with BM25 on the demo, NegConstraint and
BoolQuestions-NOT sets.

The composer reads the logical form of each Reading; its text is the flat text. Composition runs
over the query's candidate set (each term's top K plus the flat text's top K, see
:mod:`logir.logic.candidates`): documents outside it are not ranked, even where their composed
score would be high. That includes purely negative queries (``NOT a``): the candidates are then the
flat top K and ``a``'s top K, ranked by the composed score, so such a query returns documents
rather than nothing. ``score`` gives the composed score of any row, with the calibration fitted on
the same candidate set as ``rank``. K is the spec's ``depth``.

With the sigmoid calibration (fitted on each term's own top K, never on the flat top K), ``rank``
first composes over the terms' top K alone. A document outside all of them scores at most the
K-th score of each term's list on that term, so interval arithmetic over the query tree bounds its
composed score from above; when the k-th best candidate beats that bound, no document the flat top
K could add reaches the top k, and the flat text is never read (for a dense scorer, never
embedded). Otherwise the flat top K is added (:func:`~logir.logic.candidates.add_flat`) and the
query composed again. Rankings are the same as with the flat top K always in the candidate set.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import reduce
from typing import ClassVar

import numpy as np

from logir.index.base import Scorer
from logir.limits import MAX_DEPTH
from logir.logic.calibration import CALIBRATIONS, SIGMOID_FITS, Calibrator, fit
from logir.logic.candidates import DEFAULT_K, CandidateSet, add_flat, query_candidate_sets
from logir.logic.contract import MAX_SCALE, Composer, Param, StateCache
from logir.logic.ranking import Ranking
from logir.query import And, Not, Or, Query, Term, signed_terms, terms
from logir.query.reading import Reading

Op = Callable[[np.ndarray, np.ndarray], np.ndarray]
Interval = tuple[float, float]
INVERSE_FLOOR = 1e-3
RAW_SLACK = 1e-5  # relative room on a term's K-th score, for scores a scorer rounds differently
BOUND_MARGIN = 1e-9  # relative room between the k-th best candidate and the outside bound

AND_OPS: dict[str, Op] = {"product": np.multiply, "sum": np.add, "min": np.minimum}
OR_OPS: dict[str, Op] = {"sum": np.add, "max": np.maximum}
NOT_OPS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "one_minus": lambda x: 1.0 - x,
    "inverse": lambda x: 1.0 / np.maximum(x, INVERSE_FLOOR),
}
DEFAULT_CALIBRATION = "sigmoid"


def _interval_product(a: Interval, b: Interval) -> Interval:
    corners = (a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1])
    return min(corners), max(corners)


# the same operators on intervals [lo, hi] of their arguments (every one is monotone in each)
AND_BOUNDS: dict[str, Callable[[Interval, Interval], Interval]] = {
    "product": _interval_product,
    "sum": lambda a, b: (a[0] + b[0], a[1] + b[1]),
    "min": lambda a, b: (min(a[0], b[0]), min(a[1], b[1])),
}
OR_BOUNDS: dict[str, Callable[[Interval, Interval], Interval]] = {
    "sum": AND_BOUNDS["sum"],
    "max": lambda a, b: (max(a[0], b[0]), max(a[1], b[1])),
}
NOT_BOUNDS: dict[str, Callable[[Interval], Interval]] = {
    "one_minus": lambda a: (1.0 - a[1], 1.0 - a[0]),
    "inverse": lambda a: (1.0 / max(a[1], INVERSE_FLOOR), 1.0 / max(a[0], INVERSE_FLOOR)),
}


@dataclass(frozen=True)
class _State:
    """What one query needs for composition: its form, candidates and fitted calibration."""

    query: Query
    cands: CandidateSet
    calib: Calibrator


class Fuzzy(Composer):
    """ITLR-style composition of calibrated term scores over a candidate set."""

    name: ClassVar[str] = "fuzzy"
    PARAMS: ClassVar[dict[str, Param]] = {
        "and": Param("and_op", choices=tuple(AND_OPS)),
        "or": Param("or_op", choices=tuple(OR_OPS)),
        "not": Param("not_op", choices=tuple(NOT_OPS)),
        "calib": Param("calibration", choices=CALIBRATIONS),
        "fit": Param("sigmoid_fit", choices=SIGMOID_FITS),
        "depth": Param("depth", int, minimum=1, maximum=MAX_DEPTH),
        "k": Param("depth", int, minimum=1, maximum=MAX_DEPTH, renamed_to="depth"),
        "tau": Param("tau", float, minimum=-MAX_SCALE, maximum=MAX_SCALE),
        "lam": Param("lam", float, minimum=-MAX_SCALE, maximum=MAX_SCALE),
    }

    def __init__(
        self,
        and_op: str = "product",
        or_op: str = "sum",
        not_op: str = "one_minus",
        calibration: str | None = None,
        depth: int = DEFAULT_K,
        tau: float | None = None,
        lam: float | None = None,
        sigmoid_fit: str = "anchors",
    ) -> None:
        for value, table, what in (
            (and_op, AND_OPS, "AND"),
            (or_op, OR_OPS, "OR"),
            (not_op, NOT_OPS, "NOT"),
        ):
            if value not in table:
                raise ValueError(f"unknown {what} operator {value!r}; allowed: {', '.join(table)}")
        if (tau is None) != (lam is None):
            raise ValueError("tau and lam go together: give both or neither")
        calibration = calibration or ("sigmoid" if tau is not None else DEFAULT_CALIBRATION)
        if calibration not in CALIBRATIONS:
            raise ValueError(f"unknown calibration {calibration!r}; allowed: {CALIBRATIONS}")
        if tau is not None and calibration != "sigmoid":
            raise ValueError("tau and lam only apply to calib=sigmoid")
        if sigmoid_fit not in SIGMOID_FITS:
            raise ValueError(f"unknown sigmoid fit {sigmoid_fit!r}; allowed: {SIGMOID_FITS}")
        if sigmoid_fit != "anchors" and (calibration != "sigmoid" or tau is not None):
            raise ValueError("fit only applies to calib=sigmoid without tau and lam")
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.and_op, self.or_op, self.not_op = and_op, or_op, not_op
        self.calibration, self.depth, self.tau, self.lam = calibration, depth, tau, lam
        self.sigmoid_fit = sigmoid_fit
        self._states: StateCache[_State] = StateCache()

    @property
    def spec(self) -> str:
        """The full spec string of this composer (every parameter spelled out)."""
        parts = [
            f"and={self.and_op}",
            f"or={self.or_op}",
            f"not={self.not_op}",
            f"calib={self.calibration}",
            f"depth={self.depth}",
        ]
        if self.tau is not None:
            parts += [f"tau={self.tau:g}", f"lam={self.lam:g}"]
        elif self.calibration == "sigmoid":
            parts.insert(4, f"fit={self.sigmoid_fit}")
        return ",".join(["fuzzy", *parts])

    # -- Composer -----------------------------------------------------------------------------

    def rank_readings(self, readings: list[Reading], scorer: Scorer, k: int) -> list[Ranking]:
        states = self._prepare(readings, scorer)
        composed = [self._compose_candidates(state) for state in states]
        # queries whose top k the flat top K might change: add it, compose again
        need: dict[tuple[str, Query], list[int]] = {}
        for i, (state, (_, c)) in enumerate(zip(states, composed, strict=True)):
            if not state.cands.flat and not self._settled(state, c, k):
                need.setdefault(_key(readings[i]), []).append(i)
        items = [(states[at[0]].cands, key[0]) for key, at in need.items()]
        for (key, at), cands in zip(need.items(), add_flat(scorer, items, self.depth), strict=True):
            state = replace(states[at[0]], cands=cands)
            self._states.put(scorer, key, state)
            for i in at:
                states[i], composed[i] = state, self._compose_candidates(state)
        out = []
        for state, (x, c) in zip(states, composed, strict=True):
            order = np.argsort(-c, kind="stable")[:k]  # rows ascend: ties go to the lower row
            out.append(
                Ranking(
                    state.cands.rows[order],
                    c[order].astype(np.float32),
                    evidence=_evidence(state.query, state.cands.terms, x[:, order]),
                    logical_form=str(state.query),
                )
            )
        return out

    def query_texts(self, reading: Reading) -> list[str]:
        """The terms and the text (the flat top K, asked for where the terms' do not settle)."""
        return [*(t.text for t in terms(reading.query)), reading.text]

    def score_reading(self, reading: Reading, scorer: Scorer, doc_idx: np.ndarray) -> np.ndarray:
        state = self._prepare([reading], scorer)[0]
        doc_idx = doc_idx.ravel()
        x = state.calib.apply(state.cands.term_scores(scorer, doc_idx))
        return self.compose(state.query, state.cands.terms, x).astype(np.float32)

    # -- composition --------------------------------------------------------------------------

    def compose(self, query: Query, term_texts: list[str], x: np.ndarray) -> np.ndarray:
        """The composed score of each column of ``x`` (calibrated ``[terms, docs]``)."""
        row = {t: i for i, t in enumerate(term_texts)}
        and_op, or_op, not_op = AND_OPS[self.and_op], OR_OPS[self.or_op], NOT_OPS[self.not_op]

        def walk(q: Query) -> np.ndarray:
            if isinstance(q, Term):
                return x[row[q.text]]
            if isinstance(q, Not):
                return not_op(walk(q.child))
            op = and_op if isinstance(q, And) else or_op
            assert isinstance(q, And | Or)
            return reduce(op, (walk(c) for c in q.children))

        return np.asarray(walk(query), dtype=np.float64)

    def bounds(
        self, query: Query, term_texts: list[str], lo: np.ndarray, hi: np.ndarray
    ) -> Interval:
        """The range of the composed score when each term's calibrated value lies in [lo, hi]."""
        row = {t: i for i, t in enumerate(term_texts)}
        and_op, or_op = AND_BOUNDS[self.and_op], OR_BOUNDS[self.or_op]
        not_op = NOT_BOUNDS[self.not_op]

        def walk(q: Query) -> Interval:
            if isinstance(q, Term):
                i = row[q.text]
                return float(lo[i]), float(hi[i])
            if isinstance(q, Not):
                return not_op(walk(q.child))
            op = and_op if isinstance(q, And) else or_op
            assert isinstance(q, And | Or)
            return reduce(op, (walk(c) for c in q.children))

        return walk(query)

    def _compose_candidates(self, state: _State) -> tuple[np.ndarray, np.ndarray]:
        """Calibrated term scores ``[m, c]`` and composed scores ``[c]`` of the candidates."""
        x = state.calib.apply(state.cands.scores)
        return x, self.compose(state.query, state.cands.terms, x)

    def _outside_bound(self, state: _State) -> float | None:
        """An upper bound on the composed score of every document outside all the terms' top K
        (None where the calibration or the top lists give none)."""
        cal, cands = state.calib, state.cands
        if cal.method != "sigmoid" or cal.lam is None or cands.top_rows is None:
            return None
        top = cands.top_scores
        if top.shape[1] == 0 or (cands.top_rows < 0).any():
            return None  # a short list: the documents outside it have no known ceiling
        last = top[:, -1].tolist()  # each term's K-th score (float32, exact as a float)
        if not all(math.isfinite(s) for s in last):
            return None
        kth = [s + RAW_SLACK * max(1.0, abs(s)) for s in last]
        at_kth = cal.apply(np.array(kth)[:, None])[:, 0].tolist()
        lo, hi = [], []
        for a, lam in zip(at_kth, cal.lam.tolist(), strict=True):
            limit = 0.0 if lam > 0 else 1.0 if lam < 0 else 0.5  # the value at score -inf
            lo.append(a if math.isnan(a) else min(a, limit))
            hi.append(a if math.isnan(a) else max(a, limit))
        return self.bounds(state.query, cands.terms, np.array(lo), np.array(hi))[1]

    def _settled(self, state: _State, composed: np.ndarray, k: int) -> bool:
        """Whether the k-th best candidate beats every document outside the terms' top K."""
        n = len(composed)
        if k < 1 or n < k:
            return False
        bound = self._outside_bound(state)
        if bound is None:
            return False
        kth = float(np.partition(composed, n - k)[n - k])
        return kth > bound + BOUND_MARGIN * max(1.0, abs(bound))

    def _prepare(self, readings: list[Reading], scorer: Scorer) -> list[_State]:
        """States for ``readings``: cached ones reused, the rest built with one search call.

        With the sigmoid calibration the flat top K is left out here (``rank`` adds it where
        needed); the other calibrations are fitted on the whole candidate set, flat top K included.
        """
        keys = [_key(r) for r in readings]
        found, todo = self._states.split(keys, scorer)
        flat = (lambda q: False) if self.calibration == "sigmoid" else None
        first = {key: r for key, r in zip(keys, readings, strict=True)}
        built = query_candidate_sets(scorer, [first[key] for key in todo], self.depth, flat)
        for key, cands in zip(todo, built, strict=True):
            fitted = fit(self.calibration, cands, self.tau, self.lam, self.sigmoid_fit)
            state = _State(first[key].query, cands, fitted)
            found[key] = state
            self._states.put(scorer, key, state)
        return [found[key] for key in keys]


def _key(reading: Reading) -> tuple[str, Query]:
    """What a state depends on: the flat text and the logical form."""
    return reading.text, reading.query


def _evidence(query: Query, term_texts: list[str], x: np.ndarray) -> dict[str, np.ndarray]:
    """Each term's calibrated score per hit, labelled ``"term"`` or ``NOT "term"``."""
    row = {t: i for i, t in enumerate(term_texts)}
    x32 = x.astype(np.float32)
    positive, negated = signed_terms(query)
    out = {str(t): x32[row[t.text]] for t in positive}
    out.update({f"NOT {t}": x32[row[t.text]] for t in negated})
    return out
