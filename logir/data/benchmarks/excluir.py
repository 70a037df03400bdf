"""ExcluIR test split: "X without Y" queries with one satisfying and one violating document."""

from __future__ import annotations

from pathlib import Path

from logir.data.benchmarks._labelled import folder_files, read_docs, read_rows
from logir.data.dataset import Dataset, Topic


def load_excluir(path: str | Path) -> Dataset:
    """Load the ExcluIR folder (queries.jsonl + corpus.jsonl)."""
    queries_path, corpus_path = folder_files(path)
    queries: list[Topic] = []
    qrels: dict[str, dict[str, int]] = {}
    violating: dict[str, list[str]] = {}
    for row in read_rows(queries_path):
        queries.append(Topic(row.id, row.text, facets={"negations": "1"}))
        qrels[row.id] = dict.fromkeys(row.satisfying, 1)
        violating[row.id] = row.violating
    return Dataset(
        name="excluir",
        corpus=read_docs(corpus_path, strip_title=True),
        queries=queries,
        qrels=qrels,
        violating=violating,
        meta={"path": str(Path(path))},
    )
