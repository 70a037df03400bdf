"""`logir retrieve` as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.clirun import logir


def test_retrieve_writes_a_tagged_run_and_errors_name_the_line(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    rows = [{"_id": f"d{i}", "text": f"passage {i} about topic{i % 3}"} for i in range(9)]
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows))
    index = tmp_path / "idx"
    assert logir("index", str(corpus), "--out", str(index), "-r", "bm25", "-q").returncode == 0
    topics = tmp_path / "queries.jsonl"
    topics.write_text('{"_id": "a", "text": "topic1"}\n{"_id": "b", "text": "topic2 passage"}\n')
    run = tmp_path / "runs" / "bm25.trec"
    proc = logir(
        "retrieve", str(index), "--topics", str(topics), "--run", str(run), "--run-tag", "t1",
        "-k", "3",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert f"ranked 2 queries: 6 lines -> {run}" in proc.stdout
    assert "bm25.trec: 2/2 queries" in proc.stderr  # the progress line, stderr not a terminal
    lines = run.read_text().splitlines()
    assert len(lines) == 6 and {line.split()[0] for line in lines} == {"a", "b"}
    assert all(line.split()[1] == "Q0" and line.endswith(" t1") for line in lines)
    topics.write_text('{"_id": "a", "text": "topic1"}\n{"_id": "a", "text": "again"}\n')
    proc = logir("retrieve", str(index), "--topics", str(topics), "--run", str(run), "-q")
    assert proc.returncode == 2 and proc.stderr.startswith("error:")
    assert "queries.jsonl:2: duplicate query id 'a'" in proc.stderr


def test_retrieve_k_is_bounded_as_search_is(tmp_path: Path) -> None:
    messages = set()
    for command in (["retrieve", "IDX", "--topics", "t", "--run", "r"], ["search", "IDX", "q"]):
        proc = logir(*command, "-k", "1001")
        assert proc.returncode == 2
        messages.add(proc.stderr.strip())
    assert messages == {"error: k (hits per query) must be from 1 to 1000, got 1001"}
