"""LLM decomposition: a natural-language question -> a logical form in the logir query language.

The model gets a description of the query language (quoted terms joined by AND, OR and NOT, NOT
binding tightest, then AND, then OR, parentheses to override), the advice that a term should keep
its meaning intact rather than be shredded into loose keywords, and a few worked examples. It
answers with one JSON object, ``{"logical_form": "..."}``, which must parse with
:func:`logir.query.syntax.parse`; a parse error is sent back to the model as the repair message
(:meth:`logir.llm.ChatClient.chat_json`). When the endpoint fails or the answer never becomes
valid, :func:`decompose_llm` falls back to the rule-based :func:`logir.query.natural.decompose` and
says so in the result's notes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from logir.errors import LogirError
from logir.query.ast import Query, terms
from logir.query.syntax import QuerySyntaxError, parse

if TYPE_CHECKING:
    from logir.llm.client import ChatClient

__all__ = [
    "DEMONSTRATIONS",
    "MAX_TERMS",
    "SYSTEM_PROMPT",
    "LLMDecomposition",
    "build_messages",
    "decompose_llm",
    "validate_logical_form",
]

MAX_TERMS = 12
"""Most terms accepted in one logical form (a guard against a runaway answer)."""

SYSTEM_PROMPT = """\
You turn a user's question into a query for a search engine that understands logic.

The engine's queries are double-quoted terms combined with three operators:
- A AND B: a useful document is about both A and B.
- A OR B: a useful document is about A, or about B, or both.
- NOT A: a useful document is not about A.
NOT binds tightest, then AND, then OR, so "a" OR "b" AND NOT "c" means "a" OR ("b" AND (NOT \
"c")). Use parentheses whenever you mean another grouping, e.g. ("a" OR "b") AND NOT "c".

How to write a good query:
- Each term is matched against documents on its own, so it must make sense on its own. Use a \
short phrase taken from the question's own words, and keep every qualifier with the thing it \
describes ("novels by Jane Austen", not "novels" AND "Jane Austen"); splitting a phrase into \
loose keywords loses the relations between them.
- Use AND only for separate requirements that must all hold, OR for real alternatives, and NOT \
only for what the question explicitly excludes ("not", "except", "other than", "without", \
"excluding"...). Put the excluded thing itself in the NOT term, without the negation word.
- Do not add terms, synonyms or facts that the question does not contain. A question with a \
single requirement is a single quoted term.
- Write the operators AND, OR, NOT in capitals; put every term in double quotes.

Reply with one JSON object and nothing else: {"logical_form": "<the query>"}. Inside the JSON \
string, write each double quote of the query as \\"."""

DEMONSTRATIONS: tuple[tuple[str, str], ...] = (
    (
        "Which birds of New Zealand are not flightless?",
        '"birds of New Zealand" AND NOT "flightless birds"',
    ),
    (
        "Science fiction novels by Ursula K. Le Guin or Octavia Butler published after 1980",
        '("science fiction novels by Ursula K. Le Guin" OR "science fiction novels by Octavia '
        'Butler") AND "novels published after 1980"',
    ),
    (
        "How does intermittent fasting change blood sugar in people with type 2 diabetes? "
        "Leave out studies on mice.",
        '"intermittent fasting and blood sugar" AND "people with type 2 diabetes" '
        'AND NOT "studies on mice"',
    ),
    (
        "What causes the northern lights to change colour?",
        '"causes of the colours of the northern lights"',
    ),
    (
        "Board games for two players that are also cooperative games, excluding deck-building "
        "games and war games",
        '"board games for two players" AND "cooperative games" AND NOT "deck-building games" '
        'AND NOT "war games"',
    ),
)
"""(question, logical form) pairs shown to the model before the real question."""


def _answer(logical_form: str) -> str:
    import json

    return json.dumps({"logical_form": logical_form}, ensure_ascii=False)


def build_messages(question: str) -> list[dict[str, str]]:
    """The chat messages that ask for the logical form of ``question``."""
    messages = [{"role": "system", "content": SYSTEM_PROMPT}]
    for q, lf in DEMONSTRATIONS:
        messages.append({"role": "user", "content": f"Question: {q}"})
        messages.append({"role": "assistant", "content": _answer(lf)})
    messages.append({"role": "user", "content": f"Question: {question.strip()}"})
    return messages


def validate_logical_form(obj: Any) -> Query:
    """The parsed query of an answer ``{"logical_form": "..."}``; ValueError naming the problem."""
    if isinstance(obj, list) and len(obj) == 1:
        obj = obj[0]
    if not isinstance(obj, dict):
        raise ValueError('expected a JSON object {"logical_form": "..."}')
    form = obj.get("logical_form")
    if not isinstance(form, str) or not form.strip():
        keys = ", ".join(map(repr, obj)) or "none"
        raise ValueError(f'"logical_form" must be a non-empty string (keys given: {keys})')
    try:
        q = parse(form)
    except QuerySyntaxError as exc:
        raise ValueError(
            f"the logical form {form!r} does not parse: {exc.reason} at column {exc.column}"
        ) from None
    n = len(terms(q))
    if n > MAX_TERMS:
        raise ValueError(f"the logical form has {n} terms; use at most {MAX_TERMS}")
    return q


@dataclass(frozen=True)
class LLMDecomposition:
    """A logical form read by an LLM, or by the rule-based fallback when the LLM failed."""

    query: Query
    mode_used: str  # "llm", or "natural" after a fallback
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    fallback: str | None = None  # why the LLM was not used (the error), None when it was

    @property
    def logical_form(self) -> str:
        return str(self.query)


def term_spans(text: str, query: Query) -> dict[str, tuple[int, int]]:
    """Character spans of the terms found in ``text`` (case-insensitive, first occurrence)."""
    spans: dict[str, tuple[int, int]] = {}
    for term in terms(query):
        words = [re.escape(w) for w in term.text.split()]
        match = re.search(r"\s+".join(words), text, re.IGNORECASE) if words else None
        if match is not None:
            spans[term.text] = (match.start(), match.end())
    return spans


def decompose_llm(
    question: str,
    client: ChatClient,
    *,
    max_repairs: int = 2,
    fallback: bool = True,
    json_mode: bool = False,
) -> LLMDecomposition:
    """Ask ``client`` for the logical form of ``question``.

    On :class:`logir.llm.LLMError` (endpoint down, or no valid answer after ``max_repairs``) the
    rule-based decomposition is used instead and the first note says why; with
    ``fallback=False`` the error propagates.
    """
    from logir.llm.client import LLMError

    if not isinstance(question, str):
        raise TypeError(f"decompose_llm() expects a str, got {type(question).__name__}")
    if not question.strip():
        raise LogirError("cannot decompose an empty question")
    try:
        q = client.chat_json(
            build_messages(question),
            validate=validate_logical_form,
            max_repairs=max_repairs,
            json_mode=json_mode,
        )
    except LLMError as exc:
        if not fallback:
            raise
        from logir.query.natural import decompose

        reason = " ".join(str(exc).split())
        dec = decompose(question)
        notes = [f"llm failed: {reason}", *dec.cues]
        return LLMDecomposition(dec.query, "natural", dict(dec.spans), notes, reason)
    return LLMDecomposition(q, "llm", term_spans(question, q))
