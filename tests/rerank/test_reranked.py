"""Any composer's top N reread by a reader: what moves, what stays, what the evidence says."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from logir.errors import LogirError
from logir.index.store import corpus_texts, open_index
from logir.logic import get_composer
from logir.rerank import Reranked, RerankSettings
from logir.rerank.reader import InferenceReader, load_reader
from logir.searcher import Searcher


class WordReader:
    """A stand-in reader: a passage's score is how often it says ``word`` (ties: 0)."""

    def __init__(self, word: str) -> None:
        self.word = word

    def score(self, query: str, passages: list[str]) -> np.ndarray:
        return np.array([p.split().count(self.word) for p in passages], np.float32) * 10 - 5


def _rank(index_dir: Path, depth: int, weight: float, word: str = "immune", k: int = 8):
    index = open_index(index_dir)
    searcher = Searcher(index, "bm25")
    _, scorer = searcher.scorer()
    flat = get_composer("flat")
    settings = RerankSettings(Path("stub"), depth, weight)
    reranked = Reranked(flat, WordReader(word), settings, corpus_texts(index.docs))  # type: ignore[arg-type]
    first = flat.rank(["vitamin d"], scorer, k)[0].valid()
    second = reranked.rank(["vitamin d"], scorer, k)[0]
    return index, scorer, reranked, first, second


def test_only_the_top_n_are_reordered(index_dir: Path) -> None:
    index, _, _, first, second = _rank(index_dir, depth=4, weight=1.0)
    ids = index.doc_ids
    before = [ids[i] for i in first.doc_idx]
    after = [ids[i] for i in second.doc_idx]
    assert after != before
    assert set(after[:4]) == set(before[:4])
    assert after[4:] == before[4:]
    assert after[0] == "p4"  # the one passage that says "immune" rises to the top
    assert np.all(np.diff(second.scores) <= 0)


def test_depth_decides_how_far_down_the_reader_looks(index_dir: Path) -> None:
    index, _, _, first, _ = _rank(index_dir, depth=1, weight=1.0)
    _, _, _, _, deep = _rank(index_dir, depth=8, weight=1.0)
    _, _, _, _, shallow = _rank(index_dir, depth=1, weight=1.0)
    assert list(shallow.doc_idx) == list(first.doc_idx)
    assert index.doc_ids[deep.doc_idx[0]] == "p4"
    assert index.doc_ids[first.doc_idx[0]] != "p4"


def test_weight_zero_gives_the_first_stage_order(index_dir: Path) -> None:
    _, _, _, first, second = _rank(index_dir, depth=8, weight=0.0)
    assert list(second.doc_idx) == list(first.doc_idx)


def test_evidence_adds_up_and_score_agrees_with_rank(index_dir: Path) -> None:
    _, scorer, reranked, _, second = _rank(index_dir, depth=3, weight=0.7)
    parts = sum(second.evidence.values())
    assert np.allclose(parts, second.scores)
    again = reranked.score("vitamin d", scorer, second.doc_idx[::-1])
    assert np.allclose(again, second.scores[::-1])
    assert reranked.additive


def test_k_shorter_than_depth_keeps_k_hits(index_dir: Path) -> None:
    _, _, _, _, second = _rank(index_dir, depth=8, weight=1.0, k=2)
    assert len(second) == 2


def test_the_tiny_reader_loads_scores_and_caches(reader_dir: Path) -> None:
    # fp32: the untrained tiny reader's scores differ by less than bf16 tells apart (on a CPU
    # with bf16, `auto` precision gave two passages the same 0.006958)
    reader = load_reader(reader_dir, precision="fp32")
    assert load_reader(reader_dir, precision="fp32") is reader
    passages = ["vitamin d and mood", "bone health and exercise"]
    first = reader.score("vitamin d", passages)
    assert first.shape == (2,) and np.isfinite(first).all() and first[0] != first[1]
    assert np.array_equal(reader.score("vitamin d", passages[::-1]), first[::-1])
    assert reader.score("vitamin d", []).shape == (0,)


def test_searcher_reranks_with_a_reader_folder(index_dir: Path, reader_dir: Path) -> None:
    plain = Searcher(index_dir, "bm25").search("vitamin d", k=8, composer="flat")
    settings = RerankSettings(reader_dir, depth=8, weight=1.0)
    searcher = Searcher(index_dir, "bm25", rerank=settings)
    found = searcher.search("vitamin d", k=8, composer="flat")
    reader = load_reader(reader_dir)
    index = open_index(index_dir)
    by_id = dict(zip(index.doc_ids, corpus_texts(index.docs), strict=True))
    want = reader.score("vitamin d", [by_id[h.id] for h in plain.hits])
    expected = [plain.hits[i].id for i in np.argsort(-want, kind="stable")]
    assert [h.id for h in found.hits] == expected
    assert found.additive and any("reranked: the top 8" in line for line in found.explanation)
    for h in found.hits:
        assert abs(sum(h.evidence.values()) - h.score) < 1e-6
    assert json.dumps(found.to_dict())
    assert found.applied == plain.applied


def test_pairs_of_many_queries_score_as_each_query_alone(reader_dir: Path) -> None:
    reader = InferenceReader(reader_dir, device="cpu", batch_size=3, cache_pairs=1)
    queries = ["vitamin d", "immune", "vitamin d", "bone health"]
    passages = ["vitamin d and mood", "immune cells", "bone health and exercise", "calcium"]
    together = reader.score_pairs(queries, passages)
    alone = [reader.score(q, [p])[0] for q, p in zip(queries, passages, strict=True)]
    assert np.allclose(together, alone, atol=1e-5)
    with pytest.raises(LogirError, match="2 queries for 1 passages"):
        reader.score_pairs(["a", "b"], ["c"])


def test_the_reader_runs_on_the_gpu_when_torch_sees_one(reader_dir: Path) -> None:
    torch = pytest.importorskip("torch")
    want = "cuda" if torch.cuda.is_available() else "cpu"
    assert InferenceReader(reader_dir).device == want
    assert load_reader(reader_dir).device == want
    assert InferenceReader(reader_dir, device="cpu").device == "cpu"
    with pytest.raises(LogirError, match="--device must be auto, cpu, cuda"):
        InferenceReader(reader_dir, device="tpu")


@pytest.mark.parametrize("kind", ["missing", "file", "empty", "dense"])
def test_a_bad_reader_folder_is_named(tmp_path: Path, kind: str) -> None:
    folder = tmp_path / "r"
    if kind == "file":
        folder.write_text("x")
    elif kind == "empty":
        folder.mkdir()
    elif kind == "dense":
        folder.mkdir()
        (folder / "logir.json").write_text(json.dumps({"kind": "dense"}))
    with pytest.raises(LogirError, match=str(folder)):
        InferenceReader(folder)


def test_eval_reports_progress_while_the_reader_rereads(reader_dir: Path) -> None:
    from logir.data.dataset import Dataset, Document, Topic
    from logir.eval.runner import evaluate
    from tests.rerank.conftest import PASSAGES

    words = ["vitamin d", "bone", "mood", "immune", "sunlight", "calcium"] * 3
    topics = [Topic(id=f"q{i}", text=w) for i, w in enumerate(words)]
    ds = Dataset(
        "mini",
        [Document(id=i, text=t) for i, t in PASSAGES.items()],
        topics,
        {t.id: {"p0": 1} for t in topics},
    )
    calls: list[tuple[str, int, int]] = []
    system = f"bm25+reader={reader_dir},depth=3"
    result = evaluate(ds, ["bm25", system], progress=lambda *a: calls.append(a))
    steps = [done for name, done, _ in calls if name == system]
    assert steps == [0, 8, 16, 18]  # a step every 8 queries, not one for the whole batch
    plain = [done for name, done, _ in calls if name == "bm25"]
    assert plain[0] == 0 and plain[-1] == 18  # in batches paced by time (logir.eval.pacing)
    assert "reader" not in result.systems[0].extra
    read = result.systems[1].extra["reader"]
    assert read["queries"] == 18 and read["pairs"] == 18 * 3 and read["seconds"] >= 0
