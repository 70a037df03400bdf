"""Building the result: the spans and cue names collected while a query is assembled, and the
flattening AND / OR constructors."""

from __future__ import annotations

import gc
import re
import threading
import time

from logir.errors import LogirError
from logir.limits import MAX_NATURAL_SECONDS
from logir.query.ast import And, Or, Query, Term
from logir.query.natural.nlp import SPACY_MAX_TOKENS
from logir.query.natural.view import View


class QueryTooComplex(LogirError, ValueError):
    """A text whose natural-language reading ran past its time budget."""


_GC = threading.local()


def _gc_clock(phase: str, info: dict[str, int]) -> None:
    """Adds up the CPU time the collector takes in each thread (it runs in the thread whose
    allocation set it off)."""
    now = time.thread_time()
    if phase == "start":
        _GC.start = now
    elif hasattr(_GC, "start"):
        _GC.spent = getattr(_GC, "spent", 0.0) + now - _GC.start
        del _GC.start


gc.callbacks.append(_gc_clock)


def reading_clock() -> float:
    """This thread's CPU time less what the garbage collector took in it: a full collection in
    a process with a large heap (a loaded model, a benchmark's passages) costs about half a
    second, which is not the reading's work."""
    return time.thread_time() - getattr(_GC, "spent", 0.0)


class Builder:
    """Collects spans and cue names while the query is assembled, and keeps its time budget."""

    def __init__(self, seconds: float = MAX_NATURAL_SECONDS) -> None:
        self.spans: dict[str, tuple[int, int]] = {}
        self.cues: list[str] = []
        self.parser = "regex"
        self.spacy_left = SPACY_MAX_TOKENS  # tokens spaCy may still parse for this query
        self.seconds = seconds
        self.asks_fact = False  # a dropped "Is it true that ...": its negation is the fact asked
        self.deadline = reading_clock() + seconds

    def check(self) -> None:
        """Refuse with :class:`QueryTooComplex` once the reading has run past its budget.

        The budget is this thread's CPU time, not the wall clock: on a loaded machine a reading
        waits for a core without spending its budget, so ``logir eval`` over a benchmark does
        not stop halfway because other jobs run, while a hostile text still stops after the same
        amount of work. Time the garbage collector takes does not count (:func:`reading_clock`)."""
        if reading_clock() > self.deadline:
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
