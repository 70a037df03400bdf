"""Flat retrieval: the query text as it is, the baseline every table compares against."""

from __future__ import annotations

import numpy as np

from logir.index.base import Scorer
from logir.logic.ranking import Ranking


class Flat:
    """Scores the whole query text with one call to the scorer; ignores its logic."""

    name = "flat"

    def rank(self, queries: list[str], scorer: Scorer, k: int) -> list[Ranking]:
        idx, scores = scorer.search(queries, k)
        return [
            Ranking(idx[i], scores[i], evidence={queries[i]: scores[i]})
            for i in range(len(queries))
        ]

    def score(self, query: str, scorer: Scorer, doc_idx: np.ndarray) -> np.ndarray:
        return scorer.score([query], np.asarray(doc_idx, dtype=np.int64))[0]
