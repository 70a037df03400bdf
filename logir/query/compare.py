"""Whether two logical forms mean the same query, at the level a reader of queries cares about.

:func:`same_form` is the rule that judges the natural-language reader against hand-written forms
(``tests/query/test_phrasings.py``). Two forms are the same when their normal forms are equal:

1. **Terms** are compared by their content words: lower-cased runs of letters and digits, without
   function words (articles, prepositions, auxiliaries, pronouns, question words), each lightly
   stemmed (``-ies`` -> ``-y``; ``-ing``, ``-ed``, ``-es``, ``-s`` dropped from longer words, then
   a final ``-e``).
   So ``"films by Nolan"`` is ``"Nolan films"`` and ``"countries bordering France"`` is
   ``"countries that border France"``; word order and inflection do not count.
2. **AND / OR** are flattened (a nested AND inside an AND is one AND) and their children compared
   as a multiset, so order does not count.
3. **A negated term inside an AND** is compared on the words it does not share with the positive
   terms of that AND: in ``"books about kings" AND NOT "books about Napoleon"`` the repeated
   ``books`` says nothing about what is excluded, so it equals ``... AND NOT "Napoleon"``.
   A negated term whose words all occur in the positive part keeps them.
4. **De Morgan**: inside an AND, ``NOT (a OR b)`` is ``NOT a AND NOT b``.

Nothing else is forgiven: a missing split, an extra term or a wrong operator make forms differ.
"""

from __future__ import annotations

import re
from typing import TypeAlias

from logir.query.ast import And, Not, Or, Query, Term
from logir.query.syntax import parse

__all__ = ["FUNCTION_WORDS", "content_words", "normal_form", "same_form", "stem"]

FUNCTION_WORDS = frozenset(
    re.findall(
        r"[a-z]+",
        """a an the and or but nor not no of in on at to for from by with about as into onto
        over under than during between among through across after before since until like near
        via within without against around upon off out up down per that this these those which
        who whom whose what when where why how is are was were be been being do does did has
        have had can could will would should shall may might must it its they them their there
        i me my we us our you your he him his she her also any some all both either neither s""",
    )
)
"""Words a term is not compared on."""

_WORD = re.compile(r"[^\W_]+")

Normal: TypeAlias = tuple[object, ...]


def stem(word: str) -> str:
    """A light English stem: ``countries`` -> ``country``, ``bordering`` -> ``border``; a final
    ``e`` goes too, so that ``serve`` meets ``served`` and ``causes`` meets ``causing``."""
    w = _suffix_stripped(word.lower())
    return w[:-1] if len(w) > 3 and w.endswith("e") else w


def _suffix_stripped(w: str) -> str:
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 5 and w.endswith("ing"):
        return w[:-3]
    if len(w) > 4 and w.endswith("ed"):
        return w[:-2]
    if len(w) > 4 and w.endswith(("ches", "shes", "sses", "xes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def content_words(text: str) -> frozenset[str]:
    """The stemmed content words of a term's text."""
    return frozenset(
        stem(w) for w in _WORD.findall(text.lower()) if w not in FUNCTION_WORDS and stem(w)
    )


def _positive_words(children: tuple[Query, ...]) -> frozenset[str]:
    out: set[str] = set()
    todo = [c for c in children if not isinstance(c, Not)]
    while todo:
        node = todo.pop()
        if isinstance(node, Term):
            out |= content_words(node.text)
        elif isinstance(node, And | Or):
            todo.extend(c for c in node.children if not isinstance(c, Not))
    return frozenset(out)


def normal_form(q: Query) -> Normal:
    """The normal form :func:`same_form` compares (see the module docstring)."""
    return _normal(q, frozenset())


def _normal(q: Query, shared: frozenset[str]) -> Normal:
    # Recursion over the logical form, not over input text: its depth is bounded by the parser's
    # nesting cap (MAX_DEPTH), as for every other walk over a Query.
    if isinstance(q, Term):
        words = content_words(q.text)
        own = words - shared
        return ("T", tuple(sorted(own if own else words)))
    if isinstance(q, Not):
        return ("N", _normal(q.child, shared))
    kind = "A" if isinstance(q, And) else "O"
    flat: list[Query] = []
    todo = list(q.children)
    while todo:
        c = todo.pop()
        if type(c) is type(q):
            todo.extend(c.children)  # type: ignore[union-attr]
        elif kind == "A" and isinstance(c, Not) and isinstance(c.child, Or):
            todo.extend(Not(g) for g in c.child.children)  # NOT (a OR b) = NOT a AND NOT b
        else:
            flat.append(c)
    pos = _positive_words(tuple(flat)) if kind == "A" else frozenset()
    children = [
        ("N", _normal(c.child, shared | pos)) if isinstance(c, Not) else _normal(c, shared)
        for c in flat
    ]
    return (kind, tuple(sorted(children, key=repr)))


def same_form(a: Query | str, b: Query | str) -> bool:
    """True when two logical forms (Query or logir syntax) are the same by the module's rule."""
    qa = parse(a) if isinstance(a, str) else a
    qb = parse(b) if isinstance(b, str) else b
    return normal_form(qa) == normal_form(qb)
