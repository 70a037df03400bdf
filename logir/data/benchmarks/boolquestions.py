"""BoolQuestions in its official release schema (eval.jsonl + corpus.jsonl)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from logir.data.beir import require_dir
from logir.data.dataset import Dataset, Document, Topic
from logir.data.jsonl import check_new_id, field, read_jsonl, require_file
from logir.errors import DataFormatError


def _passages(obj: dict[str, Any], name: str, path: Path, line: int) -> list[str]:
    ctxs = obj.get(name) or []
    if not isinstance(ctxs, list):
        raise DataFormatError(path, line, f"field {name!r} must be a list")
    ids = []
    for ctx in ctxs:
        if not isinstance(ctx, dict) or "passage_id" not in ctx:
            raise DataFormatError(path, line, f"every entry of {name!r} needs a 'passage_id'")
        ids.append(str(ctx["passage_id"]))
    return ids


def _corpus(path: Path) -> list[Document]:
    docs = []
    seen: dict[str, int] = {}
    for line, obj in read_jsonl(path):
        docid = str(field(obj, "docid", path, line))
        check_new_id(seen, docid, path, line, "document id")
        text, title = field(obj, "doc", path, line), obj.get("title") or ""
        if not isinstance(text, str) or not isinstance(title, str):
            raise DataFormatError(path, line, "fields 'doc' and 'title' must be strings")
        docs.append(Document(docid, text, title))
    return docs


def load_boolquestions(path: str | Path) -> Dataset:
    """Load a BoolQuestions folder: positives are the qrels, negatives the violating documents."""
    root = require_dir(path, "dataset folder")
    eval_path = require_file(root / "eval.jsonl", "eval file")
    corpus_path = require_file(root / "corpus.jsonl", "corpus file")
    queries: list[Topic] = []
    qrels: dict[str, dict[str, int]] = {}
    violating: dict[str, list[str]] = {}
    seen: dict[str, int] = {}
    for line, obj in read_jsonl(eval_path):
        qid = str(field(obj, "qid", eval_path, line))
        check_new_id(seen, qid, eval_path, line, "query id")
        qtype = str(field(obj, "question_type", eval_path, line))
        facets = {"type": qtype}
        if ":" in qid:
            facets["source"] = qid.split(":", 1)[0]
        queries.append(
            Topic(qid, str(field(obj, "question", eval_path, line)), type=qtype, facets=facets)
        )
        qrels[qid] = dict.fromkeys(_passages(obj, "positive_ctxs", eval_path, line), 1)
        violating[qid] = _passages(obj, "negative_ctxs", eval_path, line)
    return Dataset(
        name="boolquestions",
        corpus=_corpus(corpus_path),
        queries=queries,
        qrels=qrels,
        violating=violating,
        meta={"path": str(root)},
    )
