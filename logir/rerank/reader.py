"""A trained reader opened for inference: batched (query, passage) scores on the CPU (or a GPU),
without gradients, under bf16 autocast where the hardware makes it faster, with a bounded cache.

A reader folder is what ``logir train reader`` writes: a transformers sequence-classification
model with one output, its tokenizer, and ``logir.json`` with ``kind: reader``. A folder without
``logir.json`` is taken as a plain transformers model (e.g. an untrained base, for cost figures).
A BERT reader on the CPU runs without importing transformers (:mod:`logir.rerank.leanreader`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np

from logir.errors import LogirError
from logir.lru import LRU
from logir.rerank.leanreader import lean_reader
from logir.train.models.base import read_meta
from logir.train.models.reader import DEFAULT_MAX_LENGTH, KIND, pair_inputs
from logir.train.runtime import (
    autocast,
    import_torch,
    quiet_libraries,
    resolve_device,
    resolve_precision,
)

DEFAULT_BATCH = 32
"""Pairs scored in one forward pass."""

CACHE_PAIRS = 65_536
"""Most (query, passage) scores a reader keeps (least recently used first out)."""

_OPEN_LIMIT = 4
"""Most reader folders kept open by :func:`load_reader` at once."""


def check_reader_dir(folder: Path) -> dict[str, Any]:
    """The folder's logir.json (``{}`` when it has none), or a LogirError naming the path and
    what is wrong with it as a reader folder."""
    if not folder.exists():
        raise LogirError(f"reader folder {folder} does not exist")
    if not folder.is_dir():
        raise LogirError(
            f"reader {folder} is not a folder (expected what `logir train reader` writes)"
        )
    meta = read_meta(folder)
    if meta:
        if meta.get("kind") != KIND:
            raise LogirError(f"{folder} holds a {meta.get('kind')!r} model, not a reader")
        if meta.get("finished") is False:
            raise LogirError(f"{folder}: the reader's training has not finished")
    elif not (folder / "config.json").is_file():
        raise LogirError(
            f"{folder} is not a reader folder: it has neither logir.json nor a model config.json"
        )
    return meta


class InferenceReader:
    """A reader folder loaded once for scoring; ``score(query, passages)`` gives one float per
    passage (higher: the passage satisfies the query better). Thread-safe."""

    def __init__(
        self,
        folder: str | Path,
        *,
        device: str = "auto",
        precision: str = "auto",
        batch_size: int = DEFAULT_BATCH,
        cache_pairs: int = CACHE_PAIRS,
        lean: bool = True,
    ) -> None:
        self.folder = Path(folder)
        self.meta = check_reader_dir(self.folder)
        if batch_size < 1:
            raise LogirError(f"reader batch size must be at least 1, got {batch_size}")
        torch = import_torch()
        device = resolve_device(device)
        self.device = device
        self.precision = resolve_precision(precision, device)
        self.max_length = int(self.meta.get("max_length", DEFAULT_MAX_LENGTH))
        self.batch_size = batch_size
        self._torch = torch
        self._cache: LRU[tuple[str, str], float] = LRU(cache_pairs)
        self._lock = threading.Lock()
        # a BERT reader on the CPU runs without transformers (the same scores, seconds sooner)
        self.lean = lean_reader(self.folder, self.max_length) if lean and device == "cpu" else None
        self.module: Any = None
        self.tokenizer: Any = None
        if self.lean is not None:
            return
        try:
            import transformers
        except ImportError:
            raise LogirError(
                "the reader needs the 'dense' extra: pip install 'logir[dense]'"
            ) from None
        quiet_libraries()
        try:
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(str(self.folder))
            module = transformers.AutoModelForSequenceClassification.from_pretrained(
                str(self.folder), num_labels=1
            )
        except (OSError, ValueError) as exc:
            raise LogirError(f"cannot load the reader in {self.folder}: {exc}") from None
        self.module = module.to(device).eval()

    @property
    def name(self) -> str:
        """The folder, as given."""
        return str(self.folder)

    def score(self, query: str, passages: list[str]) -> np.ndarray:
        """One float32 score per passage; pairs scored before come from the cache."""
        return self.score_pairs([query] * len(passages), passages)

    def score_pairs(self, queries: list[str], passages: list[str]) -> np.ndarray:
        """One float32 score per (queries[i], passages[i]) pair, batched across queries (the
        pairs of many queries fill one batch, e.g. a table of pairs scored on a GPU); pairs
        scored before come from the cache."""
        if len(queries) != len(passages):
            raise LogirError(f"{len(queries)} queries for {len(passages)} passages")
        out = np.zeros(len(passages), np.float32)
        todo: list[int] = []
        for i, (q, p) in enumerate(zip(queries, passages, strict=True)):
            hit = self._cache.get((q, p))
            if hit is None:
                todo.append(i)
            else:
                out[i] = hit
        for start in range(0, len(todo), self.batch_size):
            chunk = todo[start : start + self.batch_size]
            values = self._forward([queries[i] for i in chunk], [passages[i] for i in chunk])
            for i, v in zip(chunk, values, strict=True):
                out[i] = v
                self._cache.put((queries[i], passages[i]), float(v))
        return out

    def _forward(self, queries: list[str], passages: list[str]) -> np.ndarray:
        torch = self._torch
        if self.lean is not None:
            with self._lock, torch.inference_mode(), autocast(self.device, self.precision):
                logits = self.lean.scores(queries, passages, self.device)
            return logits.float().cpu().numpy()
        enc = pair_inputs(self.tokenizer, queries, passages, self.max_length, self.device)
        with self._lock, torch.inference_mode(), autocast(self.device, self.precision):
            logits = self.module(**enc).logits[:, 0]
        return logits.float().cpu().numpy()


_open: OrderedDict[tuple[str, str, str], InferenceReader] = OrderedDict()
_open_lock = threading.Lock()


def load_reader(
    folder: str | Path, device: str = "auto", precision: str = "auto"
) -> InferenceReader:
    """The reader in ``folder``, opened once per process (a few kept, least recently used out);
    a folder whose files changed since is opened again. ``device``: ``auto`` (the GPU when torch
    sees one, else the CPU), ``cpu``, ``cuda`` or ``cuda:N``."""
    path = Path(folder).expanduser()
    check_reader_dir(path)
    device = resolve_device(device)
    stamp = ",".join(
        f"{f.name}:{f.stat().st_mtime_ns}" for f in sorted(path.iterdir()) if f.is_file()
    )
    key = (str(path.resolve()), f"{device}/{precision}", stamp)
    with _open_lock:
        found = _open.get(key)
        if found is not None:
            _open.move_to_end(key)
            return found
    reader = InferenceReader(path, device=device, precision=precision)
    with _open_lock:
        _open[key] = reader
        while len(_open) > _OPEN_LIMIT:
            _open.popitem(last=False)
    return reader
