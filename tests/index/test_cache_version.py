"""A model folder trained again gets new document-vector cache files (no stale embeddings)."""

from __future__ import annotations

import os
from pathlib import Path

from logir.index.cache import cache_path, folder_version


def test_cache_files_of_a_local_model_change_when_its_weights_do(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    assert folder_version(str(model)) == ""
    assert folder_version("sentence-transformers/all-MiniLM-L6-v2") == ""
    weights = model / "model.safetensors"
    weights.write_bytes(b"a" * 10)
    os.utime(weights, ns=(1, 1))
    first = cache_path("embeddings", str(model), ["doc"], tmp_path, ".npy")
    assert len(folder_version(str(model))) == 12
    assert first == cache_path("embeddings", str(model), ["doc"], tmp_path, ".npy")
    weights.write_bytes(b"b" * 11)  # trained again
    assert cache_path("embeddings", str(model), ["doc"], tmp_path, ".npy") != first
