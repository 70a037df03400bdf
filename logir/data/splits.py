"""logir's own deterministic tuning / test splits of a benchmark's queries.

Anything chosen by looking at results uses ``logir-tune`` only; figures are reported on
``logir-test``. These are not a BEIR folder's ``qrels/NAME.tsv`` splits: a query's part is fixed
by a hash of its group id, whatever the qrels file. ``tune`` and ``test`` are their old names
(still accepted, with a DeprecationWarning).
"""

from __future__ import annotations

import hashlib
import warnings

from logir.data.dataset import Dataset, Topic
from logir.errors import LogirError

TUNE = "logir-tune"
TEST = "logir-test"
SPLITS = ("all", TUNE, TEST)
#: the names these splits had before BEIR's qrels splits could be named too
OLD_NAMES = {"tune": TUNE, "test": TEST}
#: share of query groups in the tuning split
TUNE_FRACTION = 0.2


def group_of(topic: Topic) -> str:
    """Queries that belong together share a split: a NevIR pair, a MultiConIR item."""
    for key in ("pair", "item"):
        if key in topic.meta:
            return f"{key}:{topic.meta[key]}"
    return f"q:{topic.id}"


def split_of(topic: Topic) -> str:
    """``logir-tune`` for about TUNE_FRACTION of the groups, by a hash of the group id, else
    ``logir-test``."""
    digest = hashlib.sha256(group_of(topic).encode("utf-8")).digest()
    bucket = int.from_bytes(digest[:8], "big") / 2**64
    return TUNE if bucket < TUNE_FRACTION else TEST


def canonical(split: str) -> str:
    """``split`` under its current name (an old name warns); LogirError when unknown."""
    if split in OLD_NAMES:
        new = OLD_NAMES[split]
        warnings.warn(f"split {split!r} is now {new!r}", DeprecationWarning, stacklevel=3)
        return new
    if split not in SPLITS:
        raise LogirError(f"unknown split {split!r}; known: {', '.join(SPLITS)}")
    return split


def select_split(dataset: Dataset, split: str) -> Dataset:
    """The dataset restricted to one split (``all`` returns it unchanged)."""
    split = canonical(split)
    if split == "all":
        return dataset
    out = dataset.subset({t.id for t in dataset.queries if split_of(t) == split})
    out.meta["split"] = split
    return out
