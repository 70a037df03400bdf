"""The document-vector cache: one file per model and corpus, written atomically."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from logir.index.cache import embedding_cache_path, save_npy_atomic

TEXTS = ["one passage", "another passage"]


def test_key_is_model_and_corpus(tmp_path: Path) -> None:
    a = embedding_cache_path("org/model-a", TEXTS, tmp_path)
    assert a.parent == tmp_path / "embeddings" and a.name.startswith("org_model-a-")
    assert embedding_cache_path("org/model-a", TEXTS, tmp_path) == a
    assert embedding_cache_path("org/model-b", TEXTS, tmp_path) != a
    assert embedding_cache_path("org/model-a", TEXTS[:1], tmp_path) != a


def test_save_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "embeddings" / "m-key.npy"
    save_npy_atomic(path, np.ones((2, 3), dtype=np.float32))

    def fail(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        save_npy_atomic(path, np.zeros((2, 3), dtype=np.float32))
    np.testing.assert_array_equal(np.load(path), np.ones((2, 3), dtype=np.float32))
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left
