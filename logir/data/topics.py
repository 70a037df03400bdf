"""Topics files for batch retrieval: BEIR ``queries.jsonl`` rows, or ``qid<TAB>text`` lines.

A file whose name ends in ``.jsonl`` (or ``.json``) holds one JSON object per line with an id
(``_id``, ``id``, ``query_id`` or ``qid``) and a text (``text``, ``query`` or ``title``), as BEIR
and logir's benchmark folders write them; any other file holds ``qid<TAB>text`` lines, as
Pyserini's and MS MARCO's ``.tsv`` topics do. Blank lines are skipped; every id must be new and
fit a TREC run column (no whitespace), every text non-blank.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from logir.data.jsonl import check_new_id, field, read_jsonl, require_file, text_lines
from logir.errors import DataFormatError

ID_KEYS = ("_id", "id", "query_id", "qid")
TEXT_KEYS = ("text", "query", "title")


@dataclass(frozen=True)
class TopicLine:
    """One topic: its id, its text, and the line of the file it came from."""

    id: str
    text: str
    line: int


def _checked(path: Path, line: int, qid: object, text: object, seen: dict[str, int]) -> TopicLine:
    qid = str(qid).strip()
    if not qid or any(ch.isspace() for ch in qid):
        raise DataFormatError(path, line, f"query id {qid!r} is empty or holds whitespace")
    if not isinstance(text, str) or not text.strip():
        raise DataFormatError(path, line, f"query {qid!r} has no text")
    check_new_id(seen, qid, path, line, "query id")
    return TopicLine(qid, text, line)


def read_topics(path: str | Path) -> list[TopicLine]:
    """The topics of ``path`` in file order (see the module docstring for the formats)."""
    p = require_file(path, "topics file")
    seen: dict[str, int] = {}
    out: list[TopicLine] = []
    if p.suffix.lower() in (".jsonl", ".json"):
        for line, obj in read_jsonl(p):
            qid = field(obj, ID_KEYS, p, line)
            out.append(_checked(p, line, qid, field(obj, TEXT_KEYS, p, line), seen))
        return out
    for line, raw in text_lines(p):
        text = raw.rstrip("\r\n")
        if not text.strip():
            continue
        qid, tab, query = text.partition("\t")
        if not tab:
            raise DataFormatError(p, line, "expected 'query id<TAB>query text'")
        out.append(_checked(p, line, qid, query, seen))
    return out
