"""Sets composer (BoolQuestions' decomposed baseline): intersection / union / difference."""

from __future__ import annotations

import numpy as np
import pytest

from logir.index.lexical import BM25Scorer
from logir.logic.sets import Sets

# depth=2: a's list = rows 0, 1; b's list = rows 1, 2; c's list = rows 1, 3
ROWS = {
    "a": [0.9, 0.8, 0.1, 0.2, 0.0],
    "b": [0.3, 0.6, 0.7, 0.0, 0.1],
    "c": [0.0, 0.5, 0.2, 0.4, 0.1],
}


def run(fake, query: str, k: int = 10) -> tuple[list[int], list[float], Sets, object]:
    scorer = fake(ROWS)
    composer = Sets(depth=2)
    r = composer.rank([query], scorer, k)[0]
    return r.doc_idx.tolist(), r.scores.tolist(), composer, scorer


def test_and_is_intersection_with_summed_scores(fake) -> None:
    rows, scores, _, _ = run(fake, '"a" AND "b"')
    assert rows == [1] and scores == pytest.approx([1.4])


def test_or_is_union_with_max(fake) -> None:
    rows, scores, _, _ = run(fake, '"a" OR "b"')
    # row 1 is in both lists: max(0.8, 0.6); row 2 only in b's list: its b score
    assert rows == [0, 1, 2] and scores == pytest.approx([0.9, 0.8, 0.7])


def test_not_is_difference_with_subtraction(fake) -> None:
    rows, scores, _, _ = run(fake, '"a" AND NOT "c"')
    assert rows == [0] and scores == pytest.approx([0.9 - 0.0])
    rows, scores, _, _ = run(fake, '("a" OR "b") AND NOT "c"')
    assert rows == [0, 2] and scores == pytest.approx([0.9, 0.7 - 0.2])


def test_score_matches_rank_and_unranked_is_minus_inf(fake) -> None:
    rows, scores, composer, scorer = run(fake, '("a" OR "b") AND NOT "c"')
    got = composer.score('("a" OR "b") AND NOT "c"', scorer, np.array([2, 4, 0, 1]))
    assert got.tolist() == pytest.approx([0.5, -np.inf, 0.9, -np.inf])
    fresh = Sets(depth=2).score('("a" OR "b") AND NOT "c"', scorer, np.array(rows))
    assert fresh.tolist() == pytest.approx(scores)


def test_nothing_fills_a_short_result(fake) -> None:
    rows, _, _, _ = run(fake, '"a" AND "b" AND "c"', k=5)
    assert rows == [1]


def test_purely_negative_takes_complement_in_the_searched_rows(fake) -> None:
    # universe: a's list (0, 1) and the flat text's top 2 (all zero: rows 0, 1) -> nothing left
    rows, _, _, _ = run(fake, 'NOT "a"')
    assert rows == []
    scorer = BM25Scorer.build(["bone health", "vitamin D and mood", "sunny weather", "bone"])
    r = Sets(depth=10).rank(['NOT "bone"'], scorer, 10)[0]
    assert r.doc_idx.tolist() == [1, 2] and r.scores.tolist() == [0.0, 0.0]


def test_bm25_zero_score_padding_is_not_retrieved() -> None:
    docs = [
        "vitamin D helps immunity",
        "vitamin D builds bone density",
        "bone fractures in winter",
        "vitamin D and low mood",
        "sunny weather",
    ]
    scorer = BM25Scorer.build(docs)
    r = Sets(depth=50).rank(['"vitamin D" AND NOT "bone"'], scorer, 10)[0]
    assert sorted(r.doc_idx.tolist()) == [0, 3]  # not 4: it never matched "vitamin"
    assert set(r.evidence) == {'"vitamin D"', 'NOT "bone"'}
    assert r.logical_form == '"vitamin D" AND NOT "bone"'


def test_depth_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Sets(depth=0)


def test_needs_universe_only_where_a_not_stands_alone() -> None:
    from logir.logic.sets import needs_universe
    from logir.query import parse

    assert needs_universe(parse('NOT "a"'))
    assert needs_universe(parse('"a" OR NOT "b"'))
    assert needs_universe(parse('NOT ("a" AND "b")'))
    assert needs_universe(parse('NOT "a" AND NOT "b"'))
    assert not needs_universe(parse('"a"'))
    assert not needs_universe(parse('"a" AND NOT "b"'))
    assert not needs_universe(parse('("a" OR "b") AND NOT "c"'))
    assert not needs_universe(parse('NOT (NOT "a")'))
    assert not needs_universe(parse('"a" AND ("b" OR NOT "c")'))


def test_queries_without_a_universe_rank_the_same_without_the_flat_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from logir.logic import sets

    words = ["vitamin", "bone", "mood", "weather", "calcium", "sunny", "fruit", "risk"]
    rng = np.random.default_rng(4)
    docs = [" ".join(rng.choice(words, int(rng.integers(2, 8)))) for _ in range(200)]
    scorer = BM25Scorer.build(docs)
    shapes = ['"{0}" AND NOT "{1}"', '("{0}" OR "{1}") AND NOT "{2}"', '"{0}" AND "{1}"']
    queries = [shapes[i % 3].format(*rng.choice(words, 3, replace=False)) for i in range(40)] + [
        'NOT "bone"',
        '"mood" OR NOT "risk"',
    ]
    pruned = Sets(depth=15).rank(queries, scorer, 10)
    monkeypatch.setattr(sets, "needs_universe", lambda query: True)
    always = Sets(depth=15).rank(queries, scorer, 10)
    for one, two in zip(pruned, always, strict=True):
        assert np.array_equal(one.doc_idx, two.doc_idx)
        assert np.array_equal(one.scores, two.scores)
        for label in one.evidence:
            assert np.array_equal(one.evidence[label], two.evidence[label])
