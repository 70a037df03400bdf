"""NevIR test split: pairs of queries and documents that differ by a negation."""

from __future__ import annotations

import re
from pathlib import Path

from logir.data.benchmarks._labelled import folder_files, read_docs, read_rows
from logir.data.dataset import Dataset, Topic
from logir.errors import DataFormatError

_QUERY_ID = re.compile(r"nevir_q_(?P<pair>.+)_(?P<side>[12])")


def load_nevir(path: str | Path) -> Dataset:
    """Load the NevIR folder; each Topic's meta names its pair ({"pair": "1000-2"})."""
    queries_path, corpus_path = folder_files(path)
    queries: list[Topic] = []
    qrels: dict[str, dict[str, int]] = {}
    violating: dict[str, list[str]] = {}
    for row in read_rows(queries_path):
        match = _QUERY_ID.fullmatch(row.id)
        if match is None:
            raise DataFormatError(
                row.path, row.line, f"query id {row.id!r} is not nevir_q_<pair>_<1|2>"
            )
        queries.append(Topic(row.id, row.text, meta={"pair": match["pair"]}))
        qrels[row.id] = dict.fromkeys(row.satisfying, 1)
        violating[row.id] = row.violating
    return Dataset(
        name="nevir",
        corpus=read_docs(corpus_path),
        queries=queries,
        qrels=qrels,
        violating=violating,
        meta={"path": str(Path(path))},
    )
