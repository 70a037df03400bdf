"""The first-hour example (examples/first-hour): it loads by name, and its labels are consistent."""

from __future__ import annotations

from pathlib import Path

import pytest

from logir.data.benchmarks import first_hour, load_benchmark
from logir.data.dataset import Dataset
from logir.errors import LogirError
from logir.query import negated_terms, parse


@pytest.fixture(scope="module")
def example() -> Dataset:
    return load_benchmark("first-hour")


def test_loads_by_name_from_the_source_tree(example: Dataset) -> None:
    assert example.name == "first-hour"
    repo = Path(__file__).resolve().parents[2]
    assert repo / "examples" / "first-hour" == first_hour.EXAMPLE_DIR
    assert 110 <= len(example.corpus) <= 140 and 25 <= len(example.queries) <= 35
    for doc in example.corpus:
        assert doc.title and 15 <= len(doc.text.split()) <= 75, doc.id


def test_missing_folder_says_where_it_ships(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(first_hour, "EXAMPLE_DIR", tmp_path / "gone")
    with pytest.raises(LogirError, match="examples/first-hour; pass --data"):
        load_benchmark("first-hour")


def test_labels_point_at_the_corpus_and_never_overlap(example: Dataset) -> None:
    docs = set(example.doc_ids)
    for topic in example.queries:
        judged = example.qrels[topic.id]
        bad = set(example.violating.get(topic.id, ()))
        assert set(judged) <= docs and bad <= docs, topic.id
        assert set(judged.values()) <= {1, 2}, topic.id
        assert not set(judged) & bad, topic.id
        assert any(g == 2 for g in judged.values()), topic.id


def test_a_query_has_violating_passages_exactly_when_its_form_excludes(example: Dataset) -> None:
    excluding = 0
    for topic in example.queries:
        assert topic.logical_form is not None
        form = parse(topic.logical_form)
        assert topic.facets["type"] == topic.type
        has_not = bool(negated_terms(form))
        assert has_not == (topic.facets["negations"] != "0"), topic.id
        assert has_not == bool(example.violating.get(topic.id)), topic.id
        excluding += has_not
    assert excluding >= 15
