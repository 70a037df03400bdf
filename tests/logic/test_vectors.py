"""The vectors composer: each negation, union and intersection on hand-made vectors, worked out
by hand; orthogonality; rank/score agreement; BM25 and dense scorers; spec errors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from logir.errors import LogirError
from logir.index.dense import DenseScorer
from logir.index.hybrid import HybridScorer
from logir.index.lexical import BM25Scorer
from logir.index.sparse import SparseScorer
from logir.logic import get_composer
from logir.logic.vectors import Vectors
from logir.query import to_query as query_of

# vocabulary:   birds fly colombia venezuela andes
VOCAB = ["birds", "fly", "colombia", "venezuela", "andes"]
TERMS = {
    "A": [2, 1, 3, 0, 0],
    "B": [1, 0, 0, 2, 1],
}
DOCS = [
    [1, 0, 1, 0, 0],  # d0
    [1, 0, 1, 1, 0],  # d1
    [0, 1, 0, 0, 1],  # d2
    [4, 0, 1, 0, 0],  # d3
]
# a.d = [2+3, 2+3, 1, 8+3] = [5, 5, 1, 11];  b.d = [1, 1+2, 1, 4] = [1, 3, 1, 4]


class DictEncoder:
    """Fixed vectors for fixed texts."""

    model_id = "toy"
    vocabulary = VOCAB

    def encode(self, texts: list[str]) -> sp.csr_matrix:
        return sp.csr_matrix(np.array([TERMS[t] for t in texts], dtype=np.float32))


class ToyDense(DenseScorer):
    """A dense scorer whose query embeddings are given, not computed."""

    def __init__(self, docs: np.ndarray, queries: dict[str, list[float]]) -> None:
        super().__init__(docs, model="toy")
        self.queries = queries

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.array([self.queries[t] for t in texts], dtype=np.float32)


@pytest.fixture
def toy() -> SparseScorer:
    docs = sp.csr_matrix(np.array(DOCS, dtype=np.float32))
    return SparseScorer.from_doc_vectors(docs, DictEncoder())


def scores(spec: str, query: str, scorer: object) -> np.ndarray:
    return get_composer(spec).score(query, scorer, np.arange(4))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        # ignore: a.d
        ("vectors,neg=ignore", [5, 5, 1, 11]),
        # subtract: a.d - b.d = [5-1, 5-3, 1-1, 11-4]
        ("vectors,neg=subtract", [4, 2, 0, 7]),
        # nrf, lam 0.5: a.d - 0.5 b.d = [5-0.5, 5-1.5, 1-0.5, 11-2]
        ("vectors,neg=nrf", [4.5, 3.5, 0.5, 9]),
        # nrf, lam 0.25: [5-0.25, 5-0.75, 1-0.25, 11-1]
        ("vectors,neg=nrf,lam=0.25", [4.75, 4.25, 0.75, 10]),
        # disentangled: b* = b without a's dims (birds, fly, colombia) = [0,0,0,2,1]
        # b*.d = [0, 2, 1, 0]; a.d - b*.d = [5, 3, 0, 11]
        ("vectors", [5, 3, 0, 11]),
        # orthogonal: a.b = 2, |b|^2 = 1+4+1 = 6, a' = a - b/3; a'.d = a.d - b.d/3
        ("vectors,neg=orthogonal", [5 - 1 / 3, 5 - 1, 1 - 1 / 3, 11 - 4 / 3]),
    ],
)
def test_negation_methods(toy: SparseScorer, spec: str, expected: list[float]) -> None:
    np.testing.assert_allclose(scores(spec, "A AND NOT B", toy), expected, rtol=1e-6)


def test_orthogonal_negation_leaves_nothing_along_the_negated_vector() -> None:
    rng = np.random.default_rng(0)
    comp = Vectors(neg="orthogonal")
    for _ in range(5):
        a, b = rng.normal(size=8), rng.normal(size=8)
        rep = comp.compose(query_of("a AND NOT b"), {"a": a, "b": b}.__getitem__)
        assert abs((rep.pos - rep.neg) @ b) < 1e-9
        np.testing.assert_allclose(rep.pos, a)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        # maxpool: max(a, b) = [2,1,3,2,1]; .d = [2+3, 2+3+2, 1+1, 8+3]
        ("vectors", [5, 7, 2, 11]),
        # add: a + b = [3,1,3,2,1]; .d = [3+3, 3+3+2, 1+1, 12+3]
        ("vectors,union=add", [6, 8, 2, 15]),
    ],
)
def test_union(toy: SparseScorer, spec: str, expected: list[float]) -> None:
    np.testing.assert_allclose(scores(spec, "A OR B", toy), expected, rtol=1e-6)


def test_intersection_add_and_combined_pseudo_terms(toy: SparseScorer) -> None:
    # add: (a + b).d = [3,1,3,2,1].d = [6, 8, 2, 15]
    np.testing.assert_allclose(scores("vectors", "A AND B", toy), [6, 8, 2, 15], rtol=1e-6)
    # cpt: top terms of a (by weight) colombia 3, birds 2, fly 1; of b venezuela 2, birds 1,
    # andes 1. Pairs (u != v), weight sqrt(a_u b_v):
    #   colombia-venezuela sqrt6, colombia-birds sqrt3, colombia-andes sqrt3,
    #   birds-venezuela 2, birds-andes sqrt2, fly-venezuela sqrt2, fly-birds 1, fly-andes 1.
    # A document's pseudo-term weight is sqrt(d_u d_v); linear part + pseudo-terms:
    #   d0 (birds 1, colombia 1): colombia-birds sqrt3 * 1            -> 6 + sqrt3
    #   d1 (+ venezuela 1): sqrt6 + sqrt3 + 2 (birds-venezuela)       -> 8 + sqrt6 + sqrt3 + 2
    #   d2 (fly 1, andes 1): fly-andes 1 * 1                          -> 2 + 1
    #   d3 (birds 4, colombia 1): colombia-birds sqrt3 * sqrt(4 * 1)  -> 15 + 2 sqrt3
    #   (the sqrt2 pairs meet no document holding both of their terms)
    r3, r6 = np.sqrt(3), np.sqrt(6)
    expected = [6 + r3, 10 + r6 + r3, 3, 15 + 2 * r3]
    got = scores("vectors,inter=cpt", "A AND B", toy)
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_evidence_and_rank_agree_with_score(toy: SparseScorer) -> None:
    comp = get_composer("vectors,neg=nrf")
    (ranking,) = comp.rank(["A AND NOT B"], toy, 4)
    # nrf scores [4.5, 3.5, 0.5, 9] -> d3, d0, d1, d2
    assert ranking.doc_idx.tolist() == [3, 0, 1, 2]
    assert ranking.logical_form == '"A" AND NOT "B"'
    np.testing.assert_allclose(ranking.evidence["positive"], [11, 5, 5, 1])
    np.testing.assert_allclose(ranking.evidence["negative"], [2, 0.5, 1.5, 0.5])
    again = comp.score("A AND NOT B", toy, ranking.doc_idx)
    assert np.array_equal(again, ranking.scores)


def test_purely_negative_query(toy: SparseScorer) -> None:
    # NOT b alone: nothing positive to keep, so disentangled penalises all of b: -b.d
    np.testing.assert_allclose(scores("vectors", "NOT B", toy), [-1, -3, -1, -4], rtol=1e-6)
    (ranking,) = get_composer("vectors").rank(["NOT B"], toy, 2)
    assert ranking.doc_idx.tolist() == [0, 2]  # -1 each, ties by row


@pytest.fixture(scope="module")
def bm25() -> BM25Scorer:
    rng = np.random.default_rng(7)
    words = ["red", "green", "blue", "cat", "dog", "bird", "fish", "tree", "rock", "sand"]
    words += ["sea", "sky", "sun", "moon", "star"]
    docs = [" ".join(rng.choice(words, size=rng.integers(3, 12))) for _ in range(300)]
    return BM25Scorer.build(docs)


QUERIES = [
    "cat",
    "cat AND NOT dog",
    "(red OR blue) AND NOT (sea OR sky)",
    "tree AND rock AND NOT sun",
    "NOT moon",
    "bird OR (fish AND NOT star)",
]


@pytest.mark.parametrize(
    "spec",
    [
        "vectors",
        "vectors,neg=orthogonal,union=add",
        "vectors,neg=subtract,inter=cpt,depth=20",
        "vectors,neg=ignore",
    ],
)
def test_bm25_rank_and_score_agree(bm25: BM25Scorer, spec: str) -> None:
    comp = get_composer(spec)
    rankings = comp.rank(QUERIES, bm25, 15)
    everything = np.arange(bm25.n_docs)
    for text, r in zip(QUERIES, rankings, strict=True):
        assert len(r) == 15
        assert np.array_equal(comp.score(text, bm25, r.doc_idx), r.scores)
        assert (np.diff(r.scores) <= 0).all()
        if "cpt" not in spec:  # exact top-k of the whole corpus
            rest = np.setdiff1d(everything, r.doc_idx)
            assert comp.score(text, bm25, rest).max() <= r.scores[-1]


def test_bm25_term_is_bm25(bm25: BM25Scorer) -> None:
    rows = np.arange(bm25.n_docs)
    flat = bm25.score(["cat dog"], rows)[0]
    np.testing.assert_allclose(get_composer("vectors").score("cat dog", bm25, rows), flat, 1e-6)
    ignore = get_composer("vectors,neg=ignore").score("cat AND NOT dog", bm25, rows)
    np.testing.assert_allclose(ignore, bm25.score(["cat"], rows)[0], rtol=1e-6)


def test_dense_vectors() -> None:
    docs = np.array([[1, 0], [0, 1], [1 / np.sqrt(2), 1 / np.sqrt(2)]], dtype=np.float32)
    dense = ToyDense(docs, {"A": [1, 1], "B": [0, 1]})
    # a.b = 1, |b|^2 = 1 -> a' = a - b = [1, 0]; a'.d = [1, 0, 1/sqrt2]
    got = get_composer("vectors,neg=orthogonal").score("A AND NOT B", dense, np.arange(3))
    np.testing.assert_allclose(got, [1, 0, 1 / np.sqrt(2)], rtol=1e-6)
    # nrf: a - 0.5 b = [1, 0.5] -> [1, 0.5, 1.5/sqrt2]
    got = get_composer("vectors,neg=nrf").score("A AND NOT B", dense, np.arange(3))
    np.testing.assert_allclose(got, [1, 0.5, 1.5 / np.sqrt(2)], rtol=1e-6)
    for spec in ("vectors", "vectors,neg=ignore,inter=cpt"):
        with pytest.raises(LogirError, match="vocabulary-grounded"):
            get_composer(spec).rank(["A AND NOT B"], dense, 2)


def test_scorers_without_vectors_are_refused(bm25: BM25Scorer) -> None:
    dense = ToyDense(np.ones((bm25.n_docs, 2), dtype=np.float32), {})
    with pytest.raises(LogirError, match="encodes queries as vectors"):
        get_composer("vectors").rank(["cat"], HybridScorer(bm25, dense), 1)


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("vectors,neg=flip", "disentangled, nrf, orthogonal, subtract, ignore"),
        ("vectors,union=or", "maxpool, add"),
        ("vectors,inter=mul", "add, cpt"),
        ("vectors,lam=0.3", "lam only applies"),
        ("vectors,neg=nrf,lam=-1", "from 0 to 1000"),
        ("vectors,k=0", "from 1 to 10000"),
    ],
)
def test_bad_specs(spec: str, fragment: str) -> None:
    with pytest.raises(LogirError, match=fragment):
        get_composer(spec)


def test_spec_round_trip() -> None:
    comp = get_composer("vectors,neg=subtract,union=add,inter=cpt,depth=50")
    assert isinstance(comp, Vectors)
    assert comp.spec == "vectors,neg=subtract,lam=1,union=add,inter=cpt,depth=50"
    assert isinstance(get_composer(comp.spec), Vectors)


def test_systems_and_eval_end_to_end(tiny_logic_dataset) -> None:
    from logir.eval.runner import evaluate
    from logir.eval.systems import parse_system

    assert parse_system("splade:vectors,neg=nrf").retriever == "splade"
    ds = tiny_logic_dataset
    res = evaluate(ds, ["bm25", "bm25:vectors", "bm25:vectors,neg=ignore"], k=4)
    pair = {s.name: s.overall["PairAcc"] for s in res.systems}
    # "vitamin D" alone prefers the shorter d2; only a penalty on "bone" puts d1 first
    assert pair == {"bm25": 0.0, "bm25:vectors": 1.0, "bm25:vectors,neg=ignore": 0.0}
