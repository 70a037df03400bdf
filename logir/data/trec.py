"""TREC qrels and run files (and the three-column BEIR qrels TSV)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Literal

from logir.data.jsonl import require_file, text_lines
from logir.errors import DataFormatError, LogirError

Qrels = dict[str, dict[str, int]]
Run = Mapping[str, Sequence[tuple[str, float]]] | Mapping[str, Mapping[str, float]]

BEIR_HEADER = ("query-id", "corpus-id", "score")


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text without newline) for every non-blank line."""
    for lineno, line in text_lines(path):
        line = line.rstrip("\r\n")
        if line.strip():
            yield lineno, line


def _grade(value: str, path: Path, lineno: int) -> int:
    """A relevance grade: an integer (``2`` or ``2.0``); anything else is a format error."""
    try:
        number = float(value)
    except ValueError:
        raise DataFormatError(path, lineno, f"relevance {value!r} is not a number") from None
    if not number.is_integer():
        raise DataFormatError(path, lineno, f"relevance {value!r} is not an integer")
    return int(number)


def _split_beir(line: str) -> list[str]:
    """BEIR rows are tab separated (ids may hold spaces); fall back to any whitespace."""
    parts = line.split("\t")
    return parts if len(parts) == 3 else line.split()


def read_qrels(path: str | Path) -> Qrels:
    """Read TREC qrels (``qid 0 docid rel``) or a BEIR TSV (header ``query-id corpus-id score``).

    The format is told by the first line: the BEIR header, or else four TREC columns.
    """
    p = require_file(path, "qrels file")
    qrels: Qrels = {}
    beir: bool | None = None
    for lineno, line in _lines(p):
        if beir is None:
            beir = tuple(line.strip().split()) == BEIR_HEADER
            if beir:
                continue
        if beir:
            parts = _split_beir(line)
            if len(parts) != 3:
                raise DataFormatError(
                    p, lineno, f"expected 3 columns (query-id corpus-id score), got {len(parts)}"
                )
            qid, docid, rel = parts
        else:
            parts = line.split()
            if len(parts) != 4:
                raise DataFormatError(
                    p, lineno, f"expected 4 columns (qid iter docid rel), got {len(parts)}"
                )
            qid, _, docid, rel = parts
        grade = _grade(rel, p, lineno)
        judged = qrels.setdefault(qid, {})
        if judged.get(docid, grade) != grade:
            raise DataFormatError(
                p,
                lineno,
                f"document {docid!r} judged again for query {qid!r} with another grade "
                f"({grade}, earlier {judged[docid]})",
            )
        judged[docid] = grade
    return qrels


def _check_id(value: str, what: str) -> str:
    """Ids go into whitespace-separated columns, so they must not be empty or hold whitespace."""
    if not value or any(ch.isspace() for ch in value):
        raise LogirError(f"{what} {value!r} cannot be written: empty or contains whitespace")
    return value


def _write_lines(path: str | Path, lines: Iterable[str]) -> Path:
    """Write lines atomically (a temp file renamed into place)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(p.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(line + "\n")
    tmp.replace(p)
    return p


def write_qrels(
    path: str | Path,
    qrels: Mapping[str, Mapping[str, int]],
    format: Literal["trec", "beir"] = "trec",
) -> Path:
    """Write qrels as TREC (``qid 0 docid rel``) or as a BEIR TSV with its header."""
    if format == "beir":

        def beir_rows() -> Iterator[str]:
            yield "\t".join(BEIR_HEADER)
            for qid, judged in qrels.items():
                for docid, rel in judged.items():
                    if "\t" in qid or "\t" in docid:
                        raise LogirError(f"id with a tab cannot go into a TSV: {qid!r} {docid!r}")
                    yield f"{qid}\t{docid}\t{int(rel)}"

        return _write_lines(path, beir_rows())
    if format != "trec":
        raise LogirError(f"unknown qrels format {format!r} (use 'trec' or 'beir')")

    def trec_rows() -> Iterator[str]:
        for qid, judged in qrels.items():
            for docid, rel in judged.items():
                yield f"{_check_id(qid, 'query id')} 0 {_check_id(docid, 'doc id')} {int(rel)}"

    return _write_lines(path, trec_rows())


def _ranked(hits: Sequence[tuple[str, float]] | Mapping[str, float]) -> list[tuple[str, float]]:
    """Hits sorted by score, highest first; ties keep their given order."""
    pairs = list(hits.items()) if isinstance(hits, Mapping) else [(d, s) for d, s in hits]
    return sorted(((str(d), float(s)) for d, s in pairs), key=lambda h: -h[1])


def write_run(path: str | Path, run: Run, tag: str = "logir") -> Path:
    """Write a six-column TREC run ``qid Q0 docid rank score tag``, ranks from 1 by score."""
    _check_id(tag, "run tag")

    def rows() -> Iterator[str]:
        for qid, hits in run.items():
            _check_id(qid, "query id")
            for rank, (docid, score) in enumerate(_ranked(hits), start=1):
                if math.isnan(score):
                    raise LogirError(f"score of {docid!r} for query {qid!r} is NaN")
                yield f"{qid} Q0 {_check_id(docid, 'doc id')} {rank} {score!r} {tag}"

    return _write_lines(path, rows())


def read_run(path: str | Path) -> dict[str, dict[str, float]]:
    """Read a six-column TREC run into ``{qid: {docid: score}}``."""
    p = require_file(path, "run file")
    run: dict[str, dict[str, float]] = {}
    for lineno, line in _lines(p):
        parts = line.split()
        if len(parts) != 6:
            raise DataFormatError(
                p, lineno, f"expected 6 columns (qid Q0 docid rank score tag), got {len(parts)}"
            )
        qid, _, docid, rank, score, _ = parts
        try:
            int(rank)
        except ValueError:
            raise DataFormatError(p, lineno, f"rank {rank!r} is not an integer") from None
        try:
            value = float(score)
        except ValueError:
            raise DataFormatError(p, lineno, f"score {score!r} is not a number") from None
        hits = run.setdefault(qid, {})
        if docid in hits:
            raise DataFormatError(p, lineno, f"document {docid!r} listed twice for query {qid!r}")
        hits[docid] = value
    return run
