"""A Reading: a query text understood once, and :func:`read`, the one function that makes it.

``read(text, mode)`` with ``mode``:

- ``"syntax"``: the logir query language (:func:`logir.query.parse`); errors propagate.
- ``"natural"``: rule-based decomposition of natural language (:mod:`logir.query.natural`).
- ``"auto"``: syntax when the text looks like it was written in the query language (it holds a
  double quote or an upper-case whole-word ``AND``/``OR``/``NOT``) and parses; natural otherwise
  (a text too long for natural language that does not parse raises its syntax error).
- ``"llm"``: decomposition by an LLM (:mod:`logir.query.llm`); needs ``client``. When its form is
  not used (the endpoint failed, the answer was unusable or not grounded in the text) the result
  is the natural reading, ``mode_used`` is ``"natural"`` and ``fallback`` says why.

:func:`gold` makes the Reading of a text whose logical form is given (a benchmark's own form).
Composers take Readings: ``flat`` and the LLM rewriters rank ``text``, the logical composers
``query``, and ``auto`` also weighs ``cues``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from logir.limits import MAX_NATURAL_CHARS
from logir.query.ast import Query, Term, terms
from logir.query.lean_spacy import import_spacy
from logir.query.syntax import QuerySyntaxError, parse

if TYPE_CHECKING:
    from logir.llm.client import ChatClient

__all__ = ["ALL_MODES", "MODES", "Reading", "gold", "looks_like_syntax", "read", "verbatim"]

MODES = ("auto", "syntax", "natural")
"""Values of ``mode`` that need nothing but the text."""

ALL_MODES = (*MODES, "llm")
"""Every accepted ``mode``; "llm" also needs a ``client``."""

EXPLICIT = frozenset({"syntax", "gold"})
"""Values of ``mode_used`` whose logical form was written out, not inferred from wording."""

_OPERATOR_WORD = re.compile(r"(?<![\w-])(?:AND|OR|NOT)(?![\w-])")
_MINUS_WORD = re.compile(r"(?<!\S)-[^\W\d_]")


@dataclass(frozen=True)
class Reading:
    """A query text with its logical form, how it was read and what the reader noticed.

    - ``text``: the query as typed (what ``flat`` ranks).
    - ``query``: the logical form.
    - ``mode_used``: ``syntax``, ``natural``, ``llm``, ``gold`` (a form given with the text) or
      ``verbatim`` (the text taken whole as one term, not read: for composers that rank the text).
    - ``cues``: the decomposition cues that fired (``negation:exception`` ...), natural only.
    - ``notes``: every remark, in order: the reader's own (a syntax fallback, an LLM failure)
      then the cues.
    - ``spans``: where each term came from in the text (best effort).
    - ``fallback``: mode "llm" only: why the LLM's form was not used (natural instead).
    """

    text: str
    query: Query
    mode_used: str
    cues: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    spans: Mapping[str, tuple[int, int]] = field(default_factory=dict, compare=False)
    fallback: str | None = None

    @property
    def explicit(self) -> bool:
        """Whether the logical form was written out (syntax, a gold form) rather than inferred."""
        return self.mode_used in EXPLICIT

    @property
    def logical_form(self) -> str:
        """The logical form in canonical logir syntax."""
        return str(self.query)


def looks_like_syntax(text: str) -> bool:
    """True when ``text`` holds a double quote or an upper-case whole-word AND, OR or NOT, unless
    the text is a sentence typed all in capitals ("CHEAP FLIGHTS TO LISBON OR PORTO, NO RYANAIR":
    every word is upper case, so "OR" is one of them, not an operator)."""
    if '"' in text:
        return True
    if "(" not in text and _MINUS_WORD.search(text):
        # "home automation OR media server -kodi -plex": a search-box minus, which the syntax
        # would keep inside a term; the natural reader reads it as an exclusion
        return False
    if _OPERATOR_WORD.search(text) is None:
        return False
    return any(ch.islower() for ch in text) or not _capitals_are_words(text)


def _capitals_are_words(text: str) -> bool:
    """In a text with no lower-case letter, whether AND/OR/NOT are ordinary words of a sentence
    typed in capitals: it has sentence punctuation or three words in a row between operators
    ("CHEAP FLIGHTS TO LISBON OR PORTO"), where a form such as "A AND NOT B" has neither."""
    if "(" in text:
        return False
    if any(ch in text for ch in ",.!?;:"):
        return True
    run = 0
    for word in text.split():
        run = 0 if word in ("AND", "OR", "NOT") else run + 1
        if run >= 3:
            return True
    return False


_SPAN_SEARCH_CHARS = 10_000
"""Up to this length each term's span is its first occurrence in the text; past it, the first
occurrence after the previous term's, so that finding all spans stays linear in the length."""


def _syntax_spans(text: str, query: Query) -> dict[str, tuple[int, int]]:
    """Best-effort character spans for the terms of a parsed query (first occurrence)."""
    spans: dict[str, tuple[int, int]] = {}
    long = len(text) > _SPAN_SEARCH_CHARS
    cursor, misses = 0, 0
    for term in terms(query):
        if long and misses >= 16:
            break  # terms the text does not hold verbatim (escaped quotes) cost a scan each
        words = [re.escape(w) for w in term.text.split()]
        match = re.compile(r"\s+".join(words)).search(text, cursor)
        if match is None:
            misses += 1
            continue
        spans[term.text] = (match.start(), match.end())
        if long:
            cursor = match.start()
    return spans


def _natural(text: str, notes: list[str]) -> Reading:
    try:
        from logir.query.natural import decompose
    except ImportError:  # pragma: no cover - natural.py is part of the package
        notes.append("natural decomposition unavailable; whole text used as one term")
        stripped = text.strip()
        start = text.find(stripped)
        span = {stripped: (start, start + len(stripped))}
        return Reading(text, Term(text), "natural", (), tuple(notes), span)
    import_spacy()  # before the reader loads it: spaCy without torch costs half as long
    dec = decompose(text)
    cues = tuple(dec.cues)
    return Reading(text, dec.query, "natural", cues, (*notes, *cues), dict(dec.spans))


def _syntax(text: str, query: Query, notes: list[str]) -> Reading:
    return Reading(text, query, "syntax", (), tuple(notes), _syntax_spans(text, query))


_KEPT_CHARS = 2_000
"""Syntax readings of texts up to this length are kept (:func:`_parsed`); longer ones are read
each time, so the kept texts stay small."""


@lru_cache(maxsize=4096)
def _kept_syntax(text: str) -> Reading:
    return _syntax(text, parse(text), [])


def _parsed(text: str) -> Reading:
    """The syntax Reading of ``text`` (its syntax error raised). A Reading of the query language
    depends on its text alone, so one of a short text is made once and shared: a query asked
    again (a benchmark's rounds, a server's repeated queries) is not parsed again."""
    if len(text) <= _KEPT_CHARS:
        return _kept_syntax(text)
    return _syntax(text, parse(text), [])


def read(text: str, mode: str = "auto", client: ChatClient | None = None) -> Reading:
    """Read ``text`` as a query in ``mode`` (see the module docstring; "llm" needs ``client``)."""
    if not isinstance(text, str):
        raise TypeError(f"read() expects a str, got {type(text).__name__}")
    if mode not in ALL_MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(ALL_MODES)}")
    notes: list[str] = []
    if mode == "llm":
        if client is None:
            raise ValueError('mode "llm" needs a client (a logir.llm.ChatClient)')
        from logir.query.llm import decompose_llm

        d = decompose_llm(text, client)
        return Reading(text, d.query, d.mode_used, d.cues, tuple(d.notes), d.spans, d.fallback)
    if mode == "syntax":
        return _parsed(text)
    if mode == "auto" and looks_like_syntax(text):
        try:
            return _parsed(text)
        except QuerySyntaxError as exc:
            if len(text) > MAX_NATURAL_CHARS:
                raise  # too long to read as natural language: the syntax error says more
            notes.append(
                f"looked like query syntax but did not parse ({exc.reason} at column "
                f"{exc.column}); read as natural language"
            )
    return _natural(text, notes)


def gold(text: str, logical_form: str | Query) -> Reading:
    """The Reading of ``text`` whose logical form is given (logir syntax or a Query)."""
    q = parse(logical_form) if isinstance(logical_form, str) else logical_form
    return Reading(text, q, "gold", (), (), _syntax_spans(text, q))


def verbatim(text: str) -> Reading:
    """The text taken whole as one term, without reading it (what ``flat`` needs of a text)."""
    return Reading(text, Term(text), "verbatim")
