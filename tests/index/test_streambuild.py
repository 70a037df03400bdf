"""The streamed, sharded BM25 build: the same index as the in-memory build, resumable, mapped."""

from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from logir.data.dataset import Document
from logir.errors import LogirError
from logir.index import bm25shards, streambuild
from logir.index.bm25compact import POSTINGS, CompactPostings
from logir.index.store import build_index, open_index
from logir.index.streambuild import build_bm25_index, work_folder
from logir.limits import MAX_SHARD_SIZE

_build = build_bm25_index
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota"]


def _docs(n: int) -> list[Document]:
    rng = np.random.default_rng(3)
    docs = []
    for i in range(n):
        text = " ".join(rng.choice(WORDS, size=int(rng.integers(1, 12))))
        docs.append(Document(f"d{i}", text, "Title" if i % 4 == 0 else ""))
    if n > 5:
        docs[5] = Document("d5", "the of and")  # stop words only: a document of length 0
    return docs


def _corpus(path: Path, docs: list[Document]) -> Path:
    rows = ({"_id": d.id, "title": d.title, "text": d.text} for d in docs)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _files(index: Path) -> dict[str, dict]:
    return json.loads((index / "manifest.json").read_text())["files"]


@pytest.fixture(params=POSTINGS, autouse=True)
def postings(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here runs for each posting format: ``build_bm25_index`` writes it."""
    monkeypatch.setattr(
        sys.modules[__name__], "build_bm25_index", partial(_build, postings=request.param)
    )
    return str(request.param)


def test_sharded_build_writes_the_files_of_the_in_memory_build(
    tmp_path: Path, postings: str
) -> None:
    docs = _docs(40)
    corpus = _corpus(tmp_path / "c.jsonl", docs)
    memory = build_index(docs, tmp_path / "memory", retrievers=("bm25",), postings=postings)
    sharded, n = build_bm25_index(corpus, tmp_path / "sharded", shard_size=7)
    assert n == 40
    a = json.loads((memory / "manifest.json").read_text())
    b = json.loads((sharded / "manifest.json").read_text())
    assert _files(sharded) == _files(memory)  # every file, byte for byte (sizes and SHA-256)
    assert a["retrievers"] == b["retrievers"] and a["corpus_sha256"] == b["corpus_sha256"]
    assert ("postings" in b["retrievers"]["bm25"]) == (postings == "compact")
    assert not work_folder(tmp_path / "sharded").exists()
    texts = ["alpha beta", "gamma", "kappa lambda mu", "title iota iota"]
    plain = build_index(docs, tmp_path / "plain", retrievers=("bm25",), postings="plain")
    ref, got = open_index(plain).scorer("bm25"), open_index(sharded).scorer("bm25")
    np.testing.assert_array_equal(ref.score(texts), got.score(texts))
    for x, y in zip(ref.search(texts, 7), got.search(texts, 7), strict=True):
        np.testing.assert_array_equal(x, y)


def test_the_index_opens_memory_mapped(tmp_path: Path, postings: str) -> None:
    out, _ = build_bm25_index(_corpus(tmp_path / "c.jsonl", _docs(12)), tmp_path / "idx")
    scorer = open_index(out).scorer("bm25")
    if postings == "compact":  # its arrays are read where they lie; lists decode when read
        lists = scorer._lists  # noqa: SLF001 (what the scorer reads from)
        assert isinstance(lists, CompactPostings)
        assert not lists._bytes.flags.writeable and not lists._tf.flags.writeable  # noqa: SLF001
        return
    held = scorer.postings
    assert not held.data.flags.writeable and not held.indices.flags.writeable


def test_a_killed_build_resumes_at_its_last_finished_shard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = _corpus(tmp_path / "c.jsonl", _docs(40))
    clean, _ = build_bm25_index(corpus, tmp_path / "clean", shard_size=6)
    out = tmp_path / "idx"
    write = bm25shards.write_shard
    written: list[str] = []

    def crash_after_three(folder: Path, shard: bm25shards.Shard) -> None:
        if len(written) == 3:
            raise KeyboardInterrupt  # the process dies here
        write(folder, shard)
        written.append(folder.name)

    monkeypatch.setattr(bm25shards, "write_shard", crash_after_three)
    with pytest.raises(KeyboardInterrupt):
        build_bm25_index(corpus, out, shard_size=6)
    assert not out.exists()
    assert sorted(p.name for p in (work_folder(out) / "shards").iterdir()) == written
    monkeypatch.setattr(bm25shards, "write_shard", write)
    counted: list[int] = []
    count = bm25shards.count_shard
    monkeypatch.setattr(bm25shards, "count_shard", lambda t: (counted.append(len(t)), count(t))[1])
    notes: list[str] = []
    build_bm25_index(corpus, out, shard_size=6, note=notes.append)
    assert counted == [6, 6, 6, 4]  # the last four shards of seven only
    assert any("resuming: 3 of 7 shards" in line for line in notes)
    assert _files(out) == _files(clean)
    assert not work_folder(out).exists()


def test_shards_of_another_plan_are_not_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = _corpus(tmp_path / "c.jsonl", _docs(20))
    out = tmp_path / "idx"

    def crash(folder: Path, shard: bm25shards.Shard) -> None:
        raise KeyboardInterrupt

    write = bm25shards.write_shard
    monkeypatch.setattr(bm25shards, "write_shard", lambda f, s: (write(f, s), crash(f, s)))
    with pytest.raises(KeyboardInterrupt):
        build_bm25_index(corpus, out, shard_size=5)
    monkeypatch.setattr(bm25shards, "write_shard", write)
    built, _ = build_bm25_index(corpus, out, shard_size=5, bm25={"k1": 1.2})
    clean, _ = build_bm25_index(corpus, tmp_path / "clean", shard_size=5, bm25={"k1": 1.2})
    assert _files(built) == _files(clean)


def test_a_second_build_of_the_same_index_is_refused_while_one_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = _corpus(tmp_path / "c.jsonl", _docs(10))
    out = tmp_path / "idx"
    seen: list[str] = []

    def second_build(folder: Path, shard: bm25shards.Shard) -> None:
        with pytest.raises(LogirError, match="another `logir index` is building") as exc:
            build_bm25_index(corpus, out)
        seen.append(str(exc.value))

    monkeypatch.setattr(streambuild.bm25shards, "write_shard", second_build)
    with pytest.raises(LogirError):  # the first build finds no shard written
        build_bm25_index(corpus, out)
    assert seen


def test_bad_corpora_are_refused_with_the_messages_of_any_build(tmp_path: Path) -> None:
    with pytest.raises(LogirError, match="no document has a word BM25 can index"):
        build_bm25_index(_corpus(tmp_path / "a.jsonl", [Document("a", "the of")]), tmp_path / "x")
    dup = [Document("a", "alpha"), Document("a", "beta")]
    with pytest.raises(LogirError, match="b.jsonl:2: duplicate document id 'a'"):
        build_bm25_index(_corpus(tmp_path / "b.jsonl", dup), tmp_path / "y")
    assert not work_folder(tmp_path / "x").exists() and not work_folder(tmp_path / "y").exists()
    with pytest.raises(FileNotFoundError):  # the CLI says "...: no such file or directory"
        build_bm25_index(tmp_path / "missing.jsonl", tmp_path / "w")
    assert not work_folder(tmp_path / "w").exists()
    for bad in (0, MAX_SHARD_SIZE + 1):
        with pytest.raises(LogirError, match=f"shard size must be from 1 to .*, got {bad}"):
            build_bm25_index(
                _corpus(tmp_path / "c.jsonl", _docs(3)), tmp_path / "z", shard_size=bad
            )
        assert not (tmp_path / "z").exists()


def test_an_index_of_other_documents_is_refused_before_any_shard(tmp_path: Path) -> None:
    docs = _docs(10)
    out, _ = build_bm25_index(_corpus(tmp_path / "a.jsonl", docs), tmp_path / "idx")
    with pytest.raises(LogirError, match="is an index of other documents"):
        build_bm25_index(_corpus(tmp_path / "b.jsonl", docs[:9]), out)
    assert not work_folder(out).exists()
    build_bm25_index(tmp_path / "b.jsonl", out, keep=False)
    assert open_index(out).n_docs == 9


def test_progress_reaches_the_end_of_every_stage(tmp_path: Path) -> None:
    seen: dict[str, tuple[int, int]] = {}
    corpus = _corpus(tmp_path / "c.jsonl", _docs(25))
    build_bm25_index(
        corpus, tmp_path / "idx", shard_size=10, progress=lambda t, d, n: seen.update({t: (d, n)})
    )
    assert seen["bm25 tokenised (documents)"] == (25, 25)
    assert seen["bm25 merge (shards)"] == (3, 3)
    done, total = seen["corpus read (kB)"]
    assert done == total >= 1
