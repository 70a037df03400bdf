"""The labelled layout NegConstraint, NevIR and ExcluIR share.

queries.jsonl rows: ``query_id``, ``query``, ``constraint_satisfying_doc_ids``,
``constraint_violating_doc_ids``, ``graded_relevance``; corpus.jsonl rows: ``doc_id`` (or
``_id``), optional ``title``, ``text``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logir.data.beir import require_dir
from logir.data.dataset import Document
from logir.data.jsonl import check_new_id, field, read_jsonl, require_file
from logir.errors import DataFormatError


@dataclass
class LabelledRow:
    """One query row with its labels, and where it came from (for error messages)."""

    path: Path
    line: int
    id: str
    text: str
    satisfying: list[str]
    violating: list[str]
    graded: dict[str, float]
    raw: dict[str, Any]


def _ids(obj: dict[str, Any], name: str, path: Path, line: int) -> list[str]:
    value = field(obj, name, path, line)
    if not isinstance(value, list):
        raise DataFormatError(path, line, f"field {name!r} must be a list of doc ids")
    return [str(v) for v in value]


def _graded(obj: dict[str, Any], path: Path, line: int) -> dict[str, float]:
    value = obj.get("graded_relevance") or {}
    if not isinstance(value, dict):
        raise DataFormatError(path, line, "field 'graded_relevance' must be an object")
    try:
        return {str(k): float(v) for k, v in value.items()}
    except (TypeError, ValueError):
        raise DataFormatError(path, line, "graded_relevance values must be numbers") from None


def folder_files(path: str | Path) -> tuple[Path, Path]:
    """(queries.jsonl, corpus.jsonl) of a benchmark folder; LogirError when missing."""
    root = require_dir(path, "dataset folder")
    return (
        require_file(root / "queries.jsonl", "queries file"),
        require_file(root / "corpus.jsonl", "corpus file"),
    )


def read_rows(path: Path) -> Iterator[LabelledRow]:
    """The labelled query rows of a queries.jsonl."""
    seen: dict[str, int] = {}
    for line, obj in read_jsonl(path):
        qid = str(field(obj, "query_id", path, line))
        check_new_id(seen, qid, path, line, "query id")
        text = field(obj, "query", path, line)
        if not isinstance(text, str):
            raise DataFormatError(path, line, "field 'query' must be a string")
        yield LabelledRow(
            path=path,
            line=line,
            id=qid,
            text=text,
            satisfying=_ids(obj, "constraint_satisfying_doc_ids", path, line),
            violating=_ids(obj, "constraint_violating_doc_ids", path, line),
            graded=_graded(obj, path, line),
            raw=obj,
        )


def read_docs(path: Path, strip_title: bool = False) -> list[Document]:
    """Documents of a corpus.jsonl; `strip_title` drops a title the text already starts with."""
    docs = []
    seen: dict[str, int] = {}
    for line, obj in read_jsonl(path):
        docid = str(field(obj, ("doc_id", "_id"), path, line))
        check_new_id(seen, docid, path, line, "document id")
        text = field(obj, "text", path, line)
        title = obj.get("title") or ""
        if not isinstance(text, str) or not isinstance(title, str):
            raise DataFormatError(path, line, "fields 'text' and 'title' must be strings")
        if strip_title and title and text.startswith(title):
            # Keep the title field; cut it from the text so full_text does not repeat it.
            text = text[len(title) :].lstrip("\n")
        docs.append(Document(docid, text, title))
    return docs
