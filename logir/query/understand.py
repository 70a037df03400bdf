"""One entry point from user text to a Query: logir syntax, natural language, or a guess.

``to_query(text, mode)`` with ``mode``:

- ``"syntax"``: the logir query language (:func:`logir.query.parse`); errors propagate.
- ``"natural"``: rule-based decomposition of natural language (:mod:`logir.query.natural`).
- ``"auto"``: syntax when the text looks like it was written in the query language (it holds a
  double quote or an upper-case whole-word ``AND``/``OR``/``NOT``) and parses; natural otherwise
  (a text too long for natural language that does not parse raises its syntax error).
- ``"llm"``: decomposition by an LLM (:mod:`logir.query.llm`); needs ``client``. When the LLM
  fails the result is the natural reading, ``mode_used`` is ``"natural"`` and ``fallback`` says why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from logir.limits import MAX_NATURAL_CHARS
from logir.query.ast import Query, Term, terms
from logir.query.syntax import QuerySyntaxError, parse

if TYPE_CHECKING:
    from logir.llm.client import ChatClient

__all__ = ["ALL_MODES", "MODES", "Understanding", "looks_like_syntax", "to_query", "understand"]

MODES = ("auto", "syntax", "natural")
"""Values of ``mode`` that need nothing but the text."""

ALL_MODES = (*MODES, "llm")
"""Every accepted ``mode``; "llm" also needs a ``client``."""

_OPERATOR_WORD = re.compile(r"(?<![\w-])(?:AND|OR|NOT)(?![\w-])")


@dataclass(frozen=True)
class Understanding:
    """A query read from text, with how it was read and where each term came from."""

    query: Query
    mode_used: str  # "syntax", "natural" or "llm"
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    fallback: str | None = None  # mode "llm" only: why the LLM was not used (natural instead)


def looks_like_syntax(text: str) -> bool:
    """True when ``text`` holds a double quote or an upper-case whole-word AND, OR or NOT."""
    return '"' in text or _OPERATOR_WORD.search(text) is not None


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


def _natural(text: str, notes: list[str]) -> Understanding:
    try:
        from logir.query.natural import decompose
    except ImportError:  # pragma: no cover - natural.py is part of the package
        notes.append("natural decomposition unavailable; whole text used as one term")
        stripped = text.strip()
        start = text.find(stripped)
        return Understanding(
            Term(text), "natural", {stripped: (start, start + len(stripped))}, notes
        )
    dec = decompose(text)
    return Understanding(dec.query, "natural", dict(dec.spans), notes + list(dec.cues))


def understand(text: str, mode: str = "auto", client: ChatClient | None = None) -> Understanding:
    """Read ``text`` as a query in ``mode`` (see the module docstring; "llm" needs ``client``)."""
    if not isinstance(text, str):
        raise TypeError(f"understand() expects a str, got {type(text).__name__}")
    if mode not in ALL_MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(ALL_MODES)}")
    notes: list[str] = []
    if mode == "llm":
        if client is None:
            raise ValueError('mode "llm" needs a client (a logir.llm.ChatClient)')
        from logir.query.llm import decompose_llm

        d = decompose_llm(text, client)
        return Understanding(d.query, d.mode_used, d.spans, d.notes, d.fallback)
    if mode == "syntax":
        q = parse(text)
        return Understanding(q, "syntax", _syntax_spans(text, q), notes)
    if mode == "auto" and looks_like_syntax(text):
        try:
            q = parse(text)
        except QuerySyntaxError as exc:
            if len(text) > MAX_NATURAL_CHARS:
                raise  # too long to read as natural language: the syntax error says more
            notes.append(
                f"looked like query syntax but did not parse ({exc.reason} at column "
                f"{exc.column}); read as natural language"
            )
        else:
            return Understanding(q, "syntax", _syntax_spans(text, q), notes)
    return _natural(text, notes)


def to_query(text: str, mode: str = "auto", client: ChatClient | None = None) -> Query:
    """Read ``text`` as a Query; see :func:`understand` for the modes."""
    return understand(text, mode, client).query
