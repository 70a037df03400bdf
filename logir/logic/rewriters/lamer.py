"""LameR (Shen et al. 2024): the LLM answers the query after seeing what retrieval found for it.

The query is first retrieved as it is (``depth`` passages); the LLM gets the query and those
candidates, right or wrong, and writes ``n`` answers in the collection's own style; the query is
then retrieved again, expanded by the answers (see ``rewrite.py``).
Spec: ``lamer[,depth=10][,n=4][,temperature=0.5]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from logir.index.base import Scorer
from logir.limits import MAX_DEPTH
from logir.logic.contract import Param
from logir.logic.rewriters.rewrite import Rewriter, numbered

if TYPE_CHECKING:
    from logir.llm import ChatClient


def candidates_prompt(query: str, candidates: Sequence[str]) -> str:
    """Ask for an answer to ``query`` written like the retrieved ``candidates``."""
    return (
        "A search engine returned the passages below for a search request. Some of them may "
        "answer it, others may not. Using whatever in them is correct, and your own knowledge "
        "where they fall short, write one passage of about 100 words that answers the request, "
        "in the same style as the passages. Reply with the passage only.\n\n"
        f"Search request: {query}\n\n"
        f"Retrieved passages:\n{numbered(candidates)}"
    )


class LameR(Rewriter):
    """Retrieve, let the LLM answer with the candidates in its prompt, retrieve with the answers."""

    name = "lamer"
    PARAMS: ClassVar[dict[str, Param]] = {
        **Rewriter.PARAMS,
        "depth": Param("depth", int, minimum=1, maximum=MAX_DEPTH),
    }

    def __init__(
        self,
        llm: ChatClient,
        passages: Sequence[str] | None = None,
        depth: int = 10,
        n: int = 4,
        temperature: float = 0.5,
    ) -> None:
        super().__init__(llm, passages, n=n, temperature=temperature)
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.depth = depth

    def expand(self, queries: list[str], scorer: Scorer) -> list[list[str] | None]:
        idx, _ = scorer.search(queries, self.depth)
        prompts = [
            candidates_prompt(q, self.passage_texts(rows[rows >= 0]))
            for q, rows in zip(queries, idx, strict=True)
        ]
        return self.ask_samples(prompts)
