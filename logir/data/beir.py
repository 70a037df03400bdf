"""BEIR folders: corpus.jsonl, queries.jsonl and qrels/<split>.tsv.

logir's own query labels (type, logical form, conditions, facets, meta, violating documents)
travel as extra fields in queries.jsonl, so ``load_beir(write_beir(ds))`` gives the dataset back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from logir.data.dataset import Dataset, Document, Topic
from logir.data.jsonl import check_new_id, field, read_jsonl, require_file, write_jsonl
from logir.data.trec import read_qrels, write_qrels
from logir.errors import DataFormatError, LogirError


def require_dir(path: str | Path, what: str = "dataset folder") -> Path:
    """Return `path` as a Path, or raise a LogirError if it is not an existing folder."""
    p = Path(path)
    if not p.is_dir():
        if p.exists():
            raise LogirError(f"{what} expected, found a file: {p}")
        raise LogirError(f"{what} not found: {p}")
    return p


def _text(value: Any, path: Path, line: int, name: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise DataFormatError(path, line, f"field {name!r} must be a string")
    return value


def read_corpus(path: Path) -> list[Document]:
    """Documents of a BEIR corpus.jsonl (``_id``, optional ``title``, ``text``)."""
    docs = []
    seen: dict[str, int] = {}
    for line, obj in read_jsonl(path):
        docid = str(field(obj, "_id", path, line))
        check_new_id(seen, docid, path, line, "document id")
        text = _text(field(obj, "text", path, line), path, line, "text")
        docs.append(Document(docid, text, _text(obj.get("title"), path, line, "title")))
    return docs


def _typed(obj: dict[str, Any], name: str, kind: type, path: Path, line: int) -> Any:
    """Optional field `name` of `obj`: None when absent, else a value of type `kind`."""
    value = obj.get(name)
    if value is not None and not isinstance(value, kind):
        what = {str: "a string", list: "a list", dict: "an object"}[kind]
        raise DataFormatError(path, line, f"field {name!r} must be {what}")
    return value


def _topic(obj: dict[str, Any], path: Path, line: int) -> tuple[Topic, list[str] | None]:
    """A Topic from a queries.jsonl row, with its `violating` list when the row has one."""
    topic = Topic(
        id=str(field(obj, "_id", path, line)),
        text=_text(field(obj, "text", path, line), path, line, "text"),
        type=_typed(obj, "type", str, path, line),
        logical_form=_typed(obj, "logical_form", str, path, line),
        conditions=tuple(str(c) for c in _typed(obj, "conditions", list, path, line) or ()),
        facets={str(k): str(v) for k, v in (_typed(obj, "facets", dict, path, line) or {}).items()},
        meta=dict(_typed(obj, "meta", dict, path, line) or {}),
    )
    violating = obj.get("violating")
    if violating is not None and not isinstance(violating, list):
        raise DataFormatError(path, line, "field 'violating' must be a list of doc ids")
    return topic, None if violating is None else [str(v) for v in violating]


def load_beir(path: str | Path, split: str = "test", name: str | None = None) -> Dataset:
    """Load a BEIR folder; only the queries judged in `split` are kept."""
    root = require_dir(path, "BEIR folder")
    corpus = read_corpus(require_file(root / "corpus.jsonl", "corpus file"))
    qrels = read_qrels(require_file(root / "qrels" / f"{split}.tsv", f"qrels file for {split!r}"))
    queries_path = require_file(root / "queries.jsonl", "queries file")
    queries: list[Topic] = []
    violating: dict[str, list[str]] = {}
    seen: dict[str, int] = {}
    for line, obj in read_jsonl(queries_path):
        topic, bad = _topic(obj, queries_path, line)
        check_new_id(seen, topic.id, queries_path, line, "query id")
        if topic.id not in qrels:
            continue
        queries.append(topic)
        if bad is not None:
            violating[topic.id] = bad
    kept = {t.id for t in queries}
    return Dataset(
        name=name or root.name,
        corpus=corpus,
        queries=queries,
        qrels={q: r for q, r in qrels.items() if q in kept},
        violating=violating,
        meta={"path": str(root), "split": split},
    )


def _query_row(topic: Topic, violating: list[str] | None) -> dict[str, Any]:
    row: dict[str, Any] = {"_id": topic.id, "text": topic.text}
    if topic.type is not None:
        row["type"] = topic.type
    if topic.logical_form is not None:
        row["logical_form"] = topic.logical_form
    if topic.conditions:
        row["conditions"] = list(topic.conditions)
    if topic.facets:
        row["facets"] = topic.facets
    if topic.meta:
        row["meta"] = topic.meta
    if violating is not None:
        row["violating"] = violating
    return row


def write_beir(dataset: Dataset, path: str | Path, split: str = "test") -> Path:
    """Write `dataset` as a BEIR folder (labels beyond BEIR ride along in queries.jsonl)."""
    root = Path(path)
    root.mkdir(parents=True, exist_ok=True)
    write_jsonl(
        root / "corpus.jsonl",
        ({"_id": d.id, "title": d.title, "text": d.text} for d in dataset.corpus),
    )
    write_jsonl(
        root / "queries.jsonl",
        (_query_row(t, dataset.violating.get(t.id)) for t in dataset.queries),
    )
    write_qrels(root / "qrels" / f"{split}.tsv", dataset.qrels, format="beir")
    return root
