"""NegConstraint: negative-constraint queries ("A - a", "(A - a) ∪ B", "(A - a) ∪ (B - b)").

All labels come from queries.jsonl (qrels/test.tsv covers only part of the queries).
"""

from __future__ import annotations

from pathlib import Path

from logir.data.benchmarks._labelled import folder_files, read_docs, read_rows
from logir.data.dataset import Dataset, Topic


def negations(category: str) -> int:
    """How many set differences ('-') the category formula has."""
    return category.count("-")


def load_negconstraint(path: str | Path) -> Dataset:
    """Load the NegConstraint folder (queries.jsonl + corpus.jsonl)."""
    queries_path, corpus_path = folder_files(path)
    queries: list[Topic] = []
    qrels: dict[str, dict[str, int]] = {}
    violating: dict[str, list[str]] = {}
    for row in read_rows(queries_path):
        category = str(row.raw.get("category", ""))
        facets = {"category": category, "negations": str(negations(category))} if category else {}
        queries.append(Topic(row.id, row.text, type=category or None, facets=facets))
        qrels[row.id] = {d: int(g) for d, g in row.graded.items() if g > 0}
        violating[row.id] = row.violating
    return Dataset(
        name="negconstraint",
        corpus=read_docs(corpus_path),
        queries=queries,
        qrels=qrels,
        violating=violating,
        meta={"path": str(Path(path))},
    )
