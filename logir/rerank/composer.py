"""A composer wrapped by a reader: the inner composer ranks, the reader rereads its top N, and
the two scores are mixed (:mod:`logir.rerank.mix`). It is a Composer itself, so the searcher,
eval, retrieve and serve take it wherever they take one."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from logir.index.base import Scorer
from logir.logic.contract import Composer, StateCache
from logir.logic.ranking import Ranking
from logir.query.reading import Reading
from logir.rerank.mix import Scale, mix_below, mix_top, total
from logir.rerank.reader import InferenceReader
from logir.rerank.settings import RerankSettings

Top = tuple[np.ndarray, dict[str, np.ndarray], Scale]
"""A query's reranked top N: its rows (first-stage order), their score parts, the scale."""


class Reranked(Composer):
    """``inner``'s ranking with its top ``settings.depth`` hits reordered by the mix of their
    first-stage score and ``reader``'s score of (query text, passage) (``passages``: the text of
    each document row). Each hit's evidence holds the parts of its final score, which add up to
    it. The top N of each query ranked is kept (a bounded cache), so that ``score`` gives a row
    the very number ``rank`` gave it. ``stats()["reader"]`` counts the queries and pairs reread
    and the seconds the reader took (near 0 when its scores came from its cache)."""

    additive = True
    rank_batch = 8

    def __init__(
        self,
        inner: Composer,
        reader: InferenceReader,
        settings: RerankSettings,
        passages: Sequence[str],
    ) -> None:
        self.inner = inner
        self.reader = reader
        self.settings = settings
        self.passages = passages
        self.name = f"{inner.name}+reader"
        self.reads_logical_form = inner.reads_logical_form  # type: ignore[misc]
        self.uses_llm = inner.uses_llm  # type: ignore[misc]
        self._tops: StateCache[Top] = StateCache()
        self._queries = 0
        self._pairs = 0
        self._seconds = 0.0

    def rank_readings(self, readings: list[Reading], scorer: Scorer, k: int) -> list[Ranking]:
        deeper = self.inner.rank(readings, scorer, max(k, self.settings.depth))
        out = []
        for reading, ranking in zip(readings, deeper, strict=True):
            valid = ranking.valid()
            top = self._top(reading, valid)
            self._tops.put(scorer, _key(reading), top)
            out.append(self._one(valid, top, k))
        return out

    def _top(self, reading: Reading, ranking: Ranking) -> Top:
        """The top N's rows, their score parts, and the first stage's scale."""
        n = min(self.settings.depth, len(ranking))
        rows, first = ranking.doc_idx[:n], ranking.scores[:n]
        scale = Scale.of(np.asarray(first, np.float64))
        started = time.perf_counter()
        read = self.reader.score(reading.text, [self.passages[int(i)] for i in rows])
        self._seconds += time.perf_counter() - started
        self._queries += 1
        self._pairs += n
        return rows, mix_top(first, read, scale, self.settings.weight), scale

    def _one(self, ranking: Ranking, top: Top, k: int) -> Ranking:
        rows, parts_top, scale = top
        n = len(rows)
        order = np.argsort(-total(parts_top), kind="stable")  # ties keep the first-stage order
        below = mix_below(ranking.scores[n:], scale)
        parts = {key: np.concatenate([parts_top[key][order], below[key]])[:k] for key in parts_top}
        doc_idx = np.concatenate([rows[order], ranking.doc_idx[n:]])[:k]
        return Ranking(doc_idx, total(parts), parts, ranking.logical_form)

    def score_reading(self, reading: Reading, scorer: Scorer, doc_idx: np.ndarray) -> np.ndarray:
        """The final score each row gets in ``rank``: mixed in the top N, shifted below it."""
        found, _ = self._tops.split([_key(reading)], scorer)
        top = found.get(_key(reading))
        if top is None:
            ranking = self.inner.rank([reading], scorer, self.settings.depth)[0].valid()
            top = self._top(reading, ranking)
            self._tops.put(scorer, _key(reading), top)
        rows, parts_top, scale = top
        final = total(parts_top)
        where = {int(r): i for i, r in enumerate(rows)}
        out = np.zeros(len(doc_idx), np.float64)
        rest = [j for j, r in enumerate(doc_idx) if int(r) not in where]
        for j, r in enumerate(doc_idx):
            if int(r) in where:
                out[j] = final[where[int(r)]]
        if rest:
            first = self.inner.score(reading, scorer, np.asarray(doc_idx)[rest])
            out[rest] = total(mix_below(first, scale))
        return out

    def explain(self, reading: Reading) -> str | None:
        inner = self.inner.explain(reading)
        s = self.settings
        line = (
            f"reranked: the top {s.depth} reread by the reader {s.reader.name!r}; final score = "
            f"{1 - s.weight:g} x first-stage score (min-max over the top {s.depth}) + "
            f"{s.weight:g} x sigmoid(reader score); hits below rank {s.depth} keep the "
            "first-stage order, shifted by -1"
        )
        return f"{inner}\n{line}" if inner else line

    def stats(self) -> dict[str, Any]:
        reader = {"queries": self._queries, "pairs": self._pairs, "seconds": self._seconds}
        return {**self.inner.stats(), "reader": reader}


def _key(reading: Reading) -> tuple[str, str]:
    return reading.text, str(reading.query)
