"""BM25 built shard by shard: each shard's token counts on disk, then one merge with global
statistics into bm25s's index files.

A shard is a folder holding, for a run of consecutive documents, its sorted vocabulary
(``vocab.txt``, one token a line) and ``counts.npz``: each document's length in tokens, and its
distinct tokens (ids into the shard's vocabulary, ascending) with their counts. It is written into
``NAME.tmp`` and renamed, so a shard folder is whole or absent.

:func:`merge_shards` reads the shards in order, numbers the union of their vocabularies in sorted
order (as ``BM25Scorer.build`` does), takes document frequencies, the number of documents and the
average length over all of them, and writes each posting's BM25 contribution straight into
memory-mapped ``.npy`` files, one shard at a time: memory holds one shard and the vocabulary,
never the whole index. The contributions are computed with the same float64 operations, cast to
float32, as bm25s's own build, so the files hold the arrays ``BM25Scorer.build`` makes, bit for
bit. Only the ``lucene`` method (logir's default, and the only one ``logir index`` builds) is
built this way.
"""

from __future__ import annotations

import json
import math
import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from logir.errors import LogirError

VOCAB = "vocab.txt"
COUNTS = "counts.npz"
#: the bm25s files the merge writes (BM25Scorer.load reads them)
DATA, INDICES, INDPTR = "data.csc.index.npy", "indices.csc.index.npy", "indptr.csc.index.npy"
PARAMS, VOCAB_JSON = "params.index.json", "vocab.index.json"
METHOD = "lucene"


@dataclass(frozen=True)
class Shard:
    """One shard's counts: ``vocab`` sorted; per document ``lengths`` and the slice
    ``doc_ptr[i]:doc_ptr[i + 1]`` of ``terms`` (ids into ``vocab``) and ``counts``."""

    vocab: list[str]
    lengths: np.ndarray
    doc_ptr: np.ndarray
    terms: np.ndarray
    counts: np.ndarray

    @property
    def n_docs(self) -> int:
        return len(self.lengths)


def count_shard(tokens: Sequence[Sequence[str]]) -> Shard:
    """The counts of a shard whose documents have ``tokens`` (in row order)."""
    vocab = sorted({t for doc in tokens for t in doc})
    ids = {t: i for i, t in enumerate(vocab)}
    lengths = np.array([len(doc) for doc in tokens], dtype=np.int32)
    flat = np.fromiter((ids[t] for doc in tokens for t in doc), dtype=np.int64, count=lengths.sum())
    rows = np.repeat(np.arange(len(tokens), dtype=np.int64), lengths)
    width = max(len(vocab), 1)
    keys, counts = np.unique(rows * width + flat, return_counts=True)  # by document, then token
    doc_of = keys // width
    doc_ptr = np.zeros(len(tokens) + 1, dtype=np.int64)
    np.cumsum(np.bincount(doc_of, minlength=len(tokens)), out=doc_ptr[1:])
    return Shard(vocab, lengths, doc_ptr, (keys % width).astype(np.int32), counts.astype(np.int32))


def write_shard(folder: Path, shard: Shard) -> None:
    """Write ``shard`` to ``folder`` (through ``folder.tmp``, renamed when whole)."""
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    (tmp / VOCAB).write_text("\n".join(shard.vocab), encoding="utf-8")
    with (tmp / COUNTS).open("wb") as fh:
        np.savez(
            fh,
            lengths=shard.lengths,
            doc_ptr=shard.doc_ptr,
            terms=shard.terms,
            counts=shard.counts,
        )
        fh.flush()
        os.fsync(fh.fileno())
    tmp.rename(folder)


def read_shard(folder: Path) -> Shard:
    """A shard ``write_shard`` wrote (a LogirError naming it when it cannot be read)."""
    try:
        text = (folder / VOCAB).read_text(encoding="utf-8")
        with np.load(folder / COUNTS) as z:
            arrays = {k: z[k] for k in ("lengths", "doc_ptr", "terms", "counts")}
    except (OSError, ValueError, KeyError) as exc:
        raise LogirError(
            f"shard {folder} cannot be read ({exc}); delete it to build it again"
        ) from None
    vocab = text.split("\n") if text else []
    return Shard(vocab, **arrays)


@dataclass(frozen=True)
class Layout:
    """What a merge needs before it writes a posting: the union of the shards' vocabularies in
    sorted order (``ids``: token to its number), every document's length (document order), each
    token's document frequency and the largest term frequency of any posting."""

    vocab: list[str]
    ids: dict[str, int]
    lengths: np.ndarray
    df: np.ndarray
    largest_tf: int

    @property
    def n_docs(self) -> int:
        return len(self.lengths)

    @property
    def indptr(self) -> np.ndarray:
        """Where each token's postings start in token order (and the total, last)."""
        indptr = np.zeros(len(self.vocab) + 1, dtype=np.int64)
        np.cumsum(self.df, out=indptr[1:])
        return indptr


def layout(folders: Sequence[Path]) -> Layout:
    """The :class:`Layout` of the shards in ``folders`` (two passes over them); a LogirError
    when they hold no document."""
    vocab_set: set[str] = set()
    lengths: list[np.ndarray] = []
    for folder in folders:
        shard = read_shard(folder)
        vocab_set.update(shard.vocab)
        lengths.append(shard.lengths)
    doc_len = np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.int32)
    del lengths
    if not len(doc_len):
        raise LogirError("cannot build a BM25 index over an empty corpus")
    vocab = sorted(vocab_set)
    del vocab_set
    ids = {t: i for i, t in enumerate(vocab)}
    df = np.zeros(len(vocab), dtype=np.int64)
    largest_tf = 1
    for folder in folders:
        shard = read_shard(folder)
        local = np.array([ids[t] for t in shard.vocab], dtype=np.int64)
        df += np.bincount(local[shard.terms], minlength=len(vocab))
        if len(shard.counts):
            largest_tf = max(largest_tf, int(shard.counts.max()))
    return Layout(vocab, ids, doc_len, df, largest_tf)


@dataclass(frozen=True)
class Placed:
    """One shard's postings placed in token order: posting ``order[j]`` of the shard (its global
    token ``terms``, its document ``rows`` within the shard) goes to position ``pos[j]`` of the
    whole index's arrays; ``first`` is the shard's first document."""

    shard: Shard
    terms: np.ndarray
    rows: np.ndarray
    order: np.ndarray
    pos: np.ndarray
    first: int


def placed(
    folders: Sequence[Path],
    plan: Layout,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[Placed]:
    """Each shard of ``folders`` in turn with where its postings go (by token, documents
    ascending within one token); ``progress(done, total)`` once the caller has written a shard."""
    fill = plan.indptr[:-1].copy()  # where each token's next posting goes
    first = 0
    for done, folder in enumerate(folders, 1):
        shard = read_shard(folder)
        local = np.array([plan.ids[t] for t in shard.vocab], dtype=np.int64)
        terms = local[shard.terms]
        rows = np.repeat(np.arange(shard.n_docs, dtype=np.int64), np.diff(shard.doc_ptr))
        order = np.argsort(terms, kind="stable")  # by token, documents ascending within one
        terms_s = terms[order]
        starts = np.flatnonzero(np.r_[True, terms_s[1:] != terms_s[:-1]])
        rank = np.arange(len(terms_s)) - np.repeat(starts, np.diff(np.r_[starts, len(terms_s)]))
        yield Placed(shard, terms, rows, order, fill[terms_s] + rank, first)
        fill += np.bincount(terms, minlength=len(plan.vocab))
        first += shard.n_docs
        if progress:
            progress(done, len(folders))


def merge_shards(
    folders: Sequence[Path],
    out: Path,
    k1: float,
    b: float,
    method: str = METHOD,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Write the BM25 index of the shards in ``folders`` (in document order) into ``out`` as
    bm25s's files; returns the number of documents. ``progress(done, total)`` after each shard."""
    if method != METHOD:
        raise LogirError(f"a sharded BM25 build supports method {METHOD!r} only, not {method!r}")
    plan = layout(folders)
    n_docs = plan.n_docs
    avg_len = int(plan.lengths.sum(dtype=np.int64)) / n_docs
    idf = lucene_idf(plan.df, n_docs)
    indptr = plan.indptr
    nnz = int(indptr[-1])
    out.mkdir(parents=True, exist_ok=True)
    data = np.lib.format.open_memmap(out / DATA, mode="w+", dtype=np.float32, shape=(nnz,))
    indices = np.lib.format.open_memmap(out / INDICES, mode="w+", dtype=np.int32, shape=(nnz,))
    for part in placed(folders, plan, progress):
        shard, terms, rows = part.shard, part.terms, part.rows
        # bm25s: tf / (k1 * ((1 - b) + b * l_d / l_avg) + tf), times the float32 idf, in float64
        norm = k1 * ((1 - b) + b * shard.lengths.astype(np.float64) / avg_len)
        tf = shard.counts.astype(np.float64)
        scores = (idf[terms].astype(np.float64) * (tf / (norm[rows] + tf))).astype(np.float32)
        data[part.pos] = scores[part.order]
        indices[part.pos] = (rows[part.order] + part.first).astype(np.int32)
    data.flush()
    indices.flush()
    del data, indices
    np.save(out / INDPTR, indptr)
    vocab_ids: dict[str, int] = {**plan.ids, "": len(plan.vocab)}  # bm25s adds an empty token last
    (out / VOCAB_JSON).write_text(json.dumps(vocab_ids, ensure_ascii=False), encoding="utf-8")
    (out / PARAMS).write_text(json.dumps(_bm25s_params(k1, b, n_docs), indent=4), "utf-8")
    return n_docs


def lucene_idf(df: np.ndarray, n_docs: int) -> np.ndarray:
    """bm25s's lucene idf, ``log(1 + (N - df + 0.5) / (df + 0.5))`` in float64 by ``math.log``
    (as bm25s computes it), stored as float32; one log per distinct document frequency."""
    values, where = np.unique(df, return_inverse=True)
    logs = [math.log(1 + (n_docs - int(d) + 0.5) / (int(d) + 0.5)) for d in values]
    return np.array(logs, dtype=np.float32)[where]


def _bm25s_params(k1: float, b: float, n_docs: int) -> dict[str, Any]:
    """``params.index.json`` as bm25s's own save writes it for a lucene index."""
    import bm25s

    model = bm25s.BM25(k1=k1, b=b, method=METHOD)
    return {
        "k1": model.k1,
        "b": model.b,
        "delta": model.delta,
        "method": model.method,
        "idf_method": model.idf_method,
        "dtype": model.dtype,
        "int_dtype": model.int_dtype,
        "num_docs": n_docs,
        "version": bm25s.__version__,
        "backend": model.backend,
    }
