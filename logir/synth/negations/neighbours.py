"""Passages that share a topic: each passage's BM25 neighbours, searched with its rarest words."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from logir.synth.negations.analysis import Analysis

#: words of a passage searched for its neighbours (its rarest content words)
QUERY_WORDS = 24
#: texts searched per BM25 call
_BATCH = 256


def neighbours(
    analysis: Analysis,
    k: int,
    progress: Callable[[int, int], None] | None = None,
) -> list[list[int]]:
    """For each passage, up to `k` other passages in BM25 order (best first).

    Each passage is searched by its QUERY_WORDS rarest content words, written as it writes them
    (BM25 stems them as its index does)."""
    from logir.index.lexical import BM25Scorer

    passages = analysis.passages
    scorer = BM25Scorer.build([p.doc.full_text for p in passages])
    queries: list[str] = []
    for p in passages:
        seen: dict[str, int] = {}
        for i, s in enumerate(p.stems):
            seen.setdefault(s, i)
        rare = sorted(seen, key=lambda s: (-analysis.idf(s), s))[:QUERY_WORDS]
        text = p.doc.full_text
        queries.append(" ".join(text[slice(*p.surfaces[seen[s]])] for s in rare))
    out: list[list[int]] = []
    for start in range(0, len(queries), _BATCH):
        batch = [q or "." for q in queries[start : start + _BATCH]]
        idx, scores = scorer.search(batch, k + 1)
        for row, (ids, sc) in enumerate(zip(idx, scores, strict=True)):
            me = start + row
            keep = (ids >= 0) & (ids != me) & np.isfinite(sc) & (sc > 0)
            out.append([int(i) for i in ids[keep][:k]])
        if progress:
            progress(min(start + _BATCH, len(queries)), len(queries))
    return out
