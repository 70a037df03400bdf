"""``sets`` over the rows its terms retrieve (``BM25Batch.retrieved``, then only the kept rows
scored) ranks as scoring every candidate does: random logical queries, both posting formats,
BM25+ (whose batches take the general path) and a sharded scorer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from logir.index.base import prepare, retrieved, retrieved_by_search
from logir.index.lexical import BM25Scorer
from logir.index.sharded import LocalShards, sharded
from logir.index.store import open_index
from logir.index.streambuild import build_bm25_index
from logir.logic.sets import Sets
from logir.query import And, Not, Or, Query, Term

WORDS = [f"w{i}" for i in range(14)]
# single words, two-word terms (summed lists, in no row order) and a word no document holds
TEXTS = [*WORDS[:10], "w1 w2", "w3 w4 w3", "nowhere"]


def _texts(n: int = 600) -> list[str]:
    """Short documents of few distinct words: many share a length and a term frequency, so
    scores tie at every depth."""
    rng = np.random.default_rng(3)
    return [" ".join(rng.choice(WORDS, size=int(rng.integers(1, 7)))) for _ in range(n)]


def _query(rng: np.random.Generator, depth: int = 0) -> Query:
    if depth >= 2 or rng.random() < 0.3:
        return Term(str(rng.choice(TEXTS)))
    kind = rng.integers(3)
    if kind == 2:
        return Not(_query(rng, depth + 1))
    parts = tuple(_query(rng, depth + 1) for _ in range(int(rng.integers(2, 4))))
    return And(parts) if kind == 0 else Or(parts)


QUERIES = sorted({str(_query(np.random.default_rng(seed))) for seed in range(60)})


class _Whole:
    """The same scorer, its batches neither independent by column nor able to list retrieved
    rows: ``sets`` then scores every candidate (the general path)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.name, self.n_docs = inner.name, inner.n_docs

    def score(self, texts: list[str], doc_idx: np.ndarray | None = None) -> np.ndarray:
        return np.asarray(self._inner.score(texts, doc_idx))

    def search(self, texts: list[str], k: int) -> tuple[np.ndarray, np.ndarray]:
        return self._inner.search(texts, k)


@pytest.fixture(scope="module")
def scorers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("retrieved")
    texts = _texts()
    corpus = tmp / "c.jsonl"
    rows = [{"_id": f"d{i}", "title": "", "text": t} for i, t in enumerate(texts)]
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out: dict[str, Any] = {}
    for fmt in ("plain", "compact"):
        path: Path = build_bm25_index(corpus, tmp / fmt, shard_size=250, postings=fmt)[0]
        out[fmt] = open_index(path).scorer("bm25")
    out["bm25+"] = BM25Scorer.build(texts, method="bm25+")
    return out


@pytest.mark.parametrize("depth", [1, 7, 40, 1000])
@pytest.mark.parametrize("floor", [0.0, 0.3, 0.6, 1.0])
@pytest.mark.parametrize("fmt", ["plain", "compact", "bm25+"])
def test_retrieved_rows_equal_those_of_the_top_lists(
    scorers: dict[str, Any], fmt: str, depth: int, floor: float
) -> None:
    batch = prepare(scorers[fmt], TEXTS)
    want = retrieved_by_search(prepare(scorers[fmt], TEXTS), depth, floor)
    got = retrieved(batch, depth, floor)
    for i, (text, a, b) in enumerate(zip(TEXTS, got, want, strict=True)):
        assert a[0].dtype.kind == "i", text
        np.testing.assert_array_equal(a[0], b[0], err_msg=text)
        np.testing.assert_array_equal(a[1], b[1], err_msg=text)
        np.testing.assert_array_equal(a[1], batch.score(slice(i, i + 1), a[0])[0], err_msg=text)
    assert sum(len(r) for r, _ in got) > 0


@pytest.mark.parametrize(("depth", "floor"), [(7, 0.6), (40, 0.6), (40, 0.0), (1000, 0.3)])
@pytest.mark.parametrize("fmt", ["plain", "compact", "bm25+"])
def test_sets_over_retrieved_rows_equals_scoring_every_candidate(
    scorers: dict[str, Any], fmt: str, depth: int, floor: float
) -> None:
    scorer = scorers[fmt]
    fast, ref = Sets(depth=depth, floor=floor), Sets(depth=depth, floor=floor)
    got = fast.rank(QUERIES, scorer, 30)
    want = ref.rank(QUERIES, _Whole(scorer), 30)
    rows = np.arange(scorer.n_docs)
    for q, a, b in zip(QUERIES, got, want, strict=True):
        np.testing.assert_array_equal(a.doc_idx, b.doc_idx, err_msg=q)
        np.testing.assert_array_equal(a.scores, b.scores, err_msg=q)
        assert a.evidence.keys() == b.evidence.keys(), q
        for label in a.evidence:
            np.testing.assert_array_equal(a.evidence[label], b.evidence[label], err_msg=q)
        np.testing.assert_array_equal(
            fast.score(q, scorer, rows), ref.score(q, _Whole(scorer), rows)
        )


def test_sets_over_a_sharded_scorer_equals_the_local_one(scorers: dict[str, Any]) -> None:
    local = scorers["plain"]
    shards = sharded(local, 3, LocalShards)
    got = Sets(depth=40).rank(QUERIES, shards, 30)
    want = Sets(depth=40).rank(QUERIES, local, 30)
    for q, a, b in zip(QUERIES, got, want, strict=True):
        np.testing.assert_array_equal(a.doc_idx, b.doc_idx, err_msg=q)
        np.testing.assert_allclose(a.scores, b.scores, rtol=0, atol=1e-6, err_msg=q)


def _by_row(q: Query, member: dict[str, bool], score: dict[str, float]) -> tuple[bool, float]:
    """One row's set membership and composed score under ``q``, on Python floats: AND sums,
    OR takes the best child whose set holds the row, NOT negates."""
    if isinstance(q, Term):
        return member[q.text], score[q.text]
    if isinstance(q, Not):
        inside, value = _by_row(q.child, member, score)
        return not inside, -value
    parts = [_by_row(c, member, score) for c in q.children]
    if isinstance(q, And):
        total = parts[0][1]
        for _, value in parts[1:]:
            total += value
        return all(p[0] for p in parts), total
    held = [value if inside else -np.inf for inside, value in parts]
    return any(p[0] for p in parts), max(held)


@pytest.mark.parametrize("fmt", ["plain", "bm25+"])
def test_sets_composes_each_row_as_the_definition_says(scorers: dict[str, Any], fmt: str) -> None:
    """The vectorised set algebra against a row-by-row reading of it, on nested forms."""
    from logir.logic.sets import needs_universe
    from logir.query import parse, terms

    scorer, depth, floor = scorers[fmt], 40, 0.6
    checked = 0
    nested = [
        '("w1" AND NOT "w2") OR "w3"',
        '("w1" OR "w2") AND NOT ("w3" OR "w4")',
        '(("w1" AND NOT "w2") OR ("w3" AND "w4")) AND NOT "w5"',
        '"w1" AND NOT ("w2" AND NOT "w3")',
        '("w1" OR ("w2" AND "w3")) AND ("w4" OR NOT "w5")',
    ]
    for text in QUERIES + nested:
        q = parse(text)
        if needs_universe(q):
            continue
        texts = [t.text for t in terms(q)]
        found = retrieved(prepare(scorer, texts), depth, floor)
        every = sorted({int(r) for rows, _ in found for r in rows})
        exact = scorer.score(texts, np.asarray(every, dtype=np.int64)).astype(np.float64)
        want = []
        for j, row in enumerate(every):
            member = {t: row in set(found[i][0].tolist()) for i, t in enumerate(texts)}
            inside, value = _by_row(q, member, {t: float(exact[i, j]) for i, t in enumerate(texts)})
            if inside:
                want.append((-value, row))
        want.sort()
        got = Sets(depth=depth, floor=floor).rank([text], scorer, len(want) + 5)[0]
        assert got.doc_idx.tolist() == [row for _, row in want], text
        np.testing.assert_array_equal(
            got.scores, np.asarray([-v for v, _ in want], dtype=np.float32), err_msg=text
        )
        checked += bool(want)
    assert checked > 10
