"""MultiConIR: multi-condition queries with a ladder of hard negatives.

The published CSVs (one per domain) hold per row a Positive document, hard negatives HN1..HN10
(HN k has its first k conditions perturbed), Query1..Query10 (instruction style, k conditions)
and Natural_Query1..Natural_Query10 (descriptive style).
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

from logir.data.dataset import Dataset, Document, Topic
from logir.data.jsonl import require_file, text_lines
from logir.errors import DataFormatError, LogirError

LEVELS = range(1, 11)
STYLES: dict[str, str] = {"instruction": "Query{k}", "descriptive": "Natural_Query{k}"}
DOC_COLUMNS = ["Positive", *(f"HN{k}" for k in LEVELS)]
DOC_SUFFIXES = ["pos", *(f"hn{k}" for k in LEVELS)]


def _csv_files(path: str | Path) -> list[Path]:
    p = Path(path)
    if p.is_dir():
        found = sorted(p.glob("*.csv"))
        if not found:
            raise LogirError(f"no .csv files in {p}")
        return found
    return [require_file(p, "MultiConIR CSV file")]


def _rows(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """(row index from 0, stripped cells) for each data row of a MultiConIR CSV."""
    csv.field_size_limit(max(csv.field_size_limit(), 1 << 24))
    reader = csv.DictReader(text for _, text in text_lines(path))
    try:
        columns = reader.fieldnames or []
        if "Positive" not in columns or not any(c.startswith("Query") for c in columns):
            raise DataFormatError(path, 1, "header needs 'Positive' and Query1..Query10")
        for i, row in enumerate(reader):
            if None in row:
                raise DataFormatError(path, reader.line_num, "more cells than header columns")
            yield i, {k: (v or "").strip() for k, v in row.items()}
    except csv.Error as exc:
        raise DataFormatError(path, reader.line_num, f"bad CSV ({exc})") from None


def _add_row(data: Dataset, domain: str, i: int, row: dict[str, str]) -> None:
    """Add one row's documents, its 20 topics and their labels to `data`."""
    item = f"{domain}:{i}"
    # The ladder keeps the present documents in order: positive, HN1, ..., HN10.
    ladder = []
    for column, suffix in zip(DOC_COLUMNS, DOC_SUFFIXES, strict=True):
        if row.get(column):
            ladder.append(f"{item}:{suffix}")
            data.corpus.append(Document(ladder[-1], row[column]))
    pos, hn1 = f"{item}:pos", f"{item}:hn1"
    if pos not in ladder:
        return  # no positive document: nothing to judge the queries against
    for style, pattern in STYLES.items():
        for k in LEVELS:
            text = row.get(pattern.format(k=k))
            if not text:
                continue
            qid = f"{item}:{style}:{k}"
            data.queries.append(
                Topic(
                    id=qid,
                    text=text,
                    facets={"level": str(k), "style": style, "domain": domain},
                    meta={"item": item, "level": k, "style": style, "ladder": list(ladder)},
                )
            )
            data.qrels[qid] = {pos: 1}
            data.violating[qid] = [hn1] if hn1 in ladder else []


def load_multiconir(path: str | Path) -> Dataset:
    """Load a MultiConIR CSV file or a folder of them (domain = file stem)."""
    data = Dataset(name="multiconir", corpus=[], queries=[], qrels={}, meta={"path": str(path)})
    for csv_path in _csv_files(path):
        for i, row in _rows(csv_path):
            _add_row(data, csv_path.stem, i, row)
    return data
