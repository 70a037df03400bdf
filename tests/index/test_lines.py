"""Passages of an index read one line at a time, without loading the corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from logir.data.dataset import Document
from logir.index.lines import LineFile
from logir.index.store import build_index, corpus_texts, open_index


def test_line_file_reads_lines_by_number(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"one\ntwo\r\n\nfour")  # a blank line; the last line has no line end
    lines = LineFile(path)
    assert len(lines) == 4
    assert [lines.line(i) for i in range(4)] == [b"one", b"two", b"", b"four"]
    with pytest.raises(IndexError):
        lines.line(4)


def test_index_passages_are_read_without_loading_the_documents(tmp_path: Path) -> None:
    docs = [
        Document(f"d{i}", f"passage number {i} about caf\u00e9s", "T" if i % 2 else "")
        for i in range(30)
    ]
    out = build_index(docs, tmp_path / "idx", retrievers=("bm25",))
    index = open_index(out)
    passages = index.passages
    assert [passages[i] for i in (0, 7, 29, -1)] == [docs[i].full_text for i in (0, 7, 29, -1)]
    assert "docs" not in index.__dict__  # the corpus was never loaded whole
    assert list(passages[3:6]) == corpus_texts(docs[3:6])
    with pytest.raises(IndexError):
        passages[30]


def test_a_search_reads_only_its_hits_documents(tmp_path: Path) -> None:
    from logir.logic import get_composer
    from logir.search import search_hits

    docs = [Document(f"d{i}", f"alpha beta number {i}", f"T{i}") for i in range(20)]
    docs[7] = Document("d7", "gamma delta", "Seven")
    index = open_index(build_index(docs, tmp_path / "idx", retrievers=("bm25",)))
    _, hits = search_hits(index, index.scorer("bm25"), get_composer("flat"), "gamma", 3)
    assert [(h["id"], h["title"], h["snippet"]) for h in hits][0] == ("d7", "Seven", "gamma delta")
    assert "docs" not in index.__dict__
    assert index.document(-1) == docs[-1] and index.document(3) == docs[3]
