"""MultiConIR ladders: sentence location, HN documents, validation, and both output layouts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from logir.data.beir import load_beir
from logir.data.benchmarks.multiconir import load_multiconir
from logir.data.dataset import Document
from logir.errors import LogirError
from logir.synth.base import ItemFailed
from logir.synth.multiconir import (
    MultiConIRPipeline,
    ladder,
    locate,
    rewrites_validator,
    sentences,
    sentences_validator,
    validate_queries,
)
from logir.synth.runner import run_synthesis
from tests.synth.synthfakes import StubClient, first_user, multiconir_documents, synth_answer

TEXT = "Alpha one is here. Beta two follows it.  Gamma three ends? Delta four closes the text."


def _corpus() -> list[Document]:
    return [Document(r["_id"], r["text"]) for r in multiconir_documents(4)]


def test_sentence_split_and_verbatim_location():
    assert sentences(TEXT) == [
        "Alpha one is here.",
        "Beta two follows it.",
        "Gamma three ends?",
        "Delta four closes the text.",
    ]
    text = " ".join(TEXT.split())
    spans = locate(text, ["Gamma three ends?", "Alpha one is here"])  # trailing "." may be dropped
    assert [text[a:b] for a, b in spans] == ["Gamma three ends?", "Alpha one is here."]
    with pytest.raises(ValueError, match="sentence 2 is not copied verbatim"):
        locate(text, ["Alpha one is here.", "Beta 2 follows it."])
    with pytest.raises(ValueError, match="overlaps"):
        locate(text, ["Beta two follows it.", "two follows"])


def test_ladder_rewrites_the_first_k_conditions():
    text = " ".join(f"Sentence {i} states fact {i}." for i in range(10))
    picked = [f"Sentence {i} states fact {i}." for i in (3, 0, 9, 1, 2, 4, 5, 6, 7, 8)]
    spans = locate(text, picked)
    rewrites = [s.replace("fact", "no fact") for s in picked]
    docs = ladder(text, spans, rewrites)
    assert len(docs) == 11 and docs[0] == text
    for k in range(1, 11):
        assert all(r in docs[k] for r in rewrites[:k])
        assert all(s in docs[k] for s in picked[k:])  # the remaining conditions stay intact
        assert all(s not in docs[k] for s in picked[:k])
    assert docs[10] == " ".join(f"Sentence {i} states no fact {i}." for i in range(10))


def test_validators_count_types_and_rewrite_quality():
    text = " ".join(f"Sentence {i} states fact {i}." for i in range(12))
    check = sentences_validator(text)
    good = [f"Sentence {i} states fact {i}." for i in range(10)]
    assert check({"sentences": good}) == good
    with pytest.raises(ValueError, match="exactly 10"):
        check({"sentences": good[:9]})
    with pytest.raises(ValueError, match="all be different"):
        check({"sentences": [*good[:9], good[0]]})
    with pytest.raises(ValueError, match="item 3 must be a non-empty string"):
        check({"sentences": [*good[:2], 7, *good[3:]]})
    with pytest.raises(ValueError, match="JSON object"):
        validate_queries(["x"])
    rw = rewrites_validator(good)
    assert rw({"rewrites": [s.replace("fact", "no fact") for s in good]})[0].startswith(
        "Sentence 0"
    )
    with pytest.raises(ValueError, match="rewrite 1 repeats"):
        rw({"rewrites": [good[0], *(s + " Not." for s in good[1:])]})
    with pytest.raises(ValueError, match="rewrite 2 must keep about the length"):
        rw({"rewrites": [good[0] + " x", "Short.", *(s + " x" for s in good[2:])]})


def test_units_skip_short_documents_and_are_deterministic():
    p = MultiConIRPipeline()
    a = list(p.units(_corpus(), seed=1))
    assert a == list(p.units(_corpus(), seed=1))
    assert sorted(u.payload["doc_id"] for u in a) == ["case0", "case1", "case2", "case3"]
    with pytest.raises(LogirError, match="no corpus document has 10 sentences"):
        list(p.units([Document("x", TEXT)], seed=0))


def test_make_gives_nested_instruction_queries_and_a_ladder():
    p = MultiConIRPipeline(domain="field study")
    client = StubClient()
    item = p.make(next(iter(p.units(_corpus(), 0))), client)
    assert len(client.bodies) == 4  # sentences, queries, rewrites, verification
    assert len(item["instruction"]) == len(item["descriptive"]) == 10
    q3 = item["instruction"][2]
    assert q3.startswith("Find a field study that satisfies all of the following conditions: 1.")
    assert "3. " in q3 and "4. " not in q3
    assert item["documents"][1] != item["documents"][0]
    assert "Not so: " + item["sentences"][0] in item["documents"][1]


def test_a_rewrite_that_still_satisfies_its_condition_fails_the_item():
    def responder(body: dict[str, Any]) -> str:
        if '"still_satisfied"' in first_user(body):
            return json.dumps({"still_satisfied": [False, True] + [False] * 8})
        return synth_answer(body)

    p = MultiConIRPipeline()
    with pytest.raises(ItemFailed, match=r"condition\(s\) 2 still satisfy"):
        p.make(next(iter(p.units(_corpus(), 0))), StubClient(responder))
    item = MultiConIRPipeline(verify=False).make(
        next(iter(p.units(_corpus(), 0))), StubClient(responder)
    )
    assert len(item["documents"]) == 11


def test_bad_options_are_user_errors():
    with pytest.raises(LogirError, match="strategy must be alter or mislead"):
        MultiConIRPipeline(strategy="swap")
    with pytest.raises(LogirError, match="domain"):
        MultiConIRPipeline(domain="../x")


def test_beir_output_matches_what_the_multiconir_adapter_reads(tmp_path: Path):
    out = tmp_path / "mc"
    s = run_synthesis(MultiConIRPipeline(domain="movie"), _corpus(), StubClient(), out, seed=2)
    assert (s.ok, s.failed) == (4, 0)
    beir = load_beir(out)
    adapted = load_multiconir(out)  # reads OUT/movie.csv
    assert len(beir.queries) == 4 * 20 and len(beir.corpus) == 4 * 11
    assert [(t.id, t.text, t.facets, t.meta["ladder"]) for t in adapted.queries] == [
        (t.id, t.text, t.facets, t.meta["ladder"]) for t in beir.queries
    ]
    assert adapted.qrels == beir.qrels and adapted.violating == beir.violating
    assert [(d.id, d.text) for d in adapted.corpus] == [(d.id, d.text) for d in beir.corpus]
    t = beir.topic("movie:0:instruction:4")
    assert len(t.conditions) == 4 and t.meta["level"] == 4 and t.meta["style"] == "instruction"
    assert beir.qrels[t.id] == {"movie:0:pos": 1} and beir.violating[t.id] == ["movie:0:hn1"]
