"""Systems under evaluation: ``RETRIEVER[:COMPOSER]`` names and the scorers behind them."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from logir.data.dataset import Document
from logir.errors import LogirError
from logir.index import registry
from logir.index.base import Scorer
from logir.logic.contract import Composer
from logir.logic.registry import get_composer, uses_llm

if TYPE_CHECKING:
    from logir.llm import ChatClient

RETRIEVERS = registry.RETRIEVERS


@dataclass(frozen=True)
class SystemSpec:
    """A named system: which scorer, which composer (and the name it was asked for)."""

    name: str
    retriever: str
    composer: str

    @property
    def file_stem(self) -> str:
        """The run file's name without extension: ':' and '/' become '_'."""
        return re.sub(r"[:/]", "_", self.name)


def parse_system(name: str, llm: ChatClient | None = None) -> SystemSpec:
    """Read ``bm25``, ``dense:flat``, ``hybrid:fuzzy``, ``splade:vectors`` ... into a SystemSpec.

    A system whose composer rewrites queries with an LLM (``bm25:hyde``) needs ``llm``.
    """
    retriever, _, composer = name.strip().partition(":")
    if retriever not in RETRIEVERS:
        raise LogirError(
            f"unknown retriever {retriever!r} in system {name!r}; known: {', '.join(RETRIEVERS)}"
        )
    composer = composer or "flat"
    get_composer(composer, llm=llm)  # fails early with the list of known composers
    return SystemSpec(name=name.strip(), retriever=retriever, composer=composer)


class ScorerPool:
    """Builds each scorer once per corpus, on first use (``bm25``: BM25's ``k1`` and ``b``)."""

    def __init__(
        self,
        docs: list[Document],
        dense_model: str | None = None,
        cache_dir: Path | None = None,
        hybrid_alpha: float = 0.5,
        bm25: Mapping[str, float] | None = None,
    ) -> None:
        if not docs:
            raise LogirError("the dataset has no corpus to retrieve from")
        self.texts = [d.full_text for d in docs]
        self.dense_model = dense_model
        self.cache_dir = cache_dir
        self.hybrid_alpha = hybrid_alpha
        self.bm25 = dict(bm25 or {})
        self._scorers: dict[str, Scorer] = {}

    def get(self, retriever: str) -> Scorer:
        if retriever not in self._scorers:
            self._scorers[retriever] = self._build(retriever)
        return self._scorers[retriever]

    def _build(self, retriever: str) -> Scorer:
        """Build a retriever (:mod:`logir.index.registry`); hybrid over the pool's own parts."""
        options = registry.BuildOptions(
            model=self.dense_model if retriever == "dense" else None,
            cache_dir=self.cache_dir,
            alpha=self.hybrid_alpha,
            bm25=self.bm25,
        )
        return registry.build(retriever, self.texts, options, part=self.get)


def needs_llm(name: str) -> bool:
    """Whether the system ``name`` (``RETRIEVER[:COMPOSER]``) rewrites queries with an LLM."""
    return uses_llm(name.strip().partition(":")[2] or "flat")


def composer_for(
    spec: SystemSpec, llm: ChatClient | None = None, passages: Sequence[str] | None = None
) -> Composer:
    """The system's composer; LLM rewriters get the client and the corpus texts."""
    return get_composer(spec.composer, llm=llm, passages=passages)
