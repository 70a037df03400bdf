"""LLM decomposition: a natural-language question -> a logical form in the logir query language.

The model gets a description of the query language (quoted terms joined by AND, OR and NOT, NOT
binding tightest, then AND, then OR, parentheses to override), the advice that a term should keep
its meaning intact rather than be shredded into loose keywords, and a few worked examples. It
answers with one JSON object, ``{"logical_form": "..."}``, which must parse with
:func:`logir.query.syntax.parse`; a parse error is sent back to the model as the repair message
(:meth:`logir.llm.ChatClient.chat_json`). A form that parses must also be grounded in the
question (its terms made of the question's words, :mod:`logir.query.grounding`): a small model
may copy a worked example or bring a topic of its own. When the endpoint fails, the answer never
becomes valid or the form is not grounded, :func:`decompose_llm` falls back to the rule-based
:func:`logir.query.natural.decompose` and says which of the three happened. Sampling is
deterministic (temperature 0, a fixed seed) and the decision is cached with its reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from logir.errors import LogirError
from logir.query.ast import Query, terms
from logir.query.grounding import check_grounding
from logir.query.syntax import QuerySyntaxError, parse

if TYPE_CHECKING:
    from logir.llm.client import ChatClient

__all__ = [
    "DEMONSTRATIONS",
    "FALLBACK_KINDS",
    "MAX_TERMS",
    "SEED",
    "SYSTEM_PROMPT",
    "LLMDecomposition",
    "build_messages",
    "copied_example",
    "decompose_llm",
    "rejection",
    "validate_logical_form",
]

MAX_TERMS = 12
"""Most terms accepted in one logical form (a guard against a runaway answer)."""
LOGICAL_FORM_SCHEMA: dict[str, Any] = {
    "title": "logical_form",
    "type": "object",
    "properties": {"logical_form": {"type": "string", "minLength": 1, "maxLength": 600}},
    "required": ["logical_form"],
    "additionalProperties": False,
}
"""The JSON schema of the answer, sent as the request's ``response_format``."""
LOGICAL_FORM_TOKENS = 256
"""Answer tokens of a logical form (a few quoted terms and operators)."""

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


FALLBACK_KINDS = ("endpoint", "context", "unusable", "ungrounded")
"""Why an LLM decomposition fell back to the rules: the endpoint failed (connection, HTTP error,
timeout); the request could not fit the server's context and was not sent; the endpoint
answered, but never with a logical form that parses; or its form was not grounded in the
question (:mod:`logir.query.grounding`)."""

SEED = 0
"""The sampling seed sent with every decomposition request (with temperature 0)."""

DECISION_VERSION = 1
"""Bumped when the prompt or the validation change what a cached decision means (a cached form
is judged for grounding on every read, so the grounding rule may change without a bump)."""


@dataclass(frozen=True)
class LLMDecomposition:
    """A logical form read by an LLM, or by the rule-based fallback when the LLM's was not used."""

    query: Query
    mode_used: str  # "llm", or "natural" after a fallback
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # the fallback note, then the rules' cues
    fallback: str | None = None  # why the LLM's form was not used, None when it was
    cues: tuple[str, ...] = ()  # the rules that fired (fallback only)
    fallback_kind: str | None = None  # one of FALLBACK_KINDS, None when the LLM's form was used
    from_cache: bool = False  # the decision was read from the cache (no request made)

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


def copied_example(question: str, query: Query) -> int | None:
    """The number (from 1) of the worked example whose terms ``query`` repeats although
    ``question`` is not that example's question, else None."""
    asked = " ".join(question.split()).casefold()
    mine = {t.text.casefold() for t in terms(query)}
    for i, (q, lf) in enumerate(DEMONSTRATIONS, 1):
        if asked == q.casefold():
            continue
        if mine & {t.text.casefold() for t in terms(parse(lf))}:
            return i
    return None


def rejection(question: str, query: Query) -> str | None:
    """Why the LLM's ``query`` for ``question`` is not used (ungrounded), or None."""
    problem = check_grounding(question, query)
    if problem is None:
        return None
    copied = copied_example(question, query)
    if copied is not None:
        problem = f"it repeats worked example {copied} of the prompt; {problem}"
    return f"the LLM's form {str(query)!r} is not grounded in the question: {problem}"


def _decision_key(question: str, client: ChatClient, max_repairs: int, json_mode: bool) -> str:
    from logir.llm.cache import request_key

    return request_key(
        {
            "task": "logical-form decision",
            "version": DECISION_VERSION,
            "endpoint": client.config.url,
            "model": client.config.model,
            "messages": build_messages(question),
            "max_repairs": max_repairs,
            "json_mode": json_mode,
            "schema": LOGICAL_FORM_SCHEMA,
            "max_tokens": client.answer_tokens(LOGICAL_FORM_TOKENS),
            "temperature": 0.0,
            "seed": SEED,
        }
    )


def _rules(question: str, kind: str, reason: str, cached: bool) -> LLMDecomposition:
    from logir.query.natural import decompose

    dec = decompose(question)
    cues = tuple(dec.cues)
    notes = [f"llm fallback: {reason}", *cues]
    spans = dict(dec.spans)
    return LLMDecomposition(dec.query, "natural", spans, notes, reason, cues, kind, cached)


def _judged(question: str, q: Query, cached: bool, fallback: bool) -> LLMDecomposition:
    """The LLM's parsed form ``q`` used, or the rules when it is not grounded."""
    why = rejection(question, q)
    if why is None:
        return LLMDecomposition(q, "llm", term_spans(question, q), from_cache=cached)
    if not fallback:
        raise LogirError(why)
    return _rules(question, "ungrounded", why, cached)


def _cached(question: str, record: dict[str, Any], fallback: bool) -> LLMDecomposition | None:
    """The decision a cache record holds (a form is judged again, so a change of the grounding
    rule applies to cached answers too), or None when it is not a readable one."""
    form = record.get("logical_form")
    if record.get("decision") in ("form", "llm") and isinstance(form, str):
        try:
            q = parse(form)
        except QuerySyntaxError:
            return None
        return _judged(question, q, True, fallback)
    reason, kind = record.get("reason"), record.get("kind")
    if record.get("decision") == "rules" and kind == "unusable" and isinstance(reason, str):
        return _rules(question, "unusable", reason, True) if fallback else None
    return None  # a record without the form (an older one): ask (the answer cache may hold it)


def decompose_llm(
    question: str,
    client: ChatClient,
    *,
    max_repairs: int = 2,
    fallback: bool = True,
    json_mode: bool = False,
) -> LLMDecomposition:
    """Ask ``client`` for the logical form of ``question`` (temperature 0, seed :data:`SEED`).

    The LLM's form is used when it parses and is grounded in the question
    (:func:`logir.query.grounding.check_grounding`). Otherwise the rule-based decomposition is
    used and ``fallback`` says why, in words that tell an endpoint failure (connection, HTTP
    error, timeout) from an answer that was unusable or not grounded; with ``fallback=False``
    the error propagates (LLMError, LLMOutputError, or LogirError for an ungrounded form).

    What the endpoint answered is kept in the client's cache as a decision (the parsed form,
    judged for grounding again on every read, or "unusable" with the reason), so asking again
    makes no request and gives the same result; an endpoint failure, or a request that did not
    fit the server's context, is not kept, so a later call asks again.
    """
    from logir.llm import LLMContextError, LLMError, LLMOutputError

    if not isinstance(question, str):
        raise TypeError(f"decompose_llm() expects a str, got {type(question).__name__}")
    if not question.strip():
        raise LogirError("cannot decompose an empty question")
    cache = client.cache
    key = _decision_key(question, client, max_repairs, json_mode) if cache is not None else None
    if cache is not None and key is not None:
        record = cache.get(key)
        found = _cached(question, record, fallback) if record is not None else None
        if found is not None:
            client.usage.add(cache_hits=1)
            return found
    try:
        q = client.chat_json(
            build_messages(question),
            validate=validate_logical_form,
            max_repairs=max_repairs,
            json_mode=json_mode,
            temperature=0.0,
            seed=SEED,
            schema=LOGICAL_FORM_SCHEMA,
            max_tokens=LOGICAL_FORM_TOKENS,
        )
    except LLMOutputError as exc:
        if not fallback:
            raise
        reason = f"the LLM's answer was unusable ({' '.join(str(exc).split())})"
        if cache is not None and key is not None:
            cache.put(key, {"decision": "rules", "kind": "unusable", "reason": reason})
        return _rules(question, "unusable", reason, False)
    except LLMContextError as exc:  # not sent: the endpoint did not fail
        if not fallback:
            raise
        reason = "the request did not fit the LLM's context: " + " ".join(str(exc).split())
        return _rules(question, "context", reason, False)
    except LLMError as exc:
        if not fallback:
            raise
        reason = "the LLM endpoint failed: " + " ".join(str(exc).split())
        return _rules(question, "endpoint", reason, False)
    if cache is not None and key is not None:  # the form is judged anew on every read
        cache.put(key, {"decision": "form", "logical_form": str(q)})
    return _judged(question, q, False, fallback)
