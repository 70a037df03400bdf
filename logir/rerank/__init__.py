"""The second stage: any system's top N reranked by a trained reader (a cross-encoder).

:class:`RerankSettings` says which reader, how deep and with what weight; :func:`load_reader`
opens a reader folder once for inference; :class:`Reranked` wraps any composer so that its
top N are reordered by a mix of the first-stage score and the reader's score.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from logir.rerank.settings import (
    DEFAULT_DEPTH,
    DEFAULT_WEIGHT,
    MAX_RERANK_DEPTH,
    RerankSettings,
    parse_rerank,
)

if TYPE_CHECKING:
    from logir.rerank.composer import Reranked
    from logir.rerank.reader import InferenceReader, load_reader

__all__ = [
    "DEFAULT_DEPTH",
    "DEFAULT_WEIGHT",
    "MAX_RERANK_DEPTH",
    "InferenceReader",
    "RerankSettings",
    "Reranked",
    "load_reader",
    "parse_rerank",
]

_LAZY = {"Reranked": "composer", "InferenceReader": "reader", "load_reader": "reader"}


def __getattr__(name: str) -> Any:
    """The composer and the reader load on first use (they need numpy and, to score, torch)."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"logir.rerank.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'logir.rerank' has no attribute {name!r}")
