"""Candidate sets: union of per-term and flat top-K, exact scores, full coverage at K >= n,
the flat top K added later."""

from __future__ import annotations

import numpy as np
import pytest

from logir.index.lexical import BM25Scorer
from logir.logic.calibration import fit
from logir.logic.candidates import add_flat, candidate_set, candidate_sets
from logir.logic.fuzzy import Fuzzy
from logir.query import parse
from tests.fakedense import fake_dense

ROWS = {
    "a": [0.9, 0.1, 0.8, 0.0, 0.2, 0.3],
    "b": [0.0, 0.7, 0.1, 0.6, 0.0, 0.2],
    "q": [0.0, 0.0, 0.0, 0.0, 0.5, 0.4],
}


def test_union_of_term_and_flat_top_k(fake) -> None:
    cs = candidate_set(fake(ROWS), ["a", "b"], "q", k=2)
    # a: rows 0, 2; b: rows 1, 3; flat q: rows 4, 5
    assert cs.rows.tolist() == [0, 1, 2, 3, 4, 5]
    cs1 = candidate_set(fake(ROWS), ["a"], "q", k=1)
    assert cs1.rows.tolist() == [0, 4]
    assert cs1.top_scores.tolist() == [[pytest.approx(0.9)]]


def test_exact_scores_on_candidates(fake) -> None:
    scorer = fake(ROWS)
    cs = candidate_set(scorer, ["a", "b"], "q", k=1)
    assert cs.rows.tolist() == [0, 1, 4]
    assert np.array_equal(cs.scores, scorer.score(["a", "b"], cs.rows))


def test_batch_uses_one_search(fake) -> None:
    scorer = fake(ROWS)
    sets = candidate_sets(scorer, [(["a"], "q"), (["b"], "q")], k=1)
    assert [s.rows.tolist() for s in sets] == [[0, 4], [1, 4]]
    assert scorer.searched == ["a", "q", "b", "q"]


def test_term_scores_reuse_and_fill(fake) -> None:
    scorer = fake(ROWS)
    cs = candidate_set(scorer, ["a", "b"], "q", k=1)
    got = cs.term_scores(scorer, np.array([3, 0, 4]))
    assert np.array_equal(got, scorer.score(["a", "b"], np.array([3, 0, 4])))


def test_k_must_be_positive(fake) -> None:
    with pytest.raises(ValueError):
        candidate_set(fake(ROWS), ["a"], "q", k=0)


def test_k_at_least_corpus_covers_it_and_equals_full_scoring(fake) -> None:
    scorer = fake(ROWS)
    q = parse('("a" OR "q") AND NOT "b"')
    cs = candidate_set(scorer, ["a", "q", "b"], str(q), k=10)
    assert cs.rows.tolist() == list(range(6))
    full = scorer.score(["a", "q", "b"])
    assert np.array_equal(cs.scores, full)
    composer = Fuzzy(calibration="minmax", depth=10)
    ranking = composer.rank([str(q)], scorer, 6)[0]
    x = fit("minmax", cs).apply(full)
    expected = composer.compose(q, ["a", "q", "b"], x)
    assert np.allclose(ranking.scores, expected[ranking.doc_idx])
    assert sorted(ranking.doc_idx.tolist()) == list(range(6))


def test_bm25_candidates_cover_small_corpus() -> None:
    texts = ["vitamin D and mood", "bone health", "vitamin D builds bone", "weather report"]
    scorer = BM25Scorer.build(texts)
    cs = candidate_set(scorer, ["vitamin D", "bone"], "vitamin D not bone", k=100)
    assert cs.rows.tolist() == [0, 1, 2, 3]
    assert np.array_equal(cs.scores, scorer.score(["vitamin D", "bone"]))


def test_dense_logical_query_encodes_each_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []
    scorer = fake_dense(monkeypatch, 50, 8, 3, calls)
    query = '"a" AND ("b" OR NOT "c")'
    # the three terms and the typed query in one encoder call, whether the typed query's top K
    # is needed (5 candidates per term are too few to settle a top 10) or not (depth 20)
    for depth, k in ((5, 10), (20, 3)):
        calls.clear()
        scorer._queries.clear()
        Fuzzy(depth=depth).rank([query], scorer, k)
        assert calls == [["a", "b", "c", query]]
    # and for many queries at once, every text of every query in one call
    calls.clear()
    scorer._queries.clear()
    Fuzzy(depth=5).rank([query, '"d" OR "a"'], scorer, 10)
    assert calls == [["a", "b", "c", query, "d", '"d" OR "a"']]
    # the candidate-set code asked for every text in one call
    calls.clear()
    scorer._queries.clear()
    candidate_set(scorer, ["a", "b", "c"], query, k=5)
    assert calls == [["a", "b", "c", query]]


def test_add_flat_equals_giving_the_flat_text_at_once() -> None:
    texts = ["vitamin D and mood", "bone health", "vitamin D builds bone", "weather report"] * 5
    scorer = BM25Scorer.build(texts)
    queries = [
        (["vitamin", "bone"], "weather report"),
        (["mood"], "vitamin mood"),
        (["zebra"], "bone health"),
        ([], "weather"),
    ]
    full = candidate_sets(scorer, queries, k=3)
    terms_only = candidate_sets(scorer, [(t, None) for t, _ in queries], k=3)
    assert all(cs.flat for cs in full) and not any(cs.flat for cs in terms_only)
    added = add_flat(scorer, [(cs, f) for cs, (_, f) in zip(terms_only, queries, strict=True)], 3)
    for one, two in zip(full, added, strict=True):
        assert two.flat
        assert np.array_equal(one.rows, two.rows)
        assert np.array_equal(one.scores, two.scores)
        assert np.array_equal(one.top_scores, two.top_scores)
        assert np.array_equal(one.top_rows, two.top_rows)
    # the flat text of query 1 adds no row: the same set, now marked complete
    assert np.array_equal(terms_only[1].rows, added[1].rows)
    assert len(terms_only[0].rows) < len(added[0].rows)


def test_bm25_batches_of_many_queries_equal_one_by_one() -> None:
    texts = ["vitamin D and mood", "bone health", "vitamin D builds bone", "weather report"] * 5
    scorer = BM25Scorer.build(texts)
    words = ["vitamin", "bone", "mood", "weather", "health", "report", "zebra"]
    queries = [([words[i % 7], words[(i + 2) % 7], words[(i + 5) % 7]], f"q{i}") for i in range(90)]
    together = candidate_sets(scorer, queries, k=3)  # 360 texts: more than one prepared batch
    for (term_texts, flat), cs in zip(queries, together, strict=True):
        one = candidate_set(scorer, term_texts, flat, k=3)
        assert np.array_equal(cs.rows, one.rows)
        assert np.array_equal(cs.scores, one.scores)
        assert np.array_equal(cs.top_scores, one.top_scores)
        assert np.array_equal(cs.top_rows, one.top_rows)
