"""The SHA-256 of a large, settled index file is remembered across processes, never for a
changed file."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import pytest

from logir.index import integrity


def _fresh_process() -> None:
    integrity._DIGESTS.clear()  # what a new process starts with


def test_a_settled_large_file_is_hashed_once_for_every_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOGIR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(integrity, "REMEMBER_BYTES", 4)
    monkeypatch.setattr(integrity, "SETTLED_S", 0.0)
    path = tmp_path / "big.npy"
    path.write_bytes(b"first content")
    want = hashlib.sha256(b"first content").hexdigest()
    assert integrity.sha256_file(path) == want
    assert len(list((tmp_path / "cache" / "verified").iterdir())) == 1
    _fresh_process()
    reads: list[Path] = []
    real_open = Path.open
    monkeypatch.setattr(
        Path, "open", lambda self, *a, **k: (reads.append(self), real_open(self, *a, **k))[1]
    )
    assert integrity.sha256_file(path) == want
    assert path not in reads  # remembered: the file was not read again
    time.sleep(0.05)  # the next write gets a later change time
    path.write_bytes(b"other content")  # the same size, another content
    _fresh_process()
    assert integrity.sha256_file(path) == hashlib.sha256(b"other content").hexdigest()


def test_a_file_changed_a_moment_ago_is_not_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOGIR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(integrity, "REMEMBER_BYTES", 4)
    path = tmp_path / "big.npy"
    path.write_bytes(b"just written")
    integrity.sha256_file(path)
    assert not (tmp_path / "cache" / "verified").exists()
