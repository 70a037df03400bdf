"""BEIR folders: loading, writing and round-tripping logir's extra labels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logir.data.beir import load_beir, write_beir
from logir.data.dataset import Dataset, Document, Topic
from logir.errors import DataFormatError, LogirError


def _folder(root: Path, qrels: str = "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t2\n") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "corpus.jsonl").write_text(
        '{"_id": "d1", "title": "T1", "text": "one"}\n{"_id": "d2", "text": "two"}\n',
        encoding="utf-8",
    )
    (root / "queries.jsonl").write_text(
        '{"_id": "q1", "text": "first"}\n{"_id": "q2", "text": "second"}\n'
        '{"_id": "q3", "text": "not judged"}\n',
        encoding="utf-8",
    )
    (root / "qrels").mkdir(exist_ok=True)
    (root / "qrels" / "test.tsv").write_text(qrels, encoding="utf-8")
    return root


def test_load_keeps_only_judged_queries(tmp_path: Path) -> None:
    ds = load_beir(_folder(tmp_path / "mini"))
    assert ds.name == "mini"
    assert [t.id for t in ds.queries] == ["q1", "q2"]
    assert ds.qrels == {"q1": {"d1": 1}, "q2": {"d2": 2}}
    assert ds.corpus[0] == Document("d1", "one", "T1")
    assert ds.corpus[1].title == ""
    assert ds.violating == {}


def test_missing_folder_and_files(tmp_path: Path) -> None:
    with pytest.raises(LogirError, match="absent"):
        load_beir(tmp_path / "absent")
    root = _folder(tmp_path / "mini")
    with pytest.raises(LogirError, match="dev.tsv"):
        load_beir(root, split="dev")
    (root / "corpus.jsonl").unlink()
    with pytest.raises(LogirError, match="corpus.jsonl"):
        load_beir(root)


def test_bad_tsv_row_names_file_and_line(tmp_path: Path) -> None:
    root = _folder(tmp_path / "mini", "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2 d2\n")
    with pytest.raises(DataFormatError) as err:
        load_beir(root)
    assert str(err.value).startswith(f"{root / 'qrels' / 'test.tsv'}:3:")


def test_malformed_jsonl_line_names_file_and_line(tmp_path: Path) -> None:
    root = _folder(tmp_path / "mini")
    queries = root / "queries.jsonl"
    queries.write_text('{"_id": "q1", "text": "first"}\n{"_id": "q2", "text": \n', encoding="utf-8")
    with pytest.raises(DataFormatError) as err:
        load_beir(root)
    assert err.value.line == 2
    assert f"{queries}:2:" in str(err.value)
    queries.write_text('{"_id": "q1"}\n', encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"queries.jsonl:1: missing field 'text'"):
        load_beir(root)


def test_write_load_round_trip(tmp_path: Path) -> None:
    ds = Dataset(
        name="rt",
        corpus=[Document("d1", "alpha text", "Alpha"), Document("d 2", "beta")],
        queries=[
            Topic(
                "q1",
                "alpha but not beta",
                type="2in",
                logical_form='"alpha" AND NOT "beta"',
                conditions=("alpha", "beta"),
                facets={"negations": "1"},
                meta={"pair": "7", "ladder": ["d1", "d 2"]},
            ),
            Topic("q2", "plain"),
        ],
        qrels={"q1": {"d1": 2}, "q2": {"d 2": 1}},
        violating={"q1": ["d 2"]},
    )
    root = write_beir(ds, tmp_path / "rt", split="dev")
    row = json.loads((root / "queries.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert row["violating"] == ["d 2"] and row["type"] == "2in"
    back = load_beir(root, split="dev")
    assert back.name == "rt"
    assert back.corpus == ds.corpus
    assert back.queries == ds.queries
    assert back.qrels == ds.qrels
    assert back.violating == ds.violating
