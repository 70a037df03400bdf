"""Lexical + dense fusion as one Scorer: alpha * cosine + (1 - alpha) * BM25 / best BM25."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from types import MappingProxyType

import numpy as np

from logir.index.base import DENSE_PART, LEXICAL_PART, Scorer, ahead, topk, warm


class HybridScorer:
    """Convex mix of a dense and a lexical scorer.

    BM25 is divided by the query's best BM25 score over the whole corpus, so it lies in [0, 1]
    like the cosine; the scale depends only on the query, so any document's score is the same
    whether it is scored alone or inside a full ranking. Its two scorers are its declared
    ``parts`` (``lexical`` and ``dense``), which a composer may weigh otherwise.
    """

    name = "hybrid"
    score_range = "alpha * cosine + (1 - alpha) * BM25 / max BM25, in [-alpha, 1]"

    def __init__(self, lexical: Scorer, dense: Scorer, alpha: float = 0.5, chunk: int = 64):
        if lexical.n_docs != dense.n_docs:
            raise ValueError("hybrid scorers must share one corpus")
        self.lexical = lexical
        corrected = getattr(lexical, "corrected", None)
        if corrected is not None and hasattr(dense, "rewrite"):
            # the dense part reads the words the lexical part corrects as corrected too; a copy
            # (arrays and query cache shared), so the dense scorer alone reads texts as typed
            dense = copy.copy(dense)
            dense.rewrite = corrected  # type: ignore[attr-defined]
        self.dense = dense
        self.alpha = float(alpha)
        self.chunk = chunk
        self.parts: Mapping[str, Scorer] = MappingProxyType(
            {LEXICAL_PART: lexical, DENSE_PART: dense}
        )

    @property
    def n_docs(self) -> int:
        return self.lexical.n_docs

    def warm(self, texts: list[str]) -> None:
        """Each part reads ``texts`` ahead where it can (:func:`logir.index.base.warm`)."""
        for part in self.parts.values():
            warm(part, texts)

    def ahead(
        self, requests: Sequence[tuple[Sequence[str], np.ndarray]], best: Sequence[str] = ()
    ) -> None:
        """Each part told what ``score`` will ask of it (:func:`logir.index.base.ahead`): the
        lexical part also the best score of every text, its scale."""
        scaled = [*best, *(t for texts, _ in requests for t in texts)]
        ahead(self.lexical, requests, scaled)
        ahead(self.dense, requests, best)

    def _lexical_scale(self, texts: list[str]) -> np.ndarray:
        _, best = self.lexical.search(texts, 1)
        best = best[:, 0].astype(np.float32)
        best[~np.isfinite(best) | (best <= 0)] = 1.0
        return best

    def score(self, texts: list[str], doc_idx: np.ndarray | None = None) -> np.ndarray:
        lex = self.lexical.score(texts, doc_idx) / self._lexical_scale(texts)[:, None]
        den = self.dense.score(texts, doc_idx)
        return (self.alpha * den + (1.0 - self.alpha) * lex).astype(np.float32)

    def search(self, texts: list[str], k: int) -> tuple[np.ndarray, np.ndarray]:
        idx_parts, score_parts = [], []
        for start in range(0, len(texts), self.chunk):
            idx, sc = topk(self.score(texts[start : start + self.chunk]), k)
            idx_parts.append(idx)
            score_parts.append(sc)
        if not idx_parts:
            return np.zeros((0, k), dtype=np.int64), np.zeros((0, k), dtype=np.float32)
        return np.concatenate(idx_parts), np.concatenate(score_parts)
