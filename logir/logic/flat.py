"""Flat retrieval: the query text as it is, the baseline every table compares against."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from logir.index.base import Scorer, ahead
from logir.logic.contract import Composer
from logir.logic.ranking import Ranking
from logir.query.reading import Reading


class Flat(Composer):
    """Scores the whole query text with one call to the scorer; ignores its logic."""

    name: ClassVar[str] = "flat"
    additive: ClassVar[bool] = True
    reads_logical_form: ClassVar[bool] = False

    def rank_readings(self, readings: list[Reading], scorer: Scorer, k: int) -> list[Ranking]:
        texts = [r.text for r in readings]
        idx, scores = scorer.search(texts, k)
        return [
            Ranking(idx[i], scores[i], evidence={texts[i]: scores[i]}) for i in range(len(texts))
        ]

    def score_reading(self, reading: Reading, scorer: Scorer, doc_idx: np.ndarray) -> np.ndarray:
        return scorer.score([reading.text], doc_idx)[0]

    def score_ahead(self, items: list[tuple[Reading, np.ndarray]], scorer: Scorer) -> None:
        ahead(scorer, [([r.text], rows) for r, rows in items])
