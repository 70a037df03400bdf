"""The positive part of a clause: the QUEST ``X that are also Y`` templates, coordination and
``non-X`` words."""

from __future__ import annotations

import re

from logir.query.ast import And, Not, Query
from logir.query.natural.build import Builder, all_of
from logir.query.natural.coordination import split_coordination
from logir.query.natural.lexicon import (
    LEAD_QUESTION,
    NEGATION_NON_WORD,
    TEMPLATE_THAT_ARE_ALSO,
    TEMPLATE_THAT_ARE_ALSO_BOTH,
    lead_stripped,
)
from logir.query.natural.view import STOP, View, words

_ALSO = re.compile(
    r"(?:(?<!\s)\s+(?:that|which|who)\s+(?:(?:are|is|were|was)\s+also|also\s+(?:are|is|were|was))"
    r"|(?:,|(?<!\s))\s+and\s+(?:are|is|were|was)\s+also)\s+(both\s+)?",
    re.I,
)
_SPACED_AND = re.compile(r"(?<!\s)\s+and\s+", re.I)


def read_positive(v: View, b: Builder) -> Query | None:
    """The structure of a positive clause, or None when it has no content."""
    v = v.trim()
    if not v.has_content():
        return None
    m = _ALSO.search(v.text)
    if m:
        head = v.cut(0, m.start())
        q = lead_stripped(head)
        rest = v.cut(m.end(), len(v.text))
        parts = [q]
        if m.group(1):
            a = _SPACED_AND.search(rest.text)
            if a:
                parts += [rest.cut(0, a.start()), rest.cut(a.end(), len(rest.text))]
            else:
                parts.append(rest)
        else:
            parts.append(rest)
        terms = [b.term(p) for p in parts if p.has_content()]
        if len(terms) == len(parts) and all(terms):
            b.cue(TEMPLATE_THAT_ARE_ALSO_BOTH if m.group(1) else TEMPLATE_THAT_ARE_ALSO)
            return all_of([t for t in terms if t is not None])
    split = split_coordination(v, b)
    if split is not None:
        return split
    nonx = _non_word(v, b)
    if nonx is not None:
        return nonx
    return b.term(v)


_NON_LEXICALISED = frozenset(
    words(
        """fiction profit governmental government stop linear trivial negative zero aggression
    violent
    violence partisan denominational sectarian binary verbal invasive existent existence resident
    residents standard specific commissioned conformist conformity combatant combatants player
    playable euclidean newtonian euclidian commercial compete disclosure
    proliferation league conference title metropolitan vascular flowering"""
    )
)
_NON_WORD = re.compile(r"\b[Nn]on(?:-|\s+(?=[A-Z]))([A-Za-z][\w'-]*)(\s+)([A-Za-z][\w'-]*)")
_NP_WORD = re.compile(r"\s+([A-Za-z0-9][\w'-]*)")


def _non_word(v: View, b: Builder) -> Query | None:
    # Only in short, category-like queries; in a longer sentence "non-empty" or "non-combat" is
    # a technical adjective, and excluding "empty" would hurt.
    if len(v.text.split()) > 8 or LEAD_QUESTION.match(v.text):
        return None
    for m in _NON_WORD.finditer(v.text):
        x, noun = m.group(1), m.group(3)
        if x.lower() in _NON_LEXICALISED or noun.lower() in STOP:
            continue
        rest = v.without([(m.start(), m.start(3))]).trim()
        if not rest.has_content():
            continue
        end = m.end(3)
        while (w := _NP_WORD.match(v.text, end)) and w.group(1).lower() not in STOP:
            end = w.end()
        neg = v.cut(m.start(1), end)
        pos_t, neg_t = b.term(rest), b.term(neg)
        if pos_t is None or neg_t is None:
            continue
        b.cue(NEGATION_NON_WORD)
        return And(pos_t, Not(neg_t))
    return None
