"""Training examples: (query, positive, logic hard negative) from the formats logir reads.

Accepted sources (:func:`load_examples`):

- a triplet JSONL file: rows with ``query``, ``positive`` and ``negative`` (or
  ``hard_negative``) strings, as ExcluIR's train triplets;
- a folder in the labelled layout of NevIR (``queries.jsonl`` with
  ``constraint_satisfying_doc_ids`` / ``constraint_violating_doc_ids``) that has a
  ``qrels/train.tsv``, as ``nevir-train``;
- any BEIR folder; a query's ``violating`` documents are its hard negatives, and the qrels of
  `split` (default ``train``) its positives.

Test splits are refused: logir never trains on them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from logir.data.beir import load_beir, require_dir
from logir.data.benchmarks.nevir import load_nevir
from logir.data.dataset import Dataset
from logir.data.jsonl import read_jsonl, require_file, text_lines
from logir.errors import DataFormatError, LogirError

TRAIN_SPLIT = "train"
NEGATIVE_FIELDS = ("negative", "hard_negative")


@dataclass(frozen=True)
class Example:
    """One training example: a query, a passage that satisfies it and one that violates it.

    ``negative`` is None when the source names no violating passage (in-batch negatives only).
    ``group`` keeps related examples on one side of the held-out split (a NevIR pair, a query).
    """

    query: str
    positive: str
    negative: str | None
    group: str
    source: str


def _string(obj: dict[str, object], names: tuple[str, ...], path: Path, line: int) -> str:
    for name in names:
        if name in obj:
            value = obj[name]
            if not isinstance(value, str) or not value.strip():
                raise DataFormatError(path, line, f"field {name!r} must be a non-empty string")
            return value
    raise DataFormatError(path, line, f"missing field {' or '.join(repr(n) for n in names)}")


def read_triplets(path: str | Path) -> list[Example]:
    """The examples of a triplet JSONL file (``query``, ``positive``, ``negative``)."""
    p = require_file(path, "triplet file")
    out: list[Example] = []
    for line, obj in read_jsonl(p):
        query = _string(obj, ("query",), p, line)
        positive = _string(obj, ("positive",), p, line)
        negative = _string(obj, NEGATIVE_FIELDS, p, line)
        if negative == positive:
            raise DataFormatError(p, line, "the negative passage is the positive passage")
        out.append(Example(query, positive, negative, f"q:{query}", f"{p}:{line}"))
    if not out:
        raise LogirError(f"triplet file has no rows: {p}")
    return out


def _first_row_keys(path: Path) -> set[str]:
    for _, line in text_lines(path):
        if line.strip():
            try:
                obj = json.loads(line)
            except ValueError:
                return set()  # read_jsonl reports it with file and line
            return set(obj) if isinstance(obj, dict) else set()
    return set()


def dataset_examples(dataset: Dataset) -> list[Example]:
    """One example per (query, relevant document), each with one of the query's violating
    documents as its negative (cycled when there are fewer), or None when it has none."""
    texts = {d.id: d.full_text for d in dataset.corpus}
    root = dataset.meta.get("path", dataset.name)
    out: list[Example] = []
    for topic in dataset.queries:
        positives = [d for d, grade in dataset.qrels.get(topic.id, {}).items() if grade > 0]
        violating = [d for d in dataset.violating.get(topic.id, []) if d not in positives]
        for name in [*positives, *violating]:
            if name not in texts:
                raise LogirError(
                    f"{root}: query {topic.id!r} names document {name!r}, not in the corpus"
                )
        pair = str(topic.meta.get("pair", ""))
        group = f"pair:{pair.split('-')[0]}" if pair else f"q:{topic.id}"
        for i, doc in enumerate(positives):
            negative = texts[violating[i % len(violating)]] if violating else None
            out.append(Example(topic.text, texts[doc], negative, group, f"{root}#{topic.id}"))
    return out


def load_source(path: str | Path, split: str = TRAIN_SPLIT) -> list[Example]:
    """The examples of one source (triplet file or folder); see the module docstring."""
    if split == "test":
        raise LogirError("logir never trains on a test split; use a train split (--split train)")
    p = Path(path)
    if p.is_file():
        return read_triplets(p)
    root = require_dir(p, "training data folder")
    queries = require_file(root / "queries.jsonl", "queries file")
    if "constraint_satisfying_doc_ids" in _first_row_keys(queries):
        if not (root / "qrels" / f"{split}.tsv").is_file():
            raise LogirError(
                f"{root} has no qrels/{split}.tsv: it is not a {split} split (the labelled "
                "layout of NevIR, ExcluIR and NegConstraint holds their test splits), and "
                "logir never trains on a test split"
            )
        dataset = load_nevir(root)
    else:
        dataset = load_beir(root, split=split)
    examples = dataset_examples(dataset)
    if not examples:
        raise LogirError(f"{root}: no query of split {split!r} has a relevant document")
    return examples


def load_examples(paths: Iterable[str | Path], split: str = TRAIN_SPLIT) -> list[Example]:
    """The examples of every source, in order."""
    out: list[Example] = []
    for path in paths:
        out.extend(load_source(path, split))
    if not out:
        raise LogirError("no training data: give at least one --data source")
    return out


def _bucket(group: str, seed: int) -> float:
    digest = hashlib.sha256(f"{seed}\x00{group}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def split_heldout(
    examples: list[Example], fraction: float, limit: int, seed: int = 0
) -> tuple[list[Example], list[Example]]:
    """(train, held-out): whole groups go to held-out with probability `fraction`, and only
    examples with a hard negative (pairwise accuracy needs one), about `limit` of them. When
    the limit binds, the held-out groups are those of lowest hash bucket, a uniform sample of
    all sources (not the groups met first, which would all come from the first source)."""
    if not 0 <= fraction < 1:
        raise LogirError(f"--holdout must be in [0, 1), got {fraction}")
    members: dict[str, list[Example]] = {}
    for ex in examples:
        members.setdefault(ex.group, []).append(ex)
    buckets = {g: _bucket(g, seed) for g in members} if fraction > 0 else {}
    held_groups: set[str] = set()
    pairs = 0
    for group in sorted((g for g, b in buckets.items() if b < fraction), key=buckets.__getitem__):
        if pairs >= limit:
            break
        held_groups.add(group)
        pairs += sum(ex.negative is not None for ex in members[group])
    train = [ex for ex in examples if ex.group not in held_groups]
    if not train:
        raise LogirError("no training examples are left after the held-out split")
    return train, [ex for ex in examples if ex.group in held_groups and ex.negative is not None]


def fingerprint(examples: list[Example]) -> str:
    """A sha256 of the examples' texts in order (a resumed run must see the same data)."""
    h = hashlib.sha256()
    for ex in examples:
        for part in (ex.query, ex.positive, ex.negative or ""):
            h.update(part.encode("utf-8"))
            h.update(b"\x00")
    return h.hexdigest()
