"""A scorer cut into row shards (in process and in Ray actors) gives the unsharded numbers."""

from __future__ import annotations

import numpy as np
import pytest

from logir.cli_ray import ray_default, ray_sharding
from logir.errors import LogirError
from logir.index.base import VectorScorer, attach_passages
from logir.index.dense import DenseScorer
from logir.index.hybrid import HybridScorer
from logir.index.lexical import BM25Scorer
from logir.index.sharded import LocalShards, merge_topk, shard_bounds, sharded
from logir.logic.registry import get_composer

TEXTS = [
    f"passage {i} on {('cats', 'dogs', 'owls')[i % 3]} and {('fish', 'rain', 'maps', 'tea')[i % 4]}"
    + (" without cats" if i % 5 == 0 else "")
    for i in range(60)
]
DENSE_VECTORS = "vectors,neg=orthogonal,inter=add"
QUERIES = ['"cats" AND NOT "fish"', '("dogs" OR "owls") AND "tea"', "maps rain", "zebra"]


def _dense(seed: int = 0) -> DenseScorer:
    """A dense scorer over seeded unit vectors, its query vectors cached (no encoder)."""
    rng = np.random.default_rng(seed)
    emb = rng.normal(size=(len(TEXTS), 16)).astype(np.float32)
    scorer = DenseScorer(emb / np.linalg.norm(emb, axis=1, keepdims=True))
    words = {w for q in QUERIES for w in q.replace('"', " ").replace("(", " ").split()}
    texts = [*QUERIES, *words, "cats", "fish", "dogs", "owls", "tea", "maps rain"]
    for t in texts:
        scorer._queries[t] = rng.normal(size=16).astype(np.float32)
    return scorer


def _rankings(scorer, spec: str) -> list[tuple[list[int], list[float]]]:
    out = []
    for r in get_composer(spec).rank(QUERIES, scorer, 25):
        out.append((np.asarray(r.doc_idx).tolist(), np.asarray(r.scores).tolist()))
    return out


def test_bounds_and_merge() -> None:
    assert shard_bounds(10, 4).tolist() == [0, 2, 5, 8, 10]
    assert shard_bounds(2, 4).tolist() == [0, 1, 2]
    with pytest.raises(LogirError, match="at least 1"):
        shard_bounds(10, 0)
    a = (np.array([[7, -1]]), np.array([[1.0, -np.inf]], dtype=np.float32))
    b = (np.array([[3, 9]]), np.array([[1.0, 0.5]], dtype=np.float32))
    idx, val = merge_topk([a, b], 4)
    assert idx.tolist() == [[3, 7, 9, -1]]  # a tie goes to the lower row
    assert val.tolist() == [[1.0, 1.0, 0.5, -np.inf]]
    idx, _ = merge_topk([a], 3)
    assert idx.tolist() == [[7, -1, -1]]


@pytest.mark.parametrize("shards", [1, 3, 7])
def test_local_bm25_shards_equal_the_whole_index(shards: int) -> None:
    whole = BM25Scorer.build(TEXTS)
    cut = sharded(whole, shards, LocalShards)
    assert cut.n_docs == whole.n_docs and cut.name == "bm25"
    texts = ["cats", "dogs tea", "zebra", "without cats"]
    for k in (5, 80):  # 80 > n: padded the same way
        w_idx, w_val = whole.search(texts, k)
        c_idx, c_val = cut.search(texts, k)
        assert c_idx.tolist() == w_idx.tolist()
        assert np.array_equal(c_val, w_val)
    rows = np.array([59, 0, 31, 31, 12])
    assert np.array_equal(cut.score(texts, rows), whole.score(texts, rows))
    assert np.array_equal(cut.score(texts), whole.score(texts))
    assert cut.analyse("Cats running") == whole.analyse("Cats running")
    assert cut.params == whole.params  # asserted evidence reads BM25's k1
    assert _rankings(cut, "auto") == _rankings(whole, "auto")
    assert _rankings(cut, "fuzzy") == _rankings(whole, "fuzzy")


def test_local_dense_and_hybrid_shards_match_within_rounding() -> None:
    whole_lex, whole_dense = BM25Scorer.build(TEXTS), _dense()
    cut_dense = sharded(whole_dense, 4, LocalShards)
    for whole, cut in [
        (whole_dense, cut_dense),
        (
            HybridScorer(whole_lex, whole_dense),
            HybridScorer(sharded(whole_lex, 4, LocalShards), cut_dense),
        ),
    ]:
        for (w_rows, w_sc), (c_rows, c_sc) in zip(
            _rankings(whole, "fuzzy"), _rankings(cut, "fuzzy"), strict=True
        ):
            assert c_rows == w_rows
            np.testing.assert_allclose(c_sc, w_sc, atol=1e-5)


def test_sharded_dense_is_a_vector_space_for_the_vectors_composer() -> None:
    whole = _dense(2)
    cut = sharded(whole, 3, LocalShards)
    assert isinstance(cut, VectorScorer) and cut.dim == 16 and not cut.lexical
    q = whole.encode_queries(["cats", "tea"])
    rows = np.array([40, 2, 17])
    np.testing.assert_allclose(cut.dot(q, rows), whole.dot(q, rows), atol=1e-6)
    assert cut.search_vectors(q, 9)[0].tolist() == whole.search_vectors(q, 9)[0].tolist()
    for (w_rows, w_sc), (c_rows, c_sc) in zip(
        _rankings(whole, DENSE_VECTORS), _rankings(cut, DENSE_VECTORS), strict=True
    ):
        assert c_rows == w_rows
        np.testing.assert_allclose(c_sc, w_sc, atol=1e-5)
    assert not isinstance(sharded(BM25Scorer.build(TEXTS), 2, LocalShards), VectorScorer)


def test_each_dense_shard_gets_an_ann_index_of_the_same_kind() -> None:
    pytest.importorskip("faiss")
    from logir.index.ann import parse_ann

    exact = _dense(3)
    approx = DenseScorer(exact.embeddings).with_ann(parse_ann("ivf,nlist=4,nprobe=4"))
    approx._queries.update(exact._queries)
    cut = sharded(approx, 3, LocalShards)
    servers = cut.backend.servers  # type: ignore[attr-defined]
    assert all(s.scorer.ann is not None and s.scorer.ann.spec.kind == "ivf" for s in servers)
    q = exact.encode_queries(["cats", "tea", "owls"])
    # every cell probed: the same top lists as exact search
    assert cut.search_vectors(q, 12)[0].tolist() == exact.search_vectors(q, 12)[0].tolist()


def test_a_text_searched_again_is_answered_from_memory() -> None:
    asked: list[str] = []

    class Counting(LocalShards):
        def call(self, method, args):
            asked.append(method)
            return super().call(method, args)

    whole = BM25Scorer.build(TEXTS)
    cut = sharded(whole, 3, Counting)
    first = cut.search(["cats", "tea"], 4)
    again = cut.search(["tea", "cats", "tea"], 4)
    assert asked == ["search"]
    assert again[0].tolist() == [first[0][1].tolist(), first[0][0].tolist(), first[0][1].tolist()]
    cut.search(["tea", "owls"], 4)  # only owls is new
    cut.search(["tea"], 5)  # another k
    assert asked == ["search"] * 3
    assert cut.search(["owls"], 4)[0].tolist() == whole.search(["owls"], 4)[0].tolist()
    cut.score(["tea"], np.array([0, 1]))  # rows of the first shard only: one shard called
    assert asked[-1] == "score"


def _counting_shards(asked: list[str]) -> type[LocalShards]:
    class Counting(LocalShards):
        def call(self, method, args):
            asked.append(method)
            return super().call(method, args)

    return Counting


def _scores(composer, scorer, rows) -> list[list[float]]:
    items = [(q, rows) for q in QUERIES]
    return [np.asarray(s).tolist() for s in composer.score_many(items, scorer)]


@pytest.mark.parametrize("spec", ["auto", "exclusion,shared=0.5", "flat"])
def test_a_block_of_queries_costs_a_few_round_trips_and_the_same_numbers(spec: str) -> None:
    asked: list[str] = []
    whole = BM25Scorer.build(TEXTS)
    cut = sharded(whole, 3, _counting_shards(asked))
    for s in (whole, cut):  # asserted evidence reads the passages: its words are scored too
        attach_passages(s, TEXTS)
    queries = [*QUERIES, '"cats and fish" AND NOT "fish"', 'NOT "owls"'] * 2
    want = get_composer(spec).rank(queries, whole, 25)
    got = get_composer(spec).rank(queries, cut, 25)
    for w, g in zip(want, got, strict=True):
        assert g.doc_idx.tolist() == w.doc_idx.tolist()
        assert np.array_equal(g.scores, w.scores)
        assert {k: v.tolist() for k, v in g.evidence.items()} == {
            k: v.tolist() for k, v in w.evidence.items()
        }
    # flat texts searched at once, candidates searched at once, then one request for the rest
    assert len(asked) <= 3, asked
    asked.clear()
    rows = np.array([59, 0, 31, 12, 44, 7])
    composer = get_composer(spec)
    assert _scores(composer, cut, rows) == _scores(get_composer(spec), whole, rows)
    assert len(asked) <= 2, asked  # the texts' best scores and every score, in one request


def test_a_shorter_top_list_is_the_start_of_a_longer_one_fetched_before() -> None:
    asked: list[str] = []
    whole = BM25Scorer.build(TEXTS)
    cut = sharded(whole, 3, _counting_shards(asked))
    cut.search(["cats", "dogs tea"], 40)
    for k in (1, 7, 40):
        idx, val = cut.search(["dogs tea", "cats"], k)
        w_idx, w_val = whole.search(["dogs tea", "cats"], k)
        assert idx.tolist() == w_idx.tolist() and np.array_equal(val, w_val)
    assert asked == ["search"]
    assert sharded(_dense(4), 2, LocalShards).nested  # exact search: nested top lists
    pytest.importorskip("faiss")
    from logir.index.ann import parse_ann

    approx = DenseScorer(_dense(4).embeddings).with_ann(parse_ann("ivf,nlist=4,nprobe=1"))
    assert not sharded(approx, 2, LocalShards).nested  # an ANN's top 1 is asked for again


def test_kind_evidence_over_dense_shards_is_the_whole_scorers(monkeypatch) -> None:
    from logir.logic.kinds import kind_evidence

    whole = _dense(5)
    rng = np.random.default_rng(6)
    words = {w: rng.normal(size=16).astype(np.float32) for t in TEXTS for w in t.split()}
    words.update({"cats": words["owls"] + 0.1, "fish": rng.normal(size=16).astype(np.float32)})

    def encode_words(texts: list[str]) -> np.ndarray:
        v = np.stack([sum(words[w] for w in t.split()) for t in texts])  # a pair: its words' sum
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    monkeypatch.setattr(whole, "encode_words", encode_words, raising=False)
    cut = sharded(whole, 3, LocalShards)
    for s in (whole, cut):
        attach_passages(s, TEXTS)
    rows = np.arange(len(TEXTS))
    want = kind_evidence(whole, ["cats", "fish"], rows, 0.3, 0.1)
    assert want is not None and want.any()  # owls passages count as kinds of cats here
    got = kind_evidence(cut, ["cats", "fish"], rows, 0.3, 0.1)
    assert got is not None and np.array_equal(got, want)


def test_unshardable_retriever_is_named() -> None:
    class Other:
        name = "splade"
        n_docs = 3

    with pytest.raises(LogirError, match="'splade' cannot be sharded"):
        sharded(Other(), 2, LocalShards)  # type: ignore[arg-type]


def test_bare_ray_option_gets_the_local_address() -> None:
    assert ray_default(["eval", "demo", "--ray"]) == ["eval", "demo", "--ray", "local"]
    assert ray_default(["eval", "--ray", "demo"]) == ["eval", "--ray", "local", "demo"]
    assert ray_default(["eval", "--ray", "-s", "bm25"])[1:3] == ["--ray", "local"]
    assert ray_default(["eval", "--ray", "auto", "demo"]) == ["eval", "--ray", "auto", "demo"]
    assert ray_default(["eval", "--ray", "10.0.0.1:6379"])[-1] == "10.0.0.1:6379"
    assert ray_sharding(None, 4) is None
    with pytest.raises(LogirError, match="--shards must be from 1 to 1024, got 5000"):
        ray_sharding(None, 5000)  # a bad value is refused even without --ray
    with pytest.raises(LogirError, match="not a Ray address"):
        ray_sharding("nowhere", 4)


def test_ray_actor_shards_equal_the_whole_index() -> None:
    ray = pytest.importorskip("ray")
    from logir.index.rayshards import RayShards, connect

    connect(num_cpus=1)
    try:
        whole = BM25Scorer.build(TEXTS)
        cut = sharded(whole, 3, RayShards)
        assert _rankings(cut, "auto") == _rankings(whole, "auto")
        for s in (whole, cut):  # the asserted words too, each block in one request per actor
            attach_passages(s, TEXTS)
        assert _rankings(cut, "auto") == _rankings(whole, "auto")
        rows = np.array([59, 0, 31, 12])
        assert _scores(get_composer("auto"), cut, rows) == _scores(
            get_composer("auto"), whole, rows
        )
        whole_dense = _dense(1)
        cut_dense = sharded(whole_dense, 2, RayShards)
        for (w_rows, w_sc), (c_rows, c_sc) in zip(
            _rankings(whole_dense, "fuzzy"), _rankings(cut_dense, "fuzzy"), strict=True
        ):
            assert c_rows == w_rows
            np.testing.assert_allclose(c_sc, w_sc, atol=1e-5)
    finally:
        ray.shutdown()


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_an_unreachable_ray_address_is_refused_before_ray_tries(monkeypatch, scheme) -> None:
    pytest.importorskip("ray")
    from logir.index import rayshards
    from tests.ports import free_port

    ray = rayshards.ray_module()
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    tried: list[object] = []
    monkeypatch.setattr(ray, "init", lambda *a, **k: tried.append(k))  # Ray waits for minutes
    address = f"{scheme}127.0.0.1:{free_port()}"
    with pytest.raises(LogirError, match=f"cannot reach the Ray cluster at '{address}'"):
        rayshards.connect(address)
    with pytest.raises(LogirError, match="not a Ray address"):
        rayshards.connect("127.0.0.1:" + "9" * 5000)
    assert tried == []
