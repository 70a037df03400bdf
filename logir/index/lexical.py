"""BM25 over bm25s's eager index, plus an exact match-set layer (which documents contain a term).

bm25s stores, for every vocabulary token, the BM25 contribution of that token to every document
that contains it (a CSC matrix ``[n_docs, vocab]``, one entry per token and document). Scoring a
query is a sum of those columns. We read the same arrays as a CSR matrix ``[vocab, n_docs]`` and
add up a query's posting lists in a scratch array; the sums run in query-token order in float32,
so the scores equal ``BM25.get_scores`` bit for bit.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from logir.errors import LogirError
from logir.index.base import sorted_unique, sparse_row_topk

PARAMS_FILE = "logir_bm25.json"
_CHUNK = 256  # texts per prepared batch
_HELD = 8  # texts whose sums BM25Batch.hold keeps in whole-corpus arrays at once
_LOOKUP_MIN = 1024  # a one-token row at least this long is searched, not scattered, in score
_LOOKUP_COST = 4  # rows looked up per posting list, against list entries a built row touches
METHODS = ("lucene", "robertson", "atire", "bm25l", "bm25+")
_TOKEN = re.compile(r"(?u)\b\w\w+\b")  # bm25s.tokenize's default token_pattern


class BM25Scorer:
    """Exact BM25 (bm25s) with PyStemmer stemming and stop-word removal."""

    name = "bm25"
    score_range = "BM25 >= 0, unbounded"

    def __init__(self, retriever: Any, params: dict[str, Any]) -> None:
        self._bm25 = retriever
        self.params = dict(params)
        self._stemmer = _make_stemmer(self.params.get("stemmer"))
        self._stopwords = _stopword_set(self.params.get("stopwords"))
        s = retriever.scores
        n = int(s["num_docs"])
        vocab_size = len(s["indptr"]) - 1
        # term -> documents, with the precomputed per-document BM25 contribution
        self._postings = sp.csr_matrix(
            (s["data"], s["indices"], s["indptr"]), shape=(vocab_size, n), copy=False
        )
        self._n = n
        self._vocab: dict[str, int] = retriever.vocab_dict
        nonocc = getattr(retriever, "nonoccurrence_array", None)
        self._nonocc: np.ndarray | None = nonocc
        self._sorted_postings: bool | None = None  # see BM25Batch._sorted

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        texts: list[str],
        k1: float = 1.5,
        b: float = 0.75,
        method: str = "lucene",
        stemmer: str | None = "english",
        stopwords: str | None = "en",
        show_progress: bool = False,
    ) -> BM25Scorer:
        """Index `texts` (one per document, in row order)."""
        import bm25s

        if not texts:
            raise LogirError("cannot build a BM25 index over an empty corpus")
        params = {
            "k1": k1,
            "b": b,
            "method": method,
            "stemmer": stemmer,
            "stopwords": stopwords,
        }
        tokens = bm25s.tokenize(
            list(texts),
            stopwords=stopwords,
            stemmer=_make_stemmer(stemmer),
            return_ids=True,
            show_progress=show_progress,
        )
        if method not in METHODS:
            raise LogirError(f"unknown BM25 method {method!r}; choose from {', '.join(METHODS)}")
        retriever = bm25s.BM25(k1=k1, b=b, method=method)
        retriever.index(tokens, show_progress=show_progress)
        return cls(retriever, params)

    def save(self, path: str | Path) -> None:
        """Write bm25s's own index files and our parameters into directory `path`."""
        out = Path(path)
        out.mkdir(parents=True, exist_ok=True)
        self._bm25.save(out, show_progress=False)
        params = {**self.params, "n_docs": self._n}
        (out / PARAMS_FILE).write_text(json.dumps(params, indent=2), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, mmap: bool = False) -> BM25Scorer:
        """Load an index written by `save`."""
        import bm25s

        src = Path(path)
        pfile = src / PARAMS_FILE
        if not pfile.is_file():
            raise LogirError(f"not a logir BM25 index (no {PARAMS_FILE}): {src}")
        params = json.loads(pfile.read_text(encoding="utf-8"))
        retriever = bm25s.BM25.load(src, mmap=mmap, show_progress=False)
        params.pop("n_docs", None)
        return cls(retriever, params)

    # -- Scorer -------------------------------------------------------------------------------

    @property
    def n_docs(self) -> int:
        return self._n

    def tokenize(self, texts: list[str]) -> list[list[str]]:
        """The stemmed, stop-word-free tokens of each text, as the index sees them.

        The same tokens as ``bm25s.tokenize`` (lower-cased, its token pattern, stop words
        dropped, then stemmed) without its per-call set-up, which dominates short queries.
        """
        stop, stemmer = self._stopwords, self._stemmer
        out = []
        for text in texts:
            toks = [t for t in _TOKEN.findall(text.lower()) if t not in stop]
            out.append(stemmer.stemWords(toks) if stemmer is not None and toks else toks)
        return out

    def _token_ids(self, texts: list[str]) -> list[np.ndarray]:
        """Vocabulary ids per text, in token order (repeats kept, unknown tokens dropped)."""
        vsize = self._postings.shape[0]
        out = []
        for toks in self.tokenize(texts):
            ids = [i for t in toks if (i := self._vocab.get(t)) is not None and i < vsize]
            out.append(np.asarray(ids, dtype=np.int64))
        return out

    @property
    def postings(self) -> sp.csr_matrix:
        """Each vocabulary token's BM25 contribution to each document, ``[vocab, n_docs]``."""
        return self._postings

    @property
    def vocabulary(self) -> list[str]:
        """The indexed tokens by vocabulary id."""
        out = [""] * self._postings.shape[0]
        for tok, i in self._vocab.items():
            if i < len(out):
                out[i] = tok
        return out

    def term_vectors(self, texts: list[str]) -> sp.csr_matrix:
        """Bag-of-tokens vectors ``[len(texts), vocab]`` (token counts), so that
        ``term_vectors(q) @ postings`` is the BM25 score without the non-occurrence constant."""
        ids = self._token_ids(texts)
        indptr = np.zeros(len(ids) + 1, dtype=np.int64)
        np.cumsum([len(i) for i in ids], out=indptr[1:])
        flat = np.concatenate(ids) if ids else np.zeros(0, dtype=np.int64)
        out = sp.csr_matrix(
            (np.ones(len(flat), dtype=np.float32), flat, indptr),
            shape=(len(ids), self._postings.shape[0]),
        )
        out.sum_duplicates()
        return out

    def _row(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Documents holding a token of ``ids`` and their BM25 sums without the non-occurrence
        constant, in no particular order.

        Each sum runs in float32 in token order from 0, as the sparse product
        ``term_vectors @ postings`` and ``BM25.get_scores`` do, so the values are bit-identical to
        theirs. A one-token text is its posting list itself (read-only views, nothing computed).
        """
        p = self._postings
        if len(ids) == 1:
            lo, hi = p.indptr[ids[0]], p.indptr[ids[0] + 1]
            return p.indices[lo:hi], p.data[lo:hi]
        if not len(ids):
            return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32)
        acc, seen = _scratch(self._n)
        parts: list[np.ndarray] = []
        try:
            for t in ids:
                lo, hi = p.indptr[t], p.indptr[t + 1]
                docs = p.indices[lo:hi]
                parts.append(docs[~seen[docs]])
                seen[parts[-1]] = True
                acc[docs] += p.data[lo:hi]  # a token's documents are distinct: one add each
            docs = np.concatenate(parts)
            return docs, acc[docs]
        finally:
            for part in parts:
                acc[part] = 0.0
                seen[part] = False

    def _sum_into(self, ids: np.ndarray, acc: np.ndarray) -> np.ndarray:
        """Add the posting lists of ``ids`` to ``acc`` (all zero where they touch), in token
        order: the float32 sums ``_row`` builds. Returns every document touched, once per token
        that holds it (on an error, ``acc`` is zeroed again before it propagates)."""
        p = self._postings
        parts: list[np.ndarray] = []
        try:
            for t in ids:
                lo, hi = p.indptr[t], p.indptr[t + 1]
                parts.append(p.indices[lo:hi])
                acc[parts[-1]] += p.data[lo:hi]  # a token's documents are distinct: one add each
        except BaseException:
            for docs in parts:
                acc[docs] = 0.0
            raise
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)

    def _top_sums(
        self, every: np.ndarray, acc: np.ndarray, copies: int, k: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """``sparse_row_topk`` of the sums in ``acc`` at the documents ``every`` (each at most
        ``copies`` times in it), without first making each document appear once.

        When ``copies * k`` entries of ``every`` hold a sum of at least some ``s > 0``, at least
        ``k`` distinct documents do, so the top k lies among the documents at ``s`` or above:
        only those are made unique.
        """
        sums = acc[every]
        need = copies * k
        if len(every) > need:
            cut = len(every) - need
            kth = np.partition(sums, cut)[cut]
            if kth > 0:
                docs = sorted_unique(every[sums >= kth])
                return sparse_row_topk(docs, acc[docs], k, self._n)
        docs = sorted_unique(every)
        return sparse_row_topk(docs, acc[docs], k, self._n)

    def _lookup(self, ids: np.ndarray, doc_idx: np.ndarray, out: np.ndarray) -> None:
        """Add the sums of ``ids`` at rows ``doc_idx`` to ``out`` (all zero), one posting list at
        a time in token order, each searched (every list must be sorted by document).

        The same float32 additions, in the same order, as the sums ``_row`` builds: a row missing
        from a list adds 0, which changes nothing.
        """
        p = self._postings
        for t in ids:
            lo, hi = p.indptr[t], p.indptr[t + 1]
            if hi == lo:
                continue
            docs = p.indices[lo:hi]
            pos = np.searchsorted(docs, doc_idx)
            np.minimum(pos, hi - lo - 1, out=pos)
            out += np.where(docs[pos] == doc_idx, p.data[lo:hi][pos], np.float32(0.0))

    def _offsets(self, ids: list[np.ndarray]) -> np.ndarray:
        """Per-query non-occurrence constant (BM25L / BM25+ only; zero otherwise)."""
        out = np.zeros(len(ids), dtype=np.float32)
        if self._nonocc is not None:
            for i, q in enumerate(ids):
                if len(q):
                    out[i] = self._nonocc[q].sum()
        return out

    def score(self, texts: list[str], doc_idx: np.ndarray | None = None) -> np.ndarray:
        """Exact BM25 scores ``[len(texts), n]``, or only the columns `doc_idx`."""
        if doc_idx is not None:
            doc_idx = np.asarray(doc_idx, dtype=np.int64).ravel()
            if len(doc_idx) and (doc_idx.min() < 0 or doc_idx.max() >= self._n):
                raise LogirError(f"document rows out of range 0..{self._n - 1}")
        width = self._n if doc_idx is None else len(doc_idx)
        out = np.zeros((len(texts), width), dtype=np.float32)
        for start in range(0, len(texts), _CHUNK):
            batch = self.prepare(texts[start : start + _CHUNK])
            block = out[start : start + _CHUNK]
            if doc_idx is not None:
                block[:] = batch.score(slice(0, len(block)), doc_idx)
                continue
            for i in range(len(block)):
                docs, sums = batch.row(i)
                block[i, docs] = sums
            block += batch.offsets[:, None]
        return out

    def search(self, texts: list[str], k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k documents per text, best first, ties by lower row; equals ``topk(score(texts))``.

        Only documents that contain a query token have a non-zero sum, so the top k lies among
        them and the k lowest rows without one (score 0): no dense row is ever built.
        """
        m = len(texts)
        idx = np.full((m, k), -1, dtype=np.int64)
        val = np.full((m, k), -np.inf, dtype=np.float32)
        for start in range(0, m, _CHUNK):
            i, v = self.prepare(texts[start : start + _CHUNK]).search(k)
            idx[start : start + len(i)], val[start : start + len(v)] = i, v
        return idx, val

    def prepare(self, texts: list[str]) -> BM25Batch:
        """`texts` tokenised once, for ``search`` and ``score`` from one sparse product."""
        return BM25Batch(self, texts)

    def match_set(self, term: str) -> np.ndarray:
        """Rows (sorted) of documents containing every stemmed, non-stop token of `term`.

        A term with no such token (only stop words) constrains nothing: every row matches.
        A token missing from the vocabulary matches no document.
        """
        toks = self.tokenize([term])[0]
        if not toks:
            return np.arange(self._n, dtype=np.int64)
        vsize = self._postings.shape[0]
        rows: np.ndarray | None = None
        p = self._postings
        for t in dict.fromkeys(toks):
            tid = self._vocab.get(t)
            if tid is None or tid >= vsize:
                return np.zeros(0, dtype=np.int64)
            docs = np.sort(p.indices[p.indptr[tid] : p.indptr[tid + 1]]).astype(np.int64)
            rows = docs if rows is None else np.intersect1d(rows, docs, assume_unique=True)
            if not len(rows):
                break
        assert rows is not None
        return rows

    def __repr__(self) -> str:
        return f"BM25Scorer(n_docs={self._n}, vocab={self._postings.shape[0]}, {self.params})"


class BM25Batch:
    """Texts tokenised once, each text's sparse BM25 row computed at most once, when first read.

    ``search(k)`` equals ``BM25Scorer.search(texts, k)`` and ``score(rows, doc_idx)`` equals
    ``BM25Scorer.score(texts[rows], doc_idx)`` bit for bit: both read the same float32 sums.
    Holds one sparse row per text, so callers batch a bounded number of texts (as ``search``).

    ``search`` finds the top k of a text of several tokens from its sums in a whole-corpus array
    without building its row; ``score`` looks a few rows up in the posting lists of a text whose
    row was never built, and reads the sums of the texts ``hold`` keeps.
    """

    independent_columns = True  # a score depends on its text and document alone

    def __init__(self, scorer: BM25Scorer, texts: list[str]) -> None:
        self._scorer = scorer
        self._ids = scorer._token_ids(list(texts))
        self.offsets = scorer._offsets(self._ids)
        self._rows: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._dense: dict[int, tuple[np.ndarray, np.ndarray]] | None = None  # see hold

    @contextmanager
    def hold(self) -> Iterator[BM25Batch]:
        """Keep the summed scores of texts of several tokens (at most ``_HELD`` of them, first
        come) in whole-corpus arrays while the block runs, so ``score`` reads them directly
        instead of building and scattering each text's row. Nothing else changes: the same
        numbers."""
        if self._dense is not None:
            yield self
            return
        self._dense = {}
        try:
            yield self
        finally:
            held, self._dense = self._dense, None
            free = _free_dense(self._scorer.n_docs)
            for dense, every in held.values():
                dense[every] = 0.0
                if len(free) < _HELD:
                    free.append(dense)

    def _sorted(self) -> bool:
        """Whether every posting list is sorted by document (checked once per scorer)."""
        scorer = self._scorer
        if scorer._sorted_postings is None:
            scorer._sorted_postings = bool(scorer.postings.has_sorted_indices)
        return scorer._sorted_postings

    def row(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Documents holding a token of text `i` and their sums without the offset (read-only)."""
        got = self._rows.get(i)
        if got is None:
            got = self._rows[i] = self._scorer._row(self._ids[i])
        return got

    def _top(self, i: int, k: int) -> tuple[np.ndarray, np.ndarray]:
        """``sparse_row_topk(*self.row(i), k, n)`` of a text of several tokens, from its sums in
        a whole-corpus array: held (see ``hold``) or this thread's scratch, zeroed again."""
        scorer, ids, held = self._scorer, self._ids[i], self._dense
        if held is None:
            acc, _ = _scratch(scorer.n_docs)
            every = scorer._sum_into(ids, acc)
            try:
                return scorer._top_sums(every, acc, len(ids), k)
            finally:
                acc[every] = 0.0
        if i not in held:
            if len(held) >= _HELD:  # no room: build the row, which score reads later
                return sparse_row_topk(*self.row(i), k, scorer.n_docs)
            free = _free_dense(scorer.n_docs)
            dense = free.pop() if free else np.zeros(scorer.n_docs, dtype=np.float32)
            held[i] = (dense, scorer._sum_into(ids, dense))
        dense, every = held[i]
        return scorer._top_sums(every, dense, len(ids), k)

    def _lookup_pays(self, ids: np.ndarray, doc_idx: np.ndarray) -> bool:
        """Whether looking ``doc_idx`` up in each posting list of ``ids`` costs less than
        building the text's row (which touches every entry of every list several times)."""
        indptr = self._scorer.postings.indptr
        total = sum(int(indptr[t + 1] - indptr[t]) for t in ids)
        return len(doc_idx) * len(ids) * _LOOKUP_COST <= total

    def search(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-k per text, as ``BM25Scorer.search``."""
        m, n = len(self._ids), self._scorer.n_docs
        idx = np.full((m, k), -1, dtype=np.int64)
        val = np.full((m, k), -np.inf, dtype=np.float32)
        k_eff = min(k, n)
        if k_eff <= 0:
            return idx, val
        for r in range(m):
            if len(self._ids[r]) > 1 and r not in self._rows:
                top_d, top_s = self._top(r, k_eff)
            else:
                top_d, top_s = sparse_row_topk(*self.row(r), k_eff, n)
            idx[r, :k_eff] = top_d
            val[r, :k_eff] = top_s + self.offsets[r]
        return idx, val

    def score(self, rows: slice, doc_idx: np.ndarray) -> np.ndarray:
        """Scores ``[len(texts[rows]), len(doc_idx)]``, read from the sparse rows."""
        n = self._scorer.n_docs
        doc_idx = np.asarray(doc_idx, dtype=np.int64).ravel()
        if len(doc_idx) and (doc_idx.min() < 0 or doc_idx.max() >= n):
            raise LogirError(f"document rows out of range 0..{n - 1}")
        r0, r1, step = rows.indices(len(self._ids))
        if step != 1:
            raise ValueError("rows must be a contiguous slice")
        out = np.zeros((max(r1 - r0, 0), len(doc_idx)), dtype=np.float32)
        if len(doc_idx):
            acc, _ = _scratch(n)  # each row scattered into it, read at doc_idx, then cleared
            held = self._dense or {}
            for i in range(len(out)):
                r = r0 + i
                if r in held:
                    out[i] = held[r][0][doc_idx]
                    continue
                ids = self._ids[r]
                if r not in self._rows and self._sorted() and self._lookup_pays(ids, doc_idx):
                    self._scorer._lookup(ids, doc_idx, out[i])  # no row to build
                    continue
                docs, sums = self.row(r)
                if len(docs) >= _LOOKUP_MIN and len(ids) == 1 and self._sorted():
                    # a long posting list, sorted by document: look the rows up instead
                    self._scorer._lookup(ids, doc_idx, out[i])
                    continue
                try:
                    acc[docs] = sums
                    out[i] = acc[doc_idx]
                finally:
                    acc[docs] = 0.0
        out += self.offsets[r0 : r0 + len(out), None]
        return out


_SCRATCH = threading.local()


def _scratch(n: int) -> tuple[np.ndarray, np.ndarray]:
    """This thread's all-zero float32 and all-False bool arrays of length `n` (callers restore
    them to all zero / all False before they return)."""
    acc: np.ndarray | None = getattr(_SCRATCH, "acc", None)
    if acc is None or len(acc) < n:
        _SCRATCH.acc = acc = np.zeros(n, dtype=np.float32)
        _SCRATCH.seen = np.zeros(n, dtype=bool)
    return acc[:n], _SCRATCH.seen[:n]


def _free_dense(n: int) -> list[np.ndarray]:
    """This thread's spare all-zero float32 arrays of length `n`, for ``BM25Batch.hold``."""
    pools: dict[int, list[np.ndarray]] | None = getattr(_SCRATCH, "dense", None)
    if pools is None:
        _SCRATCH.dense = pools = {}
    return pools.setdefault(n, [])


def _stopword_set(stopwords: str | list[str] | None) -> frozenset[str]:
    """The stop words bm25s removes for `stopwords` (a language name, a list, or None)."""
    from bm25s.tokenization import _infer_stopwords

    return frozenset(_infer_stopwords(stopwords))


def _make_stemmer(language: str | None) -> Any:
    """A PyStemmer stemmer for `language`, or None for no stemming."""
    if not language:
        return None
    import Stemmer

    try:
        return Stemmer.Stemmer(language)
    except KeyError:
        raise LogirError(
            f"unknown stemmer language {language!r}; available: {', '.join(Stemmer.algorithms())}"
        ) from None
