"""The pieces of one search over an opened index (:class:`logir.searcher.Searcher` puts them
together for ``logir search``, the HTTP API and the Python API).

``choose_scorer`` picks the retriever (hybrid when the index has both BM25 and dense, else its
first one); ``search_hits`` ranks one Reading and turns the ranking into JSON-friendly hits with
title, snippet and per-part evidence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from logir.errors import LogirError
from logir.index import registry
from logir.text import clip

if TYPE_CHECKING:
    from logir.index.base import Scorer
    from logir.index.store import Index
    from logir.logic.contract import Composer
    from logir.logic.ranking import Ranking
    from logir.query.reading import Reading

#: retrievers a search can name: the index's own ones, and ``hybrid`` over its bm25 + dense
SEARCH_RETRIEVERS = registry.RETRIEVERS


def search_retrievers(index: Index) -> list[str]:
    """The retrievers a search over ``index`` can use: ``hybrid`` first when the index has bm25
    and dense, then the index's own."""
    return registry.available(index.retrievers)


def default_retriever(index: Index) -> str:
    """``hybrid`` when the index has bm25 and dense, else the first retriever it has."""
    available = search_retrievers(index)
    if not available:
        raise LogirError(f"index {index.path} has no retrievers")
    return available[0]


def choose_scorer(index: Index, retriever: str = "") -> tuple[str, Scorer]:
    """The retriever's name and its scorer (``""`` means :func:`default_retriever`)."""
    name = retriever or default_retriever(index)
    registry.retriever(name)  # an unknown name fails with the list of known ones
    return name, index.scorer(name)


def search_hits(
    index: Index, scorer: Scorer, composer: Composer, reading: Reading | str, k: int
) -> tuple[Ranking, list[dict[str, Any]]]:
    """Rank ``reading`` with ``composer`` over ``scorer``; hits carry rank, id, title, snippet,
    score and evidence (each part's share of the score)."""
    ranking = composer.rank([reading], scorer, k)[0]
    # only the hits' documents are read (a large index's corpus is never loaded for a search)
    docs = {int(row): index.document(int(row)) for row in ranking.valid().doc_idx}
    hits = ranking.hits({row: doc.id for row, doc in docs.items()})
    for h in hits:
        doc = docs[h.pop("row")]
        h["title"] = doc.title
        h["snippet"] = snippet(doc.text)
    return ranking, hits


def snippet(text: str, width: int = 160) -> str:
    """The text on one line, cut at a word boundary to at most about ``width`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else clip(flat, width - 1, " …")
