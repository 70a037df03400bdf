"""ITLR templates, categories, hard negatives, prompts' validation and the pipeline end to end."""

from __future__ import annotations

from collections import Counter
from itertools import product
from pathlib import Path

import pytest

from logir.data.beir import load_beir
from logir.data.dataset import Document
from logir.errors import LogirError
from logir.query.ast import Or
from logir.query.syntax import parse
from logir.synth.itlr import (
    ITLRPipeline,
    dnf,
    documents_validator,
    evaluate,
    hard_negatives,
    templates,
    validate_topics,
)
from logir.synth.runner import run_synthesis
from tests.synth.synthfakes import StubClient, itlr_passages

NAMES = ("A", "B", "C")


def models(q, spec=()):
    """The full truth assignments (as tuples of bools) that extend `spec` and satisfy q."""
    fixed = dict(spec)
    out = set()
    for bits in product((False, True), repeat=3):
        truth = dict(zip(NAMES, bits, strict=True))
        if all(truth[k] == v for k, v in fixed.items()) and evaluate(q, truth):
            out.add(bits)
    return out


def test_there_are_32_distinct_templates_with_the_paper_negation_counts():
    ts = templates()
    assert len(ts) == 32 and len({str(t.query) for t in ts}) == 32
    assert [t.id for t in ts][:2] == ["T01", "T02"] and ts[-1].id == "T32"
    assert Counter(t.negations for t in ts) == {0: 4, 1: 12, 2: 12, 3: 4}
    assert Counter(t.operators for t in ts) == {"AND-AND": 8, "AND-OR": 8, "OR-AND": 8, "OR-OR": 8}
    for t in ts:
        assert parse(str(t.query)) == t.query


def test_templates_follow_the_precedence_of_the_grammar():
    by_pattern = {t.pattern: t for t in templates()}
    q = by_pattern["A OR B AND NOT C"].query
    assert isinstance(q, Or)
    assert str(q) == '"A" OR "B" AND NOT "C"'
    assert evaluate(q, {"A": True, "B": False, "C": True})  # A alone satisfies it


@pytest.mark.parametrize("template", templates(), ids=lambda t: t.id)
def test_categories_cover_exactly_the_satisfying_assignments(template):
    q = template.query
    cats = dnf(q)
    assert 1 <= len(cats) <= 3
    covered = set().union(*(models(q, c) for c in cats))
    assert covered == models(q)  # complete
    for c in cats:  # each category alone guarantees a match
        free = 3 - len(c)
        assert len(models(q, c)) == 2**free


@pytest.mark.parametrize("template", templates(), ids=lambda t: t.id)
def test_hard_negatives_flip_one_term_of_a_category_and_never_match(template):
    q = template.query
    cats = dnf(q)
    negs = hard_negatives(q, cats, limit=3)
    assert 1 <= len(negs) <= 3 and len(set(negs)) == len(negs)
    for n in negs:
        assert models(q, n) == set()  # no completion satisfies the query
        flips = [
            c
            for c in cats
            if sum(dict(n).get(k) == (not v) for k, v in c) == 1
            and all(dict(n).get(k) in (v, not v) for k, v in c)
        ]
        assert flips, f"{n} is not one flip away from a category of {template.pattern}"


def test_and_and_and_gives_one_positive_and_three_negatives_as_in_the_paper():
    q = templates()[0].query  # A AND B AND C
    assert dnf(q) == [(("A", True), ("B", True), ("C", True))]
    assert len(hard_negatives(q, dnf(q), 3)) == 3


def test_topic_validation():
    ok = validate_topics({"subject": " birds ", "topics": ["herons", "river deltas", "migration"]})
    assert ok == {"subject": "birds", "topics": ["herons", "river deltas", "migration"]}
    for bad, why in [
        ({"topics": ["a", "b", "c"]}, "subject"),
        ({"subject": "s", "topics": ["a", "b"]}, "exactly 3"),
        ({"subject": "s", "topics": ["heron", "Heron", "c"]}, "overlap"),
        ({"subject": "s", "topics": ["heron", "grey heron", "c"]}, "overlap"),
        ({"subject": "s", "topics": ["one two three four five six seven", "b", "c"]}, "short"),
        (["a"], "JSON object"),
    ]:
        with pytest.raises(ValueError, match=why):
            validate_topics(bad)


def test_document_validation_rejects_wrong_counts_operators_and_avoided_topics():
    check = documents_validator(2, [[], ["otters"]])
    good = {"question": "herons but not otters?", "passages": ["About herons.", "Herons fly."]}
    assert check(good)["passages"] == ["About herons.", "Herons fly."]
    with pytest.raises(ValueError, match="exactly 2"):
        check({"question": "q", "passages": ["x"]})
    with pytest.raises(ValueError, match="ordinary words"):
        check({**good, "question": "herons AND NOT otters"})
    with pytest.raises(ValueError, match='passage 2 mentions "otters"'):
        check({**good, "passages": ["About herons.", "Herons and Otters."]})
    with pytest.raises(ValueError, match="different"):
        check({**good, "passages": ["Same.", "same."]})


def _corpus() -> list[Document]:
    return [Document(r["_id"], r["text"], r["title"]) for r in itlr_passages(6)]


def test_units_are_deterministic_and_interleave_the_templates():
    p = ITLRPipeline(per_template=2)
    a = list(p.units(_corpus(), seed=5))
    b = list(p.units(_corpus(), seed=5))
    assert a == b and len(a) == 64 and len({u.key for u in a}) == 64
    assert [u.payload["template"] for u in a[:32]] == [t.id for t in templates()]
    assert [u.payload["doc_id"] for u in a] != [u.payload["doc_id"] for u in p.units(_corpus(), 6)]
    with pytest.raises(LogirError, match="no corpus passage has 500 words"):
        list(ITLRPipeline(min_words=500).units(_corpus(), 0))


def test_make_builds_positives_and_violating_negatives_per_template():
    p = ITLRPipeline(per_template=1)
    client = StubClient()
    units = {u.payload["template"]: u for u in p.units(_corpus(), 0)}
    item = p.make(units["T01"], client)  # A AND B AND C
    assert len(item["positives"]) == 1 and len(item["negatives"]) == 3
    assert item["positives"][0]["covers"] == item["topics"]
    assert item["logical_form"] == " AND ".join(f'"{t}"' for t in item["topics"])
    assert len(client.bodies) == 2  # topics, then question + passages


def test_run_writes_a_dataset_with_types_logical_forms_qrels_and_violating(tmp_path: Path):
    out = tmp_path / "itlr"
    s = run_synthesis(ITLRPipeline(per_template=1), _corpus(), StubClient(), out)
    assert (s.ok, s.failed) == (32, 0)
    ds = load_beir(out)
    assert len(ds.queries) == 32
    assert {t.type for t in ds.queries} == {t.id for t in templates()}
    doc_ids = set(ds.doc_ids)
    for t in ds.queries:
        q = parse(t.logical_form)
        assert t.facets["negations"] == str(sum(w == "NOT" for w in t.facets["template"].split()))
        assert ds.qrels[t.id] and set(ds.qrels[t.id]) <= doc_ids
        assert set(ds.violating[t.id]) <= doc_ids
        assert not set(ds.qrels[t.id]) & set(ds.violating[t.id])
        assert len(ds.qrels[t.id]) == len(dnf(next(x for x in templates() if x.id == t.type).query))
        assert q is not None
    assert all(d.id.startswith("itlr:") for d in ds.corpus)  # seed corpus left out by default
    keep = run_synthesis(
        ITLRPipeline(keep_corpus=True), _corpus(), StubClient(), tmp_path / "k", max_items=2
    )
    assert {"seed0", "seed5"} <= set(load_beir(tmp_path / "k").doc_ids) and keep.ok == 2


def test_logical_query_style_uses_the_logical_form_as_text(tmp_path: Path):
    run_synthesis(
        ITLRPipeline(query_style="logical"), _corpus(), StubClient(), tmp_path / "o", max_items=3
    )
    for t in load_beir(tmp_path / "o").queries:
        assert t.text == t.logical_form
