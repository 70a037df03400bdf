"""Word vectors kept on disk: read back exactly, bounded, merged, and damage skipped."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import numpy as np
import pytest

from logir.index import wordcache
from logir.index.wordcache import WordStore, word_store

DIM = 4


def _vectors(words: list[str]) -> np.ndarray:
    """A vector per word that depends on the word alone."""
    seeds = [int(hashlib.sha256(w.encode()).hexdigest()[:8], 16) for w in words]
    rng = [np.random.default_rng(seed) for seed in seeds]
    return np.stack([r.standard_normal(DIM) for r in rng]).astype(np.float32)


def test_a_new_store_reads_back_what_another_wrote(tmp_path: Path) -> None:
    words = ["beef", "pork", "almonds"]
    vecs = _vectors(words)
    WordStore(tmp_path, DIM).put(words, vecs)
    again = WordStore(tmp_path, DIM).get(["pork", "lamb", "beef"])
    assert sorted(again) == ["beef", "pork"]  # lamb was never kept
    np.testing.assert_array_equal(again["beef"], vecs[0])
    np.testing.assert_array_equal(again["pork"], vecs[1])


def test_bounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wordcache, "MAX_WORDS", 3)
    store = WordStore(tmp_path, DIM)
    long = "x" * (wordcache.MAX_WORD + 1)
    store.put(["beef", long, "beef"], _vectors(["beef", long, "beef"]))
    assert sorted(WordStore(tmp_path, DIM).get(["beef", long])) == ["beef"]
    store.put(["pork", "lamb", "veal"], _vectors(["pork", "lamb", "veal"]))  # 4 > 3: none kept
    assert sorted(WordStore(tmp_path, DIM).get(["pork", "lamb", "veal"])) == []


def test_many_shards_are_merged_into_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wordcache, "MAX_SHARDS", 2)
    store = WordStore(tmp_path, DIM)
    words = ["beef", "pork", "lamb", "veal"]
    for w in words:
        store.put([w], _vectors([w]))
    assert len(list(tmp_path.glob("*.json"))) <= 2
    assert len(list(tmp_path.glob("*.npy"))) == len(list(tmp_path.glob("*.json")))
    again = WordStore(tmp_path, DIM).get(words)
    for w in words:
        np.testing.assert_array_equal(again[w], _vectors([w])[0])
    np.testing.assert_array_equal(store.get(["veal"])["veal"], _vectors(["veal"])[0])


def test_a_damaged_shard_is_skipped(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    WordStore(tmp_path, DIM).put(["beef"], _vectors(["beef"]))
    (tmp_path / "bad.json").write_text('["a", "b"]')  # no vectors beside it
    (tmp_path / "odd.json").write_text('{"not": "a list"}')
    np.save(tmp_path / "odd.npy", np.zeros((1, DIM), dtype=np.float32))
    (tmp_path / "short.json").write_text('["c", "d"]')
    np.save(tmp_path / "short.npy", np.zeros((1, DIM), dtype=np.float32))  # one row for two
    with caplog.at_level(logging.WARNING, logger="logir.index.wordcache"):
        got = WordStore(tmp_path, DIM).get(["beef", "a", "c"])
    assert sorted(got) == ["beef"]
    skipped = " ".join(r.getMessage() for r in caplog.records)
    assert "bad.json" in skipped and "odd.json" in skipped and "short.json" in skipped


def test_a_folder_that_cannot_be_written_keeps_the_vectors_in_hand(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    store = WordStore(blocked / "words", DIM)
    with caplog.at_level(logging.WARNING, logger="logir.index.wordcache"):
        store.put(["beef"], _vectors(["beef"]))
    assert "cannot keep word vectors" in caplog.text


class _Model:
    """Stands in for an encoder: a vector per word, shifted by ``bias``."""

    def __init__(self, bias: float) -> None:
        self.bias = bias

    def encode(self, words: list[str]) -> np.ndarray:
        return _vectors(words) + np.float32(self.bias)


def test_another_model_under_the_same_name_gets_its_own_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOGIR_CACHE", str(tmp_path))
    one, two = _Model(0.0), _Model(1.0)
    first = word_store(one, "tiny", DIM, one.encode)
    second = word_store(two, "tiny", DIM, two.encode)
    assert first is not None and second is not None
    assert first.folder != second.folder
    assert word_store(one, "tiny", DIM, one.encode) is first
    assert first.folder.parent == tmp_path / "words"
    monkeypatch.setenv("LOGIR_WORD_CACHE", "0")
    assert word_store(one, "tiny", DIM, one.encode) is None


def _writer(folder: str, words: list[str], shards: int) -> None:
    """One process's writes: a word at a time, merging past ``shards`` files."""
    wordcache.MAX_SHARDS = shards
    store = WordStore(Path(folder), DIM)
    for w in words:
        store.put([w], _vectors([w]))


def test_processes_writing_at_once_lose_no_vector(tmp_path: Path) -> None:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    words = [[f"w{p}x{i}" for i in range(12)] for p in range(3)]
    procs = [ctx.Process(target=_writer, args=(str(tmp_path), ws, 4)) for ws in words]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    every = [w for ws in words for w in ws]
    got = WordStore(tmp_path, DIM).get(every)
    # a merge removes only the shards it merged, so every word written is there, intact
    assert sorted(got) == sorted(every)
    for w, v in got.items():
        np.testing.assert_array_equal(v, _vectors([w])[0])


def test_a_merge_another_process_removed_at_once_keeps_its_vectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wordcache, "MAX_SHARDS", 1)
    store = WordStore(tmp_path, DIM)
    store.put(["beef"], _vectors(["beef"]))
    write = store._write

    def write_then_lose(words: list[str], vectors: np.ndarray) -> str:
        key = write(words, vectors)
        if len(words) > 1:  # the merged shard: another process's merge removes it at once
            (tmp_path / f"{key}.npy").unlink()
        return key

    monkeypatch.setattr(store, "_write", write_then_lose)
    store.put(["pork"], _vectors(["pork"]))  # two shards: a merge
    got = store.get(["beef", "pork"])
    np.testing.assert_array_equal(got["beef"], _vectors(["beef"])[0])
    np.testing.assert_array_equal(got["pork"], _vectors(["pork"])[0])
