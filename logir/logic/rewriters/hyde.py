"""HyDE (Gao et al. 2023): retrieve with passages the LLM imagines for the query.

The LLM writes ``n`` hypothetical passages that would answer the query, from its own knowledge
alone; the query is expanded by them (the mean of the query and passage vectors on a dense or
SPLADE scorer, the query repeated before the passages on BM25; see ``rewrite.py``).
Spec: ``hyde[,n=4][,temperature=0.5]``.
"""

from __future__ import annotations

from logir.index.base import Scorer
from logir.logic.rewriters.rewrite import Rewriter


def hypothetical_prompt(query: str) -> str:
    """Ask for one passage, of the kind a reference collection holds, that answers ``query``."""
    return (
        "Write a passage of about 100 words, in the style of an encyclopedia entry, that gives "
        "the information the search request below is looking for. State facts directly; do not "
        "restate the request and do not add commentary. Reply with the passage only.\n\n"
        f"Search request: {query}"
    )


class HyDE(Rewriter):
    """Hypothetical document embeddings: query + ``n`` LLM-written passages, no retrieval first."""

    name = "hyde"

    def expand(self, queries: list[str], scorer: Scorer) -> list[list[str] | None]:
        return self.ask_samples([hypothetical_prompt(q) for q in queries])
