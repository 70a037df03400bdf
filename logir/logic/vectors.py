"""Query-vector algebra (Krasakis et al., "Constructing Set-Compositional and Negated
Representations for First-Stage Ranking"): the logical form becomes one query vector, built from
its terms' vectors, and a document's score is the dot product with it.

The composer reads the logical form of each Reading; each term is encoded by the scorer. With
``A``, ``B`` the vectors of two sub-queries:

- NOT (``neg``) acts on the positive part ``A`` of the conjunction it sits in (the whole query for
  a negation outside any AND; nested ANDs count as one conjunction):

  - ``disentangled`` (default): ``A - B*``, where ``B*`` is ``B`` with every dimension that is
    non-zero in ``A`` set to zero: only what is purely negative is penalised (lexical vectors only);
  - ``nrf``: ``A - lam * B`` (negative relevance feedback; ``lam`` defaults to 0.5);
  - ``subtract``: the same with ``lam`` defaulting to 1, the paper's plain subtraction ``A - B``;
  - ``orthogonal``: ``A - (A.B / |B|^2) B`` (Widdows), so that the query is orthogonal to ``B``;
  - ``ignore``: ``A``.

- OR (``union``): ``maxpool`` (element-wise maximum, default) or ``add``. Under maxpool a
  penalty survives only where no branch weighs the dimension positively.
- AND (``inter``): ``add`` (``A + B``), or ``cpt``: ``A + B`` extended with combined pseudo-terms.
  For every two conjuncts, each pair of their top-5 terms ``(u, v)``, ``u != v``, becomes one more
  dimension with query weight ``sqrt(a_u * b_v)`` and document weight ``sqrt(d_u * d_v)``: the
  paper's ``A (x) B`` matched against ``D (x) D``, added to the linear vector rather than replacing
  it (lexical vectors only). Pseudo-terms are built on positive conjunctions only.

A query is kept as a positive and a negative vector, ``P`` and ``N``, and scored as
``P.d - N.d`` (each hit's evidence holds both parts). Ranking is exact over the corpus: the top
``max(k, depth)`` documents by ``(P - N).d`` are the candidates, then every candidate is scored in
full (pseudo-terms included); without pseudo-terms this is the exact top of the corpus. ``score``
gives any row exactly the number ``rank`` would.

Scorers: a vocabulary-grounded :class:`~logir.index.sparse.SparseScorer` (``splade``), a
:class:`~logir.index.lexical.BM25Scorer` (read as bag-of-token query vectors over its own BM25
matrix, so a plain term scores its BM25), or a dense scorer (``disentangled`` and ``cpt`` then
raise a LogirError: dense dimensions are not terms).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import scipy.sparse as sp

from logir.errors import LogirError
from logir.index.base import Scorer, VectorScorer
from logir.limits import MAX_DEPTH
from logir.logic.candidates import DEFAULT_K
from logir.logic.contract import MAX_WEIGHT, Composer, Param, StateCache
from logir.logic.ranking import Ranking
from logir.query import And, Not, Or, Query, Term, terms
from logir.query.reading import Reading

NEGATIONS = ("disentangled", "nrf", "orthogonal", "subtract", "ignore")
UNIONS = ("maxpool", "add")
INTERSECTIONS = ("add", "cpt")
DEFAULT_LAM = {"nrf": 0.5, "subtract": 1.0}
CPT_TOP = 5
LEXICAL_ONLY = {"neg": "disentangled", "inter": "cpt"}

Pairs = dict[tuple[int, int], float]


@dataclass
class _Rep:
    """A sub-query: positive vector, settled negative vector, negatives still to be placed
    against a positive context, and pseudo-term weights."""

    pos: np.ndarray
    neg: np.ndarray
    raw: np.ndarray
    pairs: Pairs = field(default_factory=dict)


@dataclass(frozen=True)
class _State:
    """One query's vectors in the scorer's format."""

    query: Query
    pos: Any
    neg: Any
    vector: Any  # pos - neg, for the candidate search
    pair_terms: np.ndarray  # [p, 2] dimension pairs
    pair_weights: np.ndarray  # [p]


class Vectors(Composer):
    """One query vector from the logical form, scored by dot product."""

    name: ClassVar[str] = "vectors"
    PARAMS: ClassVar[dict[str, Param]] = {
        "neg": Param("neg", choices=NEGATIONS),
        "lam": Param("lam", float, minimum=0.0, maximum=MAX_WEIGHT),
        "union": Param("union", choices=UNIONS),
        "inter": Param("inter", choices=INTERSECTIONS),
        "depth": Param("depth", int, minimum=1, maximum=MAX_DEPTH),
        "k": Param("depth", int, minimum=1, maximum=MAX_DEPTH, renamed_to="depth"),
    }

    def __init__(
        self,
        neg: str = "disentangled",
        lam: float | None = None,
        union: str = "maxpool",
        inter: str = "add",
        depth: int = DEFAULT_K,
    ) -> None:
        for value, allowed, what in (
            (neg, NEGATIONS, "negation"),
            (union, UNIONS, "union"),
            (inter, INTERSECTIONS, "intersection"),
        ):
            if value not in allowed:
                raise ValueError(f"unknown {what} {value!r}; allowed: {', '.join(allowed)}")
        if lam is not None and neg not in DEFAULT_LAM:
            raise ValueError("lam only applies to neg=nrf or neg=subtract")
        if lam is not None and lam < 0:
            raise ValueError(f"lam must be >= 0, got {lam}")
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.neg, self.union, self.inter, self.depth = neg, union, inter, depth
        self.lam = float(lam if lam is not None else DEFAULT_LAM.get(neg, 1.0))
        self._spaces: dict[int, tuple[Scorer, VectorScorer]] = {}
        self._states: StateCache[_State] = StateCache()

    @property
    def spec(self) -> str:
        """The full spec string of this composer."""
        lam = f",lam={self.lam:g}" if self.neg in DEFAULT_LAM else ""
        parts = f"union={self.union},inter={self.inter},depth={self.depth}"
        return f"vectors,neg={self.neg}{lam},{parts}"

    # -- Composer -----------------------------------------------------------------------------

    def rank_readings(self, readings: list[Reading], scorer: Scorer, k: int) -> list[Ranking]:
        space = self.space(scorer)
        states = self._prepare([r.query for r in readings], scorer, space)
        if not states:
            return []
        vectors = _stack([s.vector for s in states], space.lexical)
        idx, _ = space.search_vectors(vectors, max(self.depth, k))
        out = []
        for state, found in zip(states, idx, strict=True):
            rows = np.sort(found[found >= 0])
            pos, neg = self._parts(space, state, rows)
            score = (pos - neg).astype(np.float32)
            order = np.lexsort((rows, -score))[:k]
            evidence = {
                "positive": pos[order].astype(np.float32),
                "negative": neg[order].astype(np.float32),
            }
            out.append(Ranking(rows[order], score[order], evidence, str(state.query)))
        return out

    def score_reading(self, reading: Reading, scorer: Scorer, doc_idx: np.ndarray) -> np.ndarray:
        space = self.space(scorer)
        state = self._prepare([reading.query], scorer, space)[0]
        pos, neg = self._parts(space, state, doc_idx.ravel())
        return (pos - neg).astype(np.float32)

    # -- vector spaces ------------------------------------------------------------------------

    def space(self, scorer: Scorer) -> VectorScorer:
        """The vector space of `scorer` (BM25 is wrapped), checked against this composer."""
        hit = self._spaces.get(id(scorer))
        if hit is not None and hit[0] is scorer:
            return hit[1]
        from logir.index.lexical import BM25Scorer

        space: VectorScorer
        if isinstance(scorer, BM25Scorer):
            from logir.index.sparse import SparseScorer

            space = SparseScorer.from_bm25(scorer)
        elif isinstance(scorer, VectorScorer):
            space = scorer
        else:
            raise LogirError(
                f"the vectors composer needs a scorer that encodes queries as vectors "
                f"(bm25, splade or dense), not {getattr(scorer, 'name', type(scorer).__name__)!r}"
            )
        if not space.lexical:
            for key, value in LEXICAL_ONLY.items():
                if getattr(self, key) == value:
                    raise LogirError(
                        f"{key}={value} needs vocabulary-grounded vectors (bm25 or splade); "
                        f"on {space.name} vectors use neg=orthogonal, nrf, subtract or ignore "
                        f"and inter=add"
                    )
        self._spaces[id(scorer)] = (scorer, space)
        return space

    def _parts(
        self, space: VectorScorer, state: _State, rows: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Positive and negative part of each row's score, float64."""
        both = space.dot(_stack([state.pos, state.neg], space.lexical), rows)
        pos = both[0].astype(np.float64)
        if len(state.pair_weights):
            pos += _pair_scores(space, state, rows)
        return pos, both[1].astype(np.float64)

    # -- building query vectors ---------------------------------------------------------------

    def _prepare(self, forms: list[Query], scorer: Scorer, space: VectorScorer) -> list[_State]:
        found, todo = self._states.split(forms, scorer)
        texts = list(dict.fromkeys(t.text for q in todo for t in terms(q)))
        encoded = space.encode_queries(texts) if texts else None
        row = {t: i for i, t in enumerate(texts)}
        for q in todo:

            def vec(term: str) -> np.ndarray:
                assert encoded is not None
                r = encoded[row[term]]
                dense = r.toarray() if sp.issparse(r) else np.asarray(r)
                return np.asarray(dense, dtype=np.float64).ravel()

            state = self._state(q, vec, space)
            found[q] = state
            self._states.put(scorer, q, state)
        return [found[q] for q in forms]

    def _state(self, query: Query, vec: Any, space: VectorScorer) -> _State:
        rep = self.compose(query, vec)
        keys = sorted(rep.pairs)
        lexical = space.lexical
        return _State(
            query=query,
            pos=_one(rep.pos, lexical),
            neg=_one(rep.neg, lexical),
            vector=_one(rep.pos - rep.neg, lexical),
            pair_terms=np.asarray(keys, dtype=np.int64).reshape(-1, 2),
            pair_weights=np.asarray([rep.pairs[key] for key in keys], dtype=np.float64),
        )

    def compose(self, query: Query, vec: Any) -> _Rep:
        """The closed representation of `query`; ``vec(term text)`` gives a term's vector."""
        return self._close(self._walk(query, vec))

    def _walk(self, q: Query, vec: Any) -> _Rep:
        if isinstance(q, Term):
            v = vec(q.text)
            return _Rep(v, np.zeros_like(v), np.zeros_like(v))
        if isinstance(q, Not):
            inner = self._close(self._walk(q.child, vec))
            zero = np.zeros_like(inner.pos)
            return _Rep(pos=inner.neg, neg=zero, raw=inner.pos)
        if isinstance(q, Or):
            return self._union([self._close(self._walk(c, vec)) for c in q.children])
        assert isinstance(q, And)
        kids = [self._walk(c, vec) for c in _conjuncts(q)]
        rep = _Rep(
            pos=np.sum([r.pos for r in kids], axis=0),
            neg=np.sum([r.neg for r in kids], axis=0),
            raw=np.sum([r.raw for r in kids], axis=0),
            pairs=_merge([r.pairs for r in kids], max_pool=False),
        )
        if self.inter == "cpt":
            for key, w in _combined_pseudo_terms([r.pos for r in kids]).items():
                rep.pairs[key] = rep.pairs.get(key, 0.0) + w
        return self._close(rep)

    def _close(self, rep: _Rep) -> _Rep:
        """Settle pending negatives against the positive vector beside them."""
        if not rep.raw.any():
            return rep
        return _Rep(
            rep.pos, rep.neg + self.negate(rep.pos, rep.raw), np.zeros_like(rep.raw), rep.pairs
        )

    def negate(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The vector to subtract from positive `a` for a negated `b` under this method."""
        if self.neg == "disentangled":
            return np.where(a != 0, 0.0, b)
        if self.neg in DEFAULT_LAM:
            return self.lam * b
        if self.neg == "orthogonal":
            norm2 = float(b @ b)
            return (float(a @ b) / norm2) * b if norm2 > 0 else np.zeros_like(b)
        return np.zeros_like(b)

    def _union(self, kids: list[_Rep]) -> _Rep:
        zero = np.zeros_like(kids[0].pos)
        if self.union == "add":
            return _Rep(
                np.sum([r.pos for r in kids], axis=0),
                np.sum([r.neg for r in kids], axis=0),
                zero,
                _merge([r.pairs for r in kids], max_pool=False),
            )
        pairs = _merge([r.pairs for r in kids], max_pool=True)
        if not any(r.neg.any() for r in kids):
            return _Rep(np.max([r.pos for r in kids], axis=0), zero, zero.copy(), pairs)
        v = np.max([r.pos - r.neg for r in kids], axis=0)
        return _Rep(np.maximum(v, 0.0), np.maximum(-v, 0.0), zero, pairs)


def _conjuncts(q: And) -> list[Query]:
    """The children of an AND, with nested ANDs flattened into it."""
    out: list[Query] = []
    for c in q.children:
        out.extend(_conjuncts(c) if isinstance(c, And) else [c])
    return out


def _top_terms(v: np.ndarray, n: int = CPT_TOP) -> np.ndarray:
    """The `n` heaviest positive dimensions of `v` (ties by lower dimension)."""
    nz = np.flatnonzero(v > 0)
    return nz[np.lexsort((nz, -v[nz]))[:n]]


def _combined_pseudo_terms(vectors: list[np.ndarray]) -> Pairs:
    """Pseudo-term weights ``sqrt(a_u * b_v)`` for the top terms of every two conjuncts."""
    tops = [_top_terms(v) for v in vectors]
    out: Pairs = {}
    for i in range(len(vectors)):
        for j in range(i + 1, len(vectors)):
            for u in tops[i]:
                for v in tops[j]:
                    if u != v:
                        key = (int(min(u, v)), int(max(u, v)))
                        w = float(np.sqrt(vectors[i][u] * vectors[j][v]))
                        out[key] = out.get(key, 0.0) + w
    return out


def _merge(parts: list[Pairs], max_pool: bool) -> Pairs:
    out: Pairs = {}
    for pairs in parts:
        for key, w in pairs.items():
            out[key] = max(out.get(key, w), w) if max_pool else out.get(key, 0.0) + w
    return out


def _pair_scores(space: VectorScorer, state: _State, rows: np.ndarray) -> np.ndarray:
    """Each row's pseudo-term score ``sum_(u,v) w_uv sqrt(d_u d_v)`` (float64, row by row)."""
    dims, local = np.unique(state.pair_terms, return_inverse=True)
    local = local.reshape(state.pair_terms.shape)
    weights = space.doc_weights(rows, dims).astype(np.float64)  # type: ignore[attr-defined]
    joint = np.sqrt(weights[:, local[:, 0]] * weights[:, local[:, 1]])
    return (joint * state.pair_weights).sum(axis=1)


def _one(v: np.ndarray, lexical: bool) -> Any:
    """One vector as the scorer takes it: a 1-row CSR matrix or a float32 array."""
    v32 = v.astype(np.float32)[None, :]
    return sp.csr_matrix(v32) if lexical else v32


def _stack(rows: list[Any], lexical: bool) -> Any:
    return sp.vstack(rows, format="csr") if lexical else np.vstack(rows)
