"""logir's compact BM25 postings: the scores, hits and match sets of bm25s's files, exactly."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from logir.errors import LogirError
from logir.index import bm25compact
from logir.index.bm25compact import CompactPostings
from logir.index.store import open_index
from logir.index.streambuild import build_bm25_index

COMMON = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]


def _corpus(path: Path, n: int = 900) -> Path:
    """Common words in every document, rare ones hundreds of documents apart (gaps of 256 or
    more), and one document repeating a word 300 times (a term frequency over 255)."""
    rng = np.random.default_rng(5)
    rows = []
    for i in range(n):
        words = list(rng.choice(COMMON, size=int(rng.integers(1, 9))))
        if i % 300 == 7:
            words.append("rareone")
        if i in (3, 880):
            words.append("raretwo")
        if i == 450:
            words += ["flood"] * 300
        rows.append({"_id": f"d{i}", "title": "", "text": " ".join(words) if i != 11 else "the"})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


QUERIES = ["alpha beta", "rareone", "raretwo gamma", "flood alpha", "zeta zeta delta", "nothing"]


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("compact")
    corpus = _corpus(tmp / "c.jsonl")
    plain, _ = build_bm25_index(corpus, tmp / "plain", shard_size=250, postings="plain")
    compact, _ = build_bm25_index(corpus, tmp / "compact", shard_size=250, postings="compact")
    return plain, compact


def test_scores_hits_and_match_sets_equal_the_bm25s_files(pair: tuple[Path, Path]) -> None:
    ref, got = (open_index(p).scorer("bm25") for p in pair)
    assert not (pair[1] / "bm25" / "data.csc.index.npy").exists()
    lists = CompactPostings(pair[1] / "bm25")
    assert lists._bytes.max() >= 0x80 and lists._tf.dtype == np.uint16  # noqa: SLF001 (cases tested)
    np.testing.assert_array_equal(ref.score(QUERIES), got.score(QUERIES))
    rows = np.array([0, 3, 7, 450, 880, 899])
    np.testing.assert_array_equal(ref.score(QUERIES, rows), got.score(QUERIES, rows))
    for k in (1, 10, 900):
        for a, b in zip(ref.search(QUERIES, k), got.search(QUERIES, k), strict=True):
            np.testing.assert_array_equal(a, b)
    for term in ["rareone", "raretwo", "alpha beta", "flood", "the", "nothing"]:
        np.testing.assert_array_equal(ref.match_set(term), got.match_set(term))
    a, b = ref.postings, got.postings
    np.testing.assert_array_equal(a.indptr, b.indptr)
    np.testing.assert_array_equal(a.indices, b.indices)
    np.testing.assert_array_equal(a.data, b.data)


def test_the_compact_index_is_smaller_and_says_its_format(pair: tuple[Path, Path]) -> None:
    plain, compact = pair
    size = [sum(f.stat().st_size for f in (p / "bm25").iterdir()) for p in pair]
    assert size[1] < size[0]
    manifest = json.loads((compact / "manifest.json").read_text())
    assert manifest["retrievers"]["bm25"]["postings"] == "compact"
    assert "postings" not in json.loads((plain / "manifest.json").read_text())["retrievers"]["bm25"]
    header = json.loads((compact / "bm25" / "compact.json").read_text())
    assert header["format"] == "logir-bm25-compact" and header["version"] == 1


def test_an_unknown_postings_format_or_version_is_refused(
    pair: tuple[Path, Path], tmp_path: Path
) -> None:
    with pytest.raises(LogirError, match="unknown BM25 postings 'tiny'"):
        build_bm25_index(tmp_path / "none.jsonl", tmp_path / "x", postings="tiny")
    folder = pair[1] / "bm25"
    header = json.loads((folder / "compact.json").read_text())
    copy = tmp_path / "bm25"
    copy.mkdir()
    for f in folder.iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    (copy / "compact.json").write_text(json.dumps({**header, "version": 99}))
    with pytest.raises(LogirError, match="version 99"):
        CompactPostings(copy)


def test_decoded_lists_are_kept_within_their_budget_and_read_the_same(
    pair: tuple[Path, Path],
) -> None:
    folder = pair[1] / "bm25"
    fresh = CompactPostings(folder, cache_bytes=0)
    sizes = np.diff(fresh.indptr) * 8  # bytes a decoded list keeps
    budget = int(sizes.max()) + 8  # room for the longest list and not much more
    kept = CompactPostings(folder, cache_bytes=budget)
    for _ in range(2):
        for t in range(fresh.shape[0]):
            docs, scores = kept.posting(t)
            want = fresh.posting(t)
            assert docs.dtype == np.int32 and not docs.flags.writeable
            np.testing.assert_array_equal(docs, want[0])
            np.testing.assert_array_equal(scores, want[1])
            np.testing.assert_array_equal(kept.documents(t), want[0].astype(np.int64))
            assert kept._kept_bytes <= budget  # noqa: SLF001 (the budget holds)
    assert not fresh._kept  # noqa: SLF001 (a budget of 0 keeps nothing)
    longest = int(np.argmax(sizes))
    assert kept.posting(longest)[0] is kept.posting(longest)[0]  # read again from the cache


@pytest.mark.parametrize("run", [1, 7, 10**9])
def test_the_whole_matrix_decodes_in_runs_as_each_list_does(
    pair: tuple[Path, Path], run: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bm25compact, "ENCODE_POSTINGS", run)
    lists = CompactPostings(pair[1] / "bm25", cache_bytes=0)
    whole = lists.to_csr()
    for t in range(lists.shape[0]):
        lo, hi = whole.indptr[t], whole.indptr[t + 1]
        docs, scores = lists.posting(t)
        np.testing.assert_array_equal(whole.indices[lo:hi], docs)
        np.testing.assert_array_equal(whole.data[lo:hi], scores)


def test_scores_equal_the_bm25s_files_with_norms_kept_per_document(
    pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bm25compact, "LENGTH_TABLE", 1)  # no table of lengths: one norm a document
    lists = CompactPostings(pair[1] / "bm25", cache_bytes=0)
    assert lists._key is None  # noqa: SLF001 (the path tested)
    ref = open_index(pair[0]).scorer("bm25").postings
    for t in range(lists.shape[0]):
        lo, hi = ref.indptr[t], ref.indptr[t + 1]
        docs, scores = lists.posting(t)
        np.testing.assert_array_equal(ref.indices[lo:hi], docs)
        np.testing.assert_array_equal(ref.data[lo:hi], scores)
    whole = lists.to_csr()
    np.testing.assert_array_equal(whole.data, ref.data)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_varints_of_one_to_five_bytes_read_back(dtype: type[np.signedinteger]) -> None:
    rng = np.random.default_rng(3)
    top = 2**31 - 1 if dtype == np.int32 else 2**40
    values = np.concatenate(
        [rng.integers(0, 2 ** (7 * w), 50) for w in (1, 2, 3, 4)] + [rng.integers(0, top, 50)]
    )
    rng.shuffle(values)
    for vals in (values, values[values < 0x80], values[:1]):
        stream, _ = bm25compact._varints(vals)  # noqa: SLF001 (the codec itself)
        got = bm25compact._read_varints(stream, len(vals), dtype)  # noqa: SLF001
        assert got.dtype == dtype
        np.testing.assert_array_equal(got, vals)


def test_a_prefetched_batch_keeps_the_lists_each_read_decodes(
    pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = pair[1] / "bm25"
    fresh = CompactPostings(folder, cache_bytes=0)
    lengths = np.diff(fresh.indptr)
    monkeypatch.setattr(bm25compact, "PREFETCH_LIST", int(np.median(lengths)))
    lists = CompactPostings(folder)
    ids = [np.array([t, t, 0], dtype=np.int64) for t in range(fresh.shape[0])] + [np.zeros(0)]
    decoded = lists.prefetch(ids)
    short = [t for t in range(fresh.shape[0]) if lengths[t] <= bm25compact.PREFETCH_LIST]
    assert decoded == len(short) and sorted(lists._kept) == short  # noqa: SLF001
    assert lists.prefetch(ids) == 0  # every short list kept already
    assert len(short) < fresh.shape[0]  # the long lists were left to posting
    for t in range(fresh.shape[0]):
        docs, scores = lists.posting(t)
        want = fresh.posting(t)
        assert docs.dtype == np.int32 and not docs.flags.writeable and not scores.flags.writeable
        np.testing.assert_array_equal(docs, want[0])
        np.testing.assert_array_equal(scores.view(np.uint32), want[1].view(np.uint32))
    assert fresh.prefetch(ids) == 0  # a cache of 0 bytes keeps nothing


def test_a_large_batch_is_prefetched_and_ranks_as_bm25s_files(pair: tuple[Path, Path]) -> None:
    ref, got = (open_index(p).scorer("bm25") for p in pair)
    texts = [f"{a} {b}" for a in ["rareone", "raretwo", *COMMON] for b in ["flood", "nothing"]]
    assert len(texts) >= 16  # a batch this large is prefetched
    got.prepare(texts)
    assert got._lists._kept  # noqa: SLF001 (decoded before any list was read)
    for k in (1, 10, 900):
        for a, b in zip(ref.search(texts, k), got.search(texts, k), strict=True):
            np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ref.score(texts), got.score(texts))


def test_a_prefetched_list_holds_only_its_own_postings(pair: tuple[Path, Path]) -> None:
    lists = CompactPostings(pair[1] / "bm25")
    assert lists.prefetch([np.arange(lists.shape[0])]) > 1
    for docs, scores in lists._kept.values():  # noqa: SLF001 (what the cache holds)
        assert docs.base is None and scores.base is None  # not views of the pass's arrays
