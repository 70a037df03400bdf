"""BM25 over bm25s's eager index, plus an exact match-set layer (which documents contain a term).

bm25s stores, for every vocabulary token, the BM25 contribution of that token to every document
that contains it (a CSC matrix ``[n_docs, vocab]``, one entry per token and document). Scoring a
query is a sum of those columns. We read the same arrays as a CSR matrix ``[vocab, n_docs]`` and
add up a query's posting lists with the kernels of :mod:`logir.index.bm25kernels`; the sums run in
query-token order in float32, so the scores equal ``BM25.get_scores`` bit for bit.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from logir.errors import LogirError
from logir.index import bm25kernels
from logir.index.base import NO_PARTS
from logir.index.bm25batch import BM25Batch
from logir.index.bm25compact import CompactPostings, is_compact
from logir.index.bm25s_internals import stopword_set
from logir.index.impacts import Impacts
from logir.index.integrity import DamagedFile, first_unreadable, problem, read_json_object
from logir.index.spelling import Speller, names
from logir.index.tokens import joined
from logir.lru import LRU

PARAMS_FILE = "logir_bm25.json"
#: the files bm25s's own save writes (the last one only for BM25L and BM25+)
BM25S_FILES = (
    "params.index.json",
    "vocab.index.json",
    "data.csc.index.npy",
    "indices.csc.index.npy",
    "indptr.csc.index.npy",
)
NONOCC_FILE = "nonoccurrence_array.index.npy"
_CHUNK = 256  # texts per prepared batch
_KEPT_IDS = 4096  # query texts whose token ids a scorer keeps
_KEPT_CHARS = 2000  # longest query text whose token ids are kept
_PREFETCH_TEXTS = 16  # a compact index decodes the short lists of a batch this large at once
METHODS = ("lucene", "robertson", "atire", "bm25l", "bm25+")
#: how text becomes tokens: ``words`` keeps every run of word characters (one-letter and digit
#: tokens included: "vitamin D", "hepatitis C", "type 1"), drops a possessive "'s" and joins
#: the parts of "don't"; ``two_plus`` (bm25s's default, indexes built before ``words``) keeps
#: runs of two or more word characters only
TOKENIZERS = ("words", "two_plus")
TOKENIZER = "words"
_WORDS = re.compile(r"\w+(?:['\u2019]\w+)*")  # one apostrophe between word characters joins
_TWO_PLUS = re.compile(r"(?u)\b\w\w+\b")  # bm25s.tokenize's default token_pattern


class BM25Scorer:
    """Exact BM25 (bm25s) with PyStemmer stemming and stop-word removal."""

    name = "bm25"
    parts = NO_PARTS
    score_range = "BM25 >= 0, unbounded"

    def __init__(self, retriever: Any, params: dict[str, Any]) -> None:
        self._bm25 = retriever
        self.params = dict(params)
        self._stemmer = _make_stemmer(self.params.get("stemmer"))
        self._stopwords = stopword_set(self.params.get("stopwords"))
        self._words = _words_of(self.params.get("tokenizer", "two_plus"))
        self._spelling = bool(self.params.get("spelling", True))
        self._speller: Speller | None = None
        self._csr: sp.csr_matrix | None = None
        self._kept_ids: LRU[str, np.ndarray] = LRU(_KEPT_IDS)  # see token_ids
        self._kept_batches: LRU[tuple[str, ...], tuple[list[np.ndarray], np.ndarray]] = LRU(
            _KEPT_IDS
        )  # see prepare
        self._impacts: Impacts | None = Impacts()  # score-ordered list heads, see prepare
        if isinstance(retriever, CompactPostings):  # logir's compact format: scores when read
            self._lists: bm25kernels.Postings = retriever
            self._n = retriever.shape[1]
            self._vocab: dict[str, int] = retriever.vocab
            self._nonocc: np.ndarray | None = None
            self._sorted_postings: bool | None = True
            return
        s = retriever.scores
        n = int(s["num_docs"])
        vocab_size = len(s["indptr"]) - 1
        # term -> documents, with the precomputed per-document BM25 contribution
        self._csr = sp.csr_matrix(
            (s["data"], s["indices"], s["indptr"]), shape=(vocab_size, n), copy=False
        )
        self._lists = self._csr
        self._n = n
        self._vocab = retriever.vocab_dict
        self._nonocc = getattr(retriever, "nonoccurrence_array", None)
        self._sorted_postings = None  # see postings_sorted

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
        tokenizer: str = TOKENIZER,
    ) -> BM25Scorer:
        """Index `texts` (one per document, in row order); `tokenizer` is one of ``TOKENIZERS``."""
        import bm25s

        if not texts:
            raise LogirError("cannot build a BM25 index over an empty corpus")
        params = {
            "k1": k1,
            "b": b,
            "method": method,
            "stemmer": stemmer,
            "stopwords": stopwords,
            "tokenizer": tokenizer,
        }
        if method not in METHODS:
            raise LogirError(f"unknown BM25 method {method!r}; choose from {', '.join(METHODS)}")
        tokens = _sorted_vocabulary(
            tokenize(
                list(texts), stopword_set(stopwords), _make_stemmer(stemmer), _words_of(tokenizer)
            )
        )
        retriever = bm25s.BM25(k1=k1, b=b, method=method)
        retriever.index(tokens, show_progress=show_progress)
        return cls(retriever, params)

    def save(self, path: str | Path) -> None:
        """Write bm25s's own index files (a compact index: the files it was read from) and our
        parameters into directory `path`."""
        out = Path(path)
        out.mkdir(parents=True, exist_ok=True)
        if isinstance(self._bm25, CompactPostings):  # its files, as its build wrote them
            src = self._bm25.folder
            if not is_compact(src):
                raise LogirError(f"cannot save a compact BM25 index: its folder {src} is gone")
            if src.resolve() != out.resolve():
                for f in sorted(src.iterdir()):
                    if f.is_file() and f.name != PARAMS_FILE:
                        shutil.copyfile(f, out / f.name)
        else:
            self._bm25.save(out, show_progress=False)
        params = {**self.params, "n_docs": self._n}
        (out / PARAMS_FILE).write_text(json.dumps(params, indent=2), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, mmap: bool = False) -> BM25Scorer:
        """Load an index written by `save`; a file that cannot be read raises a `DamagedFile`
        naming it."""
        import bm25s

        src = Path(path)
        pfile = src / PARAMS_FILE
        if not pfile.is_file():
            raise DamagedFile(pfile, "is missing (not a logir BM25 index)")
        params = read_json_object(pfile)
        params.pop("n_docs", None)
        if is_compact(src) or params.get("postings") == "compact":  # its header read first
            return cls(CompactPostings(src, mmap=mmap), params)
        try:
            retriever = bm25s.BM25.load(src, mmap=mmap, show_progress=False)
            return cls(retriever, params)
        except LogirError:
            raise
        except Exception as exc:
            # bm25s reads several files: name the first that does not parse, else the folder
            culprit = first_unreadable([src / name for name in BM25S_FILES])
            nonocc = src / NONOCC_FILE
            if culprit is None and nonocc.exists():
                culprit = first_unreadable([nonocc])
            raise culprit or DamagedFile(src, problem(exc)) from None

    # -- Scorer -------------------------------------------------------------------------------

    @property
    def n_docs(self) -> int:
        return self._n

    @property
    def spelling(self) -> bool:
        """Whether query words the index lacks are read as an English word one edit away
        (:mod:`logir.index.spelling`); on unless the ``spelling`` parameter says false."""
        return self._spelling

    @spelling.setter
    def spelling(self, on: bool) -> None:
        if bool(on) != self._spelling:
            self._spelling = bool(on)
            self._kept_ids.clear()  # token ids made the other way
            self._kept_batches.clear()

    def tokenize(self, texts: list[str]) -> list[list[str]]:
        """The stemmed, stop-word-free tokens of each text, as the index sees them (the
        tokenizer the index was built with), misspelt words corrected (``spelling``)."""
        out = tokenize(texts, self._stopwords, self._stemmer, self._words)
        if not self.spelling:
            return out
        for i, toks in enumerate(out):
            if any(t not in self._vocab for t in toks):
                out[i] = [tok for _, tok in self.analyse(texts[i]) if tok]
        return out

    def analyse(self, text: str) -> list[tuple[str, str]]:
        """The words of ``text`` in order, lower-cased, stop words kept, each with the token the
        index keeps for it ('' for a stop word): ``tokenize`` with the words it drops. A
        misspelt word's token is its correction's (``corrections``)."""
        ws = self._words(text.lower())
        kept = [w for w in ws if w not in self._stopwords]
        stems = self._stem(kept)
        if self.spelling:
            fixes = self._fixes(kept, stems, text)
            stems = [
                self._stem([fixes[w]])[0] if w in fixes else s
                for w, s in zip(kept, stems, strict=True)
            ]
        it = iter(stems)
        return [(w, "" if w in self._stopwords else next(it)) for w in ws]

    def corrections(self, text: str) -> dict[str, str]:
        """The words of ``text`` this index reads as another (misspelt word -> correction);
        empty when ``spelling`` is off."""
        if not self.spelling:
            return {}
        kept = [w for w in self._words(text.lower()) if w not in self._stopwords]
        return self._fixes(kept, self._stem(kept), text)

    def corrected(self, text: str) -> str:
        """``text`` with each word this index reads as another (``corrections``) written as
        that word, in lower case; everything else as typed."""
        fixes = self.corrections(text)
        if not fixes:
            return text
        out, at = [], 0
        for m in _WORDS.finditer(text):
            fix = fixes.get(joined(m.group().lower()))
            if fix is not None:
                tail = m.group()[-2:] if m.group()[-2:].lower() in ("'s", "\u2019s") else ""
                out.append(text[at : m.start()] + fix + tail)  # a possessive stays one
                at = m.end()
        return "".join(out) + text[at:]

    def _stem(self, words: list[str]) -> list[str]:
        return self._stemmer.stemWords(words) if self._stemmer is not None and words else words

    def _fixes(self, words: list[str], stems: list[str], text: str) -> dict[str, str]:
        missing = [w for w, s in zip(words, stems, strict=True) if s not in self._vocab]
        if missing:
            named = names(text)
            missing = [w for w in missing if w not in named]
        if not missing:
            return {}
        if self._speller is None:
            self._speller = Speller(self._vocab, self._stem)
        found = {w: self._speller.correct(w) for w in missing}
        return {w: c for w, c in found.items() if c is not None}

    def token_ids(self, texts: list[str]) -> list[np.ndarray]:
        """Vocabulary ids per text, in token order (repeats kept, unknown tokens dropped;
        read-only). The ids of the last few thousand short texts are kept: a text asked again
        is not tokenised again."""
        out: list[np.ndarray | None] = [self._kept_ids.get(t) for t in texts]
        todo = [i for i, got in enumerate(out) if got is None]
        if todo:
            fresh = bm25kernels.token_ids(
                self.tokenize([texts[i] for i in todo]), self._vocab, self._lists.shape[0]
            )
            for i, ids in zip(todo, fresh, strict=True):
                ids.setflags(write=False)
                out[i] = ids
                if len(texts[i]) <= _KEPT_CHARS:
                    self._kept_ids.put(texts[i], ids)
        return out  # type: ignore[return-value]  (every entry filled above)

    @property
    def postings(self) -> sp.csr_matrix:
        """Each vocabulary token's BM25 contribution to each document, ``[vocab, n_docs]`` (a
        compact index decodes every list into it once, when first asked)."""
        if self._csr is None:
            assert isinstance(self._lists, CompactPostings)
            self._csr = self._lists.to_csr()
        return self._csr

    @property
    def vocabulary(self) -> list[str]:
        """The indexed tokens by vocabulary id."""
        out = [""] * self._lists.shape[0]
        for tok, i in self._vocab.items():
            if i < len(out):
                out[i] = tok
        return out

    def term_vectors(self, texts: list[str]) -> sp.csr_matrix:
        """Bag-of-tokens vectors ``[len(texts), vocab]`` (token counts), so that
        ``term_vectors(q) @ postings`` is the BM25 score without the non-occurrence constant."""
        ids = self.token_ids(texts)
        indptr = np.zeros(len(ids) + 1, dtype=np.int64)
        np.cumsum([len(i) for i in ids], out=indptr[1:])
        flat = np.concatenate(ids) if ids else np.zeros(0, dtype=np.int64)
        out = sp.csr_matrix(
            (np.ones(len(flat), dtype=np.float32), flat, indptr),
            shape=(len(ids), self._lists.shape[0]),
        )
        out.sum_duplicates()
        return out

    def postings_sorted(self) -> bool:
        """Whether every posting list is sorted by document (checked once, when first asked)."""
        if self._sorted_postings is None:
            self._sorted_postings = bool(self._lists.has_sorted_indices)
        return self._sorted_postings

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
        """`texts` tokenised once, for ``search`` and ``score`` from one sparse product. The
        token ids and constants of the last few thousand short lists of texts are kept."""
        key = tuple(texts)
        kept = self._kept_batches.get(key)
        if kept is None:
            ids = self.token_ids(list(texts))
            if len(ids) >= _PREFETCH_TEXTS and isinstance(self._lists, CompactPostings):
                self._lists.prefetch(ids)  # a large batch's short lists decoded in one pass
            offsets = bm25kernels.nonoccurrence_offsets(self._nonocc, ids)
            offsets.setflags(write=False)
            kept = (ids, offsets)
            if sum(len(t) for t in texts) <= _KEPT_CHARS:
                self._kept_batches.put(key, kept)
        return BM25Batch(self._lists, kept[0], kept[1], self.postings_sorted, self._impacts)

    def match_set(self, term: str) -> np.ndarray:
        """Rows (sorted) of documents containing every stemmed, non-stop token of `term`.

        A term with no such token (only stop words) constrains nothing: every row matches.
        A token missing from the vocabulary matches no document.
        """
        toks = self.tokenize([term])[0]
        if not toks:
            return np.arange(self._n, dtype=np.int64)
        vsize = self._lists.shape[0]
        rows: np.ndarray | None = None
        p = self._lists
        for t in dict.fromkeys(toks):
            tid = self._vocab.get(t)
            if tid is None or tid >= vsize:
                return np.zeros(0, dtype=np.int64)
            if isinstance(p, CompactPostings):
                docs = p.documents(tid)  # ascending already
            else:
                docs = np.sort(p.indices[p.indptr[tid] : p.indptr[tid + 1]]).astype(np.int64)
            rows = docs if rows is None else np.intersect1d(rows, docs, assume_unique=True)
            if not len(rows):
                break
        assert rows is not None
        return rows

    def __repr__(self) -> str:
        return f"BM25Scorer(n_docs={self._n}, vocab={self._lists.shape[0]}, {self.params})"


def tokenize(
    texts: list[str],
    stopwords: frozenset[str],
    stemmer: Any,
    words: Callable[[str], list[str]],
) -> list[list[str]]:
    """Lower-case each text, cut it into ``words``, drop ``stopwords``, then stem."""
    out = []
    for text in texts:
        toks = [t for t in words(text.lower()) if t not in stopwords]
        out.append(stemmer.stemWords(toks) if stemmer is not None and toks else toks)
    return out


def analyzer(
    stemmer: str | None, stopwords: str | None, tokenizer: str
) -> Callable[[list[str]], list[list[str]]]:
    """The function ``BM25Scorer.build`` turns texts into tokens with, for these parameters; it
    stems each distinct word once (a stem depends on its word alone), for long runs of texts."""
    stop, stem, split = stopword_set(stopwords), _make_stemmer(stemmer), _words_of(tokenizer)
    if stem is None:
        return lambda texts: tokenize(texts, stop, None, split)
    stems: dict[str, str] = {}

    def run(texts: list[str]) -> list[list[str]]:
        kept = [[t for t in split(text.lower()) if t not in stop] for text in texts]
        new = list({t for toks in kept for t in toks if t not in stems})
        if new:
            stems.update(zip(new, stem.stemWords(new), strict=True))
        return [[stems[t] for t in toks] for toks in kept]

    return run


def words(text: str) -> list[str]:
    """The ``words`` tokens of ``text``: runs of word characters, any length, where an
    apostrophe between two of them joins ("don't" -> "dont") and a final "'s" is dropped
    ("Nolan's" -> "nolan"), as Lucene's English analyzer does."""
    out = _WORDS.findall(text)
    if "'" not in text and "\u2019" not in text:
        return out
    return [joined(tok) if "'" in tok or "\u2019" in tok else tok for tok in out]


def _two_plus(text: str) -> list[str]:
    return _TWO_PLUS.findall(text)


def _words_of(tokenizer: str) -> Callable[[str], list[str]]:
    """The word splitter of a tokenizer name (an index's ``tokenizer`` parameter)."""
    if tokenizer == "words":
        return words
    if tokenizer == "two_plus":
        return _two_plus
    raise LogirError(f"unknown BM25 tokenizer {tokenizer!r}; choose from {', '.join(TOKENIZERS)}")


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


def _sorted_vocabulary(docs: list[list[str]]) -> Any:
    """The documents' tokens as bm25s's ``Tokenized`` (ids per document and the vocabulary), the
    vocabulary numbered in sorted order so that an index (and any float sum over its token ids)
    is the same in every process (bm25s's own tokenizer numbers tokens in a set's iteration
    order, which changes with the hash seed)."""
    from bm25s.tokenization import Tokenized

    vocab = {tok: i for i, tok in enumerate(sorted({t for doc in docs for t in doc}))}
    return Tokenized(ids=[[vocab[t] for t in doc] for doc in docs], vocab=vocab)
