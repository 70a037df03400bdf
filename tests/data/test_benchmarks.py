"""Benchmark adapters: the registry, small made-up inputs, and the shared datasets."""

from __future__ import annotations

import csv
import os
from collections import Counter
from pathlib import Path

import pytest

from logir.data.benchmarks import BENCHMARKS, load_benchmark
from logir.data.benchmarks.comlq import COMLQ_TYPES, NEGATION_TYPES, type_facets
from logir.data.benchmarks.multiconir import load_multiconir
from logir.data.benchmarks.quest import load_quest, logical_form
from logir.data.dataset import Dataset
from logir.errors import DataFormatError, LogirError

FIXTURES = Path(__file__).parents[1] / "fixtures"


def shared_datasets() -> Path:
    """../shared/datasets beside the repository, or $LOGIR_SHARED_DATASETS."""
    env = os.environ.get("LOGIR_SHARED_DATASETS")
    return Path(env) if env else Path(__file__).parents[2].parent / "shared" / "datasets"


def shared(folder: str) -> Path:
    path = shared_datasets() / folder
    if not path.exists():
        pytest.skip(f"shared dataset {folder!r} not found at {path} (set LOGIR_SHARED_DATASETS)")
    return path


# ---------------------------------------------------------------- registry


def test_registry_names() -> None:
    assert set(BENCHMARKS) == {
        "comlq", "negconstraint", "boolquestions", "nevir", "excluir",
        "quest", "scifact", "multiconir", "beir", "demo", "first-hour",
    }  # fmt: skip


def test_unknown_name_lists_known_ones() -> None:
    with pytest.raises(LogirError, match="unknown dataset 'msmarco'.*comlq.*nevir"):
        load_benchmark("msmarco", "/tmp")


def test_missing_path_is_a_clear_error() -> None:
    with pytest.raises(LogirError, match="dataset nevir needs --data PATH"):
        load_benchmark("nevir", None)


@pytest.mark.parametrize("name", sorted(set(BENCHMARKS) - {"demo"}))
def test_missing_folder_names_the_path(name: str, tmp_path: Path) -> None:
    with pytest.raises(LogirError, match="no-such-data"):
        load_benchmark(name, tmp_path / "no-such-data")


def test_demo_loads_without_a_path() -> None:
    pytest.importorskip("logir.data.benchmarks.demo")
    assert isinstance(load_benchmark("demo", None), Dataset)


# ---------------------------------------------------------------- malformed input


def _labelled_folder(root: Path, queries: str) -> Path:
    root.mkdir()
    (root / "queries.jsonl").write_text(queries, encoding="utf-8")
    (root / "corpus.jsonl").write_text('{"doc_id": "d1", "text": "x"}\n', encoding="utf-8")
    return root


def test_malformed_jsonl_names_file_and_line(tmp_path: Path) -> None:
    root = _labelled_folder(tmp_path / "neg", '{"query_id": "0", "query": "q"}\n{oops\n')
    with pytest.raises(DataFormatError) as err:
        load_benchmark("negconstraint", root)
    assert err.value.line == 1  # the first row already lacks its label fields
    assert f"{root / 'queries.jsonl'}:1:" in str(err.value)
    (root / "queries.jsonl").write_text(
        '{"query_id": "0", "query": "q", "constraint_satisfying_doc_ids": ["d1"],'
        ' "constraint_violating_doc_ids": []}\n{oops\n',
        encoding="utf-8",
    )
    with pytest.raises(DataFormatError, match=r"queries.jsonl:2: not valid JSON"):
        load_benchmark("excluir", root)


def test_excluir_does_not_repeat_the_title(tmp_path: Path) -> None:
    row = (
        '{"query_id": "q", "query": "x without y", "constraint_satisfying_doc_ids": ["d1"],'
        ' "constraint_violating_doc_ids": ["d2"]}\n'
    )
    root = _labelled_folder(tmp_path / "ex", row)
    (root / "corpus.jsonl").write_text(
        '{"doc_id": "d1", "title": "Tea", "text": "Tea\\nA drink."}\n'
        '{"doc_id": "d2", "title": "", "text": "Coffee\\nAnother drink."}\n',
        encoding="utf-8",
    )
    ds = load_benchmark("excluir", root)
    assert [d.full_text for d in ds.corpus] == ["Tea\nA drink.", "Coffee\nAnother drink."]
    assert (ds.qrels, ds.violating) == ({"q": {"d1": 1}}, {"q": ["d2"]})


def test_nevir_rejects_an_id_without_a_pair(tmp_path: Path) -> None:
    row = (
        '{"query_id": "q7", "query": "q", "constraint_satisfying_doc_ids": ["d1"],'
        ' "constraint_violating_doc_ids": []}\n'
    )
    root = _labelled_folder(tmp_path / "nevir", row)
    with pytest.raises(DataFormatError, match=r"queries.jsonl:1: query id 'q7'"):
        load_benchmark("nevir", root)


def test_boolquestions_needs_passage_ids(tmp_path: Path) -> None:
    root = tmp_path / "bq"
    root.mkdir()
    (root / "corpus.jsonl").write_text('{"docid": "d1", "doc": "x"}\n', encoding="utf-8")
    (root / "eval.jsonl").write_text(
        '{"qid": "1", "question": "q", "question_type": "not", "positive_ctxs": [{"id": 3}]}\n',
        encoding="utf-8",
    )
    with pytest.raises(DataFormatError, match=r"eval.jsonl:1: .*passage_id"):
        load_benchmark("boolquestions", root)


def test_quest_unknown_template_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(
        '{"query": "q", "docs": [], "original_query": "<mark>a</mark> xor <mark>b</mark>",'
        ' "metadata": {"template": "_ xor _"}}\n',
        encoding="utf-8",
    )
    with pytest.raises(DataFormatError, match=r"q.jsonl:1: unknown QUEST template"):
        load_quest(path)


def test_quest_logical_forms_quote_and_escape() -> None:
    assert logical_form("_ that are not _", ["a", "b"]) == '"a" AND NOT "b"'
    assert logical_form("_ or _ or _", ["x", "y", "z"]) == '"x" OR "y" OR "z"'
    assert logical_form("_", ['say "hi" \\ bye']) == '"say \\"hi\\" \\\\ bye"'
    assert logical_form("_ that are also _ but not _", ["a", "b", "c"]) == (
        '"a" AND "b" AND NOT "c"'
    )
    with pytest.raises(ValueError, match="takes 2 atoms"):
        logical_form("_ or _", ["only one"])


def test_comlq_type_facets() -> None:
    assert type_facets("3in_2") == {
        "type": "3in", "evidence": "2", "operators": "AND+NOT", "negations": "1",
    }  # fmt: skip
    assert type_facets("2u")["evidence"] == "unknown"
    assert type_facets("2u")["operators"] == "OR"
    assert type_facets("3p_3")["operators"] == "none"
    assert type_facets("ip_1")["operators"] == "AND"
    assert len(COMLQ_TYPES) == 14
    assert sorted(NEGATION_TYPES) == sorted({"2in", "3in", "inp", "pin", "pni"})


# ---------------------------------------------------------------- MultiConIR


def test_multiconir_fixture_counts_and_ladder() -> None:
    ds = load_benchmark("multiconir", FIXTURES / "multiconir" / "movies.csv")
    assert (len(ds.corpus), len(ds.queries), len(ds.qrels), len(ds.violating)) == (33, 60, 60, 60)
    topic = ds.topic("movies:1:descriptive:4")
    assert topic.facets == {"level": "4", "style": "descriptive", "domain": "movies"}
    ladder = ["movies:1:pos"] + [f"movies:1:hn{k}" for k in range(1, 11)]
    assert topic.meta == {"item": "movies:1", "level": 4, "style": "descriptive", "ladder": ladder}
    assert ds.qrels[topic.id] == {"movies:1:pos": 1}
    assert ds.violating[topic.id] == ["movies:1:hn1"]
    assert Counter(t.facets["style"] for t in ds.queries) == {"instruction": 30, "descriptive": 30}
    assert set(ds.doc_ids) >= {d for t in ds.queries for d in t.meta["ladder"]}


def test_multiconir_folder_and_empty_cells(tmp_path: Path) -> None:
    with (FIXTURES / "multiconir" / "movies.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    rows[0]["HN1"] = ""  # no hard negative 1: its topics keep no violating doc
    rows[0]["Query3"] = ""  # one topic less
    rows[2]["Positive"] = ""  # nothing to judge: the row's topics go
    with (tmp_path / "books.csv").open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    ds = load_multiconir(tmp_path)
    assert (len(ds.corpus), len(ds.queries)) == (31, 39)
    assert "books:0:instruction:3" not in ds.qrels
    assert ds.violating["books:0:instruction:1"] == []
    assert ds.topic("books:0:descriptive:1").meta["ladder"][:2] == ["books:0:pos", "books:0:hn2"]
    assert not any(t.id.startswith("books:2:") for t in ds.queries)


def test_multiconir_bad_header(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"x.csv:1: header"):
        load_multiconir(path)


# ---------------------------------------------------------------- shared datasets


def _counts(ds: Dataset) -> tuple[int, int, int, int]:
    """(documents, queries, judged pairs, violating pairs)."""
    return (
        len(ds.corpus),
        len(ds.queries),
        sum(len(r) for r in ds.qrels.values()),
        sum(len(v) for v in ds.violating.values()),
    )


@pytest.mark.parametrize(
    ("name", "folder", "counts"),
    [
        ("comlq", "comlq", (11251, 2909, 4601, 0)),
        ("negconstraint", "negconstraint", (3946, 366, 366, 366)),
        ("boolquestions", "boolquestions-not", (646, 323, 323, 323)),
        ("nevir", "nevir", (2766, 2766, 2766, 2766)),
        ("excluir", "excluir", (1371, 691, 691, 691)),
        ("quest", "quest-sample", (0, 61, 593, 0)),
        ("scifact", "scifact", (5183, 300, 339, 0)),
    ],
)
def test_shared_dataset_counts(name: str, folder: str, counts: tuple[int, ...]) -> None:
    ds = load_benchmark(name, shared(folder))
    assert _counts(ds) == counts
    assert set(ds.qrels) == {t.id for t in ds.queries}
    assert len({t.id for t in ds.queries}) == len(ds.queries)
    if ds.corpus:
        ids = set(ds.doc_ids)
        assert len(ids) == len(ds.corpus)
        assert all(d in ids for r in ds.qrels.values() for d in r)
        assert all(d in ids for v in ds.violating.values() for d in v)


def test_comlq_records() -> None:
    ds = load_benchmark("comlq", shared("comlq"))
    assert {t.facets["type"] for t in ds.queries} == set(COMLQ_TYPES)
    assert Counter(t.facets["type"] for t in ds.queries)["2in"] == 278
    assert Counter(t.facets["evidence"] for t in ds.queries)["unknown"] == 573
    assert Counter(g for r in ds.qrels.values() for g in r.values()) == {1: 3143, 2: 1458}
    first = ds.topic("0")
    assert (first.text, first.type) == ("Who is the brother of Moses?", "1p")
    assert ds.qrels["0"] == {"10000": 2}
    assert ds.topic("1056").facets == {
        "type": "3in", "evidence": "2", "operators": "AND+NOT", "negations": "1",
    }  # fmt: skip


def test_negconstraint_records() -> None:
    ds = load_benchmark("negconstraint", shared("negconstraint"))
    assert ds.qrels["0"] == {"10000": 2}
    assert ds.violating["0"] == ["10001"]
    assert Counter((t.facets["category"], t.facets["negations"]) for t in ds.queries) == {
        ("A - a", "1"): 136,
        ("(A - a) ∪ B", "1"): 123,
        ("(A - a) ∪ (B - b)", "2"): 107,
    }


def test_boolquestions_records() -> None:
    ds = load_benchmark("boolquestions", shared("boolquestions-not"))
    topic = ds.topic("MSMARCO:3")
    assert topic.facets == {"type": "not", "source": "MSMARCO"}
    assert ds.qrels["MSMARCO:3"] == {"MSMARCO:8775578": 1}
    assert ds.violating["MSMARCO:3"] == ["MSMARCO:1808195"]
    assert Counter(t.facets["source"] for t in ds.queries) == {
        "MSMARCO": 195,
        "NaturalQuestions": 128,
    }


def test_nevir_records() -> None:
    ds = load_benchmark("nevir", shared("nevir"))
    assert len({t.meta["pair"] for t in ds.queries}) == 1383
    assert ds.topic("nevir_q_1000-2_2").meta == {"pair": "1000-2"}
    assert ds.qrels["nevir_q_1000-2_2"] == {"nevir_doc_1000-2_2": 1}
    assert ds.violating["nevir_q_1000-2_2"] == ["nevir_doc_1000-2_1"]


def test_excluir_records() -> None:
    ds = load_benchmark("excluir", shared("excluir"))
    assert ds.topic("excluir_q_2761").facets == {"negations": "1"}
    assert ds.qrels["excluir_q_2761"] == {"excluir_doc_59940": 1}
    assert ds.violating["excluir_q_2761"] == ["excluir_doc_59939"]
    doc = ds.corpus[ds.doc_index["excluir_doc_10"]]
    assert doc.full_text.startswith("Henri Leconte\nHenri Leconte (born 4 July 1963)")
    assert not doc.full_text.startswith("Henri Leconte\nHenri Leconte\n")


def test_quest_records() -> None:
    folder = shared("quest-sample")
    ds = load_benchmark("quest", folder)
    assert _counts(load_quest(folder / "train_subset_nonunion.jsonl")) == _counts(ds)
    assert Counter(t.type for t in ds.queries) == {
        "_ that are also _ but not _": 21,
        "_ that are also _": 16,
        "_ that are also both _ and _": 15,
        "_ that are not _": 9,
    }
    first = ds.queries[0]
    assert first.conditions == (
        "Garden plants of Asia", "Garden plants of Australasia", "Flora of Malesia",
    )  # fmt: skip
    assert first.logical_form == (
        '"Garden plants of Asia" AND "Garden plants of Australasia" AND "Flora of Malesia"'
    )
    assert ds.qrels[first.id] == {"Asplenium nidus": 1, "Cordyline fruticosa": 1}
    for topic in ds.queries:
        assert len(topic.conditions) == topic.type.count("_")  # type: ignore[union-attr]
        assert ("NOT" in (topic.logical_form or "")) == (" not " in (topic.type or ""))


def test_scifact_records() -> None:
    ds = load_benchmark("scifact", shared("scifact"))
    assert ds.qrels["1"] == {"31715818": 1}
    assert ds.topic("1").text
    assert ds.corpus[ds.doc_index["4983"]].title.startswith("Microstructural development")
    generic = load_benchmark("beir", shared("scifact"))
    assert generic.name == "scifact" and _counts(generic) == _counts(ds)
