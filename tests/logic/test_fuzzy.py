"""Fuzzy composer: ITLR operator families by hand, evidence, rank/score agreement, real BM25."""

from __future__ import annotations

import numpy as np
import pytest

from logir.index.lexical import BM25Scorer
from logir.logic.fuzzy import Fuzzy
from logir.query.reading import read

# raw scores of three terms over four documents; calib=none keeps them as truth values
ROWS = {
    "a": [0.9, 0.5, 0.2, 0.0],
    "b": [0.4, 0.5, 1.0, 0.1],
    "c": [0.0, 0.5, 0.25, 0.8],
}
A, B, C = (np.array(ROWS[t]) for t in "abc")


def composed(fake, query: str, **params: str) -> np.ndarray:
    """Composed scores of all four documents, in row order (checked against rank)."""
    scorer = fake(ROWS)
    composer = Fuzzy(calibration="none", depth=10, **params)
    ranking = composer.rank([query], scorer, 4)[0]
    assert sorted(ranking.doc_idx.tolist()) == [0, 1, 2, 3]
    by_row = np.empty(4)
    by_row[ranking.doc_idx] = ranking.scores
    assert np.allclose(composer.score(query, scorer, np.arange(4)), by_row)
    return by_row


@pytest.mark.parametrize(
    ("op", "expected"),
    [("product", A * B), ("sum", A + B), ("min", np.minimum(A, B))],
)
def test_and_family(fake, op: str, expected: np.ndarray) -> None:
    assert np.allclose(composed(fake, '"a" AND "b"', and_op=op), expected)


@pytest.mark.parametrize(("op", "expected"), [("sum", A + B), ("max", np.maximum(A, B))])
def test_or_family(fake, op: str, expected: np.ndarray) -> None:
    assert np.allclose(composed(fake, '"a" OR "b"', or_op=op), expected)


def test_not_family(fake) -> None:
    assert np.allclose(composed(fake, '"a" AND NOT "c"'), A * (1 - C))
    # 1/x with zero raised to 1e-3: document 0 has c = 0
    inverse = A / np.maximum(C, 1e-3)
    assert np.allclose(composed(fake, '"a" AND NOT "c"', not_op="inverse"), inverse)
    assert inverse[0] == pytest.approx(900.0)


def test_nested_query_is_the_paper_example(fake) -> None:
    # ITLR appendix A shape: (a OR b AND c) AND NOT d, here with three terms
    got = composed(fake, '("a" OR "b" AND "c") AND NOT "c"')
    assert np.allclose(got, (A + B * C) * (1 - C))


def test_ranking_order_ties_evidence_and_form(fake) -> None:
    scorer = fake({"a": [0.5, 0.9, 0.5, 0.1], "c": [0.0, 0.5, 0.0, 0.0]})
    r = Fuzzy(calibration="none").rank(['"a" AND NOT "c"'], scorer, 3)[0]
    assert r.doc_idx.tolist() == [0, 2, 1]  # 0.5, 0.5 (tie -> lower row), 0.45
    assert r.scores.tolist() == pytest.approx([0.5, 0.5, 0.45])
    assert r.logical_form == '"a" AND NOT "c"'
    assert set(r.evidence) == {'"a"', 'NOT "c"'}
    assert r.evidence['NOT "c"'].tolist() == pytest.approx([0.0, 0.0, 0.5])
    hit = r.hits(["d0", "d1", "d2", "d3"])[2]
    assert hit["evidence"] == pytest.approx({'"a"': 0.9, 'NOT "c"': 0.5})


@pytest.mark.parametrize("calib", ["none", "minmax", "sigmoid", "rank"])
def test_rank_and_score_agree_inside_and_outside_candidates(fake, calib: str) -> None:
    rng = np.random.default_rng(1)
    scorer = fake({t: rng.random(40).tolist() for t in ("x", "y", "z")})
    query = '("x" OR "y") AND NOT "z"'
    composer = Fuzzy(calibration=calib, depth=5)
    r = composer.rank([query], scorer, 40)[0]
    assert 5 <= len(r) < 40  # only candidates are ranked
    fresh = Fuzzy(calibration=calib, depth=5)  # no cached state: recomputes the same statistics
    assert np.array_equal(fresh.score(query, scorer, r.doc_idx), r.scores)
    outside = np.setdiff1d(np.arange(40), r.doc_idx)
    assert np.isfinite(fresh.score(query, scorer, outside)).all()


def test_purely_negative_query_returns_documents(fake) -> None:
    scorer = fake({"a": [0.9, 0.0, 0.3, 0.6]})
    r = Fuzzy(calibration="none", depth=2).rank(['NOT "a"'], scorer, 10)[0]
    # candidates: a's top 2 (rows 0, 3) and the flat top 2 (all zero -> rows 0, 1)
    assert r.doc_idx.tolist() == [1, 3, 0]
    assert r.scores.tolist() == pytest.approx([1.0, 0.4, 0.1])


def test_state_is_per_scorer(fake) -> None:
    composer = Fuzzy(calibration="none")
    one = composer.rank(['"a"'], fake({"a": [0.1, 0.9]}), 2)[0]
    two = composer.rank(['"a"'], fake({"a": [0.8, 0.2]}), 2)[0]
    assert one.doc_idx.tolist() == [1, 0] and two.doc_idx.tolist() == [0, 1]


def test_constructor_validation() -> None:
    with pytest.raises(ValueError):
        Fuzzy(and_op="max")
    with pytest.raises(ValueError):
        Fuzzy(tau=0.5)
    with pytest.raises(ValueError):
        Fuzzy(calibration="minmax", tau=0.5, lam=2.0)
    assert Fuzzy(tau=0.5, lam=2.0).calibration == "sigmoid"
    with pytest.raises(ValueError):
        Fuzzy(calibration="minmax", sigmoid_fit="cdf")
    spec = "fuzzy,and=product,or=sum,not=one_minus,calib=sigmoid,fit=anchors,depth=100"
    assert Fuzzy().spec == spec


CORPUS = [
    "Vitamin D supports the immune system and lowers the risk of respiratory infections.",
    "Vitamin D helps the body absorb calcium for strong bone growth and bone density.",
    "Calcium and bone health in older adults.",
    "Vitamin D deficiency is linked to low mood and fatigue.",
    "The weather was sunny all week.",
    "Vitamin C is found in citrus fruit.",
]


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"sigmoid_fit": "cdf"},
        {"calibration": "minmax"},
        {"calibration": "rank"},
        {"calibration": "none"},
    ],
)
def test_bm25_vitamin_d_not_bone(params: dict[str, str]) -> None:
    scorer = BM25Scorer.build(CORPUS)
    r = Fuzzy(**params).rank(['"vitamin D" AND NOT "bone"'], scorer, 6)[0]
    order = r.doc_idx.tolist()
    assert order.index(0) < order.index(1)
    assert order.index(3) < order.index(1)
    assert order.index(2) > order.index(0)  # bone without vitamin D is no better


WORDS = ["vitamin", "bone", "mood", "weather", "calcium", "sunny", "fruit", "risk", "zebra"]
SHAPES = [
    '"{0}" AND "{1}" AND NOT "{2}"',
    '("{0}" OR "{1}") AND NOT "{2}"',
    '"{0}" OR "{1}" OR "{2}"',
    '"{0}" AND ("{1}" OR NOT "{2}")',
    'NOT "{0}"',
    '"{0}" AND NOT ("{1}" AND "{2}")',
    '"{0} {1}" AND "{2}"',
]


def _random_queries(n: int, seed: int) -> list[str]:
    """Queries over WORDS with AND / OR / NOT mixed, one to three terms, some nested."""
    rng = np.random.default_rng(seed)
    return [SHAPES[i % len(SHAPES)].format(*rng.choice(WORDS, 3, replace=False)) for i in range(n)]


def _corpus(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [" ".join(rng.choice(WORDS, int(rng.integers(2, 9)))) for _ in range(n)]


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"and_op": "min", "or_op": "max", "not_op": "inverse"},
        {"and_op": "sum", "not_op": "inverse", "sigmoid_fit": "cdf"},
        {"tau": 1.0, "lam": -2.0},  # a decreasing curve: a weaker bound, still sound
    ],
)
def test_leaving_the_flat_top_k_out_changes_no_ranking(
    params: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    from logir.logic import candidates, fuzzy

    scorer = BM25Scorer.build(_corpus(300, 2))
    queries = _random_queries(70, 3)
    added: list[str] = []

    def counting_add_flat(scorer: object, items: list, k: int) -> list:
        added.extend(text for _, text in items)
        return candidates.add_flat(scorer, items, k)

    monkeypatch.setattr(fuzzy, "add_flat", counting_add_flat)
    pruned = Fuzzy(depth=8, **params)  # type: ignore[arg-type]
    got = {5: pruned.rank(queries, scorer, 5)}
    completed = len(added)  # queries whose top 5 the flat top K might change
    got.update({k: pruned.rank(queries, scorer, k) for k in (1, 12)})
    always = Fuzzy(depth=8, **params)  # type: ignore[arg-type]
    monkeypatch.setattr(always, "_settled", lambda *args: False)  # the flat top K every time
    for k, rankings in got.items():
        for one, two in zip(rankings, always.rank(queries, scorer, k), strict=True):
            assert np.array_equal(one.doc_idx, two.doc_idx)
            assert np.array_equal(one.scores, two.scores)
            assert one.evidence.keys() == two.evidence.keys()
            for label in one.evidence:
                assert np.array_equal(one.evidence[label], two.evidence[label])
    assert 0 < completed < len(set(queries))  # both paths ran


@pytest.mark.parametrize("not_op", ["one_minus", "inverse"])
@pytest.mark.parametrize("and_op", ["product", "sum", "min"])
def test_outside_bound_holds_for_every_document(fake, and_op: str, not_op: str) -> None:
    rng = np.random.default_rng(11)
    for trial in range(30):
        scorer = fake({t: rng.normal(size=60).tolist() for t in ("a", "b", "c")})
        query = SHAPES[trial % 6].format("a", "b", "c")  # every shape with three terms
        composer = Fuzzy(and_op=and_op, not_op=not_op, depth=6)
        state = composer._prepare([read(query)], scorer)[0]
        bound = composer._outside_bound(state)
        assert bound is not None
        inside = set(state.cands.top_rows.ravel().tolist())
        outside = np.array([r for r in range(60) if r not in inside])
        assert (composer.score(query, scorer, outside) <= bound).all()


class _PlainScorer:
    """A BM25 scorer seen only through search and score: the general candidate path (no
    prepared batch, no held sums, no looked-up rows, every grown row scored again)."""

    name = "bm25"
    score_range = BM25Scorer.score_range

    def __init__(self, scorer: BM25Scorer) -> None:
        self._scorer = scorer

    @property
    def n_docs(self) -> int:
        return self._scorer.n_docs

    def score(self, texts: list[str], doc_idx: np.ndarray | None = None) -> np.ndarray:
        scores = self._scorer.score(texts)  # every column, summed by scatter, then read
        return scores if doc_idx is None else scores[:, np.asarray(doc_idx, dtype=np.int64)]

    def search(self, texts: list[str], k: int) -> tuple[np.ndarray, np.ndarray]:
        from logir.index.base import topk

        return topk(self._scorer.score(texts), k)


@pytest.mark.parametrize("spec", ["fuzzy", "fuzzy,calib=minmax,and=min", "sets", "sets,depth=5"])
def test_bm25_fast_paths_rank_as_plain_search_and_score(spec: str) -> None:
    from logir.logic import get_composer

    scorer = BM25Scorer.build(_corpus(400, 5))
    pairs = [f'"{a} {b}"' for a, b in zip(WORDS, WORDS[1:] + WORDS[:1], strict=True)]
    queries = (
        _random_queries(60, 6)
        + [
            " OR ".join(pairs),  # nine terms of two tokens: more than BM25Batch holds at once
            f"{pairs[0]} AND NOT ({' OR '.join(pairs[1:])})",
            '"vitamin bone mood weather calcium sunny fruit risk" OR "bone mood" OR "risk"',
        ]
    )
    for k in (3, 10):
        fast = get_composer(spec).rank(queries, scorer, k)
        plain = get_composer(spec).rank(queries, _PlainScorer(scorer), k)  # type: ignore[arg-type]
        for one, two in zip(fast, plain, strict=True):
            assert np.array_equal(one.doc_idx, two.doc_idx)
            assert np.array_equal(one.scores, two.scores)
            assert list(one.evidence) == list(two.evidence)
            for label in one.evidence:
                assert np.array_equal(one.evidence[label], two.evidence[label])
