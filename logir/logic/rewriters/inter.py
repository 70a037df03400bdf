"""InteR (Feng et al. 2024): the LLM and the retriever refine each other over a few rounds.

Round 1: the LLM writes ``n`` passages for the query from its own knowledge (as HyDE does). Each
later round retrieves ``depth`` passages with the query expanded by the LLM's last passages, and
the LLM, given those retrieved passages, writes ``n`` new ones. The final ranking uses the query
expanded by the last round's passages (see ``rewrite.py``).
Spec: ``inter[,rounds=2][,depth=10][,n=4][,temperature=0.5]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from logir.index.base import Scorer
from logir.limits import MAX_DEPTH
from logir.logic.contract import MAX_SAMPLES, Param
from logir.logic.rewriters.hyde import hypothetical_prompt
from logir.logic.rewriters.rewrite import Expansion, Rewriter, numbered

if TYPE_CHECKING:
    from logir.llm import ChatClient


def refine_prompt(query: str, retrieved: Sequence[str]) -> str:
    """Ask for a corrected answer to ``query`` grounded in the ``retrieved`` passages."""
    return (
        "Below are a search request and the passages a search engine found for it. Keep the "
        "facts from them that bear on the request, set aside the passages that do not, and write "
        "one passage of about 100 words that correctly answers the request. Reply with the "
        "passage only.\n\n"
        f"Search request: {query}\n\n"
        f"Retrieved passages:\n{numbered(retrieved)}"
    )


class InteR(Rewriter):
    """Alternate LLM knowledge expansion and retrieval for ``rounds`` LLM rounds."""

    name = "inter"
    PARAMS: ClassVar[dict[str, Param]] = {
        **Rewriter.PARAMS,
        "rounds": Param("rounds", int, minimum=1, maximum=MAX_SAMPLES),
        "depth": Param("depth", int, minimum=1, maximum=MAX_DEPTH),
    }

    def __init__(
        self,
        llm: ChatClient,
        passages: Sequence[str] | None = None,
        rounds: int = 2,
        depth: int = 10,
        n: int = 4,
        temperature: float = 0.5,
    ) -> None:
        super().__init__(llm, passages, n=n, temperature=temperature)
        if rounds < 1:
            raise ValueError(f"rounds must be at least 1, got {rounds}")
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.rounds = rounds
        self.depth = depth

    def expand(self, queries: list[str], scorer: Scorer) -> list[list[str] | None]:
        current = self.ask_samples([hypothetical_prompt(q) for q in queries])
        for _ in range(1, self.rounds):
            alive = [i for i, got in enumerate(current) if got]
            if not alive:
                break
            found = self.retrieve(
                [Expansion(queries[i], tuple(current[i] or ())) for i in alive], scorer, self.depth
            )
            prompts = [
                refine_prompt(queries[i], self.passage_texts(rows))
                for i, rows in zip(alive, found, strict=True)
            ]
            for i, got in zip(alive, self.ask_samples(prompts), strict=True):
                current[i] = got
        return current
