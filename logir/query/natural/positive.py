"""The positive part of a clause: the QUEST ``X that are also Y`` templates and coordination.

A ``non-X`` word is one concept (``non-alcoholic beers``), except before a capitalised word
(``non-American films``: a category left out); an ``X-free`` word (``gluten-free bread``)
excludes X."""

from __future__ import annotations

import re

from logir.query.ast import And, Not, Query
from logir.query.natural.build import Builder, all_of
from logir.query.natural.coordination import split_coordination
from logir.query.natural.lexicon import (
    CONJUNCTION_NOT_ONLY,
    LEAD_QUESTION,
    NEGATION_FREE,
    NEGATION_NON_WORD,
    TEMPLATE_THAT_ARE_ALSO,
    TEMPLATE_THAT_ARE_ALSO_BOTH,
    lead_stripped,
)
from logir.query.natural.view import View, is_function_word, words

_ALSO = re.compile(
    r"(?:(?<!\s)\s+(?:that|which|who)\s+(?:(?:are|is|were|was)\s+also|also\s+(?:are|is|were|was))"
    r"|(?:,|(?<!\s))\s+and\s+(?:are|is|were|was)\s+also)\s+(both\s+)?",
    re.I,
)
_NOT_ONLY = re.compile(r"\bnot\s+only\b", re.I)
_BUT_ALSO = re.compile(r"[\s,]*\bbut(?:\s+also)?\b", re.I)


def _not_only(v: View, b: Builder) -> Query | None:
    """``X not only A but also B`` -> ``X A`` AND ``X B``: a conjunction, not a negation."""
    m = _NOT_ONLY.search(v.text)
    if not m:
        return None
    but = _BUT_ALSO.search(v.text, m.end())
    if not but:
        return None
    head = v.cut(0, m.start())
    a, z = v.cut(m.end(), but.start()), v.cut(but.end(), len(v.text))
    if not (a.has_content() and z.has_content()):
        return None
    ta, tz = b.term(head.join(a.trim())), b.term(head.join(z.trim()))
    if ta is None or tz is None or ta == tz:
        return None
    b.cue(CONJUNCTION_NOT_ONLY)
    return all_of([ta, tz])


_SPACED_AND = re.compile(r"(?<!\s)\s+and\s+", re.I)


_FREE = re.compile(r"\b([^\W\d_][\w']*)-free\b", re.I)
_FREE_LEXICALISED = frozenset(
    words(
        """duty toll hands tax care rent risk scot trouble hassle worry stress fancy interest
    royalty fee debt crime error bug lock latch maintenance"""
    )
)


_FREE_MAX_WORDS = 8


def _x_free(v: View, b: Builder) -> tuple[View, list[Query]]:
    """``gluten-free pizza dough`` -> (``pizza dough``, [NOT ``gluten``]): an ``X-free`` word
    excludes X (but not in ``duty-free`` or ``hands-free``, whose X is no topic)."""
    if len(v.text.split()) > _FREE_MAX_WORDS:
        return v, []  # in a sentence ("... of a gluten-free diet") it is a technical term
    found = [m for m in _FREE.finditer(v.text) if m.group(1).lower() not in _FREE_LEXICALISED]
    if not found:
        return v, []
    rest = v.without([(m.start(), m.end()) for m in found]).trim()
    if not rest.has_content():
        return v, []
    nots: list[Query] = []
    for m in found:
        t = b.term(v.cut(m.start(1), m.end(1)))
        if t is not None and Not(t) not in nots:
            nots.append(Not(t))
    if nots:
        b.cue(NEGATION_FREE)
    return rest, nots


def read_positive(v: View, b: Builder) -> Query | None:
    """The structure of a positive clause, or None when it has no content."""
    v = v.trim()
    if not v.has_content():
        return None
    nonx = _non_word(v, b)
    if nonx is not None:
        return nonx
    v, nots = _x_free(v, b)
    pos = _read_positive(v, b)
    return pos if pos is None or not nots else all_of([pos, *nots])


def _read_positive(v: View, b: Builder) -> Query | None:
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
    both = _not_only(v, b)
    if both is not None:
        return both
    split = split_coordination(v, b)
    if split is not None:
        return split
    return b.term(v)


_NON_LEXICALISED = frozenset(
    words(
        """fiction profit governmental government stop linear trivial negative zero aggression
    violent
    violence partisan denominational sectarian binary verbal invasive existent existence resident
    residents standard specific commissioned conformist conformity combatant combatants player
    playable euclidean newtonian euclidian commercial compete disclosure
    proliferation league conference title metropolitan vascular flowering hodgkin gaap"""
    )
)
_NON_WORD = re.compile(r"\b[Nn]on(?:-|\s+(?=[A-Z]))([A-Za-z][\w'-]*)(\s+)([A-Za-z][\w'-]*)")
_NP_WORD = re.compile(r"\s+([A-Za-z0-9][\w'-]*)")


def _non_word(v: View, b: Builder) -> Query | None:
    """``non-American films`` -> ``films`` AND NOT ``American films``: a category left out.

    Only before a capitalised word (a nationality, a genre in a title) and only in short,
    category-like queries: ``non-alcoholic beers`` or ``non-empty sets`` name one concept of
    their own, and excluding ``alcoholic`` or ``empty`` would hurt."""
    if len(v.text.split()) > 8 or LEAD_QUESTION.match(v.text):
        return None
    for m in _NON_WORD.finditer(v.text):
        x, noun = m.group(1), m.group(3)
        if not x[0].isupper() or x.lower() in _NON_LEXICALISED or is_function_word(noun):
            continue
        rest = v.without([(m.start(), m.start(3))]).trim()
        if not rest.has_content():
            continue
        end = m.end(3)
        while (w := _NP_WORD.match(v.text, end)) and not is_function_word(w.group(1)):
            end = w.end()
        neg = v.cut(m.start(1), end)
        pos_t, neg_t = b.term(rest), b.term(neg)
        if pos_t is None or neg_t is None:
            continue
        b.cue(NEGATION_NON_WORD)
        return And(pos_t, Not(neg_t))
    return None
