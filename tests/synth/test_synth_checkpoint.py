"""The append-only checkpoint: reload, latest record wins, torn last line, corrupt lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logir.errors import DataFormatError
from logir.synth.checkpoint import Checkpoint


def test_records_survive_a_reopen_and_the_latest_record_of_a_key_wins(tmp_path: Path):
    path = tmp_path / "checkpoint.jsonl"
    with Checkpoint(path) as ck:
        ck.failed("u1", "bad structure")
        ck.ok("u2", {"q": "two"})
        ck.ok("u1", {"q": "one"})
    again = Checkpoint(path)
    assert again.done() == {"u1", "u2"}
    assert again.item("u1") == {"q": "one"}
    assert again.status("u3") is None
    assert len(path.read_text().splitlines()) == 3  # append-only: the failure is still on disk


def test_failed_units_are_not_done(tmp_path: Path):
    path = tmp_path / "checkpoint.jsonl"
    with Checkpoint(path) as ck:
        ck.failed("u1", "endpoint down")
    again = Checkpoint(path)
    assert again.done() == set()
    assert again.records["u1"]["reason"] == "endpoint down"


def test_a_torn_last_line_is_ignored_and_cut_before_the_next_append(tmp_path: Path):
    path = tmp_path / "checkpoint.jsonl"
    with Checkpoint(path) as ck:
        ck.ok("u1", {"n": 1})
    with path.open("ab") as fh:  # a kill in the middle of a write
        fh.write(b'{"key": "u2", "status": "ok", "item": {"n"')
    ck = Checkpoint(path)
    assert ck.torn
    assert ck.done() == {"u1"}
    ck.ok("u2", {"n": 2})
    ck.close()
    lines = path.read_text().splitlines()
    assert [json.loads(line)["key"] for line in lines] == ["u1", "u2"]


def test_a_complete_line_without_its_newline_counts_as_torn(tmp_path: Path):
    path = tmp_path / "checkpoint.jsonl"
    path.write_text(
        '{"key": "u1", "status": "ok", "item": {}}\n{"key": "u2", "status": "ok", "item": {}}'
    )
    assert Checkpoint(path).done() == {"u1"}


def test_a_corrupt_line_in_the_middle_names_file_and_line(tmp_path: Path):
    path = tmp_path / "checkpoint.jsonl"
    path.write_text('{"key": "u1", "status": "ok", "item": {}}\nnot json\n{"key": "u2"}\n')
    with pytest.raises(DataFormatError, match=r"checkpoint.jsonl:2"):
        Checkpoint(path)
    path.write_text('{"key": "u1", "status": "maybe"}\n')
    with pytest.raises(DataFormatError, match=r"checkpoint.jsonl:1: needs"):
        Checkpoint(path)
