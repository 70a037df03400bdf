"""A compact BM25 posting format of logir's own: term frequencies and gaps, scores at query time.

bm25s stores an int32 document id and a float32 score per posting (8 bytes). This format stores
each posting as one variable-length integer (seven bits a byte): twice the gap to the previous
document of the same list (the first posting's gap is its document id), plus one when the term
frequency is over 1; those frequencies go, in posting order, in a separate array of the smallest
unsigned width that holds them. Per document it stores its length, per token its idf. A posting
list's scores are computed when it is read, with the float64 operations, cast to float32, of
:func:`logir.index.bm25shards.merge_shards`, so they equal the scores bm25s's files hold bit for
bit. Only ``lucene`` BM25 (what ``logir index`` builds) is written this way, from the shards of a
streamed build.

Files (in the ``bm25/`` folder, beside ``logir_bm25.json``): ``compact.json`` (format, version,
``k1``, ``b``, the number of documents and their summed length), ``vocab.txt`` (the sorted
vocabulary, one token a line), and the arrays ``indptr`` (postings per token, cumulated),
``bytes`` and ``byte_ptr`` (the varints and where each token's start), ``tf`` and ``tf_ptr``,
``doc_len`` and ``idf`` (``.npy``, memory-mapped when asked).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from logir.errors import LogirError
from logir.index.bm25shards import METHOD, lucene_idf, read_shard
from logir.index.integrity import DamagedFile, problem, read_json_object

FORMAT = "logir-bm25-compact"
VERSION = 1
HEADER = "compact.json"
VOCAB = "vocab.txt"
#: posting formats: bm25s's files (the default) or this module's
POSTINGS = ("bm25s", "compact")
ARRAYS = ("indptr", "bytes", "byte_ptr", "tf", "tf_ptr", "doc_len", "idf")


def is_compact(folder: Path) -> bool:
    """Whether ``folder`` holds a compact BM25 index (its ``compact.json``)."""
    return (folder / HEADER).is_file()


def _smallest_uint(largest: int) -> type[np.unsignedinteger]:
    for dtype in (np.uint8, np.uint16, np.uint32):
        if largest <= np.iinfo(dtype).max:
            return dtype
    return np.uint64


def _varints(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``values`` (non-negative) as one byte stream, seven bits a byte, low bits first, the high
    bit set on every byte but a value's last; and where each value's bytes end."""
    width = np.ones(len(values), dtype=np.int64)
    rest = values >> 7
    while rest.any():
        width += rest > 0
        rest >>= 7
    ends = np.cumsum(width)
    out = np.empty(int(ends[-1]) if len(ends) else 0, dtype=np.uint8)
    starts = ends - width
    for k in range(int(width.max()) if len(width) else 0):
        has = width > k
        byte = (values[has] >> (7 * k)) & 0x7F
        out[starts[has] + k] = byte | np.where(width[has] > k + 1, 0x80, 0)
    return out, ends


def write_compact(
    folders: Sequence[Path],
    out: Path,
    k1: float,
    b: float,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Write the compact BM25 index of the shards in ``folders`` (document order) into ``out``;
    returns the number of documents. Memory holds the posting arrays (a few bytes a posting)."""
    vocab_set: set[str] = set()
    lengths: list[np.ndarray] = []
    for folder in folders:
        shard = read_shard(folder)
        vocab_set.update(shard.vocab)
        lengths.append(shard.lengths)
    doc_len_all = np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.int32)
    n_docs = len(doc_len_all)
    if not n_docs:
        raise LogirError("cannot build a BM25 index over an empty corpus")
    vocab = sorted(vocab_set)
    del vocab_set
    gid = {t: i for i, t in enumerate(vocab)}
    terms_all: list[np.ndarray] = []
    counts_all: list[np.ndarray] = []
    rows_all: list[np.ndarray] = []
    first = 0
    for done, folder in enumerate(folders, 1):
        shard = read_shard(folder)
        local = np.array([gid[t] for t in shard.vocab], dtype=np.int64)
        terms_all.append(local[shard.terms].astype(np.int32))
        counts_all.append(shard.counts)
        per_doc = np.diff(shard.doc_ptr)
        rows_all.append(np.repeat(np.arange(first, first + shard.n_docs, dtype=np.int32), per_doc))
        first += shard.n_docs
        if progress:
            progress(done, len(folders))
    terms = np.concatenate(terms_all)
    del terms_all
    order = np.argsort(terms, kind="stable")  # by token, documents ascending within one
    df = np.bincount(terms, minlength=len(vocab)).astype(np.int64)
    del terms
    rows = np.concatenate(rows_all)[order].astype(np.int64)
    del rows_all
    tf = np.concatenate(counts_all)[order]
    del counts_all, order
    indptr = np.zeros(len(vocab) + 1, dtype=np.int64)
    np.cumsum(df, out=indptr[1:])
    heads = indptr[:-1][df > 0]
    codes = np.diff(rows, prepend=0)
    codes[heads] = rows[heads]  # a list's first gap: its document
    many = tf > 1
    codes = (codes << 1) | many  # the low bit: whether the term frequency is over 1
    del rows
    stream, ends = _varints(codes)
    byte_ptr = np.zeros(len(indptr), dtype=np.int64)  # where each list's bytes start
    if len(ends):
        byte_ptr[1:] = np.where(indptr[1:] > 0, ends[np.maximum(indptr[1:] - 1, 0)], 0)
    tf_ptr = np.zeros(len(codes) + 1, dtype=np.int64)  # where each list's frequencies start
    np.cumsum(many, out=tf_ptr[1:])
    tf_ptr = tf_ptr[indptr]
    extra = tf[many]
    out.mkdir(parents=True, exist_ok=True)
    arrays = {
        "indptr": indptr.astype(_smallest_uint(int(indptr[-1]))),
        "bytes": stream,
        "byte_ptr": byte_ptr.astype(_smallest_uint(int(byte_ptr[-1]))),
        "tf": extra.astype(_smallest_uint(int(extra.max()) if len(extra) else 0)),
        "tf_ptr": tf_ptr.astype(_smallest_uint(int(tf_ptr[-1]))),
        "doc_len": doc_len_all.astype(_smallest_uint(int(doc_len_all.max()))),
        "idf": lucene_idf(df, n_docs),
    }
    for name, arr in arrays.items():
        np.save(out / f"{name}.npy", arr)
    (out / VOCAB).write_text("\n".join(vocab), encoding="utf-8")
    header = {
        "format": FORMAT,
        "version": VERSION,
        "method": METHOD,
        "k1": k1,
        "b": b,
        "n_docs": n_docs,
        "total_len": int(doc_len_all.sum(dtype=np.int64)),
    }
    (out / HEADER).write_text(json.dumps(header, indent=2), encoding="utf-8")
    return n_docs


class CompactPostings:
    """The posting lists of a compact index, read one list at a time (:meth:`posting`), with the
    ``indptr`` and ``shape`` of the CSR matrix ``[vocab, n_docs]`` they stand for."""

    has_sorted_indices = True

    def __init__(self, folder: Path, mmap: bool = False) -> None:
        header = read_json_object(folder / HEADER)
        if header.get("format") != FORMAT or header.get("version") != VERSION:
            raise DamagedFile(
                folder / HEADER,
                f"is format {header.get('format')!r} version {header.get('version')!r}; this "
                f"logir reads {FORMAT!r} version {VERSION}",
            )
        arrays = {}
        for name in ARRAYS:
            path = folder / f"{name}.npy"
            try:
                arrays[name] = np.asarray(np.load(path, mmap_mode="r" if mmap else None))
            except (OSError, ValueError) as exc:
                raise DamagedFile(path, problem(exc)) from None
        try:
            text = (folder / VOCAB).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise DamagedFile(folder / VOCAB, problem(exc)) from None
        tokens = text.split("\n") if text else []
        self.vocab: dict[str, int] = {t: i for i, t in enumerate(tokens)}
        self.indptr = np.asarray(arrays["indptr"], dtype=np.int64)
        self._bytes, self._tf = arrays["bytes"], arrays["tf"]
        self._byte_ptr = np.asarray(arrays["byte_ptr"], dtype=np.int64)
        self._tf_ptr = np.asarray(arrays["tf_ptr"], dtype=np.int64)
        self._idf = arrays["idf"]
        n = int(header["n_docs"])
        if len(tokens) + 1 != len(self.indptr) or len(arrays["doc_len"]) != n:
            raise DamagedFile(folder, "has arrays whose lengths do not agree with its vocabulary")
        k1, b = float(header["k1"]), float(header["b"])
        avg_len = int(header["total_len"]) / n
        # the float64 norm merge_shards computes per document, once
        self._norm = k1 * ((1 - b) + b * np.asarray(arrays["doc_len"]).astype(np.float64) / avg_len)
        self.shape = (len(tokens), n)
        self.nnz = int(self.indptr[-1])
        self.header = header

    def _codes(self, t: int) -> np.ndarray:
        """Token ``t``'s varints decoded: each posting's gap times two, plus one when its term
        frequency is over 1."""
        raw = self._bytes[self._byte_ptr[t] : self._byte_ptr[t + 1]]
        count = int(self.indptr[t + 1] - self.indptr[t])
        if len(raw) == count:  # every value in one byte
            return raw.astype(np.int64)
        ends = np.flatnonzero(raw < 0x80)  # each value's last byte
        starts = np.empty_like(ends)  # and its first
        starts[0] = 0
        np.add(ends[:-1], 1, out=starts[1:])
        low = (raw & 0x7F).astype(np.int64)
        out = low[starts]
        at = np.flatnonzero(ends != starts)  # values of two bytes or more
        k = 1
        while len(at):
            out[at] |= low[starts[at] + k] << (7 * k)
            at = at[ends[at] > starts[at] + k]
            k += 1
        return out

    def documents(self, t: int) -> np.ndarray:
        """The documents (ascending, int64) of token ``t``'s posting list."""
        codes = self._codes(t)
        return np.cumsum(codes >> 1, out=codes)

    def posting(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        """Token ``t``'s documents and its float32 BM25 contribution to each."""
        codes = self._codes(t)
        many = np.flatnonzero(codes & 1)
        docs = np.cumsum(codes >> 1, out=codes)
        tf = np.ones(len(docs), dtype=np.float64)
        tf[many] = self._tf[self._tf_ptr[t] : self._tf_ptr[t + 1]]
        idf = np.float64(self._idf[t])
        return docs, (idf * (tf / (self._norm[docs] + tf))).astype(np.float32)

    def to_csr(self) -> sp.csr_matrix:
        """Every list decoded into the CSR matrix bm25s's files would hold (for whole-matrix
        users: sparse products, column shards)."""
        indices = np.empty(self.nnz, dtype=np.int32)
        data = np.empty(self.nnz, dtype=np.float32)
        for t in range(self.shape[0]):
            lo, hi = self.indptr[t], self.indptr[t + 1]
            if hi > lo:
                indices[lo:hi], data[lo:hi] = self.posting(t)
        return sp.csr_matrix((data, indices, self.indptr), shape=self.shape, copy=False)
