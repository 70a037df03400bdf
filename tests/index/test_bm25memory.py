"""Compact BM25 postings from an in-memory build (``build_index``, the path of ``logir index``
with more than bm25): the files a streamed compact build writes, the scores of plain postings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from logir.data.dataset import Document
from logir.errors import LogirError
from logir.index.bm25memory import build_compact
from logir.index.store import build_index, open_index, rebuild_command
from logir.index.streambuild import build_bm25_index

WORDS = [f"{stem}{i}" for i, stem in enumerate(("vitamin", "bone", "iron", "sleep") * 3)]


def _docs(n: int = 60) -> list[Document]:
    rng = np.random.default_rng(7)
    return [
        Document(f"d{i}", " ".join(rng.choice(WORDS, size=int(rng.integers(1, 30)))), f"T{i % 5}")
        for i in range(n)
    ]


def test_build_index_writes_the_files_of_a_streamed_compact_build(tmp_path: Path) -> None:
    docs = _docs()
    corpus = tmp_path / "corpus.jsonl"
    rows = [{"_id": d.id, "title": d.title, "text": d.text} for d in docs]
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    memory = build_index(docs, tmp_path / "memory", retrievers=("bm25",), postings="compact")
    streamed, _ = build_bm25_index(corpus, tmp_path / "streamed", shard_size=7, postings="compact")
    names = sorted(p.name for p in (streamed / "bm25").iterdir())
    assert "compact.json" in names
    assert sorted(p.name for p in (memory / "bm25").iterdir()) == names
    for name in names:
        assert (memory / "bm25" / name).read_bytes() == (streamed / "bm25" / name).read_bytes()
    manifest = json.loads((memory / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["retrievers"]["bm25"]["postings"] == "compact"
    assert "--postings" not in rebuild_command(memory, manifest)  # compact: the default


def test_builds_write_compact_postings_unless_told_plain(tmp_path: Path) -> None:
    docs = _docs(20)
    corpus = tmp_path / "corpus.jsonl"
    rows = [{"_id": d.id, "title": d.title, "text": d.text} for d in docs]
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    built = {
        "memory": build_index(docs, tmp_path / "memory", retrievers=("bm25",)),
        "streamed": build_bm25_index(corpus, tmp_path / "streamed", shard_size=7)[0],
        "memory plain": build_index(docs, tmp_path / "mp", retrievers=("bm25",), postings="plain"),
        "streamed plain": build_bm25_index(corpus, tmp_path / "sp", postings="plain")[0],
    }
    for name, path in built.items():
        plain = name.endswith("plain")
        assert (path / "bm25" / "compact.json").is_file() != plain, name
        manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
        assert ("postings" in manifest["retrievers"]["bm25"]) != plain, name
        assert ("--postings plain" in rebuild_command(path, manifest)) == plain, name


def test_compact_scores_equal_plain_ones(tmp_path: Path) -> None:
    docs = _docs()
    plain = open_index(
        build_index(docs, tmp_path / "plain", retrievers=("bm25",), postings="plain")
    ).scorer("bm25")
    compact = open_index(
        build_index(docs, tmp_path / "compact", retrievers=("bm25",), postings="compact")
    ).scorer("bm25")
    queries = ["vitamin0 bone1", "iron2 sleep7 bone9", "sleep3"]
    ids, scores = plain.search(queries, 20)
    assert scores[:, 0].min() > 0
    ids_c, scores_c = compact.search(queries, 20)
    assert np.array_equal(ids, ids_c) and np.array_equal(scores, scores_c)
    assert np.array_equal(plain.score(queries), compact.score(queries))


def test_the_scratch_folder_goes_with_the_scorer() -> None:
    scorer = build_compact([d.full_text for d in _docs(10)])
    folder = scorer._bm25.folder
    assert (folder / "compact.json").is_file()
    del scorer
    assert not folder.parent.exists()


def test_unknown_postings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(LogirError, match="unknown BM25 postings 'tiny'"):
        build_index(_docs(3), tmp_path / "x", retrievers=("bm25",), postings="tiny")
