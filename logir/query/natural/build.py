"""Building the result: the spans and cue names collected while a query is assembled, and the
flattening AND / OR constructors."""

from __future__ import annotations

import re
import time

from logir.errors import LogirError
from logir.limits import MAX_NATURAL_SECONDS
from logir.query.ast import And, Or, Query, Term
from logir.query.natural.nlp import SPACY_MAX_TOKENS
from logir.query.natural.view import View


class QueryTooComplex(LogirError, ValueError):
    """A text whose natural-language reading ran past its time budget."""


class Builder:
    """Collects spans and cue names while the query is assembled, and keeps its time budget."""

    def __init__(self, seconds: float = MAX_NATURAL_SECONDS) -> None:
        self.spans: dict[str, tuple[int, int]] = {}
        self.cues: list[str] = []
        self.parser = "regex"
        self.spacy_left = SPACY_MAX_TOKENS  # tokens spaCy may still parse for this query
        self.seconds = seconds
        self.asks_fact = False  # a dropped "Is it true that ...": its negation is the fact asked
        self.deadline = time.thread_time() + seconds

    def check(self) -> None:
        """Refuse with :class:`QueryTooComplex` once the reading has run past its budget.

        The budget is this thread's CPU time, not the wall clock: on a loaded machine a reading
        waits for a core without spending its budget, so ``logir eval`` over a benchmark does
        not stop halfway because other jobs run, while a hostile text still stops after the same
        amount of work."""
        if time.thread_time() > self.deadline:
            raise QueryTooComplex(
                f"reading this text as natural language took over {self.seconds:g} s; "
                "shorten it or write it in logir syntax"
            )

    def cue(self, name: str) -> None:
        self.check()
        if name not in self.cues:
            self.cues.append(name)

    def term(self, v: View) -> Term | None:
        self.check()
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
