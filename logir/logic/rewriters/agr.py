"""AGR (Chen et al. 2024): analyze the query, generate grounded answers, refine them into one.

1. *Analyze*: the LLM says what information the query needs and proposes up to ``queries`` short
   search queries that would find it (JSON, repaired by the client when malformed).
2. *Generate*: each proposed query is retrieved (``depth`` passages) and the LLM writes an answer
   passage for the original query from those passages.
3. *Refine*: the LLM reviews the candidate answers against the analysis and writes ``n`` final
   passages that keep what is consistent and relevant.

The query is expanded by the refined passages (see ``rewrite.py``).
Spec: ``agr[,queries=3][,depth=5][,n=1][,temperature=0.5]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from logir.index.base import Scorer
from logir.limits import MAX_DEPTH
from logir.llm import schema as js
from logir.logic.contract import MAX_SAMPLES, Param
from logir.logic.rewriters.rewrite import SYSTEM, Rewriter, numbered, sample_messages

if TYPE_CHECKING:
    from logir.llm import ChatClient


@dataclass(frozen=True)
class Analysis:
    """What the query needs, and search queries that would find it."""

    needs: str
    queries: tuple[str, ...]


def analysis_messages(query: str, limit: int) -> list[dict[str, str]]:
    prompt = (
        "Analyse the search request below before anything is searched. Say briefly what "
        "information a passage must contain to satisfy it (including any condition the answer "
        f"must meet or must not meet), then propose up to {limit} short search queries, each "
        "aimed at one piece of that information. Reply with one JSON object and nothing else: "
        '{"needs": "<one or two sentences>", "queries": ["<query>", ...]}\n\n'
        f"Search request: {query}"
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]


def analysis_schema(limit: int) -> dict[str, Any]:
    """The JSON schema of an analysis with at most ``limit`` queries."""
    return js.obj(
        "analysis", needs=js.string(max_length=600), queries=js.array(js.string(1, 200), 1, limit)
    )


def read_analysis(obj: Any, limit: int) -> Analysis:
    """The analysis in a parsed JSON answer, or ValueError saying what is wrong with it."""
    if not isinstance(obj, dict):
        raise ValueError("expected a JSON object with 'needs' and 'queries'")
    needs, queries = obj.get("needs", ""), obj.get("queries")
    if not isinstance(needs, str):
        raise ValueError("'needs' must be a string")
    if not isinstance(queries, list) or not all(isinstance(q, str) for q in queries):
        raise ValueError("'queries' must be a list of strings")
    kept = tuple(dict.fromkeys(" ".join(q.split()) for q in queries if q.strip()))[:limit]
    if not kept:
        raise ValueError("'queries' must hold at least one non-empty search query")
    return Analysis(" ".join(needs.split()), kept)


def grounded_prompt(query: str, analysis: Analysis, sub: str, found: Sequence[str]) -> str:
    """Ask for an answer to ``query`` drawn from the passages found for the sub-query ``sub``."""
    return (
        "Answer the search request below in one passage of about 100 words, using the retrieved "
        "passages where they help and your own knowledge otherwise. Reply with the passage "
        "only.\n\n"
        f"Search request: {query}\n"
        f"What an answer needs: {analysis.needs}\n"
        f"Passages retrieved for the search query {sub!r}:\n{numbered(found)}"
    )


def refine_prompt(query: str, analysis: Analysis, candidates: Sequence[str]) -> str:
    """Ask for one final answer that keeps what the candidate answers get right."""
    return (
        "Here are a search request, what an answer to it needs, and candidate answers written "
        "from different searches. Review the candidates: drop claims that contradict each "
        "other, miss the request, or break one of its conditions; keep what is consistent and "
        "relevant. Write one final passage of about 100 words that answers the request. Reply "
        "with the passage only.\n\n"
        f"Search request: {query}\n"
        f"What an answer needs: {analysis.needs}\n"
        f"Candidate answers:\n{numbered(candidates)}"
    )


class AGR(Rewriter):
    """Analyze, generate (grounded in retrieval per sub-query), refine."""

    name = "agr"
    PARAMS: ClassVar[dict[str, Param]] = {
        **Rewriter.PARAMS,
        "queries": Param("queries", int, minimum=1, maximum=MAX_SAMPLES),
        "depth": Param("depth", int, minimum=1, maximum=MAX_DEPTH),
    }

    def __init__(
        self,
        llm: ChatClient,
        passages: Sequence[str] | None = None,
        queries: int = 3,
        depth: int = 5,
        n: int = 1,
        temperature: float = 0.5,
    ) -> None:
        super().__init__(llm, passages, n=n, temperature=temperature)
        if queries < 1:
            raise ValueError(f"queries must be at least 1, got {queries}")
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.max_queries = queries
        self.depth = depth

    def expand(self, queries: list[str], scorer: Scorer) -> list[list[str] | None]:
        limit = self.max_queries
        analyses = self.ask_json(
            [analysis_messages(q, limit) for q in queries],
            lambda answer: read_analysis(answer, limit),
            analysis_schema(limit),
        )
        jobs = [(i, sub) for i, a in enumerate(analyses) if a is not None for sub in a.queries]
        if not jobs:
            return [None] * len(queries)
        idx, _ = scorer.search([sub for _, sub in jobs], self.depth)
        prompts = []
        for (i, sub), rows in zip(jobs, idx, strict=True):
            analysis = analyses[i]
            assert analysis is not None
            found = self.passage_texts(rows[rows >= 0])
            prompts.append(grounded_prompt(queries[i], analysis, sub, found))
        answers = self.ask([(sample_messages(p), 0) for p in prompts])
        candidates: dict[int, list[str | None]] = {}
        for (i, _), answer in zip(jobs, answers, strict=True):
            candidates.setdefault(i, []).append(answer)
        ready, refine = [], []
        for i, got in candidates.items():
            analysis = analyses[i]
            if analysis is not None and all(a is not None for a in got):
                ready.append(i)
                refine.append(refine_prompt(queries[i], analysis, [a for a in got if a]))
        out: list[list[str] | None] = [None] * len(queries)
        for i, final in zip(ready, self.ask_samples(refine), strict=True):
            out[i] = final
        return out
