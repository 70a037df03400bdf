"""Whether a logical form is grounded in its question: are its terms made of the question's words?

An LLM asked for the logical form of a question may answer with terms the question never spoke
of (a worked example of its prompt copied, a topic of its own). The rule, applied to the content
words of both texts after the same light normalisation:

- normalisation: lower case; a possessive ``'s`` dropped; each word also counts in its singular
  guesses (``-s``, ``-es``, ``-ies`` -> ``-y`` / ``-ie``, for words over three letters); a
  hyphenated or apostrophised compound counts both whole (``deckbuilding``) and by its parts
  (``deck``, ``building``);
- content words: every word but a short list of function words (:data:`FUNCTION_WORDS`:
  articles, prepositions, pronouns, auxiliaries, question and negation words);
- each term needs at least :data:`MIN_TERM_SHARE` of its distinct content words from the question
  (so at least one: "NZ birds" passes for "birds of New Zealand", "vaccine studies on mice" does
  not for "vaccines approved in 2021");
- and at least :data:`MIN_SHARE` of the form's distinct content words must be the question's
  (a few added words, "studies" or a synonym, are tolerated; a form mostly of other words is not).

:func:`check_grounding` returns None for a grounded form, else the reason it is not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from logir.query.ast import Query, terms

__all__ = [
    "FUNCTION_WORDS",
    "MIN_SHARE",
    "MIN_TERM_SHARE",
    "check_grounding",
    "content_words",
    "word_forms",
]

MIN_SHARE = 0.6
"""Least share of a form's distinct content words that must come from the question."""

MIN_TERM_SHARE = 0.5
"""Least share of each term's distinct content words that must come from the question."""

_FUNCTION_WORDS = """a an the and or but nor not no of in on at to for from by with without about
    as into onto
    over under than then that this these those which who whom whose what when where why how is are
    was were be been being do does did has have had can could will would should shall may might
    must it its they them their there here i me my we us our you your he him his she her please
    find tell give show list name provide also any some all either both neither other else except
    excluding exclude besides apart only just such very more most less least s"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS.split())
"""Words that carry no topic: they neither ground a term nor count against a form."""

# a word, or words joined by hyphens or apostrophes (one match per compound; linear)
_COMPOUND = re.compile(r"[^\W_]+(?:[-'\u2019][^\W_]+)*")
_JOINERS = re.compile(r"[-'\u2019]")


def word_forms(word: str) -> set[str]:
    """``word`` (lower case) and its singular guesses."""
    forms = {word}
    if len(word) > 3:
        if word.endswith("ies"):
            forms.update((word[:-3] + "y", word[:-1]))
        elif word.endswith("es"):
            forms.update((word[:-2], word[:-1]))
        elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
            forms.add(word[:-1])
    return forms


def _compounds(text: str) -> Iterable[tuple[str, list[str]]]:
    """Each compound of ``text`` lower-cased, possessive dropped: (whole, its content parts)."""
    for match in _COMPOUND.finditer(text.lower()):
        compound = match.group()
        if compound.endswith(("'s", "\u2019s")):
            compound = compound[:-2]
        parts = [p for p in _JOINERS.split(compound) if p and p not in FUNCTION_WORDS]
        if parts:
            yield _JOINERS.sub("", compound), parts


def content_words(text: str) -> set[str]:
    """Every form of every content word of ``text`` (wholes and parts of compounds)."""
    found: set[str] = set()
    for whole, parts in _compounds(text):
        found |= word_forms(whole)
        for part in parts:
            found |= word_forms(part)
    return found


def _units(text: str) -> list[tuple[str, str]]:
    """The content words of ``text`` as (part, whole compound), in order, once each."""
    seen: dict[str, str] = {}
    for whole, parts in _compounds(text):
        for part in parts:
            seen.setdefault(part, whole)
    return list(seen.items())


def _grounded(part: str, whole: str, known: set[str]) -> bool:
    return bool(word_forms(part) & known or word_forms(whole) & known)


def check_grounding(
    question: str,
    query: Query,
    min_share: float = MIN_SHARE,
    min_term_share: float = MIN_TERM_SHARE,
) -> str | None:
    """None when ``query``'s terms are grounded in ``question`` (see the module docstring),
    else why not, naming the terms and words that are not."""
    known = content_words(question)
    problems: list[str] = []
    total: dict[str, bool] = {}
    for term in dict.fromkeys(t.text for t in terms(query)):
        units = _units(term)
        if not units:
            problems.append(f"term {term!r} has no content word")
            continue
        marks = [_grounded(p, w, known) for p, w in units]
        for (part, _), ok in zip(units, marks, strict=True):
            total[part] = total.get(part, False) or ok
        if not any(marks):
            problems.append(f"term {term!r} has no content word of the question")
        elif sum(marks) / len(marks) < min_term_share:
            missing = ", ".join(p for (p, _), ok in zip(units, marks, strict=True) if not ok)
            problems.append(
                f"term {term!r} has {sum(marks)} of {len(marks)} content words from the question "
                f"(at least {min_term_share:.0%} must be; not in it: {missing})"
            )
    if total:
        share = sum(total.values()) / len(total)
        if share < min_share:
            missing = [p for p, ok in total.items() if not ok]
            shown = ", ".join(missing[:8]) + (", ..." if len(missing) > 8 else "")
            problems.append(
                f"{len(total) - len(missing)} of {len(total)} content words of the form are the "
                f"question's (at least {min_share:.0%} must be; not in it: {shown})"
            )
    return "; ".join(problems) if problems else None
