"""The first-hour example: a small corpus of film, food and medicine passages with logical
queries, kept in the source repository at ``examples/first-hour`` (a BEIR folder).

It is the corpus a new user indexes and searches in the README's walk-through. A wheel carries
only the ``logir`` package, so ``logir eval first-hour`` without ``--data`` works where logir runs
from its source tree (``pip install -e .``, or a checkout on ``PYTHONPATH``); elsewhere, pass
``--data`` a copy of the folder.
"""

from __future__ import annotations

from pathlib import Path

from logir.data.beir import load_beir
from logir.data.dataset import Dataset
from logir.errors import LogirError

__all__ = ["EXAMPLE_DIR", "load_first_hour"]

EXAMPLE_DIR = Path(__file__).resolve().parents[3] / "examples" / "first-hour"
"""Where the folder is in a source checkout."""


def load_first_hour(path: str | Path | None = None) -> Dataset:
    """Load the first-hour example from ``path`` (default: the source tree's copy)."""
    root = Path(path) if path is not None else EXAMPLE_DIR
    if path is None and not (root / "corpus.jsonl").is_file():
        raise LogirError(
            f"the first-hour example is not beside this logir ({root}): it ships in logir's "
            "source repository as examples/first-hour; pass --data PATH to a copy of it"
        )
    return load_beir(root, name="first-hour")
