"""ANN candidates for the dense scorer (FAISS): specs, exact scores of proposed documents,
recall against exact search, persistence, and the index manifest."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("faiss")

from logir.data.dataset import Document  # noqa: E402
from logir.errors import LogirError  # noqa: E402
from logir.index import ann as ann_mod  # noqa: E402
from logir.index.ann import AnnSpec, parse_ann, resolve  # noqa: E402
from logir.index.base import prepare  # noqa: E402
from logir.index.dense import DenseScorer  # noqa: E402
from logir.index.store import build_index, open_index, rebuild_command  # noqa: E402


def _clustered(n: int, dim: int = 32, seed: int = 0) -> np.ndarray:
    """Unit vectors around a few centres (like real embeddings, unlike uniform noise)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(12, dim))
    emb = centres[rng.integers(0, 12, n)] + 0.6 * rng.normal(size=(n, dim))
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    return emb.astype(np.float32)


def _queries(emb: np.ndarray, m: int = 20, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    q = emb[rng.integers(0, len(emb), m)] + 0.3 * rng.normal(size=(m, emb.shape[1]))
    return (q / np.linalg.norm(q, axis=1, keepdims=True)).astype(np.float32)


def test_parse_and_bounds() -> None:
    assert parse_ann("hnsw,M=16,efSearch=64") == AnnSpec("hnsw", {"M": 16, "efSearch": 64})
    assert str(parse_ann("ivf,nlist=8")) == "ivf,nlist=8"
    for bad, what in [
        ("flat", "unknown --ann kind"),
        ("hnsw,nprobe=3", "unknown parameter 'nprobe'"),
        ("hnsw,M=2", "outside 4..128"),
        ("hnsw,M=x", "whole number"),
        ("ivf,nlist", "whole number"),
        ("none,M=4", "known: none"),
        ("hnsw,M=\u00b2", "whole number"),  # a digit to str.isdigit, not to int()
        ("hnsw,M=" + "9" * 5000, "outside 4..128"),  # past int()'s 4300 digits
        ("hnsw,M=0000000000000000000000000008,efSearch=" + "9" * 40, "outside 16..4096"),
        ("hnsw,M=8,M=16", "M is given twice"),
    ]:
        with pytest.raises(LogirError, match=what):
            parse_ann(bad)
    assert parse_ann("hnsw,M=0000000000000000000000000008").params == {"M": 8}


def test_auto_is_exact_below_the_threshold() -> None:
    assert resolve(parse_ann("auto"), ann_mod.AUTO_THRESHOLD - 1).kind == "none"
    big = resolve(parse_ann("auto"), ann_mod.AUTO_THRESHOLD)
    assert big.kind == "hnsw" and set(big.params) == {"M", "efConstruction", "efSearch"}
    ivf = resolve(parse_ann("ivf,nlist=50"), 40)  # no more cells than documents
    assert ivf.params["nlist"] == 40 and ivf.params["nprobe"] <= 40
    assert DenseScorer(_clustered(50)).with_ann(parse_ann("auto")).ann is None


@pytest.mark.parametrize("spec", ["hnsw,M=16", "ivf,nlist=16,nprobe=6"])
def test_candidates_scored_exactly_with_high_recall(spec: str) -> None:
    emb = _clustered(3000)
    q = _queries(emb)
    exact = DenseScorer(emb)
    approx = DenseScorer(emb).with_ann(parse_ann(spec))
    assert approx.ann is not None and approx.ann.spec.kind == spec.split(",")[0]
    e_idx, _ = exact.search_vectors(q, 50)
    a_idx, a_val = approx.search_vectors(q, 50)
    recall = np.mean([len(set(a) & set(e)) / 50 for a, e in zip(a_idx, e_idx, strict=True)])
    assert recall >= 0.9
    # every proposed document carries its exact cosine, best first
    for row, vals, qv in zip(a_idx, a_val, q, strict=True):
        np.testing.assert_allclose(vals, emb[row] @ qv, rtol=0, atol=1e-5)
        assert np.all(np.diff(vals) <= 0)


def test_exhaustive_ivf_equals_exact_search() -> None:
    emb = _clustered(800)
    q = _queries(emb)
    exact = DenseScorer(emb)
    every_cell = DenseScorer(emb).with_ann(parse_ann("ivf,nlist=8,nprobe=8"))
    e_idx, e_val = exact.search_vectors(q, 30)
    a_idx, a_val = every_cell.search_vectors(q, 30)
    assert a_idx.tolist() == e_idx.tolist()
    np.testing.assert_allclose(a_val, e_val, atol=1e-5)


def test_ivf_probes_more_cells_when_its_cells_hold_fewer_than_k() -> None:
    emb = _clustered(60)
    scorer = DenseScorer(emb).with_ann(parse_ann("ivf,nlist=12,nprobe=1"))
    assert scorer.ann is not None
    proposed = scorer.ann.candidates(_queries(emb, 5), 40)
    assert (proposed >= 0).all()  # 40 documents each, though one cell holds about 5
    assert scorer.ann.spec.params["nprobe"] == 1  # the index's own setting is unchanged
    idx, val = scorer.search_vectors(_queries(emb, 5), 40)
    assert (idx >= 0).all() and np.isfinite(val).all()


def test_batch_searches_through_the_ann_index() -> None:
    emb = _clustered(500)
    scorer = DenseScorer(emb).with_ann(parse_ann("ivf,nlist=10,nprobe=1"))
    vectors = _queries(emb, 3)
    scorer._queries.update({f"t{i}": v for i, v in enumerate(vectors)})  # no encoder needed
    texts = ["t0", "t1", "t2"]
    batch = prepare(scorer, texts)
    assert scorer.ann is not None
    asked: list[int] = []
    propose = scorer.ann.candidates
    scorer.ann.candidates = lambda q, k: asked.append(k) or propose(q, k)  # type: ignore[method-assign]
    idx, val = batch.search(40)
    assert asked == [40]  # the batch's top-k came from the ANN index
    assert (idx, val)[0].tolist() == scorer.search_vectors(vectors, 40)[0].tolist()
    rows = np.sort(idx[0][idx[0] >= 0])
    np.testing.assert_allclose(batch.score(slice(0, 1), rows)[0], emb[rows] @ vectors[0], atol=1e-5)


def test_saved_and_loaded_with_its_parameters(tmp_path) -> None:
    emb = _clustered(600)
    scorer = DenseScorer(emb).with_ann(parse_ann("hnsw,M=8,efSearch=32"))
    scorer.save(tmp_path / "d")
    cfg = json.loads((tmp_path / "d" / "dense.json").read_text())
    assert cfg["ann"]["kind"] == "hnsw" and cfg["ann"]["M"] == 8 and cfg["ann"]["efSearch"] == 32
    back = DenseScorer.load(tmp_path / "d", mmap=True)
    assert back.ann is not None and back.ann.spec == scorer.ann.spec
    q = _queries(emb)
    assert back.search_vectors(q, 10)[0].tolist() == scorer.search_vectors(q, 10)[0].tolist()
    back.ann.with_search(efSearch=64)
    assert back.ann.spec.params["efSearch"] == 64
    with pytest.raises(LogirError, match="fixed when"):
        back.ann.with_search(M=16)
    (tmp_path / "d" / "ann.faiss").write_bytes(b"not faiss")
    with pytest.raises(LogirError, match="ann.faiss"):
        DenseScorer.load(tmp_path / "d")


def test_index_manifest_records_the_ann_and_rebuild_names_it(tmp_path, monkeypatch) -> None:
    emb = _clustered(40)
    docs = [Document(id=f"d{i}", text=f"passage number {i}") for i in range(40)]

    def fake_build(texts, **_kw):  # the encoder is not what this test is about
        return DenseScorer(emb[: len(texts)])

    monkeypatch.setattr(
        DenseScorer, "build", classmethod(lambda cls, texts, **kw: fake_build(texts))
    )
    out = build_index(docs, tmp_path / "ix", retrievers=("dense",), ann="ivf,nlist=4,nprobe=2")
    index = open_index(out)
    recorded = index.manifest["retrievers"]["dense"]["ann"]
    assert {k: recorded[k] for k in ("kind", "nlist", "nprobe")} == {
        "kind": "ivf",
        "nlist": 4,
        "nprobe": 2,
    }
    assert "dense/ann.faiss" in index.manifest["files"]
    assert "--ann ivf,nlist=4,nprobe=2,train=4" in rebuild_command(out, index.manifest)
    assert index.scorer("dense").ann is not None
    exact = build_index(docs, tmp_path / "ex", retrievers=("dense",))
    assert open_index(exact).manifest["retrievers"]["dense"]["ann"] == {"kind": "none"}
    with pytest.raises(LogirError, match="unknown --ann kind"):
        build_index(docs, tmp_path / "bad", retrievers=("dense",), ann="lsh")


def test_cli_refuses_a_bad_ann_spec_before_reading_the_corpus(tmp_path) -> None:
    from tests.clirun import logir

    proc = logir(
        "index",
        str(tmp_path / "missing.jsonl"),
        "--out",
        str(tmp_path / "ix"),
        "--ann",
        "hnsw,M=999",
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == ["error: --ann hnsw: M=999 is outside 4..128"]


def test_cli_refuses_an_ann_for_a_build_without_dense(tmp_path) -> None:
    from tests.clirun import logir

    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"_id": "a", "text": "alpha beta"}\n', encoding="utf-8")
    proc = logir("index", str(corpus), "--out", str(tmp_path / "ix"), "-r", "bm25", "--ann", "hnsw")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "error: --ann 'hnsw' sets dense's search, and this build has no dense (-r bm25)"
    ]
    assert not (tmp_path / "ix").exists()
