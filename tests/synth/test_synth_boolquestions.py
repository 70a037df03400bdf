"""The BoolQuestions synthesis pipeline: clustering, units per cluster and operator, question
generation, cyclic-consistency filtering, positives and explicit negatives, and
`logir synth boolquestions` end to end against a fake LLM endpoint."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from logir.data.beir import load_beir
from logir.data.dataset import Document
from logir.errors import LogirError
from logir.llm import ChatClient, LLMConfig
from logir.query.ast import And, Not, Or, Term
from logir.query.syntax import parse
from logir.synth.base import ItemFailed
from logir.synth.boolquestions import BoolQuestionsPipeline
from logir.synth.clustering import cluster, embed
from logir.synth.runner import run_synthesis
from tests.clirun import logir
from tests.llm.fakeserver import FakeLLMServer

TOPICS = {
    "coffee": ["espresso beans roasting", "arabica harvest altitude", "barista grinder crema",
               "caffeine brewing filter"],
    "volcano": ["magma eruption crater", "lava basalt flow", "ash plume eruption",
                "caldera magma chamber"],
    "tennis": ["racket serve volley", "grand slam tournament court", "baseline rally racket",
               "tiebreak umpire court"],
    "orchids": ["orchid petals pollinator", "epiphyte orchid roots", "greenhouse orchid bloom",
                "vanilla orchid vine"],
}  # fmt: skip


def topic_corpus() -> list[Document]:
    docs = []
    for topic, notes in TOPICS.items():
        for j, words in enumerate(notes):
            docs.append(
                Document(
                    f"{topic}-{j}",
                    f"This {topic} passage explains {words} and more {topic} {words} details.",
                )
            )
    return docs


TAG = re.compile(r"\{pos:([^}]*)\}")


def tagged(ids: list[str] | set[str]) -> str:
    return "{pos:" + ",".join(sorted(ids)) + "}"


def user_prompt(body: dict[str, Any]) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def responder(*, judge: str = "honest") -> Any:
    """One responder for a whole run; questions carry a {pos:...} tag naming the passages that
    answer them, so the answerer can judge honestly ("honest"), or always say yes ("yes") or
    no ("no") to make the cyclic-consistency check fail."""

    def answer(body: dict[str, Any]) -> str:
        prompt = user_prompt(body)
        ids = re.findall(r"\[passage id: ([^\]]+)\]", prompt)
        if prompt.startswith("Write one question that the passage below answers"):
            return json.dumps({"question": f"what about {ids[0].split('-')[0]} {tagged(ids)}"})
        if prompt.startswith("Write one question that each of the passages"):
            return json.dumps({"question": f"which {ids[0].split('-')[0]} facts {tagged(ids)}"})
        if "conjunction (AND)" in prompt:
            pos = re.search(r"\[positive\] \[passage id: ([^\]]+)\]", prompt).group(1)  # type: ignore[union-attr]
            return json.dumps({"question": f"narrow question {tagged([pos])}",
                               "constraint": f"only {pos}"})  # fmt: skip
        if "disjunction (OR)" in prompt:
            a, b = (set(t.split(",")) for t in TAG.findall(prompt))
            return json.dumps({"question": f"either one {tagged(a | b)}"})
        if "negation (NOT)" in prompt:
            a, b = (set(t.split(",")) for t in TAG.findall(prompt))
            return json.dumps({"question": f"all but one {tagged(a - b)}"})
        if prompt.startswith("Does the passage below answer the question?"):
            question = prompt.split("Question: ", 1)[1].split("\n", 1)[0]
            positives = set(TAG.search(question).group(1).split(","))  # type: ignore[union-attr]
            yes = {"honest": ids[0] in positives, "yes": True, "no": False}[judge]
            return json.dumps({"answerable": "yes" if yes else "no",
                               "answer": "it says so" if yes else ""})  # fmt: skip
        raise AssertionError(f"unexpected prompt: {prompt[:80]}")

    return answer


def client_for(srv: FakeLLMServer) -> ChatClient:
    return ChatClient(LLMConfig(srv.base_url, "fake", cache_dir=None, backoff=0.01))


def tfidf(**options: Any) -> BoolQuestionsPipeline:
    return BoolQuestionsPipeline(embed="tfidf", clusters=4, **options)


# -- clustering ----------------------------------------------------------------------------


def test_tfidf_svd_agglomerative_clusters_recover_the_topics():
    corpus = topic_corpus()
    matrix = embed([d.text for d in corpus], "tfidf")
    # as many SVD dimensions as topics: with 8 on these 16 passages of 49 words, the exact SVD
    # keeps directions within a topic and ward joins one volcano passage to coffee (scikit-learn
    # 1.9's randomized SVD found it too; earlier versions' happened not to)
    groups = cluster(matrix, n_clusters=4, dim=4, seed=0)
    assert groups == cluster(matrix, n_clusters=4, dim=4, seed=0)
    topics = [{corpus[r].id.split("-")[0] for r in g} for g in groups]
    assert all(len(t) == 1 for t in topics)
    assert sorted(len(g) for g in groups) == [4, 4, 4, 4]
    assert [g[0] for g in groups] == sorted(g[0] for g in groups)


def test_cluster_edge_cases():
    assert cluster(np.zeros((0, 3)), 2, 2, 0) == []
    assert cluster(np.ones((1, 3)), 2, 2, 0) == [[0]]
    assert cluster(np.eye(3), 1, 2, 0) == [[0, 1, 2]]
    assert sorted(map(len, cluster(np.eye(4), 10, 2, 0))) == [1, 1, 1, 1]  # at most one per row
    with pytest.raises(LogirError, match="unknown embedding"):
        embed(["a"], "word2vec")
    with pytest.raises(LogirError, match="no words"):
        embed(["the", "and"], "tfidf")


# -- units ---------------------------------------------------------------------------------


def test_units_are_deterministic_and_label_positives_and_negatives_by_operator():
    corpus = topic_corpus()
    pipe = tfidf(per_cluster=2)
    units = list(pipe.units(corpus, seed=1))
    assert [u.payload for u in units] == [u.payload for u in pipe.units(corpus, seed=1)]
    assert len({u.key for u in units}) == len(units) == 4 * 2 * 3
    assert [u.payload["operator"] for u in units[:3]] == ["and", "or", "not"]
    for u in units:
        p = u.payload
        ids = [x["id"] for x in p["passages"]]
        assert 2 <= len(ids) <= 3
        assert len({i.split("-")[0] for i in ids}) == 1  # one cluster = one topic here
        assert sorted(p["positives"] + p["negatives"]) == sorted(ids)
        expected_pos = {"and": 1, "or": 2, "not": len(ids) - 1}[p["operator"]]
        assert len(p["positives"]) == expected_pos
        assert re.fullmatch(r"[A-Za-z0-9:._+~-]+", u.key)
        json.dumps(p)


def test_simple_and_disjunctive_operators_and_option_parsing():
    pipe = tfidf(operators="simple, disjunctive", per_cluster="1")
    units = list(pipe.units(topic_corpus(), seed=0))
    assert [u.payload["operator"] for u in units[:2]] == ["simple", "disjunctive"]
    simple, disj = units[0].payload, units[1].payload
    assert len(simple["passages"]) == 1 and simple["negatives"] == []
    assert disj["negatives"] == [] and len(disj["positives"]) == len(disj["passages"])


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        ({"embed": "word2vec"}, "embed must be dense or tfidf"),
        ({"operators": "and,xor"}, "unknown xor"),
        ({"per_cluster": 0}, "per_cluster must be an integer >= 1"),
        ({"clusters": -1}, "clusters must be an integer >= 0"),
    ],
)
def test_bad_options_raise_logir_errors(options: dict[str, Any], needle: str):
    with pytest.raises(LogirError, match=re.escape(needle)):
        BoolQuestionsPipeline(**options)


def test_corpus_too_small_to_cluster_is_a_logir_error():
    with pytest.raises(LogirError, match="at least 2 passages"):
        list(tfidf().units([Document("a", "short text here")], 0))


def test_max_docs_samples_before_clustering():
    pipe = BoolQuestionsPipeline(embed="tfidf", clusters=2, max_docs=6)
    clusters = pipe.clusters_of(topic_corpus(), seed=3)
    assert sum(map(len, clusters)) == 6
    assert clusters == pipe.clusters_of(topic_corpus(), seed=3)


# -- make and assemble ---------------------------------------------------------------------


def test_every_operator_makes_an_item_with_labels_and_logical_form():
    corpus = topic_corpus()
    pipe = tfidf(operators="and,or,not,simple,disjunctive")
    units = list(pipe.units(corpus, seed=2))[:5]
    with FakeLLMServer(responder()) as srv, client_for(srv) as client:
        items = [pipe.make(u, client) for u in units]
    json.dumps(items)
    by_op = {i["operator"]: i for i in items}
    assert set(by_op) == {"and", "or", "not", "simple", "disjunctive"}
    a, o, n = by_op["and"], by_op["or"], by_op["not"]
    constraint = a["atoms"]["constraint"]
    assert parse(a["logical_form"]) == And(Term(a["atoms"]["disjunctive"]), Term(constraint))
    first, second = (o["atoms"]["simple"][p] for p in o["positives"])
    assert parse(o["logical_form"]) == Or(Term(first), Term(second))
    excluded = n["atoms"]["simple"][n["negatives"][0]]
    assert parse(n["logical_form"]) == And(Term(n["atoms"]["disjunctive"]), Not(Term(excluded)))
    assert by_op["simple"]["logical_form"] is None
    for item in items:  # the cyclic check answered from every labelled passage
        assert set(item["answers"]) == set(item["positives"]) | set(item["negatives"])
    asked = [user_prompt(b) for b in srv.requests]
    checks = sum(p.startswith("Does the passage below answer") for p in asked)
    assert checks == sum(len(i["positives"]) + len(i["negatives"]) for i in items)
    ds = pipe.assemble(items, corpus)
    assert ds.corpus == corpus
    for item, topic in zip(items, ds.queries, strict=True):
        assert topic.type == item["operator"] and topic.text == item["question"]
        assert ds.qrels[topic.id] == dict.fromkeys(item["positives"], 1)
        assert ds.violating.get(topic.id, []) == item["negatives"]
    assert ds.topic(n["qid"]).facets == {"type": "not", "negations": "1"}


@pytest.mark.parametrize(
    ("judge", "operator", "needle"),
    [
        ("yes", "not", "negative passage .+ answers the question"),
        ("yes", "and", "negative passage .+ answers the question"),
        ("no", "or", "positive passage .+ does not answer the question"),
    ],
)
def test_cyclic_consistency_failure_fails_the_unit_with_its_reason(
    judge: str, operator: str, needle: str
):
    pipe = tfidf(operators=operator)
    unit = next(pipe.units(topic_corpus(), seed=0))
    with (
        FakeLLMServer(responder(judge=judge)) as srv,
        client_for(srv) as client,
        pytest.raises(ItemFailed, match="cyclic consistency failed: " + needle),
    ):
        pipe.make(unit, client)


def test_runner_records_consistency_failures(tmp_path: Path):
    corpus = topic_corpus()
    pipe = tfidf(operators="or,not")
    with FakeLLMServer(responder(judge="yes")) as srv, client_for(srv) as client:
        summary = run_synthesis(pipe, corpus, client, tmp_path / "out", seed=0)
    # every OR unit with 2 candidates has no negative, so "yes" to all keeps it
    assert summary.failed >= 4 and summary.ok + summary.failed == 8
    reasons = [f["reason"] for f in summary.failures]
    assert all(r.startswith("cyclic consistency failed: negative passage") for r in reasons)
    lines = (tmp_path / "out" / "checkpoint.jsonl").read_text().splitlines()
    records = [json.loads(x) for x in lines]
    assert {r["key"] for r in records if r["status"] == "failed"} == {
        f["key"] for f in summary.failures
    }


# -- end to end: the command line ----------------------------------------------------------


def synth_cli(tmp_path: Path, *opts: str) -> Path:
    corpus, out = tmp_path / "corpus.jsonl", tmp_path / "bq"
    with corpus.open("w", encoding="utf-8") as fh:
        for d in topic_corpus():
            fh.write(json.dumps({"_id": d.id, "text": d.text}) + "\n")
    with FakeLLMServer(responder()) as srv:
        proc = logir(
            "synth", "boolquestions", "--corpus", str(corpus), "--out", str(out),
            "--opt", "clusters=4", "--opt", "per_cluster=1", *opts,
            "--llm-base-url", srv.base_url, "--llm-no-cache",
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return out


def test_cli_synth_boolquestions_then_eval_bm25(tmp_path: Path):
    out = synth_cli(tmp_path, "--opt", "embed=tfidf")
    ds = load_beir(out)
    assert len(ds.queries) == 12
    assert {t.type for t in ds.queries} == {"and", "or", "not"}
    assert all(ds.violating[t.id] for t in ds.queries if t.type in ("and", "not"))
    assert len(ds.corpus) == 16
    proc = logir("eval", "beir", "--data", str(out), "-s", "bm25")
    assert proc.returncode == 0, proc.stderr
    assert "bm25" in proc.stdout


def test_cli_rejects_a_bad_option_cleanly(tmp_path: Path):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps({"_id": "a", "text": "x"}) + "\n")
    proc = logir(
        "synth", "boolquestions", "--corpus", str(corpus), "--out", str(tmp_path / "o"),
        "--opt", "embed=word2vec", "--llm-base-url", "http://127.0.0.1:9/v1",
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.startswith("error:") and "embed must be dense or tfidf" in proc.stderr


@pytest.mark.dense
def test_cli_synth_boolquestions_dense_embeddings_then_eval_dense(tmp_path: Path):
    out = synth_cli(tmp_path)  # embed=dense is the default
    ds = load_beir(out)
    assert ds.queries and all(ds.qrels[t.id] for t in ds.queries)
    proc = logir("eval", "beir", "--data", str(out), "-s", "dense")
    assert proc.returncode == 0, proc.stderr
    assert "dense" in proc.stdout
