"""What every synth pipeline sends: the JSON schema of the answer it expects (as response_format)
and a max_tokens sized to that answer; the scripted answers follow the schemas they were sent."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from logir.data.dataset import Document
from logir.synth.comlq import ComLQPipeline
from logir.synth.itlr import ITLRPipeline
from logir.synth.multiconir import MultiConIRPipeline
from logir.synth.runner import run_synthesis
from tests.llm.fakeserver import FakeLLMServer
from tests.synth import test_synth_boolquestions as bq
from tests.synth import test_synth_comlq as cq
from tests.synth.synthfakes import StubClient, itlr_passages, multiconir_documents, synth_answer

jsonschema = pytest.importorskip("jsonschema")


def _follows(answer: str, schema: dict[str, Any]) -> None:
    text = answer.strip().removeprefix("```json").removesuffix("```")
    jsonschema.validate(json.loads(text), schema)


def _check_bodies(bodies: list[dict[str, Any]]) -> Counter[int]:
    """Every request carries a schema; returns how many requests asked for each max_tokens."""
    assert bodies
    sizes: Counter[int] = Counter()
    for body in bodies:
        fmt = body.get("response_format")
        assert fmt is not None and fmt["type"] == "json_schema", body.get("response_format")
        sizes[body["max_tokens"]] += 1
    return sizes


def _served(responder: Any) -> tuple[FakeLLMServer, list[str]]:
    answers: list[str] = []

    def answer(body: dict[str, Any]) -> str:
        got = responder(body)
        text = got if isinstance(got, str) else got.content
        _follows(text, body["response_format"]["json_schema"]["schema"])
        answers.append(text)
        return got

    return FakeLLMServer(answer), answers


def test_comlq_sends_schemas_and_task_sizes(tmp_path: Path) -> None:
    srv, answers = _served(cq.responder())
    with srv, cq.client_for(srv) as client:
        summary = run_synthesis(
            ComLQPipeline(types="2i,2in", per_type=1), cq.tiny_corpus(), client, tmp_path / "o"
        )
    assert summary.ok == 2
    assert _check_bodies(srv.requests) == {512: 2, 160: 2}  # generation, then the review
    assert len(answers) == 4


def test_boolquestions_sends_schemas_and_task_sizes(tmp_path: Path) -> None:
    srv, _ = _served(bq.responder())
    with srv, bq.client_for(srv) as client:
        summary = run_synthesis(
            bq.tfidf(operators="and"), bq.topic_corpus(), client, tmp_path / "o", max_items=1
        )
    assert summary.ok == 1
    sizes = _check_bodies(srv.requests)
    assert set(sizes) <= {96, 160, 128} and sizes[160] == 1  # one AND rewrite per unit


@pytest.mark.parametrize("kind", ["itlr", "multiconir"])
def test_itlr_and_multiconir_send_schemas_and_task_sizes(tmp_path: Path, kind: str) -> None:
    if kind == "itlr":
        rows, pipe = itlr_passages(6), ITLRPipeline(per_template=1)
        expected = {128}
    else:
        rows, pipe = multiconir_documents(3), MultiConIRPipeline(domain="movie")
        expected = {1024, 1536, 96}
    corpus = [Document(r["_id"], r["text"], r.get("title", "")) for r in rows]

    def answer(body: dict[str, Any]) -> str:
        text = synth_answer(body)
        _follows(text, body["schema"])
        return text

    client = StubClient(answer)
    summary = run_synthesis(pipe, corpus, client, tmp_path / "o", max_items=1)
    assert summary.ok == 1
    schemas = [b["schema"] for b in client.bodies]
    assert all(isinstance(s, dict) and s["type"] == "object" for s in schemas)
    sizes = {b["max_tokens"] for b in client.bodies}
    assert expected <= sizes and max(sizes) < 2048
