"""A compact BM25 posting format of logir's own: term frequencies and gaps, scores at query time.

bm25s stores an int32 document id and a float32 score per posting (8 bytes). This format stores
each posting as one variable-length integer (seven bits a byte): twice the gap to the previous
document of the same list (the first posting's gap is its document id), plus one when the term
frequency is over 1; those frequencies go, in posting order, in a separate array of the smallest
unsigned width that holds them. Per document it stores its length, per token its idf. A posting
list's scores are computed when it is read, with the float64 operations, cast to float32, of
:func:`logir.index.bm25shards.merge_shards`, so they equal the scores bm25s's files hold bit for
bit. Only ``lucene`` BM25 (what ``logir index`` builds) is written this way, from the shards of a
streamed build (or the one shard of an in-memory build, :mod:`logir.index.bm25memory`).

Files (in the ``bm25/`` folder, beside ``logir_bm25.json``): ``compact.json`` (format, version,
``k1``, ``b``, the number of documents and their summed length), ``vocab.txt`` (the sorted
vocabulary, one token a line), and the arrays ``indptr`` (postings per token, cumulated),
``bytes`` and ``byte_ptr`` (the varints and where each token's start), ``tf`` and ``tf_ptr``,
``doc_len`` and ``idf`` (``.npy``, memory-mapped when asked).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from logir.index.bm25shards import METHOD, layout, lucene_idf, placed
from logir.index.integrity import DamagedFile, problem, read_json_object

FORMAT = "logir-bm25-compact"
VERSION = 1
HEADER = "compact.json"
VOCAB = "vocab.txt"
#: posting formats: bm25s's files ("plain") or this module's
POSTINGS = ("plain", "compact")
#: what an index build writes unless told otherwise (a plain index is read as before)
DEFAULT_POSTINGS = "compact"
#: bytes of decoded posting lists a compact index keeps by default (the lists read last)
CACHE_BYTES = 256 * 2**20
#: the longest posting list :meth:`CompactPostings.prefetch` decodes with others
PREFETCH_LIST = 4096
#: a compact index keeps its norms per document length (a table) while the longest document is
#: shorter than this many tokens, else per document
LENGTH_TABLE = 2**20
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
    returns the number of documents.

    Memory holds one shard and a bounded run of posting lists at a time: the shards' postings
    are first laid out by token in two scratch files in ``out`` (each posting's document and
    term frequency, as ``merge_shards`` lays out bm25s's arrays), then encoded a run of lists
    at a time (``ENCODE_POSTINGS`` postings or one list), the scratch files removed at the end.
    """
    plan = layout(folders)
    indptr = plan.indptr
    nnz = int(indptr[-1])
    out.mkdir(parents=True, exist_ok=True)
    scratch_rows, scratch_tf = out / "postings.rows.tmp", out / "postings.tf.tmp"
    try:
        rows_mm = np.lib.format.open_memmap(scratch_rows, "w+", np.int32, (nnz,))
        tf_mm = np.lib.format.open_memmap(scratch_tf, "w+", _smallest_uint(plan.largest_tf), (nnz,))
        for part in placed(folders, plan, progress):
            rows_mm[part.pos] = (part.rows[part.order] + part.first).astype(np.int32)
            tf_mm[part.pos] = part.shard.counts[part.order]
        del part
        stream, byte_ptr, extra, tf_ptr = _encode_runs(rows_mm, tf_mm, indptr, out)
        del rows_mm, tf_mm
    finally:
        scratch_rows.unlink(missing_ok=True)
        scratch_tf.unlink(missing_ok=True)
    arrays = {
        "indptr": indptr.astype(_smallest_uint(int(indptr[-1]))),
        "byte_ptr": byte_ptr.astype(_smallest_uint(int(byte_ptr[-1]))),
        "tf": extra.astype(_smallest_uint(int(extra.max()) if len(extra) else 0)),
        "tf_ptr": tf_ptr.astype(_smallest_uint(int(tf_ptr[-1]))),
        "doc_len": plan.lengths.astype(_smallest_uint(int(plan.lengths.max()))),
        "idf": lucene_idf(plan.df, plan.n_docs),
    }
    del stream  # written already (bytes.npy)
    for name, arr in arrays.items():
        np.save(out / f"{name}.npy", arr)
    (out / VOCAB).write_text("\n".join(plan.vocab), encoding="utf-8")
    header = {
        "format": FORMAT,
        "version": VERSION,
        "method": METHOD,
        "k1": k1,
        "b": b,
        "n_docs": plan.n_docs,
        "total_len": int(plan.lengths.sum(dtype=np.int64)),
    }
    (out / HEADER).write_text(json.dumps(header, indent=2), encoding="utf-8")
    return plan.n_docs


#: postings encoded at once by ``write_compact`` (a longer list is encoded alone)
ENCODE_POSTINGS = 8_000_000


def _encode_runs(
    rows: np.ndarray, tf: np.ndarray, indptr: np.ndarray, out: Path
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Encode the lists laid out in ``rows`` and ``tf`` (by token, ``indptr``) a run of lists at
    a time; writes ``bytes.npy`` into ``out`` and returns it (memory-mapped) with ``byte_ptr``,
    the frequencies over 1 and ``tf_ptr``."""
    n_tok = len(indptr) - 1
    byte_ptr = np.zeros(n_tok + 1, dtype=np.int64)
    tf_ptr = np.zeros(n_tok + 1, dtype=np.int64)
    extras: list[np.ndarray] = []
    raw = out / "bytes.raw.tmp"
    written = 0
    try:
        with raw.open("wb") as fh:
            t0 = 0
            while t0 < n_tok:
                # the longest run of lists from t0 within the budget (at least one list)
                t1 = int(np.searchsorted(indptr, indptr[t0] + ENCODE_POSTINGS, side="right")) - 1
                t1 = min(max(t1, t0 + 1), n_tok)
                lo, hi = int(indptr[t0]), int(indptr[t1])
                ptr = indptr[t0 : t1 + 1] - lo
                run_rows = np.asarray(rows[lo:hi], dtype=np.int64)
                run_tf = np.asarray(tf[lo:hi])
                heads = ptr[:-1][ptr[1:] > ptr[:-1]]
                codes = np.diff(run_rows, prepend=0)
                codes[heads] = run_rows[heads]  # a list's first gap: its document
                many = run_tf > 1
                codes = (codes << 1) | many  # the low bit: whether the term frequency is over 1
                stream, ends = _varints(codes)
                fh.write(stream.tobytes())
                # where each list's bytes start, and its frequencies over 1
                ends0 = np.r_[0, ends]
                byte_ptr[t0 + 1 : t1 + 1] = written + ends0[ptr[1:]]
                counted = np.r_[0, np.cumsum(many)]
                tf_ptr[t0 + 1 : t1 + 1] = tf_ptr[t0] + counted[ptr[1:]]
                extras.append(run_tf[many])
                written += len(stream)
                t0 = t1
        stream = np.lib.format.open_memmap(out / "bytes.npy", "w+", np.uint8, (written,))
        step = 64 * 2**20
        with raw.open("rb") as fh:
            for at in range(0, written, step):
                chunk = np.frombuffer(fh.read(min(step, written - at)), dtype=np.uint8)
                stream[at : at + len(chunk)] = chunk
        stream.flush()
    finally:
        raw.unlink(missing_ok=True)
    extra = np.concatenate(extras) if extras else np.zeros(0, dtype=np.uint8)
    return stream, byte_ptr, extra, tf_ptr


class CompactPostings:
    """The posting lists of a compact index, read one list at a time (:meth:`posting`), with the
    ``indptr`` and ``shape`` of the CSR matrix ``[vocab, n_docs]`` they stand for.

    Decoding a list costs far more than reading bm25s's arrays, so the lists decoded last are
    kept (documents as int32, scores as float32: 8 bytes a posting, what bm25s's files hold) up
    to ``cache_bytes`` in all, the least recently read dropped first; 0 keeps none. A kept list
    is the same arrays, read-only, whichever thread reads it.
    """

    has_sorted_indices = True

    def __init__(self, folder: Path, mmap: bool = False, cache_bytes: int = CACHE_BYTES) -> None:
        self.folder = folder  # where the files are (``BM25Scorer.save`` copies them)
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
            except (OSError, ValueError, EOFError) as exc:  # EOFError: an empty file
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
        if len(tokens) + 1 != len(self.indptr):
            raise DamagedFile(
                folder / VOCAB,
                f"holds {len(tokens)} tokens where indptr.npy has lists of {len(self.indptr) - 1}",
            )
        if len(arrays["doc_len"]) != n:
            raise DamagedFile(folder / "doc_len.npy", f"does not hold the {n} documents' lengths")
        k1, b = float(header["k1"]), float(header["b"])
        avg_len = int(header["total_len"]) / n
        doc_len = np.asarray(arrays["doc_len"])
        longest = int(doc_len.max()) if n else 0
        # merge_shards's float64 norm depends on a document's length alone: it is kept per
        # length (a small table, reached through doc_len), or per document when lengths are
        # too spread out for a table
        if longest < LENGTH_TABLE:
            self._key: np.ndarray | None = doc_len
            lengths = np.arange(longest + 1, dtype=np.float64)
        else:
            self._key = None
            lengths = doc_len.astype(np.float64)
        self._norm = k1 * ((1 - b) + b * lengths / avg_len)
        # a posting whose term frequency is 1 scores idf * (1 / (norm + 1)): that quotient, once
        self._one = 1.0 / (self._norm + 1.0)
        # codes (twice a gap, plus one) and documents fit int32 below 2**30 documents
        self._dtype = np.int32 if 2 * n < 2**31 else np.int64
        self.shape = (len(tokens), n)
        self.nnz = int(self.indptr[-1])
        self.header = header
        self.cache_bytes = cache_bytes
        self._kept: OrderedDict[int, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._kept_bytes = 0
        self._lock = threading.Lock()

    def _codes(self, t: int) -> np.ndarray:
        """Token ``t``'s varints decoded: each posting's gap times two, plus one when its term
        frequency is over 1."""
        raw = self._bytes[self._byte_ptr[t] : self._byte_ptr[t + 1]]
        return _read_varints(raw, int(self.indptr[t + 1] - self.indptr[t]), self._dtype)

    def documents(self, t: int) -> np.ndarray:
        """The documents (ascending, int64) of token ``t``'s posting list."""
        with self._lock:
            got = self._kept.get(int(t))
        if got is not None:
            return got[0].astype(np.int64)
        codes = self._codes(t)
        codes >>= 1
        return np.cumsum(codes, out=codes).astype(np.int64)

    def posting(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        """Token ``t``'s documents (int32, ascending) and its float32 BM25 contribution to each
        (read-only; kept for the next read while the cache has room)."""
        t = int(t)
        with self._lock:
            got = self._kept.get(t)
            if got is not None:
                self._kept.move_to_end(t)
                return got
        docs, scores = self._decode(t)
        docs = docs.astype(np.int32, copy=False)
        docs.flags.writeable = scores.flags.writeable = False
        self._keep(t, docs, scores)
        return docs, scores

    def _keep(self, t: int, docs: np.ndarray, scores: np.ndarray) -> None:
        """Keep token ``t``'s decoded list while the cache has room (the oldest dropped)."""
        size = docs.nbytes + scores.nbytes
        if size <= self.cache_bytes:
            with self._lock:
                if t not in self._kept:
                    self._kept[t] = (docs, scores)
                    self._kept_bytes += size
                    while self._kept_bytes > self.cache_bytes:
                        old_docs, old_scores = self._kept.popitem(last=False)[1]
                        self._kept_bytes -= old_docs.nbytes + old_scores.nbytes

    def prefetch(self, ids: Sequence[np.ndarray]) -> int:
        """Decode, in one pass, the short lists among the tokens of ``ids`` (a batch of query
        texts' token ids) that are not kept yet, and keep them: a list read for the first
        time costs a few dozen numpy calls whatever its length, so a batch of many short lists
        is decoded far faster together. Lists of over ``PREFETCH_LIST`` postings are left to
        :meth:`posting`, and a pass decodes at most a sixteenth of the cache (its scratch
        arrays are several times that); returns the number of lists decoded."""
        if not self.cache_bytes or not ids:
            return 0
        tokens = np.unique(np.concatenate([np.asarray(i, dtype=np.int64) for i in ids]))
        with self._lock:
            tokens = np.array([t for t in tokens.tolist() if t not in self._kept], dtype=np.int64)
        if not len(tokens):
            return 0
        counts = self.indptr[tokens + 1] - self.indptr[tokens]
        short = (counts > 0) & (counts <= PREFETCH_LIST)
        tokens, counts = tokens[short], counts[short]
        room = np.cumsum(counts) * 8 <= self.cache_bytes // 16  # 8 bytes a decoded posting
        tokens, counts = tokens[room], counts[room]
        if not len(tokens):
            return 0
        docs, scores = self._decode_many(tokens, counts)
        ends = np.cumsum(counts).tolist()
        for t, lo, hi in zip(tokens.tolist(), [0, *ends[:-1]], ends, strict=True):
            # copies: a kept list must not hold the whole pass's arrays alive
            one_docs, one_scores = docs[lo:hi].copy(), scores[lo:hi].copy()
            one_docs.flags.writeable = one_scores.flags.writeable = False
            self._keep(t, one_docs, one_scores)
        return len(tokens)

    def _decode_many(self, tokens: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The lists of ``tokens`` (with ``counts`` postings each, at least 1) decoded one after
        another: int32 documents and float32 scores, those :meth:`_decode` gives each list."""
        lo, hi = self._byte_ptr[tokens], self._byte_ptr[tokens + 1]
        raw = self._bytes.take(_ranges(lo, hi))  # the lists' varints, back to back
        codes = _read_varints(raw, int(counts.sum()), np.int64)
        many = np.flatnonzero((codes & 1).astype(bool))
        gaps = codes >> 1
        summed = np.cumsum(gaps)
        heads = np.cumsum(counts) - counts  # each list's first posting
        docs = summed - np.repeat(summed[heads] - gaps[heads], counts)
        tf = self._tf.take(_ranges(self._tf_ptr[tokens], self._tf_ptr[tokens + 1]))
        idf = np.repeat(np.asarray(self._idf[tokens], dtype=np.float64), counts)
        return docs.astype(np.int32), self._scores(docs, many, tf, idf)

    def _decode(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        """Token ``t``'s list decoded from the varints: documents (int32 below 2**30 of them,
        else int64) and float32 scores, computed as :meth:`to_csr` computes them."""
        codes = self._codes(t)
        many = np.flatnonzero((codes & 1).astype(bool))
        codes >>= 1
        docs = np.cumsum(codes, out=codes)
        tf = self._tf[self._tf_ptr[t] : self._tf_ptr[t + 1]]
        return docs, self._scores(docs, many, tf, np.float64(self._idf[t]))

    def _scores(
        self, docs: np.ndarray, many: np.ndarray, tf: np.ndarray, idf: np.ndarray | np.float64
    ) -> np.ndarray:
        """float32 ``idf * (tf / (norm + tf))`` (float64 operations, merge_shards's) of the
        postings of ``docs``, whose term frequency is 1 but at ``many``, where it is ``tf``;
        ``idf`` is one value or one per posting."""
        keys = docs if self._key is None else self._key.take(docs)
        part = self._one.take(keys)  # 1 / (norm + 1): tf / (norm + tf) with tf = 1
        if len(many):
            tf = tf.astype(np.float64)
            part[many] = tf / (self._norm.take(keys.take(many)) + tf)
        part *= idf
        return part.astype(np.float32)

    def to_csr(self) -> sp.csr_matrix:
        """Every list decoded into the CSR matrix bm25s's files would hold (for whole-matrix
        users: sparse products, column shards), a run of lists at a time, the same numbers as
        :meth:`posting`."""
        indices = np.empty(self.nnz, dtype=np.int32)
        data = np.empty(self.nnz, dtype=np.float32)
        indptr, n_tok = self.indptr, self.shape[0]
        t0 = 0
        while t0 < n_tok:
            t1 = int(np.searchsorted(indptr, indptr[t0] + ENCODE_POSTINGS, side="right")) - 1
            t1 = min(max(t1, t0 + 1), n_tok)
            lo, hi = int(indptr[t0]), int(indptr[t1])
            raw = self._bytes[self._byte_ptr[t0] : self._byte_ptr[t1]]
            codes = _read_varints(raw, hi - lo, np.int64)
            lengths = np.diff(indptr[t0 : t1 + 1])
            many = np.flatnonzero((codes & 1).astype(bool))
            gaps = codes >> 1
            summed = np.cumsum(gaps)
            heads = (indptr[t0:t1] - lo)[lengths > 0]
            docs = summed - np.repeat(summed[heads] - gaps[heads], lengths[lengths > 0])
            tf = self._tf[self._tf_ptr[t0] : self._tf_ptr[t1]]
            idf = np.repeat(np.asarray(self._idf[t0:t1], dtype=np.float64), lengths)
            indices[lo:hi] = docs
            data[lo:hi] = self._scores(docs, many, tf, idf)
            t0 = t1
        return sp.csr_matrix((data, indices, self.indptr), shape=self.shape, copy=False)


def _ranges(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The positions ``lo[i] .. hi[i] - 1`` of every range, one range after another."""
    width = hi - lo
    starts = np.cumsum(width) - width  # where each range begins in the result
    return np.arange(int(width.sum()), dtype=np.int64) + np.repeat(lo - starts, width)


def _read_varints(raw: np.ndarray, count: int, dtype: type[np.signedinteger]) -> np.ndarray:
    """The ``count`` values (as ``dtype``, wide enough for them) of the varint stream ``raw``
    (see :func:`_varints`).

    Each value is built at its last byte: a byte that continues into the next one (high bit
    set) moves its seven bits up there, one more step for each byte of a longer value, so the
    number of numpy calls grows with the widest value, not with the list."""
    if len(raw) == count:  # every value in one byte
        return raw.astype(dtype)
    n = len(raw)
    cont = raw >= 0x80  # the value goes on in the next byte
    low = (raw & 0x7F).astype(dtype)
    acc = low.copy()
    chain = cont[:-1]  # chain[i - j]: bytes i - j .. i - 1 all go on into byte i
    j = 1
    while chain.any():
        tail = acc[j:]
        np.copyto(tail, (tail << 7) | low[: n - j], where=chain)
        j += 1
        chain = chain[1:] & cont[: n - j]
    return acc[~cont]
