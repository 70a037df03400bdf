"""TREC qrels and run files."""

from __future__ import annotations

from pathlib import Path

import pytest

from logir.data.trec import read_qrels, read_run, write_qrels, write_run
from logir.errors import DataFormatError, LogirError


def test_read_trec_qrels(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text("q1 0 d1 2\nq1 0 d2 0\n\nq2 0 d3 1\n", encoding="utf-8")
    assert read_qrels(path) == {"q1": {"d1": 2, "d2": 0}, "q2": {"d3": 1}}


def test_read_beir_tsv_qrels(tmp_path: Path) -> None:
    path = tmp_path / "test.tsv"
    path.write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\tdoc two\t2.0\n", encoding="utf-8")
    assert read_qrels(path) == {"q1": {"d1": 1, "doc two": 2}}


@pytest.mark.parametrize(
    ("content", "line"),
    [
        ("q1 0 d1 1\nq1 0 d2\n", 2),
        ("q1 0 d1 high\n", 1),
        ("q1 0 d1 1.5\n", 1),
        ("query-id\tcorpus-id\tscore\nq1\td1\t1\n\nq2\td2\n", 4),
    ],
)
def test_bad_qrels_line_names_file_and_line(tmp_path: Path, content: str, line: int) -> None:
    path = tmp_path / "bad.qrels"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataFormatError) as err:
        read_qrels(path)
    assert err.value.line == line
    assert f"{path}:{line}" in str(err.value)


@pytest.mark.parametrize("fmt", ["trec", "beir"])
def test_qrels_round_trip(tmp_path: Path, fmt: str) -> None:
    qrels = {"q1": {"d1": 2, "d2": 1}, "q2": {"d9": 1}}
    path = write_qrels(tmp_path / f"qrels.{fmt}", qrels, format=fmt)  # type: ignore[arg-type]
    assert read_qrels(path) == qrels


def test_write_qrels_rejects_spaces_in_trec_ids(tmp_path: Path) -> None:
    with pytest.raises(LogirError, match="whitespace"):
        write_qrels(tmp_path / "q.txt", {"q1": {"two words": 1}})


def test_run_round_trip_and_six_columns(tmp_path: Path) -> None:
    run = {
        "q1": [("d1", 0.5), ("d2", 2.25), ("d3", -1.0)],
        "q2": {"a": 0.1, "b": 0.30000000000000004},
    }
    path = write_run(tmp_path / "run.txt", run, tag="bm25")
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = [line.split() for line in lines]
    assert all(len(r) == 6 for r in rows)
    assert rows[0] == ["q1", "Q0", "d2", "1", "2.25", "bm25"]
    assert [r[2] for r in rows[:3]] == ["d2", "d1", "d3"]
    assert [r[3] for r in rows] == ["1", "2", "3", "1", "2"]
    assert read_run(path) == {
        "q1": {"d1": 0.5, "d2": 2.25, "d3": -1.0},
        "q2": {"a": 0.1, "b": 0.30000000000000004},
    }


def test_run_ties_keep_given_order(tmp_path: Path) -> None:
    path = write_run(tmp_path / "run.txt", {"q": [("z", 1.0), ("a", 1.0)]}, tag="t")
    assert [line.split()[2] for line in path.read_text().splitlines()] == ["z", "a"]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("q1 Q0 d1 1 0.5\n", "6 columns"),
        ("q1 Q0 d1 first 0.5 t\n", "rank"),
        ("q1 Q0 d1 1 high t\n", "score"),
        ("q1 Q0 d1 1 0.5 t\nq1 Q0 d1 2 0.4 t\n", "twice"),
    ],
)
def test_bad_run_line_names_file_and_line(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "bad.run"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataFormatError, match=problem) as err:
        read_run(path)
    assert str(err.value).startswith(f"{path}:")


def test_missing_files_raise_logir_error(tmp_path: Path) -> None:
    with pytest.raises(LogirError, match="nowhere.txt"):
        read_run(tmp_path / "nowhere.txt")
    with pytest.raises(LogirError, match="nowhere.txt"):
        read_qrels(tmp_path / "nowhere.txt")


def test_write_run_rejects_nan_and_bad_tag(tmp_path: Path) -> None:
    with pytest.raises(LogirError, match="NaN"):
        write_run(tmp_path / "r.txt", {"q": [("d", float("nan"))]}, tag="t")
    with pytest.raises(LogirError, match="tag"):
        write_run(tmp_path / "r.txt", {"q": [("d", 1.0)]}, tag="my run")
