"""``sets`` scores a few kept rows one by one (``logic.setrows``): the same rankings, scores and
evidence, bit for bit, as its vectorised walk, on random nested forms over a small corpus."""

from __future__ import annotations

import numpy as np
import pytest

import logir.logic.sets as sets_module
from logir.index.lexical import BM25Scorer
from logir.logic.setrows import ranked_rows, row_scorer
from logir.logic.sets import Sets, needs_universe
from logir.query import And, Not, Or, Query, Term, parse, terms

WORDS = [f"w{i}" for i in range(8)]


def _query(rng: np.random.Generator, depth: int = 0) -> Query:
    if depth >= 3 or rng.random() < 0.3:
        return Term(str(rng.choice(WORDS)))
    kind = rng.integers(3)
    if kind == 2:
        return Not(_query(rng, depth + 1))
    parts = tuple(_query(rng, depth + 1) for _ in range(int(rng.integers(2, 4))))
    return And(parts) if kind == 0 else Or(parts)


def _forms() -> list[str]:
    out = set()
    for seed in range(300):
        q = _query(np.random.default_rng(seed))
        if not isinstance(q, Term) and not needs_universe(q):
            out.add(str(q))
    return sorted(out)


@pytest.fixture(scope="module")
def scorer() -> BM25Scorer:
    rng = np.random.default_rng(5)
    texts = [" ".join(rng.choice(WORDS, size=int(rng.integers(1, 6)))) for _ in range(300)]
    return BM25Scorer.build(texts)


@pytest.mark.parametrize("floor", [0.0, 0.6])
def test_rows_one_by_one_equal_the_vectorised_walk(
    scorer: BM25Scorer, floor: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    forms = _forms()
    assert len(forms) > 40
    rows = np.arange(scorer.n_docs)
    monkeypatch.setattr(sets_module, "FEW_COLUMNS", 10**9)
    few = Sets(depth=30, floor=floor).rank(forms, scorer, 400)
    few_scores = [Sets(depth=30, floor=floor).score(f, scorer, rows) for f in forms]
    monkeypatch.setattr(sets_module, "FEW_COLUMNS", 0)
    many = Sets(depth=30, floor=floor).rank(forms, scorer, 400)
    ranked = 0
    for form, a, b, s in zip(forms, few, many, few_scores, strict=True):
        assert a.doc_idx.dtype == b.doc_idx.dtype == np.int64, form
        np.testing.assert_array_equal(a.doc_idx, b.doc_idx, err_msg=form)
        np.testing.assert_array_equal(a.scores, b.scores, err_msg=form)
        assert a.evidence.keys() == b.evidence.keys(), form
        for label in a.evidence:
            np.testing.assert_array_equal(a.evidence[label], b.evidence[label], err_msg=form)
        np.testing.assert_array_equal(s, Sets(depth=30, floor=floor).score(form, scorer, rows))
        ranked += len(a.doc_idx) > 1
    assert ranked > 20


def test_row_scorer_reads_the_form() -> None:
    q = parse('"a" AND ("b" OR NOT "c")')
    score = row_scorer(q, {t.text: i for i, t in enumerate(terms(q))})
    # a in its set (bit 0), b not (bit 1), c not (bit 2): NOT c holds the row
    assert score([1.0, 2.0, 0.5], 0b001) == (True, 1.0 - 0.5)
    # b holds it too: the better of b (2.0) and NOT c (-0.5)
    assert score([1.0, 2.0, 0.5], 0b011) == (True, 3.0)
    # c holds it and b does not: no child of the OR holds it
    assert score([1.0, 2.0, 0.5], 0b101) == (False, float("-inf"))
    order, composed = ranked_rows(score, [[1.0, 2.0, 0.5], [1.0, 2.0, 0.5]], [0b001, 0b011])
    assert order == [1, 0] and composed == [3.0, 0.5]
