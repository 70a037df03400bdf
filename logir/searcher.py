"""The front door: open an index once, then read, rank and explain queries.

``logir search``, ``logir serve`` and the Python API all search through :class:`Searcher`::

    import logir

    searcher = logir.Searcher("my-index")
    result = searcher.search("vitamin D other than bone health", k=5)
    for hit in result.hits:
        print(hit.rank, hit.score, hit.id, hit.title)

Each search reads its query once (:func:`logir.query.reading.read`) and hands that Reading to
the composer; the result carries the Reading, the Ranking, the hits and an explanation.

A second stage plugs in here once: ``Searcher(index, rerank=RerankSettings(DIR, depth, weight))``
loads a trained reader (:mod:`logir.rerank`) and every search's top N is reread by it, for
``logir search --rerank``, ``logir retrieve --rerank`` and ``logir serve --rerank`` alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from logir.errors import LogirError
from logir.query.reading import ALL_MODES, Reading

if TYPE_CHECKING:
    from logir.index.base import Scorer
    from logir.index.store import Index
    from logir.llm.client import ChatClient
    from logir.logic.applied import Applied
    from logir.logic.contract import Composer
    from logir.logic.ranking import Ranking
    from logir.rerank import InferenceReader, RerankSettings

__all__ = ["Hit", "SearchResult", "Searcher", "auto_plan", "reading_warnings", "spelling_line"]


@dataclass(frozen=True)
class Hit:
    """One ranked document: rank (from 1), id, title, snippet, score and each part's evidence."""

    rank: int
    id: str
    title: str
    snippet: str
    score: float
    evidence: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "id": self.id,
            "title": self.title,
            "snippet": self.snippet,
            "score": self.score,
            "evidence": dict(self.evidence),
        }


@dataclass(frozen=True)
class SearchResult:
    """What one search found, and how: the reading, the ranking, the hits, an explanation.

    ``explanation`` holds the lines ``logir search --explain`` prints above the hits: the logical
    form the composer ranked by, what the composer decided for this query and why (``auto``), and
    what the evidence numbers under each hit mean. ``applied`` says what the composer applied to
    this query (``flat``, ``exclude``, ``logic`` or ``rewrite``) and why: ``auto`` ranks some
    queries flat although their logical form has a NOT. ``warnings`` holds what a user should see
    even without asking (a query that looked like logir syntax but did not parse). ``rerank``
    holds the second stage's settings when a reader reread the top hits. ``corrections`` maps
    each query word BM25 read as another (a misspelling) to that word.
    """

    reading: Reading
    retriever: str
    composer: str
    k: int
    ranking: Ranking
    hits: list[Hit]
    additive: bool
    explanation: list[str]
    warnings: list[str]
    applied: Applied
    rerank: RerankSettings | None = None
    corrections: dict[str, str] = field(default_factory=dict)

    @property
    def logical_form(self) -> str | None:
        """The logical form the composer ranked by (None when it ranked the text as is)."""
        return self.ranking.logical_form

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-friendly data (what ``logir search --json`` prints)."""
        return {
            "query": self.reading.text,
            "retriever": self.retriever,
            "composer": self.composer,
            "mode_used": self.reading.mode_used,
            "fallback": self.reading.fallback,
            "logical_form": self.logical_form,
            **self.applied.to_dict(),
            "notes": list(self.reading.notes),
            "corrections": dict(self.corrections),
            **({"rerank": self.rerank.to_dict()} if self.rerank is not None else {}),
            "hits": [h.to_dict() for h in self.hits],
        }


class Searcher:
    """An index opened once, with its scorers loaded on first use and kept.

    ``index`` is an index folder (built by ``logir index``) or an opened
    :class:`~logir.index.store.Index`; ``retriever`` is the default retriever (``bm25``,
    ``dense``, ``hybrid`` or ``splade``; by default hybrid when the index has bm25 and dense, else
    its first). ``rerank`` names a trained reader that rereads every search's top N (loaded
    here, once). ``llm`` is the client that ``mode="llm"`` asks for logical forms.
    ``spelling`` False stops BM25 from reading misspelt query words as the words they near
    (:mod:`logir.index.spelling`). Not safe to share between threads: scorers keep per-query
    state.
    """

    def __init__(
        self,
        index: str | Path | Index,
        retriever: str | None = None,
        rerank: RerankSettings | None = None,
        llm: ChatClient | None = None,
        spelling: bool = True,
    ) -> None:
        from logir.index.store import Index, open_index
        from logir.search import default_retriever, search_retrievers

        self.index: Index = index if isinstance(index, Index) else open_index(index)
        self.retrievers = search_retrievers(self.index)
        self.default_retriever = retriever or default_retriever(self.index)
        self._scorers: dict[str, tuple[str, Scorer]] = {}
        self.index.use_spelling(spelling)  # before a scorer loads: a sharded one keeps it
        self.scorer(self.default_retriever)  # an unknown retriever fails here, not later
        self.rerank = rerank
        self.llm = llm
        self.reader: InferenceReader | None = None
        if rerank is not None:
            from logir.rerank import load_reader

            self.reader = load_reader(rerank.reader)

    def second_stage(self, composer: Composer, rerank: bool | RerankSettings = True) -> Composer:
        """``composer`` wrapped by the reader when this searcher reranks (and ``rerank`` is not
        False; settings given as ``rerank`` set the depth and weight), else itself."""
        if self.rerank is None or self.reader is None or rerank is False:
            return composer
        settings = self.rerank if rerank is True else rerank
        from logir.rerank import Reranked

        return Reranked(composer, self.reader, settings, self.index.passages)

    @property
    def spelling(self) -> bool:
        """Whether BM25 reads misspelt query words as the words they near (the index's
        setting)."""
        return self.index.spelling

    def use_spelling(self, on: bool) -> None:
        """Turn BM25's spelling correction on or off, for the scorers loaded and to come."""
        self.index.use_spelling(on)

    def scorer(self, retriever: str | None = None) -> tuple[str, Scorer]:
        """The retriever's name and its scorer (loaded once)."""
        from logir.search import choose_scorer

        key = retriever or self.default_retriever
        if key not in self._scorers:
            self._scorers[key] = choose_scorer(self.index, key)
        return self._scorers[key]

    @staticmethod
    def read(text: str, mode: str = "auto", llm: ChatClient | None = None) -> Reading:
        """``text`` read once as a query in ``mode`` (auto, syntax, natural, or llm with the
        client ``llm``: the rules when the LLM's form is not used, and the Reading says why)."""
        from logir.query import reading

        if mode not in ALL_MODES:
            raise LogirError(f"unknown mode {mode!r}; known: {', '.join(ALL_MODES)}")
        if mode == "llm" and llm is None:
            raise LogirError("mode 'llm' needs an LLM endpoint (--llm-base-url)")
        return reading.read(text, mode, llm)

    def search(
        self,
        query: str | Reading,
        *,
        mode: str = "auto",
        k: int = 10,
        composer: str | Composer = "auto",
        retriever: str | None = None,
        rerank: bool | RerankSettings = True,
    ) -> SearchResult:
        """Rank the index for ``query`` (a text, read in ``mode``, or a Reading already made)
        with ``composer`` (a spec such as ``fuzzy,and=min``, or a built composer) over
        ``retriever``; at most ``k`` hits. A searcher with a reader rereads the top hits unless
        ``rerank`` is False; settings given as ``rerank`` change its depth and weight for this
        search (the reader stays the one loaded)."""
        from logir.index.spelling import corrections
        from logir.logic import get_composer
        from logir.logic.applied import applied
        from logir.rerank import Reranked
        from logir.search import search_hits

        first = get_composer(composer) if isinstance(composer, str) else composer
        spec = composer if isinstance(composer, str) else first.name
        comp = self.second_stage(first, rerank)
        name, scorer = self.scorer(retriever)
        reading = query if isinstance(query, Reading) else self.read(query, mode, self.llm)
        ranking, rows = search_hits(self.index, scorer, comp, reading, k)
        hits = [Hit(**h) for h in rows]
        fixed = corrections(scorer, reading.text)
        return SearchResult(
            reading=reading,
            retriever=name,
            composer=spec,
            k=k,
            ranking=ranking,
            hits=hits,
            additive=comp.additive,
            explanation=_explain(comp, reading, ranking, fixed),
            warnings=_warnings(comp, reading),
            applied=applied(first, reading),
            rerank=comp.settings if isinstance(comp, Reranked) else None,
            corrections=fixed,
        )


def _explain(
    composer: Composer, reading: Reading, ranking: Ranking, fixed: dict[str, str]
) -> list[str]:
    lines = [f"logical form: {ranking.logical_form or '(flat: the text as is)'}"]
    if fixed:
        lines.append(spelling_line(fixed))
    decided = composer.explain(reading)
    if decided:
        lines.extend(decided.splitlines())
    if composer.additive:
        lines.append("under each hit: the parts of its score (they add up to it)")
    else:
        lines.append(
            "under each hit: each term's calibrated score (for NOT term: how much the hit "
            "matches what is negated)"
        )
    return lines


def _warnings(composer: Composer, reading: Reading) -> list[str]:
    return reading_warnings(reading) if composer.reads_logical_form else []


def reading_warnings(reading: Reading) -> list[str]:
    """Notes a user should see: a query that looked like syntax but was read as prose."""
    return [n for n in reading.notes if n.startswith("looked like query syntax")]


def spelling_line(fixed: dict[str, str]) -> str:
    """One line saying which query words BM25 read as others."""
    pairs = ", ".join(f"{wrong!r} as {right!r}" for wrong, right in fixed.items())
    return f"spelling: BM25 read {pairs} (--no-spelling to keep words as typed)"


def auto_plan(reading: Reading) -> Applied:
    """What the ``auto`` composer (``logir search``'s default) would apply to ``reading``, and
    why: what ``logir parse`` previews."""
    from logir.logic import get_composer
    from logir.logic.applied import applied

    return applied(get_composer("auto"), reading)
