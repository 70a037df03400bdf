"""The packaged demo benchmark: sizes, label consistency, and that it shows the NOT problem."""

from __future__ import annotations

import string
from collections import Counter
from pathlib import Path

import pytest

from logir.data.benchmarks.demo import load_demo, operator_facets
from logir.data.dataset import Dataset
from logir.errors import DataFormatError

TYPES = ("and", "or", "not", "and-not", "or-not", "nested")


@pytest.fixture(scope="module")
def demo() -> Dataset:
    return load_demo()


def _tokens(text: str) -> set[str]:
    words = (w.strip(string.punctuation) for w in text.lower().split())
    return {w for w in words if w}


def test_counts_in_range(demo: Dataset) -> None:
    assert 250 <= len(demo.corpus) <= 320
    assert 40 <= len(demo.queries) <= 50
    for doc in demo.corpus:
        assert 20 <= len(doc.text.split()) <= 60, doc.id


def test_ids_unique(demo: Dataset) -> None:
    assert len(set(demo.doc_ids)) == len(demo.doc_ids)
    qids = [t.id for t in demo.queries]
    assert len(set(qids)) == len(qids)


def test_labels_point_at_corpus(demo: Dataset) -> None:
    docs = set(demo.doc_ids)
    qids = {t.id for t in demo.queries}
    assert set(demo.qrels) <= qids and set(demo.violating) <= qids
    for judged in demo.qrels.values():
        assert set(judged) <= docs
        assert set(judged.values()) <= {0, 1, 2}
    for bad in demo.violating.values():
        assert set(bad) <= docs


def test_every_query_has_two_relevant(demo: Dataset) -> None:
    for topic in demo.queries:
        relevant = [d for d, g in demo.qrels.get(topic.id, {}).items() if g > 0]
        assert len(relevant) >= 2, topic.id


def test_not_queries_have_two_violating(demo: Dataset) -> None:
    for topic in demo.queries:
        if topic.facets["negations"] != "0":
            assert len(demo.violating.get(topic.id, [])) >= 2, topic.id


def test_no_doc_both_relevant_and_violating(demo: Dataset) -> None:
    for qid, bad in demo.violating.items():
        relevant = {d for d, g in demo.qrels.get(qid, {}).items() if g > 0}
        assert not relevant & set(bad), qid


def test_each_type_present(demo: Dataset) -> None:
    counts = Counter(t.type for t in demo.queries)
    assert set(counts) == set(TYPES)
    for qtype in TYPES:
        assert counts[qtype] >= 6, qtype


def test_facets(demo: Dataset) -> None:
    for topic in demo.queries:
        assert topic.logical_form
        assert topic.facets["type"] == topic.type
        has_not = "NOT" in topic.facets["operators"].split("+")
        assert has_not == (topic.facets["negations"] != "0")
        if topic.type in ("not", "and-not", "or-not"):
            assert has_not, topic.id
        if topic.type == "nested":
            assert len(topic.facets["operators"].split("+")) >= 2 and "(" in topic.logical_form


def test_operator_facets_ignore_quoted_words() -> None:
    facets = operator_facets('("rock and roll" OR "not this") AND NOT "or else"')
    assert facets == {"operators": "AND+OR+NOT", "negations": "1"}


def test_logical_forms_parse(demo: Dataset) -> None:
    pytest.importorskip("logir.query.syntax")
    from logir.query import parse

    for topic in demo.queries:
        assert topic.logical_form is not None
        parse(topic.logical_form)


def test_demo_shows_the_negation_problem(demo: Dataset) -> None:
    """Plain word overlap ranks some violating passage above some relevant one."""
    doc_tokens = {d.id: _tokens(d.full_text) for d in demo.corpus}
    not_queries = [t for t in demo.queries if t.facets["negations"] != "0"]
    fooled = 0
    for topic in not_queries:
        q = _tokens(topic.text)
        score = {d: len(q & toks) for d, toks in doc_tokens.items()}
        relevant = [d for d, g in demo.qrels[topic.id].items() if g > 0]
        worst_relevant = min(score[d] for d in relevant)
        if any(score[d] > worst_relevant for d in demo.violating[topic.id]):
            fooled += 1
    assert fooled * 3 >= len(not_queries)


def test_bad_qrels_row_names_file_and_line(tmp_path: Path) -> None:
    src = Path(load_demo().meta["path"])
    for name in ("corpus.jsonl", "queries.jsonl"):
        (tmp_path / name).write_text((src / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "qrels").mkdir()
    (tmp_path / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq01\td001\ttwo\n", encoding="utf-8"
    )
    with pytest.raises(DataFormatError, match=r"test\.tsv:2"):
        load_demo(tmp_path)
