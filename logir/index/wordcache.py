"""Single words embedded alone, kept on disk between processes.

The kind evidence (:mod:`logir.logic.kinds`) embeds each word of its candidates' leads on its own.
A process keeps those vectors in memory, but a new process embedded them all again: on a 2-core
CPU that was most of a cold ``logir eval`` of ``hybrid:auto`` (BENCHMARKS.md). A word's vector is
a function of the word alone (:mod:`logir.index.textalone`), so it can be kept.

Layout, under :func:`~logir.index.cache.cache_root` (``$LOGIR_CACHE``, else ``~/.cache/logir``):
``words/<model>-<dim>-<mark>/<key>.npy`` holds float32 vectors ``[n, dim]`` and ``<key>.json``
their words (``<mark>``: a hash of the model's vector for :data:`PROBE`, so that another model
under the same name never reads them), where ``<key>`` is a hash of the words, so two processes
that write the same words write the same files. Each file is written to a temporary sibling and
renamed into place, the vectors first: a shard counts once its word list is there and matches
its vectors. A process reads the word lists once, on first use, and memory-maps the vectors
(only the rows asked for are read).
Bounds: a word longer than :data:`MAX_WORD` characters is not kept; once the folder holds
:data:`MAX_WORDS` words no more are written; more than :data:`MAX_SHARDS` files are merged into
one by the process that writes the next. A file that cannot be read is skipped with a warning.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import threading
import weakref
from collections.abc import Callable
from pathlib import Path

import numpy as np

from logir.index.cache import cache_root, folder_version, model_slug, save_atomic, save_npy_atomic

log = logging.getLogger(__name__)

#: the longest word kept
MAX_WORD = 64
#: the most words one model's folder holds (MiniLM: about 150 MiB of vectors)
MAX_WORDS = 100_000
#: shard files a folder holds before the next writer merges them
MAX_SHARDS = 32
#: set to 0 to keep word vectors in memory only
ENV = "LOGIR_WORD_CACHE"

#: the word whose vector marks a model's folder: a model that embeds it otherwise (trained
#: again, or another model under the same name) gets a folder of its own
PROBE = "logir"

_STORES: weakref.WeakKeyDictionary[object, WordStore] = weakref.WeakKeyDictionary()


class WordStore:
    """The word vectors of one model on disk (see the module)."""

    def __init__(self, folder: Path, dim: int) -> None:
        self.folder, self.dim = folder, dim
        self._at: dict[str, tuple[np.ndarray, int]] | None = None  # word -> (vectors, row)
        self._shards: list[str] = []
        self._lock = threading.Lock()  # a server's threads share the store

    def get(self, words: list[str]) -> dict[str, np.ndarray]:
        """The vectors the store holds for ``words`` (those it lacks are left out)."""
        with self._lock:
            at = self._index()
            hits = {w: at[w] for w in words if w in at}
        return {w: np.array(vecs[row], dtype=np.float32) for w, (vecs, row) in hits.items()}

    def put(self, words: list[str], vectors: np.ndarray) -> None:
        """Keep ``words``' vectors (rows of ``vectors``) that the store lacks, within bounds;
        a failed write is logged and the vectors stay in the caller's hands."""
        with self._lock:
            self._put(words, vectors)

    def _put(self, words: list[str], vectors: np.ndarray) -> None:
        at = self._index()
        keep = [i for i, w in enumerate(words) if w not in at and len(w) <= MAX_WORD]
        keep = list({words[i]: i for i in keep}.values())  # a word once
        if not keep or len(at) + len(keep) > MAX_WORDS:
            return
        new_words = [words[i] for i in keep]
        new = np.ascontiguousarray(np.asarray(vectors, dtype=np.float32)[keep])
        try:
            key = self._write(new_words, new)
        except OSError as exc:
            log.warning("cannot keep word vectors in %s (%s)", self.folder, exc)
            return
        for row, w in enumerate(new_words):
            at[w] = (new, row)
        self._shards.append(key)
        if len(self._shards) > MAX_SHARDS:
            self._merge()

    def _write(self, words: list[str], vectors: np.ndarray) -> str:
        key = hashlib.sha256("\0".join(words).encode()).hexdigest()[:20]
        save_npy_atomic(self.folder / f"{key}.npy", vectors)
        data = json.dumps(words).encode()
        save_atomic(self.folder / f"{key}.json", lambda fh: fh.write(data))
        return key

    def _index(self) -> dict[str, tuple[np.ndarray, int]]:
        if self._at is None:
            self._at = {}
            for path in sorted(self.folder.glob("*.json")) if self.folder.is_dir() else []:
                got = self._read(path)
                if got is not None:
                    words, vectors = got
                    for row, w in enumerate(words):
                        self._at.setdefault(w, (vectors, row))
                    self._shards.append(path.stem)
        return self._at

    def _read(self, path: Path) -> tuple[list[str], np.ndarray] | None:
        try:
            words = json.loads(path.read_text(encoding="utf-8"))
            vectors = np.load(path.with_suffix(".npy"), mmap_mode="r", allow_pickle=False)
        except (OSError, ValueError) as exc:
            log.warning("skipping word vectors %s (%s)", path, exc)
            return None
        ok = isinstance(words, list) and all(isinstance(w, str) for w in words)
        shape = (len(words), self.dim) if ok else None
        if not ok or vectors.dtype != np.float32 or vectors.shape != shape:
            log.warning("skipping word vectors %s: not %s float32 vectors", path, shape)
            return None
        return words, vectors

    def _merge(self) -> None:
        """Write every shard this process knows as one, then remove the ones merged."""
        at = self._index()
        words = sorted(at)
        vectors = np.stack([at[w][0][at[w][1]] for w in words]).astype(np.float32)
        try:
            key = self._write(words, vectors)
        except OSError as exc:
            log.warning("cannot merge word vectors in %s (%s)", self.folder, exc)
            return
        for old in self._shards:
            if old == key:
                continue
            for suffix in (".json", ".npy"):  # the word list first: the shard stops counting
                # a file another process holds open (Windows) stays: the next merge retries
                with contextlib.suppress(OSError):
                    (self.folder / f"{old}{suffix}").unlink(missing_ok=True)
        try:  # read back memory-mapped; another process's merge may have removed it already
            merged = np.load(self.folder / f"{key}.npy", mmap_mode="r", allow_pickle=False)
        except (OSError, ValueError):
            merged = vectors
        self._at = {w: (merged, row) for row, w in enumerate(words)}
        self._shards = [key]


def word_store(
    model: object, model_id: str, dim: int, encode: Callable[[list[str]], np.ndarray]
) -> WordStore | None:
    """The process's store for ``model``'s ``dim``-d word vectors (``encode``: the model's
    encoder, asked once for :data:`PROBE`); None when ``$LOGIR_WORD_CACHE`` is 0."""
    if os.environ.get(ENV, "1").strip() == "0":
        return None
    root = cache_root()
    store = _STORES.get(model)
    if store is None or store.folder.parent.parent != root:
        probe = np.asarray(encode([PROBE]), dtype=np.float32)
        mark = hashlib.sha256(probe.tobytes()).hexdigest()[:12]
        version = folder_version(model_id)
        slug = model_slug(model_id) + (f"@{version}" if version else "")
        store = WordStore(root / "words" / f"{slug}-{dim}-{mark}", dim)
        _STORES[model] = store
    return store
