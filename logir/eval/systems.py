"""Systems under evaluation: ``RETRIEVER[:COMPOSER][+reader=DIR,depth=N,weight=W]`` names and
the scorers behind them (``+reader=``: the system's top N reread by a trained reader)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from logir.data.dataset import Document
from logir.errors import LogirError
from logir.index import registry
from logir.index.base import Scorer, attach_passages
from logir.index.spelling import set_spelling
from logir.logic.contract import Composer
from logir.logic.registry import get_composer, uses_llm
from logir.rerank.settings import RerankSettings, parse_rerank

if TYPE_CHECKING:
    from logir.llm import ChatClient

RETRIEVERS = registry.RETRIEVERS
READER_MARK = "+reader="
"""What joins a first-stage system and its reranker in a system name."""


@dataclass(frozen=True)
class SystemSpec:
    """A named system: which scorer, which composer, which reranker if any (``rerank_spec``:
    the text after ``+reader=`` as written), and the name it was asked for."""

    name: str
    retriever: str
    composer: str
    rerank: RerankSettings | None = None
    rerank_spec: str = ""

    @property
    def file_stem(self) -> str:
        """The run file's name without extension: ':' and '/' become '_'; a ``+reader=DIR,...``
        part becomes ``+reader-BASENAME-HASH-dN-wW`` (:attr:`RerankSettings.file_part`)."""
        name = self.name
        if self.rerank is not None:
            name = name.replace(READER_MARK + self.rerank_spec, "+" + self.rerank.file_part, 1)
        return re.sub(r"[:/]", "_", name)


def split_system(name: str) -> tuple[str, str | None]:
    """``RETRIEVER[:COMPOSER]`` and the reranker text after ``+reader=`` (None without one)."""
    base, mark, rest = name.strip().partition(READER_MARK)
    return base, (rest if mark else None)


def parse_system(name: str, llm: ChatClient | None = None) -> SystemSpec:
    """Read ``bm25``, ``dense:flat``, ``hybrid:fuzzy``, ``splade:vectors`` ... into a SystemSpec;
    ``hybrid:auto+reader=DIR,depth=30,weight=0.5`` reranks the top 30 with the reader in DIR
    (checked now; loaded when the system runs).

    A system whose composer rewrites queries with an LLM (``bm25:hyde``) needs ``llm``.
    """
    base, rerank_text = split_system(name)
    rerank = None
    if rerank_text is not None:
        from logir.rerank.reader import check_reader_dir

        rerank = parse_rerank(rerank_text, where=f"system {name.strip()!r}")
        check_reader_dir(rerank.reader.expanduser())
    retriever, _, composer = base.partition(":")
    if retriever not in RETRIEVERS:
        raise LogirError(
            f"unknown retriever {retriever!r} in system {name!r}; known: {', '.join(RETRIEVERS)}"
        )
    composer = composer or "flat"
    get_composer(composer, llm=llm)  # fails early with the list of known composers
    return SystemSpec(
        name=name.strip(),
        retriever=retriever,
        composer=composer,
        rerank=rerank,
        rerank_spec=rerank_text or "",
    )


class ScorerPool:
    """Builds each scorer once per corpus, on first use (``dense_model`` and ``splade_model``:
    the encoders of dense and splade, None: their defaults; ``bm25``: BM25's ``k1`` and ``b``;
    ``show_progress``: whether the encoders may draw their own bars, None: their default;
    ``shard``: what each stored retriever's scorer becomes once built, e.g. a sharded scorer
    served by Ray actors, :mod:`logir.index.sharded`; a composite one is made of those;
    ``spelling``: whether BM25 corrects misspelt query words, :mod:`logir.index.spelling`)."""

    def __init__(
        self,
        docs: list[Document],
        dense_model: str | None = None,
        cache_dir: Path | None = None,
        hybrid_alpha: float = 0.5,
        bm25: Mapping[str, float] | None = None,
        show_progress: bool | None = None,
        shard: Callable[[Scorer], Scorer] | None = None,
        splade_model: str | None = None,
        spelling: bool = True,
    ) -> None:
        if not docs:
            raise LogirError("the dataset has no corpus to retrieve from")
        self.texts = [d.full_text for d in docs]
        self.dense_model = dense_model
        self.splade_model = splade_model
        self.cache_dir = cache_dir
        self.hybrid_alpha = hybrid_alpha
        self.bm25 = dict(bm25 or {})
        self.show_progress = show_progress
        self.shard = shard
        self.spelling = spelling
        self._scorers: dict[str, Scorer] = {}

    def get(self, retriever: str) -> Scorer:
        if retriever not in self._scorers:
            self._scorers[retriever] = self._build(retriever)
        return self._scorers[retriever]

    def _build(self, retriever: str) -> Scorer:
        """Build a retriever (:mod:`logir.index.registry`); hybrid over the pool's own parts."""
        options = registry.BuildOptions(
            model={"dense": self.dense_model, "splade": self.splade_model}.get(retriever),
            cache_dir=self.cache_dir,
            alpha=self.hybrid_alpha,
            bm25=self.bm25,
            show_progress=self.show_progress,
        )
        scorer = registry.build(retriever, self.texts, options, part=self.get)
        set_spelling(scorer, self.spelling)
        if self.shard is not None and registry.retriever(retriever).stored:
            scorer = self.shard(scorer)
        attach_passages(scorer, self.texts)
        return scorer


def needs_llm(name: str) -> bool:
    """Whether the system ``name`` (``RETRIEVER[:COMPOSER]``) rewrites queries with an LLM."""
    return uses_llm(split_system(name)[0].partition(":")[2] or "flat")


def composer_for(
    spec: SystemSpec, llm: ChatClient | None = None, passages: Sequence[str] | None = None
) -> Composer:
    """The system's composer; LLM rewriters get the client and the corpus texts; a system with
    a reranker gets its composer wrapped by the reader (which reads ``passages``)."""
    composer = get_composer(spec.composer, llm=llm, passages=passages)
    if spec.rerank is None:
        return composer
    if passages is None:
        raise LogirError(f"system {spec.name!r} reranks: its composer needs the corpus texts")
    from logir.rerank import Reranked, load_reader

    return Reranked(composer, load_reader(spec.rerank.reader), spec.rerank, passages)
