"""Deterministic tuning / test splits: anything chosen by looking at results uses `tune` only."""

from __future__ import annotations

import hashlib

from logir.data.dataset import Dataset, Topic
from logir.errors import LogirError

SPLITS = ("all", "tune", "test")
#: share of query groups in the tuning split
TUNE_FRACTION = 0.2


def group_of(topic: Topic) -> str:
    """Queries that belong together share a split: a NevIR pair, a MultiConIR item."""
    for key in ("pair", "item"):
        if key in topic.meta:
            return f"{key}:{topic.meta[key]}"
    return f"q:{topic.id}"


def split_of(topic: Topic) -> str:
    """``tune`` for about TUNE_FRACTION of the groups, by a hash of the group id, else ``test``."""
    digest = hashlib.sha256(group_of(topic).encode("utf-8")).digest()
    bucket = int.from_bytes(digest[:8], "big") / 2**64
    return "tune" if bucket < TUNE_FRACTION else "test"


def select_split(dataset: Dataset, split: str) -> Dataset:
    """The dataset restricted to one split (``all`` returns it unchanged)."""
    if split not in SPLITS:
        raise LogirError(f"unknown split {split!r}; known: {', '.join(SPLITS)}")
    if split == "all":
        return dataset
    out = dataset.subset({t.id for t in dataset.queries if split_of(t) == split})
    out.meta["split"] = split
    return out
