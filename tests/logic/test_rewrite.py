"""LLM query rewriting (hyde, lamer, inter, agr) against a real HTTP fake endpoint, tiny corpus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from logir.errors import LogirError
from logir.index.dense import DenseScorer
from logir.index.lexical import BM25Scorer
from logir.llm import ChatClient, LLMConfig
from logir.logic import get_composer
from logir.logic.flat import Flat
from logir.logic.registry import uses_llm
from logir.logic.rewriters.rewrite import DOWN_AFTER, Expansion, Rewriter
from tests.llm.fakeserver import FakeLLMServer, Reply
from tests.ports import free_port as closed_port

DOCS = [
    "Human heart muscle cannot regrow after a heart attack; it scars instead.",
    "The zebrafish is a small striped freshwater fish kept in laboratories around the world.",
    "Tissue engineers grow heart valves from donor cells in the laboratory.",
    "The axolotl, a Mexican salamander, keeps its larval form for life.",
    "Regular exercise keeps the heart healthy and lowers blood pressure.",
    "Sunny weather is expected all week across the region.",
    "Coral reefs shelter a quarter of all marine species.",
    "Bread dough rises when yeast ferments its sugars.",
]
QUERY = "Which animal can regrow its heart?"
OTHER = "Why does bread dough rise?"
ZEBRAFISH = "The zebrafish, a small striped freshwater fish, regrows its heart within weeks."
AXOLOTL = "The axolotl, a Mexican salamander, regrows a damaged heart."


def prompt_of(body: dict[str, Any]) -> str:
    return body["messages"][-1]["content"]


@pytest.fixture(scope="module")
def bm25() -> BM25Scorer:
    return BM25Scorer.build(DOCS)


@pytest.fixture
def client(tmp_path: Path):
    made: list[ChatClient] = []

    def make(url: str, **overrides: Any) -> ChatClient:
        values: dict[str, Any] = {
            "base_url": url,
            "model": "fake",
            "max_retries": 0,
            "backoff": 0.0,
            "cache_dir": tmp_path / "llm",
        }
        values.update(overrides)
        made.append(ChatClient(LLMConfig(**values)))
        return made[-1]

    yield make
    for c in made:
        c.close()


def rewriter(spec: str, llm: ChatClient) -> Rewriter:
    comp = get_composer(spec, llm=llm, passages=DOCS)
    assert isinstance(comp, Rewriter)
    return comp


def test_flat_puts_the_distractor_first(bm25: BM25Scorer) -> None:
    assert Flat().rank([QUERY], bm25, 3)[0].doc_idx[0] == 0


def test_hyde_asks_n_samples_and_the_passage_decides_the_ranking(bm25, client) -> None:
    with FakeLLMServer(ZEBRAFISH) as srv:
        hyde = rewriter("hyde,n=3", client(srv.base_url))
        ranking = hyde.rank([QUERY], bm25, 5)[0]
    assert len(srv.requests) == 3
    assert sorted(b["seed"] for b in srv.requests) == [0, 1, 2]
    assert all(b["temperature"] == 0.5 for b in srv.requests)
    assert all(QUERY in prompt_of(b) for b in srv.requests)
    # the hypothetical passage shares its words with the zebrafish passage only
    assert ranking.doc_idx[0] == 1
    assert list(ranking.evidence) == ["hyde: query + 3 LLM passages"]
    assert hyde.expansion(QUERY, bm25) == Expansion(QUERY, (ZEBRAFISH,) * 3)
    assert hyde.stats() == {
        "queries": 1,
        "fallbacks": 0,
        "endpoint_failures": 0,
        "unusable_answers": 0,
        "last_error": None,
    }
    # BM25 reads the query once per passage, then the passages
    assert Expansion(QUERY, ("a", "b")).text == f"{QUERY} {QUERY} a b"
    np.testing.assert_array_equal(hyde.score(QUERY, bm25, ranking.doc_idx), ranking.scores)
    np.testing.assert_allclose(
        ranking.scores, bm25.score([Expansion(QUERY, (ZEBRAFISH,) * 3).text], ranking.doc_idx)[0]
    )


def test_lamer_shows_the_retrieved_candidates_and_retrieves_with_the_answers(bm25, client):
    def answer(body: dict[str, Any]) -> str:
        # the axolotl passage is a flat candidate: an LLM that reads it can name the animal
        return AXOLOTL if "Mexican salamander" in prompt_of(body) else "I do not know."

    with FakeLLMServer(answer) as srv:
        lamer = rewriter("lamer,depth=2,n=2", client(srv.base_url))
        ranking = lamer.rank([QUERY], bm25, 5)[0]
    flat_top = Flat().rank([QUERY], bm25, 2)[0].doc_idx
    assert list(flat_top) == [0, 3]
    assert len(srv.requests) == 2
    for body in srv.requests:
        prompt = prompt_of(body)
        assert QUERY in prompt
        assert DOCS[0] in prompt and DOCS[3] in prompt
        assert DOCS[1] not in prompt  # only the top `depth` candidates
    assert ranking.doc_idx[0] == 3
    assert lamer.expansion(QUERY, bm25).passages == (AXOLOTL, AXOLOTL)


def test_inter_feeds_the_first_rounds_retrieval_into_the_second(bm25, client) -> None:
    def answer(body: dict[str, Any]) -> str:
        prompt = prompt_of(body)
        if "Retrieved passages" not in prompt:
            return ZEBRAFISH  # round 1: the LLM's own knowledge
        return AXOLOTL if DOCS[1] in prompt else "I do not know."

    with FakeLLMServer(answer) as srv:
        one = rewriter("inter,rounds=1,n=2", client(srv.base_url))
        assert one.rank([QUERY], bm25, 5)[0].doc_idx[0] == 1
        assert len(srv.requests) == 2
        two = rewriter("inter,rounds=2,depth=1,n=2", client(srv.base_url))
        ranking = two.rank([QUERY], bm25, 5)[0]
    second = [prompt_of(b) for b in srv.requests if "Retrieved passages" in prompt_of(b)]
    # round 1 answers come from the cache; round 2 asks twice, showing round 1's top passage
    assert len(srv.requests) == 4 and len(second) == 2
    assert all(DOCS[1] in p and DOCS[0] not in p for p in second)
    assert ranking.doc_idx[0] == 3
    assert two.expansion(QUERY, bm25).passages == (AXOLOTL, AXOLOTL)


def test_agr_analyses_generates_per_search_query_and_refines(bm25, client) -> None:
    analysis = (
        '{"needs": "an animal whose heart regrows", "queries": ["zebrafish fish", "axolotl"]}'
    )

    def answer(body: dict[str, Any]) -> str:
        prompt = prompt_of(body)
        if "JSON object" in body["messages"][1]["content"]:
            # the first analysis has no search queries; the client asks again, naming the problem
            return (
                f"```json\n{analysis}\n```" if "could not be used" in prompt else '{"queries": []}'
            )
        if "Candidate answers" in prompt:
            return ZEBRAFISH if ZEBRAFISH in prompt and AXOLOTL in prompt else "I do not know."
        if "search query 'zebrafish fish'" in prompt:
            return ZEBRAFISH if DOCS[1] in prompt else "I do not know."
        return AXOLOTL if DOCS[3] in prompt else "I do not know."

    with FakeLLMServer(answer) as srv:
        agr = rewriter("agr,depth=1", client(srv.base_url))
        ranking = agr.rank([QUERY], bm25, 5)[0]
    assert len(srv.requests) == 5  # analysis, its repair, two grounded answers, one refinement
    assert agr.expansion(QUERY, bm25).passages == (ZEBRAFISH,)
    assert ranking.doc_idx[0] == 1
    assert agr.stats()["fallbacks"] == 0


def test_answers_are_cached_on_disk(bm25, client) -> None:
    with FakeLLMServer(ZEBRAFISH) as srv:
        first = rewriter("hyde,n=2", client(srv.base_url)).rank([QUERY], bm25, 5)[0]
        again_client = client(srv.base_url)
        again = rewriter("hyde,n=2", again_client).rank([QUERY], bm25, 5)[0]
    assert len(srv.requests) == 2
    assert again_client.usage.requests == 0 and again_client.usage.cache_hits == 2
    np.testing.assert_array_equal(first.doc_idx, again.doc_idx)


@pytest.mark.parametrize(
    "spec", ["hyde,n=2", "lamer,depth=3,n=2", "inter,depth=3,n=2", "agr,depth=3"]
)
def test_endpoint_down_falls_back_to_flat(bm25, client, spec: str) -> None:
    llm = client(f"http://127.0.0.1:{closed_port()}/v1", concurrency=2)
    comp = rewriter(spec, llm)
    queries = [QUERY, OTHER, "coral reefs", "heart valves", "sunny weather"]
    got = comp.rank(queries, bm25, 6)
    want = Flat().rank(queries, bm25, 6)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g.doc_idx, w.doc_idx)
        np.testing.assert_array_equal(g.scores, w.scores)
    np.testing.assert_array_equal(
        comp.score(QUERY, bm25, np.arange(len(DOCS))),
        Flat().score(QUERY, bm25, np.arange(len(DOCS))),
    )
    stats = comp.stats()
    assert stats["queries"] == 5 and stats["fallbacks"] == 5
    assert "connection failed" in stats["last_error"]
    # after DOWN_AFTER failures in a row the endpoint is taken to be down: no more requests
    assert 0 < llm.usage.failures <= DOWN_AFTER + llm.workers - 1


def test_one_failing_query_falls_back_alone(bm25, client) -> None:
    def answer(body: dict[str, Any]) -> Reply | str:
        return Reply(status=500) if OTHER in prompt_of(body) else ZEBRAFISH

    with FakeLLMServer(answer) as srv:
        hyde = rewriter("hyde,n=2", client(srv.base_url))
        got = hyde.rank([QUERY, OTHER], bm25, 4)
    flat = Flat().rank([OTHER], bm25, 4)[0]
    assert got[0].doc_idx[0] == 1
    np.testing.assert_array_equal(got[1].doc_idx, flat.doc_idx)
    np.testing.assert_array_equal(got[1].scores, flat.scores)
    assert hyde.stats()["fallbacks"] == 1 and "HTTP 500" in hyde.stats()["last_error"]
    assert hyde.stats()["endpoint_failures"] >= 1 and hyde.stats()["unusable_answers"] == 0


def test_empty_answers_are_unusable_not_endpoint_failures(bm25, client) -> None:
    with FakeLLMServer("  ") as srv:
        hyde = rewriter("hyde,n=2", client(srv.base_url))
        hyde.rank([QUERY], bm25, 4)
    stats = hyde.stats()
    assert stats["fallbacks"] == 1 and stats["endpoint_failures"] == 0
    assert stats["unusable_answers"] == 2 and "empty message" in stats["last_error"]


class ToyDense(DenseScorer):
    """A dense scorer whose text embeddings are given, not computed."""

    def __init__(self, docs: np.ndarray, texts: dict[str, list[float]]) -> None:
        super().__init__(np.asarray(docs, dtype=np.float32), model="toy")
        self.texts = texts

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.array([self.texts[t] for t in texts], dtype=np.float32)


def test_hyde_on_vectors_averages_query_and_passages(client) -> None:
    docs = np.array([[1, 0, 0], [0, 1, 0], [0.8, 0.6, 0], [0, 0, 1]])
    dense = ToyDense(docs, {QUERY: [1, 0, 0], ZEBRAFISH: [0, 1, 0]})
    with FakeLLMServer(ZEBRAFISH) as srv:
        ranking = rewriter("hyde,n=3", client(srv.base_url)).rank([QUERY], dense, 4)[0]
    # the query vector is (q + 3 p) / 4 = [0.25, 0.75, 0]
    assert list(ranking.doc_idx) == [1, 2, 0, 3]
    np.testing.assert_allclose(ranking.scores, [0.75, 0.65, 0.25, 0.0], rtol=1e-6)
    assert list(Flat().rank([QUERY], dense, 4)[0].doc_idx) == [0, 2, 1, 3]


@pytest.mark.dense
def test_hyde_on_minilm(client) -> None:
    pytest.importorskip("sentence_transformers")
    dense = DenseScorer.build(DOCS)
    with FakeLLMServer(ZEBRAFISH) as srv:
        hyde = rewriter("hyde,n=2", client(srv.base_url))
        ranking = hyde.rank([QUERY], dense, 8)[0]
    assert ranking.doc_idx[0] == 1
    vec = dense.encode_queries([QUERY, ZEBRAFISH, ZEBRAFISH]).mean(axis=0, keepdims=True)
    np.testing.assert_allclose(ranking.scores, dense.dot(vec, ranking.doc_idx)[0], rtol=1e-5)
    np.testing.assert_array_equal(hyde.score(QUERY, dense, ranking.doc_idx), ranking.scores)


def test_registry_and_errors() -> None:
    assert uses_llm("hyde,n=2") and uses_llm("lamer") and uses_llm("inter")
    assert not uses_llm("flat") and not uses_llm("fuzzy,and=min")
    with pytest.raises(LogirError, match="'hyde' rewrites queries with an LLM.*--llm-base-url"):
        get_composer("hyde")
    with pytest.raises(LogirError, match="with an LLM endpoint: agr, hyde, inter, lamer"):
        get_composer("hide")
    llm = ChatClient(LLMConfig(base_url="http://127.0.0.1:9/v1", model="m", cache_dir=None))
    with pytest.raises(LogirError, match="'rounds'.*from 1 to 64"):
        get_composer("inter,rounds=0", llm=llm)
    with pytest.raises(LogirError, match="unknown parameter 'rounds' for composer 'lamer'"):
        get_composer("lamer,rounds=2", llm=llm)
    comp = get_composer("inter,rounds=3,depth=5,n=2,temperature=0", llm=llm)
    assert (comp.rounds, comp.depth, comp.n, comp.temperature) == (3, 5, 2, 0.0)
    llm.close()


def test_lamer_needs_the_corpus_texts(bm25, client) -> None:
    with FakeLLMServer(ZEBRAFISH) as srv:
        lamer = get_composer("lamer", llm=client(srv.base_url))
        with pytest.raises(LogirError, match="needs the corpus texts"):
            lamer.rank([QUERY], bm25, 3)
