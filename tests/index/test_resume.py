"""ChunkStore: chunk files written whole, read back only with the right row count."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from logir.index.resume import ChunkStore, encoded_in_chunks


def _store(tmp_path: Path, size: int = 3) -> ChunkStore[np.ndarray]:
    return ChunkStore(
        tmp_path / "m-abc-alone.npy", size, ".npy", np.save, np.load, lambda a: int(a.shape[0])
    )


def test_a_chunk_written_is_read_back(tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert store.folder == tmp_path / "m-abc-alone.npy.parts-3"
    assert store.get(0, 3) is None
    store.put(0, np.arange(6, dtype=np.float32).reshape(3, 2))
    np.testing.assert_array_equal(store.get(0, 3), np.arange(6).reshape(3, 2))
    assert store.get(1, 3) is None
    assert [p.name for p in store.folder.iterdir()] == ["0000000.npy"]


def test_a_chunk_of_the_wrong_size_or_damaged_is_not_used(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = _store(tmp_path)
    store.put(0, np.zeros((2, 2), dtype=np.float32))
    assert store.get(0, 3) is None
    store.path(1).write_bytes(b"\x93NUMPY garbage")
    assert store.get(1, 3) is None
    assert "cannot be read" in caplog.text and "2 rows, not 3" in caplog.text


def test_another_chunk_size_is_another_folder_and_clear_removes_it(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.put(0, np.zeros((3, 2), dtype=np.float32))
    assert _store(tmp_path, size=4).get(0, 3) is None
    store.clear()
    assert not store.folder.exists()
    store.clear()  # nothing there: no error
    with pytest.raises(ValueError, match="at least 1"):
        _store(tmp_path, size=0)


def test_chunks_are_encoded_or_read_back_in_order(tmp_path: Path) -> None:
    store = _store(tmp_path, size=2)
    store.put(1, np.full((2, 1), 7.0, dtype=np.float32))  # the second chunk, kept before
    encoded: list[list[str]] = []
    skipped: list[int] = []

    def encode(chunk: list[str]) -> np.ndarray:
        encoded.append(chunk)
        return np.zeros((len(chunk), 1), dtype=np.float32)

    texts = ["a", "b", "c", "d", "e"]
    got = list(encoded_in_chunks(texts, 2, encode, skipped.append, store))
    assert [start for start, _ in got] == [0, 2, 4]
    assert encoded == [["a", "b"], ["e"]] and skipped == [2]
    assert got[1][1].tolist() == [[7.0], [7.0]]
    assert store.get(2, 1) is not None  # the last chunk, kept as it was encoded
    with pytest.raises(ValueError, match="chunks of 3"):
        list(encoded_in_chunks(texts, 3, encode, skipped.append, store))
