"""Topics files: BEIR JSONL rows and qid<TAB>text lines, with errors naming file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from logir.data.topics import read_topics
from logir.errors import DataFormatError


def test_jsonl_and_tsv_topics(tmp_path: Path) -> None:
    jsonl = tmp_path / "q.jsonl"
    jsonl.write_text('{"_id": "q1", "text": "vitamin D"}\n\n{"query_id": 7, "query": "not bone"}\n')
    assert [(t.id, t.text, t.line) for t in read_topics(jsonl)] == [
        ("q1", "vitamin D", 1),
        ("7", "not bone", 3),
    ]
    tsv = tmp_path / "topics.tsv"
    tsv.write_text("101\tfilms by Nolan\ttab kept\r\n\n102\tstrep throat\n")
    assert [(t.id, t.text) for t in read_topics(tsv)] == [
        ("101", "films by Nolan\ttab kept"),
        ("102", "strep throat"),
    ]


@pytest.mark.parametrize(
    ("name", "content", "needle"),
    [
        ("a.tsv", "q1 no tab here\n", "a.tsv:1: expected 'query id<TAB>query text'"),
        ("b.tsv", "q1\tone\nq1\ttwo\n", "b.tsv:2: duplicate query id 'q1' (first on line 1)"),
        ("c.tsv", "q 1\tone\n", "c.tsv:1: query id 'q 1' is empty or holds whitespace"),
        ("d.tsv", "q1\t  \n", "d.tsv:1: query 'q1' has no text"),
        ("e.jsonl", '{"_id": "q1"}\n', "e.jsonl:1: missing field 'text' or 'query' or 'title'"),
    ],
)
def test_bad_topics_name_file_and_line(tmp_path: Path, name: str, content: str, needle: str):
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(DataFormatError) as info:
        read_topics(path)
    assert needle in str(info.value)
