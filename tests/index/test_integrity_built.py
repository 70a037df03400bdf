"""A build remembers the SHA-256 of the large files it records, so the first open after it hashes
nothing; a file changed after the build is still caught; several files are hashed on threads."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from logir.data.dataset import Document
from logir.errors import LogirError
from logir.index import integrity
from logir.index.integrity import DamagedFile
from logir.index.store import build_index, open_index
from logir.index.streambuild import build_bm25_index

DOCS = [
    Document("d1", "Paris is the capital and largest city of France.", "Paris"),
    Document("d2", "Berlin is the capital of Germany."),
    Document("d3", "Bananas are a good source of potassium."),
    Document("d4", "The Seine flows through Paris to the English Channel."),
]


@pytest.fixture
def hashed_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every file counts as large (remembered); the files whose bytes get hashed, in order."""
    monkeypatch.setenv("LOGIR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(integrity, "REMEMBER_BYTES", 1)
    seen: list[Path] = []
    real = integrity._digest_file
    monkeypatch.setattr(integrity, "_digest_file", lambda p: (seen.append(p), real(p))[1])
    return seen


def _build(how: str, tmp_path: Path) -> Path:
    out = tmp_path / "idx"
    if how == "build_index":
        build_index(DOCS, out, retrievers=("bm25",))
    else:
        corpus = tmp_path / "corpus.jsonl"
        rows = [{"_id": d.id, "title": d.title, "text": d.text} for d in DOCS]
        corpus.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        build_bm25_index(corpus, out)
    return out


def _fresh_process() -> None:
    integrity._DIGESTS.clear()  # what a new process starts with


@pytest.mark.parametrize("how", ["build_index", "streamed"])
def test_the_first_open_after_a_build_hashes_nothing(
    how: str, tmp_path: Path, hashed_files: list[Path]
) -> None:
    out = _build(how, tmp_path)
    built = len(hashed_files)
    assert built >= 7  # docs.jsonl and bm25/'s files, hashed once by the build
    _fresh_process()
    index = open_index(out)
    assert index.scorer("bm25").n_docs == len(DOCS)
    assert hashed_files[built:] == []


def test_a_file_changed_after_the_build_is_still_caught(
    tmp_path: Path, hashed_files: list[Path]
) -> None:
    out = _build("build_index", tmp_path)
    built = len(hashed_files)
    path = out / "bm25" / "bytes.npy"  # the posting lists of the default (compact) format
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF  # the same size, other bytes, written straight after the build
    path.write_bytes(bytes(data))
    _fresh_process()
    index = open_index(out)
    with pytest.raises(LogirError, match=r"bm25/bytes\.npy does not match its SHA"):
        index.scorer("bm25")
    assert hashed_files[built:] == [path]  # the only file hashed again: the changed one


def test_a_file_changed_before_it_is_in_place_is_not_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOGIR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(integrity, "REMEMBER_BYTES", 1)
    root = tmp_path / "built"
    root.mkdir()
    for name in ("a.npy", "b.npy"):
        (root / name).write_bytes(name.encode() * 100)
    hashed: list[integrity.Hashed] = []
    integrity.record_files(root, hashed=hashed)
    assert sorted(h.rel for h in hashed) == ["a.npy", "b.npy"]
    (root / "b.npy").write_bytes(b"X" * 500)  # the same size: only its times tell
    assert integrity.remember_built(root, hashed) == 1
    _fresh_process()
    assert integrity.sha256_file(root / "b.npy") == hashlib.sha256(b"X" * 500).hexdigest()


def _records(root: Path) -> dict[str, dict[str, object]]:
    return integrity.record_files(root)


def test_files_hashed_on_threads_report_the_first_damage_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(integrity, "THREADED_BYTES", 0)
    for i, size in enumerate((3000, 200_000, 50_000)):
        (tmp_path / f"f{i}.bin").write_bytes(bytes([i]) * size)
    records = _records(tmp_path)
    integrity.check_files(tmp_path, records, "")
    _fresh_process()
    (tmp_path / "f1.bin").write_bytes(b"\x07" * 200_000)
    (tmp_path / "f2.bin").unlink()
    with pytest.raises(DamagedFile, match="f1.bin does not match its SHA-256"):
        integrity.check_files(tmp_path, records, "")
    (tmp_path / "f0.bin").write_bytes(b"\x07" * 3000)
    with pytest.raises(DamagedFile, match="f0.bin does not match its SHA-256"):
        integrity.check_files(tmp_path, records, "")
    (tmp_path / "f0.bin").write_bytes(b"short")
    with pytest.raises(DamagedFile, match="f0.bin has 5 bytes, the manifest says 3000"):
        integrity.check_files(tmp_path, records, "")
