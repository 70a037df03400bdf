"""The on-disk cache of document vectors, and atomic file writes.

Document vectors (dense embeddings, SPLADE vectors) are cached under ``$LOGIR_CACHE`` (default
``~/.cache/logir``), one file per model and corpus: ``KIND/MODEL-SHA.SUFFIX``, where SHA is the
start of :func:`corpus_sha256` of the texts, and MODEL the model's name (with ``@VERSION`` for a
local folder, :func:`folder_version`). A second build over the same corpus with the same model loads
them instead of encoding again, whichever process wrote them: every process of a user shares the
cache. Files are written to a temporary sibling and renamed into place, so processes building at
once never read a partial file (each may encode; the last rename wins, with the same vectors).
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

import numpy as np


def corpus_sha256(texts: Iterable[str]) -> str:
    """sha256 of the texts in order (length-prefixed, so boundaries count)."""
    h = CorpusHash()
    for t in texts:
        h.update(t)
    return h.hexdigest()


class CorpusHash:
    """:func:`corpus_sha256` one text at a time (for a corpus read as a stream)."""

    def __init__(self) -> None:
        self._h = hashlib.sha256()

    def update(self, text: str) -> None:
        b = text.encode("utf-8")
        self._h.update(len(b).to_bytes(8, "little"))
        self._h.update(b)

    def hexdigest(self) -> str:
        return self._h.hexdigest()


def cache_root(cache_dir: str | Path | None = None) -> Path:
    """`cache_dir`, else $LOGIR_CACHE, else ~/.cache/logir."""
    if cache_dir is not None:
        return Path(cache_dir)
    env = os.environ.get("LOGIR_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "logir"


def model_slug(model_id: str) -> str:
    """`model_id` as a file-name part (at most 80 characters)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", model_id).strip("_.")[-80:] or "model"


WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt")


def folder_version(model_id: str) -> str:
    """For a model that is a local folder: a short hash of its weight files' names, sizes and
    modification times (a model trained again into the same folder gets new cache files);
    "" for a hub name or a folder without weight files."""
    folder = Path(model_id)
    if not folder.is_dir():
        return ""
    weights = [p for p in sorted(folder.rglob("*")) if p.suffix in WEIGHT_SUFFIXES and p.is_file()]
    h = hashlib.sha256()
    for path in weights:
        stat = path.stat()
        h.update(f"{path.relative_to(folder)}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return h.hexdigest()[:12] if weights else ""


def cache_path(
    kind: str, model_id: str, texts: list[str], cache_dir: str | Path | None, suffix: str
) -> Path:
    """Where document vectors of one `kind` for `texts` under `model_id` are cached (a local
    model folder's :func:`folder_version` is part of the name)."""
    key = corpus_sha256(texts)[:16]
    version = folder_version(model_id)
    slug = model_slug(model_id) + (f"@{version}" if version else "")
    return cache_root(cache_dir) / kind / f"{slug}-{key}{suffix}"


def embedding_cache_path(model_id: str, texts: list[str], cache_dir: str | Path | None) -> Path:
    """Where the dense document embeddings of `texts` under `model_id` are cached (``-alone``:
    each vector a function of its text alone, :mod:`logir.index.textalone`; files from before,
    encoded in padded batches, are not read)."""
    return cache_path("embeddings", model_id, texts, cache_dir, "-alone.npy")


def save_atomic(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Call `write` on a temporary sibling of `path`, then rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_npy_atomic(path: Path, arr: np.ndarray) -> None:
    """``np.save`` of `arr` to `path`, atomically."""
    save_atomic(path, lambda fh: np.save(fh, arr))
