"""The Composer contract and the registry of composers by name."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from logir.errors import LogirError
from logir.index.base import Scorer
from logir.logic.ranking import Ranking


class Composer(Protocol):
    """Turns a query into a ranking using a scorer; never re-encodes documents.

    - ``rank(queries, scorer, k)`` -> one Ranking per query, best first.
    - ``score(query, scorer, doc_idx)`` -> the composed score of the given document rows; the
      same numbers ``rank`` would give those documents (metrics such as pairwise accuracy read it).
    """

    name: str

    def rank(self, queries: list[str], scorer: Scorer, k: int) -> list[Ranking]: ...

    def score(self, query: str, scorer: Scorer, doc_idx: np.ndarray) -> np.ndarray: ...


def get_composer(name: str) -> Composer:
    """A composer by name (``flat``; the logic composers register here as they land)."""
    from logir.logic.flat import Flat

    composers: dict[str, type] = {"flat": Flat}
    if name not in composers:
        known = ", ".join(sorted(composers))
        raise LogirError(f"unknown composer {name!r}; known composers: {known}")
    return composers[name]()
