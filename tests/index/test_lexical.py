"""BM25Scorer: exact bm25s scores, consistent top-k, stemming, persistence, match sets."""

from __future__ import annotations

import json

import bm25s
import numpy as np
import pytest
import Stemmer

from logir.errors import LogirError
from logir.index import bm25batch
from logir.index.base import Scorer, topk
from logir.index.lexical import BM25Scorer
from logir.index.scratch import free_dense, scratch

CORPUS = [
    "The dog ran home after the long walk.",
    "Running dogs are happy dogs.",
    "A cat sat on the mat.",
    "",
    "Cats and dogs: a history of pets in Paris.",
    "Paris is the capital of France.",
    "The walk was long; the dog was tired.",
]
QUERIES = [
    "running dogs",
    "dog dog cat",
    "capital of France",
    "the of a",
    "zebra",
    "long walk dog walk",
    "",
]


@pytest.fixture(scope="module")
def scorer() -> BM25Scorer:
    return BM25Scorer.build(CORPUS)


def test_is_a_scorer(scorer: BM25Scorer) -> None:
    assert isinstance(scorer, Scorer)
    assert scorer.name == "bm25"
    assert scorer.n_docs == len(CORPUS)


@pytest.mark.parametrize(
    ("k1", "b", "method"),
    [(1.5, 0.75, "lucene"), (0.9, 0.4, "robertson"), (1.2, 0.75, "atire"), (1.5, 0.75, "bm25+")],
)
def test_scores_equal_bm25s(k1: float, b: float, method: str) -> None:
    ours = BM25Scorer.build(CORPUS, k1=k1, b=b, method=method)
    stem = Stemmer.Stemmer("english")
    ref = bm25s.BM25(k1=k1, b=b, method=method)
    ref.index(bm25s.tokenize(CORPUS, stopwords="en", stemmer=stem, show_progress=False))
    got = ours.score(QUERIES)
    assert got.dtype == np.float32
    assert got.shape == (len(QUERIES), len(CORPUS))
    for i, q in enumerate(QUERIES):
        toks = bm25s.tokenize([q], stopwords="en", stemmer=stem, return_ids=False)[0]
        toks = [t for t in toks if t in ref.vocab_dict]
        expected = ref.get_scores(toks) if toks else np.zeros(len(CORPUS), np.float32)
        np.testing.assert_array_equal(got[i], expected)


def test_score_subset_equals_columns(scorer: BM25Scorer) -> None:
    full = scorer.score(QUERIES)
    rows = np.array([6, 0, 5, 5, 3])
    np.testing.assert_array_equal(scorer.score(QUERIES, doc_idx=rows), full[:, rows])
    assert scorer.score(QUERIES, doc_idx=np.array([], dtype=np.int64)).shape == (len(QUERIES), 0)
    with pytest.raises(LogirError, match="out of range"):
        scorer.score(["dog"], doc_idx=np.array([len(CORPUS)]))


def _sorted_topk(scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Reference: a full sort by score desc, then row asc."""
    order = np.array([np.lexsort((np.arange(len(r)), -r))[:k] for r in scores])
    return order, np.take_along_axis(scores, order, axis=1)


@pytest.mark.parametrize("k", [1, 3, 7])
def test_search_equals_topk_of_score(scorer: BM25Scorer, k: int) -> None:
    full = scorer.score(QUERIES)
    idx, val = scorer.search(QUERIES, k)
    ref_idx, ref_val = _sorted_topk(full, k)
    np.testing.assert_array_equal(idx, ref_idx)
    np.testing.assert_array_equal(val, ref_val)
    np.testing.assert_array_equal(val, topk(full, k)[1])


def test_search_pads_and_fills_zero_rows(scorer: BM25Scorer) -> None:
    idx, val = scorer.search(["zebra", "capital of France"], 10)
    assert idx.shape == val.shape == (2, 10)
    # no matching token: every document with score 0, lowest rows first, then padding
    assert idx[0].tolist() == [0, 1, 2, 3, 4, 5, 6, -1, -1, -1]
    assert np.all(val[0, :7] == 0) and np.all(np.isneginf(val[0, 7:]))
    assert idx[1, 0] == 5 and val[1, 0] > 0
    assert np.all(idx[1, 7:] == -1)
    assert scorer.search([], 3)[0].shape == (0, 3)


def test_stemming_and_stop_words(scorer: BM25Scorer) -> None:
    assert scorer.tokenize(["Running dogs", "the of a"]) == [["run", "dog"], []]
    # PyStemmer's English (Porter2) stemmer maps "running" to "run" but leaves "ran" alone,
    # so "running dogs" meets "The dog ran home" only through "dog".
    assert scorer.tokenize(["dog ran"]) == [["dog", "ran"]]
    s = scorer.score(["running dogs", "dogs", "running"])
    assert s[0, 0] == s[1, 0] > 0
    assert s[2, 0] == 0 and s[2, 1] > 0
    assert s[0, 1] > s[0, 0]
    assert not scorer.score(["the of a"]).any()


def test_match_set(scorer: BM25Scorer) -> None:
    assert scorer.match_set("dogs").tolist() == [0, 1, 4, 6]
    assert scorer.match_set("dog cats").tolist() == [4]
    assert scorer.match_set("running dogs").tolist() == [1]
    assert scorer.match_set("Paris").tolist() == [4, 5]
    assert scorer.match_set("zebra dog").tolist() == []
    # only stop words: no constraint
    assert scorer.match_set("the").tolist() == list(range(len(CORPUS)))


def test_save_load_round_trip(scorer: BM25Scorer, tmp_path) -> None:
    scorer.save(tmp_path / "bm25")
    loaded = BM25Scorer.load(tmp_path / "bm25")
    assert loaded.params == scorer.params
    assert loaded.n_docs == scorer.n_docs
    np.testing.assert_array_equal(loaded.score(QUERIES), scorer.score(QUERIES))
    assert loaded.match_set("dogs").tolist() == scorer.match_set("dogs").tolist()
    with pytest.raises(LogirError, match="not a logir BM25 index"):
        BM25Scorer.load(tmp_path / "nowhere")


def test_bad_parameters() -> None:
    with pytest.raises(LogirError, match="empty corpus"):
        BM25Scorer.build([])
    with pytest.raises(LogirError, match="unknown BM25 method"):
        BM25Scorer.build(CORPUS, method="bm99")
    with pytest.raises(LogirError, match="unknown stemmer"):
        BM25Scorer.build(CORPUS, stemmer="klingon")


def test_without_stemming_or_stop_words() -> None:
    s = BM25Scorer.build(CORPUS, stemmer=None, stopwords=None)
    assert s.tokenize(["The dogs"]) == [["the", "dogs"]]
    assert s.match_set("dog").tolist() == [0, 6]


def test_two_plus_tokenizer_equals_bm25s() -> None:
    # indexes built before the ``words`` tokenizer keep bm25s's own tokens
    texts = [
        '"Brother of Moses" AND NOT "Egypt\'s priests"',
        "Ça va? Über STRASSE running runs 123 a1 x y",
        "",
        "the of a",
    ]
    for stemmer, stopwords in (("english", "en"), (None, None), ("english", None)):
        s = BM25Scorer.build(CORPUS, stemmer=stemmer, stopwords=stopwords, tokenizer="two_plus")
        stem = Stemmer.Stemmer(stemmer) if stemmer else None
        ref = bm25s.tokenize(
            texts, stopwords=stopwords, stemmer=stem, return_ids=False, show_progress=False
        )
        assert s.tokenize(texts) == ref


def test_words_tokenizer_keeps_single_letters_and_digits() -> None:
    s = BM25Scorer.build(CORPUS)
    assert s.params["tokenizer"] == "words"
    assert s.tokenize(["Vitamin D", "hepatitis C", "Type 1 diabetes", "a B12 of the"]) == [
        ["vitamin", "d"],
        ["hepat", "c"],
        ["type", "1", "diabet"],
        ["b12"],  # stop words ("a", "of", "the") are still dropped
    ]
    # possessive "'s" dropped, an inner apostrophe joins, hyphens split
    assert s.tokenize(["Nolan's films don\u2019t O'Brien sci-fi"]) == [
        ["nolan", "film", "dont", "obrien", "sci", "fi"]
    ]


def test_single_letters_tell_documents_apart() -> None:
    docs = [
        "Hepatitis B is a liver infection.",
        "Hepatitis C is a liver infection treated by pills.",
    ]
    s = BM25Scorer.build(docs)
    assert s.search(["hepatitis C"], 1)[0][0, 0] == 1
    assert s.match_set("hepatitis C").tolist() == [1]
    # an index built with the older tokenizer keeps its own tokens (no "c" in its vocabulary)
    old = BM25Scorer.build(docs, tokenizer="two_plus")
    assert old.match_set("hepatitis C").tolist() == [0, 1]


def test_tokenizer_survives_save_and_load(tmp_path) -> None:
    for name in ("words", "two_plus"):
        BM25Scorer.build(CORPUS, tokenizer=name).save(tmp_path / name)
        loaded = BM25Scorer.load(tmp_path / name)
        assert loaded.params["tokenizer"] == name
    # an index saved before the parameter existed reads as the older tokenizer
    pfile = tmp_path / "two_plus" / "logir_bm25.json"
    params = json.loads(pfile.read_text())
    del params["tokenizer"]
    pfile.write_text(json.dumps(params))
    assert BM25Scorer.load(tmp_path / "two_plus").tokenize(["vitamin D"]) == [["vitamin"]]
    with pytest.raises(LogirError, match="unknown BM25 tokenizer"):
        BM25Scorer.build(CORPUS, tokenizer="chars")


@pytest.mark.parametrize("method", ["lucene", "bm25+"])
def test_prepared_batch_equals_search_and_score(method: str) -> None:
    s = BM25Scorer.build(CORPUS, method=method)
    batch = s.prepare(QUERIES)
    for k in (1, 3, 20):
        idx, val = batch.search(k)
        ref_idx, ref_val = s.search(QUERIES, k)
        np.testing.assert_array_equal(idx, ref_idx)
        np.testing.assert_array_equal(val, ref_val)
    rows = np.array([6, 0, 0, 3, 5])
    for part in (slice(0, len(QUERIES)), slice(1, 4), slice(2, 2)):
        np.testing.assert_array_equal(batch.score(part, rows), s.score(QUERIES[part], rows))
    assert batch.score(slice(0, 2), np.zeros(0, dtype=np.int64)).shape == (2, 0)
    with pytest.raises(LogirError, match="out of range"):
        batch.score(slice(0, 1), np.array([len(CORPUS)]))


def test_long_posting_lists_and_interleaved_scorers_agree_with_bm25s() -> None:
    rng = np.random.default_rng(8)
    words = ["alpha", "beta", "gamma", "delta", "omega", "sigma"]
    big_docs = [" ".join(rng.choice(words, int(rng.integers(1, 6)))) for _ in range(3000)]
    big = BM25Scorer.build(big_docs)  # "alpha" is in more than 1024 documents
    small = BM25Scorer.build(CORPUS)
    texts = ["alpha", "beta gamma alpha", "omega omega", "zebra", "sigma delta"]
    stem = Stemmer.Stemmer("english")
    ref = bm25s.BM25()
    ref.index(bm25s.tokenize(big_docs, stopwords="en", stemmer=stem, show_progress=False))
    rows = np.array([2999, 0, 17, 17, 1500, 3])
    for _ in range(2):  # a small scorer between two big ones: the shared scratch stays clean
        batch = big.prepare(texts)
        for i, t in enumerate(texts):
            toks = [w for w in big.tokenize([t])[0] if w in ref.vocab_dict]
            want = ref.get_scores(toks) if toks else np.zeros(3000, np.float32)
            np.testing.assert_array_equal(batch.score(slice(i, i + 1), rows)[0], want[rows])
            np.testing.assert_array_equal(big.score([t])[0], want)
        np.testing.assert_array_equal(small.score(QUERIES), BM25Scorer.build(CORPUS).score(QUERIES))
    acc, seen = scratch(3000)
    assert not acc.any() and not seen.any()


@pytest.mark.parametrize("method", ["lucene", "bm25+"])
def test_held_sums_and_looked_up_rows_equal_scatter_scores(method: str) -> None:
    rng = np.random.default_rng(9)
    words = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "tau", "rho"]
    docs = [" ".join(rng.choice(words, int(rng.integers(1, 8)))) for _ in range(3000)]
    s = BM25Scorer.build(docs, method=method)
    pool = [" ".join(rng.choice([*words, "zebra"], int(rng.integers(0, 5)))) for _ in range(40)]
    texts = pool + ["alpha beta alpha", "", "zebra", "tau"]
    want = s.score(texts)  # every column, the rows summed by scatter
    for rows in (np.array([2999, 0, 17, 17, 1500, 3]), rng.integers(0, 3000, 400), np.arange(3000)):
        batch = s.prepare(texts)
        with batch.hold():  # the first _HELD texts of several tokens keep their sums
            idx, val = batch.search(7)
            got = batch.score(slice(0, len(texts)), rows)
        np.testing.assert_array_equal(got, want[:, rows])
        ref_idx, ref_val = s.search(texts, 7)
        np.testing.assert_array_equal(idx, ref_idx)
        np.testing.assert_array_equal(val, ref_val)
        fresh = s.prepare(texts)  # no row built yet: short row lists are looked up
        np.testing.assert_array_equal(fresh.score(slice(0, len(texts)), rows), want[:, rows])
    for dense in free_dense(3000):
        assert not dense.any()
    assert 0 < len(free_dense(3000)) <= bm25batch._HELD
    acc, seen = scratch(3000)
    assert not acc.any() and not seen.any()


@pytest.mark.parametrize("method", ["lucene", "robertson", "atire", "bm25l", "bm25+"])
def test_top_k_from_summed_lists_equals_top_k_of_the_row(method: str) -> None:
    from logir.index.base import sparse_row_topk

    rng = np.random.default_rng(10)
    words = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "tau", "rho"]
    weights = np.linspace(1.0, 8.0, len(words))
    docs = [
        " ".join(rng.choice(words, int(rng.integers(1, 9)), p=weights / weights.sum()))
        for _ in range(2000)
    ]
    s = BM25Scorer.build(docs, method=method)
    texts = ["alpha beta", "rho tau", "alpha alpha gamma", "rho rho", "zebra alpha", "tau rho"]
    texts += [" ".join(rng.choice(words, int(rng.integers(2, 6)))) for _ in range(30)]
    dense = s.score(texts)
    for k in (1, 5, 100, 1500, 1999, 2000, 2500):
        idx, val = s.search(texts, k)
        want_idx, want_val = topk(dense, k)
        np.testing.assert_array_equal(idx, want_idx)
        np.testing.assert_array_equal(val, want_val)
        batch = s.prepare(texts)
        for i in range(len(texts)):  # the row built as before, then searched
            d, v = sparse_row_topk(*batch.row(i), min(k, 2000), 2000)
            np.testing.assert_array_equal(d, want_idx[i, : len(d)])
            np.testing.assert_array_equal(v + batch.offsets[i], want_val[i, : len(v)])


def test_bm25s_stop_words_wrapped_in_one_place() -> None:
    """The private bm25s function logir relies on still exists and still means what it did: a
    bm25s upgrade that moves or changes it fails here, with the function's name."""
    from logir.index.bm25s_internals import stopword_set

    english = stopword_set("en")
    assert {"the", "of", "a", "and"} <= english and "dog" not in english
    assert stopword_set(None) == frozenset()
    assert stopword_set(["dog", "cat"]) == {"dog", "cat"}
    texts = ["The dogs of Paris and a cat"]
    ref = bm25s.tokenize(texts, stopwords="en", return_ids=False, show_progress=False)
    assert [[w for w in ref[0] if w not in english]] == ref
    assert BM25Scorer.build(CORPUS).tokenize(texts) == [["dog", "pari", "cat"]]


def test_bm25s_missing_private_function_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import bm25s.tokenization

    from logir.index.bm25s_internals import stopword_set

    monkeypatch.delattr(bm25s.tokenization, "_infer_stopwords")
    with pytest.raises(LogirError, match="_infer_stopwords"):
        stopword_set("en")


def test_kernels_give_bm25s_scores_for_a_tiny_corpus() -> None:
    """The free kernels over the posting arrays reproduce ``BM25.get_scores`` bit for bit."""
    from logir.index import bm25kernels as kern

    s = BM25Scorer.build(CORPUS, method="bm25+")
    ref = bm25s.BM25(method="bm25+")
    stem = Stemmer.Stemmer("english")
    ref.index(bm25s.tokenize(CORPUS, stopwords="en", stemmer=stem, show_progress=False))
    p, n = s.postings, s.n_docs
    texts = ["dog dog walk", "cat", "pari long"]
    ids = s.token_ids(texts)
    # the reference numbers its tokens its own way (bm25s's set order)
    ref_ids = [
        np.asarray([ref.vocab_dict[w] for w in toks if w in ref.vocab_dict], dtype=np.int64)
        for toks in s.tokenize(texts)
    ]
    offsets = kern.nonoccurrence_offsets(ref.nonoccurrence_array, ref_ids)
    for i, text in enumerate(texts):
        want = ref.get_scores([w for w in s.tokenize([text])[0] if w in ref.vocab_dict])
        row = np.zeros(n, dtype=np.float32)
        docs, sums = kern.posting_sums(p, ids[i])
        row[docs] = sums
        np.testing.assert_array_equal(row + offsets[i], want)
        looked = np.zeros(n, dtype=np.float32)
        kern.add_at_rows(p, ids[i], np.arange(n), looked)
        np.testing.assert_array_equal(looked, row)
        acc = np.zeros(n, dtype=np.float32)
        every = kern.add_postings(p, ids[i], acc)
        np.testing.assert_array_equal(acc, row)
        top_d, top_v = kern.top_of_sums(every, acc, len(ids[i]), 3, n)
        want_d, want_v = topk(row[None], 3)
        np.testing.assert_array_equal(top_d, want_d[0])
        np.testing.assert_array_equal(top_v, want_v[0])


_VOCAB_PROBE = """
import hashlib, sys
from logir.index.lexical import BM25Scorer
s = BM25Scorer.build(["the cat sat on a mat", "dogs chase cats", "a bird sang", "mats and hats"],
                     show_progress=False)
h = hashlib.sha256()
h.update(repr(s.vocabulary).encode())
p = s.postings
for a in (p.data, p.indices, p.indptr):
    h.update(a.tobytes())
print(h.hexdigest())
"""


def test_index_is_the_same_whatever_the_hash_seed() -> None:
    """Token ids (and so every float sum over them) do not depend on PYTHONHASHSEED."""
    import os
    import subprocess
    import sys

    digests = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", _VOCAB_PROBE],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def test_vocabulary_is_sorted(scorer: BM25Scorer) -> None:
    vocab = scorer.vocabulary
    assert vocab == sorted(vocab)


def test_token_ids_of_a_text_are_kept_read_only(scorer: BM25Scorer) -> None:
    text = "cats chasing dogs"
    first = scorer.token_ids([text])[0]
    again = scorer.token_ids(["mice", text])
    assert again[1] is first and not first.flags.writeable
    np.testing.assert_array_equal(again[0], scorer.token_ids(["mice"])[0])
    long_text = " ".join(["dogs"] * 1000)
    assert scorer.token_ids([long_text])[0] is not scorer.token_ids([long_text])[0]
