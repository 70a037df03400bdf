"""Building the result: the spans and cue names collected while a query is assembled, and the
flattening AND / OR constructors."""

from __future__ import annotations

import re

from logir.query.ast import And, Or, Query, Term
from logir.query.natural.nlp import SPACY_MAX_TOKENS
from logir.query.natural.view import View


class Builder:
    """Collects spans and cue names while the query is assembled."""

    def __init__(self) -> None:
        self.spans: dict[str, tuple[int, int]] = {}
        self.cues: list[str] = []
        self.parser = "regex"
        self.spacy_left = SPACY_MAX_TOKENS  # tokens spaCy may still parse for this query

    def cue(self, name: str) -> None:
        if name not in self.cues:
            self.cues.append(name)

    def term(self, v: View) -> Term | None:
        v = v.trim()
        if not v.text.strip() or not re.search(r"\w", v.text):
            return None
        t = Term(v.text)
        span = v.span()
        if span is not None:
            self.spans.setdefault(t.text, span)
        return t


def all_of(items: list[Query]) -> Query:
    flat: dict[Query, None] = {}
    for q in items:
        for c in q.children if isinstance(q, And) else (q,):
            flat.setdefault(c)
    kept = list(flat)
    return kept[0] if len(kept) == 1 else And(tuple(kept))


def any_of(items: list[Query]) -> Query:
    uniq = list(dict.fromkeys(items))
    return uniq[0] if len(uniq) == 1 else Or(tuple(uniq))
