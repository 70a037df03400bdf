"""Which reader reranks, over how many first-stage hits, with what weight; and the
``DIR,depth=N,weight=W`` spelling that eval's ``+reader=`` systems use."""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from pathlib import Path

from logir.errors import LogirError
from logir.limits import MAX_K

DEFAULT_DEPTH = 30
"""First-stage hits the reader rereads by default."""

DEFAULT_WEIGHT = 0.5
"""The reader's share of the final score by default: an even mix, a documented starting value
and not a tuned one (``bench/tune_rerank.py`` grid-searches it on tune splits for a reader)."""

MAX_RERANK_DEPTH = MAX_K
"""Most first-stage hits one query may have reread (the reader's cost grows with it)."""

_KEYS = ("depth", "weight")


@dataclass(frozen=True)
class RerankSettings:
    """``reader`` (a reader folder), ``depth`` (first-stage hits reread) and ``weight`` (the
    reader's share of the final score, 0 to 1: 0 keeps the first-stage order)."""

    reader: Path
    depth: int = DEFAULT_DEPTH
    weight: float = DEFAULT_WEIGHT

    def __post_init__(self) -> None:
        depth, weight = self.depth, self.weight
        if isinstance(depth, bool) or not isinstance(depth, int):
            raise LogirError(f"rerank depth must be an integer, got {depth!r}")
        if not 1 <= depth <= MAX_RERANK_DEPTH:
            raise LogirError(f"rerank depth must be from 1 to {MAX_RERANK_DEPTH}, got {depth}")
        if isinstance(weight, bool) or not isinstance(weight, int | float):
            raise LogirError(f"rerank weight must be a number from 0 to 1, got {weight!r}")
        if not (math.isfinite(weight) and 0.0 <= weight <= 1.0):
            raise LogirError(f"rerank weight must be a number from 0 to 1, got {weight!r}")
        object.__setattr__(self, "reader", Path(self.reader))
        object.__setattr__(self, "weight", float(weight))

    def to_dict(self) -> dict[str, str | int | float]:
        """``{"reader": the folder's name, "depth": N, "weight": W}`` (what a JSON answer shows;
        the folder's name, not its path)."""
        return {"reader": self.reader.name, "depth": self.depth, "weight": self.weight}

    @property
    def spec(self) -> str:
        """The ``DIR,depth=N,weight=W`` spelling of these settings."""
        return f"{self.reader},depth={self.depth},weight={self.weight:g}"

    @property
    def file_part(self) -> str:
        """A run-file-safe name: the reader folder's base name, 8 hex digits of its resolved
        path (two readers both called ``model`` differ), the depth and the weight."""
        path = str(self.reader.expanduser().resolve())
        digest = hashlib.sha256(path.encode("utf-8")).hexdigest()[:8]
        base = re.sub(r"[^A-Za-z0-9._-]", "_", self.reader.name or "reader")
        return f"reader-{base}-{digest}-d{self.depth}-w{self.weight:g}"


def parse_rerank(spec: str, where: str = "system") -> RerankSettings:
    """``DIR[,depth=N][,weight=W]`` read into settings; ``where`` names the text in errors."""
    parts = [p.strip() for p in spec.split(",")]
    folder, options = parts[0], parts[1:]
    if not folder:
        raise LogirError(f"{where}: +reader= needs a reader folder (reader=DIR,depth=30)")
    values: dict[str, str] = {}
    for item in options:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in _KEYS:
            raise LogirError(
                f"{where}: bad reranker option {item[:40]!r}; expected depth=N or weight=W "
                "(a folder name may not hold a comma)"
            )
        if key in values:
            raise LogirError(f"{where}: reranker option {key!r} given twice")
        values[key] = value.strip()
    depth, weight = DEFAULT_DEPTH, DEFAULT_WEIGHT
    if "depth" in values:
        try:
            depth = int(values["depth"])
        except ValueError:
            raise LogirError(
                f"{where}: rerank depth must be an integer from 1 to {MAX_RERANK_DEPTH}, "
                f"got {values['depth'][:40]!r}"
            ) from None
    if "weight" in values:
        try:
            weight = float(values["weight"])
        except ValueError:
            raise LogirError(
                f"{where}: rerank weight must be a number from 0 to 1, "
                f"got {values['weight'][:40]!r}"
            ) from None
    try:
        return RerankSettings(Path(folder), depth, weight)
    except LogirError as exc:
        raise LogirError(f"{where}: {exc}") from None
