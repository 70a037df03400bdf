"""The ComLQ synthesis pipeline: units, the subgraph-guided prompt, the conformity check, graded
qrels, distractors, and `logir synth comlq` end to end against a fake LLM endpoint."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from logir.data.beir import load_beir, write_beir
from logir.data.benchmarks.comlq import COMLQ_TYPES, load_comlq
from logir.data.dataset import Document
from logir.errors import LogirError
from logir.llm import ChatClient, LLMConfig
from logir.query.ast import negated_terms
from logir.query.syntax import parse
from logir.synth.base import ItemFailed, Unit
from logir.synth.comlq import ComLQPipeline, generation_validator, logical_form
from logir.synth.comlq_types import QUERY_TYPES
from logir.synth.runner import run_synthesis
from tests.clirun import logir
from tests.llm.fakeserver import FakeLLMServer

NEGATED_AT = {"2in": 1, "3in": 2, "inp": 1, "pin": 2, "pni": 1}

TOPICS = {
    "Danube": ["river", "Vienna", "Budapest"],
    "Jupiter": ["planet", "moons", "storm"],
    "Marie Curie": ["physicist", "polonium", "Warsaw"],
    "Queen band": ["Mercury", "album", "stadium"],
    "Andes": ["mountains", "Bolivia", "glaciers"],
    "Penguins": ["birds", "Antarctica", "krill"],
}
OTHER = ["Volcano", "Chess", "Saffron", "Origami", "Lighthouse", "Tango"]


def tiny_corpus() -> list[Document]:
    docs = []
    for t, (title, words) in enumerate(TOPICS.items()):
        for j, w in enumerate(words):
            docs.append(
                Document(
                    f"t{t}p{j}",
                    f"{title} passage {j} tells about the {w} of {title} in plain words.",
                    title,
                )
            )
    for k, title in enumerate(OTHER):
        docs.append(Document(f"x{k}", f"An unrelated note on {title.lower()} craft.", title))
    return docs


def user_prompt(body: dict[str, Any]) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def good_sample(prompt: str) -> dict[str, Any]:
    """A well-formed answer to a generation prompt, read off the prompt itself."""
    name = re.search(r"Write one ComLQ query of type (\w+)\.", prompt).group(1)  # type: ignore[union-attr]
    qtype = QUERY_TYPES[name]
    ids = re.findall(r"^\[passage id: ([^\]]+)\]", prompt, re.M)
    texts = re.findall(r"^\[passage id: [^\]]+\] (.+)$", prompt, re.M)
    words = " ".join(" ".join(t.split()[3:7]) for t in texts)
    triplets = []
    for i in range(qtype.edges):
        rel = ("NOT " if NEGATED_AT.get(name) == i else "") + f"relation {i}"
        triplets.append([f"entity {i}" if i % 2 == 0 else "?v", rel, "?t"])
    return {
        "query": f"Which {name} answer concerns {words}?",
        "answer": "the answer",
        "triplets": triplets,
        "evidence": ids,
    }


def responder(*, reject: set[str] = frozenset(), broken_first: bool = False) -> Any:
    """One responder for a whole run: it answers generation and review prompts by content.

    `reject`: types the reviewer refuses. `broken_first`: the first answer of each generation
    conversation has a wrong triplet count (the pipeline's validator makes the client repair it).
    """

    def answer(body: dict[str, Any]) -> str:
        prompt = user_prompt(body)
        if prompt.startswith("Write one ComLQ query"):
            sample = good_sample(prompt)
            repaired = any(m["role"] == "assistant" for m in body["messages"])
            if broken_first and not repaired:
                sample["triplets"] = sample["triplets"] + [["extra", "relation", "?t"]]
            return json.dumps(sample)
        if prompt.startswith("Review a query that should have the ComLQ structure"):
            name = re.search(r"ComLQ structure (\w+)\.", prompt).group(1)  # type: ignore[union-attr]
            if name in reject:
                return json.dumps({"conforms": "no", "reason": f"the {name} query is a chain"})
            return json.dumps({"conforms": "yes", "reason": "matches the indicator"})
        raise AssertionError(f"unexpected prompt: {prompt[:80]}")

    return answer


def client_for(srv: FakeLLMServer) -> ChatClient:
    return ChatClient(LLMConfig(srv.base_url, "fake", cache_dir=None, backoff=0.01))


# -- the type table ------------------------------------------------------------------------


def test_type_table_covers_the_fourteen_types_and_its_demos_pass_the_validator():
    assert tuple(QUERY_TYPES) == COMLQ_TYPES
    for name, qtype in QUERY_TYPES.items():
        demo = qtype.demo["output"]
        labels = list(qtype.demo["passages"])
        checked = generation_validator(qtype, labels)(demo)
        assert checked["evidence"] == labels, name
        assert ("n" in name) == (qtype.negations == 1), name
        assert (qtype.max_passages == 1) == (name == "1p"), name


def test_logical_form_follows_the_type_shape():
    t2in = [["lighting", "uses noble gas", "?t"], ["radioactive elements", "NOT include", "?t"]]
    form = logical_form(QUERY_TYPES["2in"], t2in)
    assert form == '"lighting uses noble gas" AND NOT "radioactive elements include"'
    assert parse(form) is not None
    pni = QUERY_TYPES["pni"].demo["output"]["triplets"]
    query = parse(logical_form(QUERY_TYPES["pni"], pni))  # type: ignore[arg-type]
    negated = [t.text for t in negated_terms(query)]
    assert negated == ["phases of Venus first observed by discovered"]
    up = QUERY_TYPES["up"].demo["output"]["triplets"]
    assert logical_form(QUERY_TYPES["up"], up) == (
        '("Apple founded by" OR "Microsoft founded by") AND "born in"'
    )
    assert logical_form(QUERY_TYPES["2p"], QUERY_TYPES["2p"].demo["output"]["triplets"]) is None
    # a part with no constant word gives no form rather than an empty term
    assert logical_form(QUERY_TYPES["2i"], [["?a", "?b", "?t"], ["x", "r", "?t"]]) is None


@pytest.mark.parametrize(
    ("answer", "needle"),
    [
        ({"query": "q", "answer": "a", "triplets": [["a", "r", "?t"]], "evidence": ["p1"]},
         "exactly 2"),
        ({"query": "q", "answer": "a", "triplets": [["a", "r", "?t"], ["b", "r", "?t"]],
          "evidence": ["p1"]}, "negated triplet"),
        ({"query": "q", "answer": "a", "triplets": [["a", "r", "?t"], ["b", "NOT r", "?t"]],
          "evidence": ["p1", "p9"]}, "p9 is not among"),
        ({"query": "q", "answer": "a", "triplets": [["a", "r", "?t"], ["b", "NOT r", "?t"]],
          "evidence": ["p1"]}, "missing p2"),
        ({"query": "", "answer": "a", "triplets": [], "evidence": []}, '"query"'),
        ({"query": "q", "answer": "a", "triplets": [["a", "r"], ["b", "NOT r", "?t"]],
          "evidence": ["p1", "p2"]}, "triplet 1"),
        (["not", "an", "object"], "JSON object"),
    ],
)  # fmt: skip
def test_generation_validator_names_what_is_wrong(answer: Any, needle: str):
    validate = generation_validator(QUERY_TYPES["2in"], ["p1", "p2"])
    with pytest.raises(ValueError, match=re.escape(needle)):
        validate(answer)


def test_generation_validator_cleans_a_good_answer():
    validate = generation_validator(QUERY_TYPES["2in"], ["p1", "p2"])
    got = validate(
        {
            "query": " Which  x? ",
            "answer": ["a", "b"],
            "triplets": [["a", "r", "?t"], ["b", "¬ r", "?t"]],
            "evidence": ["p2", "p1", "p2"],
        }
    )
    assert got == {
        "query": "Which x?",
        "answer": "a, b",
        "triplets": [["a", "r", "?t"], ["b", "¬ r", "?t"]],
        "evidence": ["p2", "p1"],
    }


# -- units ---------------------------------------------------------------------------------


def test_units_are_deterministic_interleaved_and_grouped_by_title():
    corpus = tiny_corpus()
    pipe = ComLQPipeline(per_type=3, distractors=2)
    units = list(pipe.units(corpus, seed=7))
    again = list(pipe.units(corpus, seed=7))
    assert [u.key for u in units] == [u.key for u in again]
    assert [u.payload for u in units] == [u.payload for u in again]
    assert [u.key for u in units] != [u.key for u in pipe.units(corpus, seed=8)]
    assert len({u.key for u in units}) == len(units) == 3 * 14
    assert [u.payload["type"] for u in units[:14]] == list(COMLQ_TYPES)
    by_id = {d.id: d for d in corpus}
    used_titles = {u.payload["title"] for u in units}
    for u in units:
        qtype = QUERY_TYPES[u.payload["type"]]
        ids = [p["id"] for p in u.payload["passages"]]
        assert 1 <= len(ids) <= qtype.max_passages
        assert {by_id[i].title for i in ids} == {u.payload["title"]}
        assert re.fullmatch(r"[A-Za-z0-9:._+~-]+", u.key)
        assert len(u.payload["distractors"]) == 2
        for d in u.payload["distractors"]:
            assert by_id[d].title not in used_titles
        json.dumps(u.payload)  # JSON-serialisable
    counts = Counter(len(u.payload["passages"]) for u in units)
    assert counts[2] and counts[3]  # evidence spread over several passages happens


def test_units_respect_options():
    corpus = tiny_corpus()
    units = list(ComLQPipeline(types="2in, 1p", per_type=2, max_passages=1).units(corpus, 0))
    assert [u.payload["type"] for u in units] == ["2in", "1p", "2in", "1p"]
    assert all(len(u.payload["passages"]) == 1 for u in units)
    assert ComLQPipeline(types=["pin"], per_type="2").per_type == 2


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        ({"types": "2in,9x"}, "unknown 9x"),
        ({"types": ""}, "types: empty"),
        ({"per_type": 0}, "per_type must be an integer >= 1"),
        ({"distractors": "many"}, "distractors"),
        ({"full_corpus": "maybe"}, "full_corpus must be true or false"),
    ],
)
def test_bad_options_raise_logir_errors(options: dict[str, Any], needle: str):
    with pytest.raises(LogirError, match=re.escape(needle)):
        ComLQPipeline(**options)


def test_empty_corpus_is_a_logir_error():
    with pytest.raises(LogirError, match="empty"):
        list(ComLQPipeline().units([], 0))


# -- make and assemble ---------------------------------------------------------------------


def test_make_and_assemble_give_graded_qrels_types_forms_and_disjoint_distractors(tmp_path):
    corpus = tiny_corpus()
    pipe = ComLQPipeline(per_type=1, distractors=2)
    units = list(pipe.units(corpus, seed=3))
    with FakeLLMServer(responder(broken_first=True)) as srv, client_for(srv) as client:
        items = [pipe.make(u, client) for u in units]
        assert client.usage.repairs == len(units)  # each broken first answer was repaired
    repair = next(b for b in srv.requests if len(b["messages"]) > 2)
    assert "exactly" in repair["messages"][-1]["content"]
    json.dumps(items)
    ds = pipe.assemble(items, corpus)
    assert len(ds.queries) == 14
    by_id = {d.id: d for d in corpus}
    gold_titles = set()
    for topic, item in zip(ds.queries, items, strict=True):
        evidence = item["evidence"]
        assert topic.type == f"{item['type']}_{len(evidence)}"
        assert topic.facets["type"] == item["type"]
        assert topic.meta["answer"] == "the answer"
        assert topic.meta["triplets"] == item["triplets"]
        grades = set(ds.qrels[topic.id].values())
        assert grades == ({2} if len(evidence) == 1 else {1})
        assert list(ds.qrels[topic.id]) == evidence
        gold_titles |= {by_id[e].title for e in evidence}
        if item["type"] in NEGATED_AT:
            assert len(negated_terms(parse(topic.logical_form))) == 1
        elif item["type"] in ("1p", "2p", "3p"):
            assert topic.logical_form is None
    gold = {e for r in ds.qrels.values() for e in r}
    distractors = [d for d in ds.corpus if d.id not in gold]
    assert distractors, "distractor passages are added to the corpus"
    assert all(d.title not in gold_titles for d in distractors)
    assert len(ds.corpus) < len(corpus)
    # the written folder is a ComLQ folder: the benchmark adapter reads it back
    write_beir(ds, tmp_path / "out")
    again = load_comlq(tmp_path / "out")
    assert [t.type for t in again.queries] == [t.type for t in ds.queries]
    assert again.qrels == ds.qrels


def test_full_corpus_option_keeps_every_passage():
    corpus = tiny_corpus()
    pipe = ComLQPipeline(types="2i", per_type=1, full_corpus="true")
    unit = next(pipe.units(corpus, seed=1))
    with FakeLLMServer(responder()) as srv, client_for(srv) as client:
        item = pipe.make(unit, client)
    assert pipe.assemble([item], corpus).corpus == corpus


def test_a_no_from_the_structure_check_fails_the_unit_with_its_reason():
    corpus = tiny_corpus()
    pipe = ComLQPipeline(types="pin", per_type=1)
    unit = next(pipe.units(corpus, seed=0))
    with (
        FakeLLMServer(responder(reject={"pin"})) as srv,
        client_for(srv) as client,
        pytest.raises(ItemFailed, match="structure check said no: the pin query is a chain"),
    ):
        pipe.make(unit, client)
    review = user_prompt(srv.requests[-1])
    assert "Subgraph indicator: " + QUERY_TYPES["pin"].indicator in review
    assert "Evidence distribution" in review


def test_runner_records_conformity_failures_and_keeps_the_rest(tmp_path: Path):
    corpus = tiny_corpus()
    pipe = ComLQPipeline(types="2i,2in", per_type=2)
    with FakeLLMServer(responder(reject={"2in"})) as srv, client_for(srv) as client:
        summary = run_synthesis(pipe, corpus, client, tmp_path / "out", seed=5)
    assert (summary.ok, summary.failed) == (2, 2)
    text = (tmp_path / "out" / "checkpoint.jsonl").read_text()
    lines = [json.loads(x) for x in text.splitlines()]
    failed = [r for r in lines if r["status"] == "failed"]
    assert {r["key"].split("-")[0] for r in failed} == {"2in"}
    assert all("structure check said no" in r["reason"] for r in failed)
    ds = load_beir(tmp_path / "out")
    assert {t.type.split("_")[0] for t in ds.queries} == {"2i"}


def test_generation_prompt_carries_definition_indicator_demo_and_passages():
    corpus = tiny_corpus()
    unit = next(ComLQPipeline(types="3in", per_type=1).units(corpus, seed=2))
    with FakeLLMServer(responder()) as srv, client_for(srv) as client:
        ComLQPipeline(types="3in").make(unit, client)
    prompt = user_prompt(srv.requests[0])
    qtype = QUERY_TYPES["3in"]
    assert qtype.definition in prompt and qtype.indicator in prompt
    assert qtype.demo["output"]["query"] in prompt
    for p in unit.payload["passages"]:
        assert f"[passage id: {p['id']}] {p['text']}" in prompt


def test_make_is_independent_of_other_units():
    """A unit carries everything make() needs (the runner may call it in any thread/order)."""
    unit = Unit(
        "1p-0000:z",
        {
            "type": "1p",
            "qid": "1p-0000",
            "title": "",
            "group": "doc:z",
            "passages": [{"id": "z", "text": "Zanzibar is an island off the coast of Tanzania."}],
            "distractors": [],
        },
    )
    with FakeLLMServer(responder()) as srv, client_for(srv) as client:
        item = ComLQPipeline().make(unit, client)
    assert item["evidence"] == ["z"] and item["logical_form"] is None


# -- end to end: the command line ----------------------------------------------------------


def write_corpus(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    with (path / "corpus.jsonl").open("w", encoding="utf-8") as fh:
        for d in tiny_corpus():
            fh.write(json.dumps({"_id": d.id, "title": d.title, "text": d.text}) + "\n")
    return path


def synth_cli(tmp_path: Path) -> Path:
    corpus, out = write_corpus(tmp_path / "corpus"), tmp_path / "comlq"
    with FakeLLMServer(responder(reject={"3p"})) as srv:
        proc = logir(
            "synth", "comlq", "--corpus", str(corpus), "--out", str(out),
            "--max-items", "14", "--seed", "4", "--opt", "per_type=2", "--opt", "distractors=2",
            "--llm-base-url", srv.base_url, "--llm-no-cache",
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return out


def test_cli_synth_comlq_then_eval_bm25(tmp_path: Path):
    out = synth_cli(tmp_path)
    ds = load_beir(out)
    assert len(ds.queries) == 13  # 14 units, the 3p one rejected by the structure check
    summary = json.loads((out / "summary.json").read_text())
    assert summary["failed"] == 1
    assert "structure check said no" in summary["failures"][0]["reason"]
    assert load_comlq(out).queries[0].facets["type"] == "1p"
    proc = logir("eval", "beir", "--data", str(out), "-s", "bm25")
    assert proc.returncode == 0, proc.stderr
    assert "nDCG@10" in proc.stdout or "ndcg" in proc.stdout.lower()


@pytest.mark.dense
def test_cli_synth_comlq_then_eval_dense(tmp_path: Path):
    out = synth_cli(tmp_path)
    proc = logir("eval", "beir", "--data", str(out), "-s", "dense")
    assert proc.returncode == 0, proc.stderr
    assert "dense" in proc.stdout
