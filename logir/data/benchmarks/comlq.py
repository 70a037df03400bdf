"""ComLQ: 14 logical query types (Ren & Leskovec's p/i/u/n structures) over Wikipedia passages.

A raw type such as "3in_2" is base type "3in" with 2 evidence passages; some queries carry no
suffix, so their evidence count is "unknown".
"""

from __future__ import annotations

from pathlib import Path

from logir.data.beir import load_beir
from logir.data.dataset import Dataset
from logir.data.jsonl import read_jsonl
from logir.errors import DataFormatError

COMLQ_TYPES: tuple[str, ...] = (
    "1p", "2p", "3p", "2i", "3i", "pi", "ip", "2u", "up", "2in", "3in", "inp", "pin", "pni",
)  # fmt: skip
"""The 14 base types in the order of the paper's tables."""

NEGATION_TYPES: frozenset[str] = frozenset(t for t in COMLQ_TYPES if "n" in t)

_OPERATORS = (("i", "AND"), ("u", "OR"), ("n", "NOT"))


def operators(base: str) -> str:
    """The logical operators a base type involves, e.g. "AND+NOT" for 2in; "none" for 1p-3p."""
    found = [op for letter, op in _OPERATORS if letter in base]
    return "+".join(found) or "none"


def type_facets(raw: str) -> dict[str, str]:
    """Breakdown keys of a raw ComLQ type label ("3in_2" -> base 3in, evidence 2, ...)."""
    base, _, evidence = raw.partition("_")
    return {
        "type": base,
        "evidence": evidence or "unknown",
        "operators": operators(base),
        "negations": "1" if base in NEGATION_TYPES else "0",
    }


def _line_of(path: Path, qid: str) -> int | None:
    """The line of queries.jsonl that holds query `qid` (for error messages only)."""
    return next((line for line, obj in read_jsonl(path) if str(obj.get("_id")) == qid), None)


def load_comlq(path: str | Path, split: str = "test") -> Dataset:
    """Load the ComLQ BEIR folder (the queries of ``qrels/{split}.tsv``) and label every query
    with its type facets."""
    dataset = load_beir(path, split=split, name="comlq")
    for topic in dataset.queries:
        base = (topic.type or "").partition("_")[0]
        if base not in COMLQ_TYPES:
            queries_path = Path(path) / "queries.jsonl"
            problem = "no 'type'" if topic.type is None else f"unknown type {topic.type!r}"
            raise DataFormatError(queries_path, _line_of(queries_path, topic.id), problem)
        topic.facets = {**type_facets(topic.type or ""), **topic.facets}
    return dataset
