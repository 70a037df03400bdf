"""QUEST: entity-seeking queries built from Wikipedia categories by set templates.

No corpus ships here: the records give the atoms (``<mark>`` spans of ``original_query``) and the
template, i.e. the gold decomposition, and the answer documents by title.
"""

from __future__ import annotations

import re
from pathlib import Path

from logir.data.dataset import Dataset, Topic
from logir.data.jsonl import field, read_jsonl, require_file
from logir.errors import DataFormatError, LogirError

_MARK = re.compile(r"<mark>(.*?)</mark>", re.DOTALL)

# Template -> logical form over atom slots {0}, {1}, {2}.
TEMPLATES: dict[str, str] = {
    "_": "{0}",
    "_ or _": "{0} OR {1}",
    "_ or _ or _": "{0} OR {1} OR {2}",
    "_ that are also _": "{0} AND {1}",
    "_ that are also both _ and _": "{0} AND {1} AND {2}",
    "_ that are not _": "{0} AND NOT {1}",
    "_ that are also _ but not _": "{0} AND {1} AND NOT {2}",
}


def quote(term: str) -> str:
    """A term as a logir string literal: double quotes, with `"` and `\\` escaped."""
    return '"' + term.replace("\\", "\\\\").replace('"', '\\"') + '"'


def logical_form(template: str, atoms: list[str] | tuple[str, ...]) -> str:
    """The gold logical form of a QUEST template filled with its atoms."""
    if template not in TEMPLATES:
        raise ValueError(f"unknown QUEST template {template!r}")
    slots = template.count("_")
    if len(atoms) != slots:
        raise ValueError(f"template {template!r} takes {slots} atoms, got {len(atoms)}")
    return TEMPLATES[template].format(*(quote(a) for a in atoms))


def _source(path: str | Path) -> Path:
    """The jsonl file itself, or the single .jsonl file inside a folder."""
    p = Path(path)
    if p.is_dir():
        found = sorted(p.glob("*.jsonl"))
        if len(found) != 1:
            names = ", ".join(f.name for f in found) or "none"
            raise LogirError(f"expected one .jsonl file in {p}, found {len(found)} ({names})")
        return found[0]
    return require_file(p, "QUEST file")


def load_quest(path: str | Path) -> Dataset:
    """Load QUEST records (a jsonl file or a folder holding one); the corpus stays empty."""
    src = _source(path)
    queries: list[Topic] = []
    qrels: dict[str, dict[str, int]] = {}
    for n, (line, obj) in enumerate(read_jsonl(src)):
        meta = field(obj, "metadata", src, line)
        if not isinstance(meta, dict):
            raise DataFormatError(src, line, "field 'metadata' must be an object")
        template = str(field(meta, "template", src, line))
        original = str(field(obj, "original_query", src, line))
        atoms = tuple(a.strip() for a in _MARK.findall(original))
        try:
            form = logical_form(template, atoms)
        except ValueError as exc:
            raise DataFormatError(src, line, str(exc)) from None
        docs = field(obj, "docs", src, line)
        if not isinstance(docs, list):
            raise DataFormatError(src, line, "field 'docs' must be a list of titles")
        qid = str(n)
        domain = str(meta.get("domain") or "unknown")
        queries.append(
            Topic(
                id=qid,
                text=str(field(obj, "query", src, line)),
                type=template,
                logical_form=form,
                conditions=atoms,
                facets={
                    "template": template,
                    "domain": domain,
                    "negations": str(template.split().count("not")),
                },
                meta={"original_query": original, "domain": domain},
            )
        )
        qrels[qid] = dict.fromkeys((str(d) for d in docs), 1)
    return Dataset(name="quest", corpus=[], queries=queries, qrels=qrels, meta={"path": str(src)})
