"""Indexing as tasks (in process, and as Ray tasks on a real local cluster): the same index."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from logir.index import bm25compact, bm25shards, registry
from logir.index.dense import DenseScorer
from logir.index.streambuild import build_bm25_index, work_folder
from logir.index.tasks import LocalTasks

WORDS = ["amber", "birch", "cedar", "dune", "ember", "fjord", "grove", "heath", "inlet"]


def _corpus(path: Path, n: int) -> Path:
    rng = np.random.default_rng(5)
    rows = [
        {"_id": f"d{i}", "text": " ".join(rng.choice(WORDS, size=int(rng.integers(1, 9))))}
        for i in range(n)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _bm25_files(index: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((index / "bm25").iterdir())}


class _Counting(LocalTasks):
    def __init__(self) -> None:
        self.calls = 0

    def map(self, fn, args):
        for a in args:
            self.calls += 1
            yield fn(*a)


def test_shards_tokenised_as_tasks_give_the_same_files(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "c.jsonl", 40)
    plain, _ = build_bm25_index(corpus, tmp_path / "plain", shard_size=6)
    tasks = _Counting()
    as_tasks, n = build_bm25_index(corpus, tmp_path / "tasks", shard_size=6, tasks=tasks)
    assert n == 40 and tasks.calls == 7
    assert _bm25_files(as_tasks) == _bm25_files(plain)
    assert not work_folder(as_tasks).exists()


def test_a_resumed_build_sends_only_the_missing_shards(tmp_path: Path, monkeypatch) -> None:
    corpus = _corpus(tmp_path / "c.jsonl", 30)
    clean, _ = build_bm25_index(corpus, tmp_path / "clean", shard_size=7)

    def crash(*a, **kw):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:  # killed while the shards' postings are written
        patch.setattr(bm25compact, "write_compact", crash)
        patch.setattr(bm25shards, "merge_shards", crash)
        with pytest.raises(KeyboardInterrupt):
            build_bm25_index(corpus, tmp_path / "out", shard_size=7)
    shards = work_folder(tmp_path / "out") / "shards"
    for extra in sorted(shards.iterdir())[2:]:  # as if killed after the first two shards
        shutil.rmtree(extra)
    tasks = _Counting()
    out, _ = build_bm25_index(corpus, tmp_path / "out", shard_size=7, tasks=tasks)
    assert tasks.calls == 3  # shards 2, 3 and 4 of 5
    assert _bm25_files(out) == _bm25_files(clean)


def test_dense_slices_encoded_as_tasks_equal_one_encoding(monkeypatch) -> None:
    rng = np.random.default_rng(0)
    table = {f"text {i}": rng.normal(size=8).astype(np.float32) for i in range(600)}
    texts = list(table)

    def fake_build(cls, texts, **_kw):  # the encoder is not what this test is about
        return DenseScorer(np.stack([table[t] for t in texts]))

    monkeypatch.setattr(DenseScorer, "build", classmethod(fake_build))
    tasks = _Counting()
    sliced = registry.build("dense", texts, registry.BuildOptions(tasks=tasks))
    whole = registry.build("dense", texts, registry.BuildOptions())
    assert tasks.calls == 3  # slices of 256 rows at least
    assert np.array_equal(sliced.embeddings, whole.embeddings)


def test_ray_tasks_build_the_same_bm25_index(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    from logir.index.rayshards import connect
    from logir.index.tasks import RayTasks

    corpus = _corpus(tmp_path / "c.jsonl", 25)
    plain, _ = build_bm25_index(corpus, tmp_path / "plain", shard_size=4)
    connect(num_cpus=1)
    try:
        tasks = RayTasks()
        assert tasks.in_flight == 2
        on_ray, _ = build_bm25_index(corpus, tmp_path / "ray", shard_size=4, tasks=tasks)
    finally:
        ray.shutdown()
    assert _bm25_files(on_ray) == _bm25_files(plain)
