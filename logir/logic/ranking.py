"""A ranking of documents that carries the evidence it was built from."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Ranking:
    """Hits for one query, best first.

    ``evidence`` maps a label (a term, or ``NOT term``) to that part's score for each hit, aligned
    with ``doc_idx``; for the flat composer it holds the query text itself. ``logical_form`` is the
    canonical query string the composer used (None for flat).
    """

    doc_idx: np.ndarray
    scores: np.ndarray
    evidence: dict[str, np.ndarray] = field(default_factory=dict)
    logical_form: str | None = None

    def __len__(self) -> int:
        return int(len(self.doc_idx))

    def valid(self) -> Ranking:
        """Drop padding rows (index -1)."""
        keep = self.doc_idx >= 0
        if keep.all():
            return self
        return Ranking(
            self.doc_idx[keep],
            self.scores[keep],
            {k: v[keep] for k, v in self.evidence.items()},
            self.logical_form,
        )

    def hits(self, doc_ids: Sequence[str] | Mapping[int, str]) -> list[dict[str, Any]]:
        """JSON-friendly hits: rank, id, score and per-part evidence (``doc_ids``: the id of
        each row, all of them or those of the hits)."""
        r = self.valid()
        out = []
        for rank, (row, score) in enumerate(zip(r.doc_idx, r.scores, strict=True), start=1):
            ev = {k: float(v[rank - 1]) for k, v in r.evidence.items()}
            out.append(
                {
                    "rank": rank,
                    "id": doc_ids[row],
                    "row": int(row),
                    "score": float(score),
                    "evidence": ev,
                }
            )
        return out
