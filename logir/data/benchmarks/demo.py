"""The built-in demo benchmark: a small logical-retrieval test set shipped inside the package.

It is what ``logir eval demo`` runs when no other data is at hand. Layout of the folder::

    corpus.jsonl       {"_id", "title", "text"}
    queries.jsonl      {"_id", "text", "type", "logical_form", "violating"}
    qrels/test.tsv     query-id <TAB> corpus-id <TAB> score   (header line first)
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from logir.data.dataset import Dataset, Document, Topic
from logir.data.jsonl import field, read_jsonl, require_file, text_lines
from logir.errors import DataFormatError, LogirError

__all__ = ["DEMO_DIR", "load_demo", "operator_facets"]

DEMO_DIR = Path(__file__).parents[1] / "demo"
"""The packaged demo folder."""

_QUOTED = re.compile(r'"(?:\\.|[^"\\])*"')
_OPERATOR = re.compile(r"\b(AND|OR|NOT)\b", re.IGNORECASE)
_ORDER = ("AND", "OR", "NOT")


def operator_facets(logical_form: str) -> dict[str, str]:
    """``{"operators": "AND+NOT", "negations": "1"}`` from the words outside quoted terms."""
    bare = _QUOTED.sub(" ", logical_form)
    found = [m.group(1).upper() for m in _OPERATOR.finditer(bare)]
    present = "+".join(op for op in _ORDER if op in found)
    return {"operators": present, "negations": str(found.count("NOT"))}


def _str_field(obj: dict[str, object], name: str, path: Path, line: int) -> str:
    value = field(obj, name, path, line)
    if not isinstance(value, str) or not value.strip():
        raise DataFormatError(path, line, f"field {name!r} must be a non-empty string")
    return value


def _read_corpus(path: Path) -> list[Document]:
    docs: list[Document] = []
    seen: set[str] = set()
    for line, obj in read_jsonl(path):
        doc_id = _str_field(obj, "_id", path, line)
        if doc_id in seen:
            raise DataFormatError(path, line, f"duplicate document id {doc_id!r}")
        seen.add(doc_id)
        title = obj.get("title", "")
        if not isinstance(title, str):
            raise DataFormatError(path, line, "field 'title' must be a string")
        docs.append(Document(id=doc_id, text=_str_field(obj, "text", path, line), title=title))
    return docs


def _read_queries(path: Path) -> tuple[list[Topic], dict[str, list[str]]]:
    topics: list[Topic] = []
    violating: dict[str, list[str]] = {}
    seen: set[str] = set()
    for line, obj in read_jsonl(path):
        qid = _str_field(obj, "_id", path, line)
        if qid in seen:
            raise DataFormatError(path, line, f"duplicate query id {qid!r}")
        seen.add(qid)
        qtype = _str_field(obj, "type", path, line)
        logical_form = _str_field(obj, "logical_form", path, line)
        bad = obj.get("violating", [])
        if not isinstance(bad, list) or not all(isinstance(d, str) for d in bad):
            raise DataFormatError(path, line, "field 'violating' must be a list of document ids")
        if bad:
            violating[qid] = list(bad)
        facets = {"type": qtype, **operator_facets(logical_form)}
        topics.append(
            Topic(
                id=qid,
                text=_str_field(obj, "text", path, line),
                type=qtype,
                logical_form=logical_form,
                facets=facets,
            )
        )
    return topics, violating


def _read_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    lines = (text for _, text in text_lines(path))
    reader = csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
    for row in reader:
        line = reader.line_num
        if not row or not "".join(row).strip():
            continue
        if len(row) != 3:
            found = len(row)
            raise DataFormatError(path, line, f"expected 3 tab-separated fields, got {found}")
        if line == 1 and row[0].strip() == "query-id":
            continue
        qid, doc_id, score = (cell.strip() for cell in row)
        try:
            grade = int(score)
        except ValueError:
            raise DataFormatError(path, line, f"score {score!r} is not an integer") from None
        qrels.setdefault(qid, {})[doc_id] = grade
    return qrels


def load_demo(path: str | Path | None = None) -> Dataset:
    """Load the demo benchmark from ``path`` (default: the folder shipped with logir)."""
    root = Path(path) if path is not None else DEMO_DIR
    if not root.is_dir():
        raise LogirError(f"demo benchmark folder not found: {root}")
    corpus_path = require_file(root / "corpus.jsonl", "demo corpus")
    queries_path = require_file(root / "queries.jsonl", "demo queries")
    qrels_path = require_file(root / "qrels" / "test.tsv", "demo qrels")
    corpus = _read_corpus(corpus_path)
    topics, violating = _read_queries(queries_path)
    qrels = _read_qrels(qrels_path)
    return Dataset(
        name="demo",
        corpus=corpus,
        queries=topics,
        qrels=qrels,
        violating=violating,
        meta={"path": str(root), "license": "Apache-2.0"},
    )
