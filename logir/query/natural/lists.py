"""Lists and clauses: numbered or bulleted condition lists, items that are only an exclusion,
and the split of a text into sentences and ``, or`` clauses."""

from __future__ import annotations

import re

from logir.query.ast import Not, Query
from logir.query.natural.build import Builder, all_of
from logir.query.natural.lexicon import (
    AUX,
    NEGATION_EXCEPTION,
    NEGATION_LIST_ITEM,
    NEGATION_NOT,
    NEGATION_WITHOUT,
    NO_FOLLOW_EXCEPT,
    NT,
    verbal_kind,
)
from logir.query.natural.negation import (
    clean_negated,
    negations,
    outside_brackets,
    without_article,
)
from logir.query.natural.view import View, has_content, is_abbreviation

_LIST_MARK = re.compile(r"(?:(?<=\s)|(?<=^)|(?<=[:;,]))\(?(\d{1,2})[.)](?=\s)", re.M)
_BULLET = re.compile(r"^[ \t]*(?:[-*\u2022\u2013]|\d{1,2}[.)])[ \t]+", re.M)
# A header that only announces the list ("... that meets the following conditions:").
LIST_HEADER = re.compile(
    r"\b(?:(?:that|which|who)\s+(?:meets?|satisf(?:y|ies)|match(?:es)?|fulfil(?:l|ls|s)?)\b"
    r"|(?:following|these|below|all)\s+(?:\w+\s+)?(?:conditions?|criteria|requirements?"
    r"|constraints?|properties|features|attributes|characteristics)\b)",
    re.I,
)


def list_items(v: View) -> tuple[View, list[View]] | None:
    """A header and its numbered or bulleted items, or None when the text is no list."""
    text = v.text
    marks = [m for m in _BULLET.finditer(text)]
    if len(marks) < 2:
        marks = []
        expected = 1
        for m in _LIST_MARK.finditer(text):
            if int(m.group(1)) == expected:
                marks.append(m)
                expected += 1
        if len(marks) < 2:
            return None
    header = v.cut(0, marks[0].start())
    items = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        item = v.cut(m.end(), end).trim()
        item = _strip_trailing_and(item)
        if item.has_content():
            items.append(item)
    if len(items) < 2:
        return None
    return header, items


_AND_OR = re.compile(r"and|or", re.I)


def _strip_trailing_and(v: View) -> View:
    """``v`` without a dangling ``, and`` / ``or`` at its end."""
    text = v.text
    end = len(text) - 1 if text.endswith("\n") else len(text)  # "$" also matches before "\n"
    for size in (3, 2):
        k = end - size
        if k > 0 and _AND_OR.fullmatch(text, k, end) and _is_list_gap(text[k - 1]):
            while k > 0 and _is_list_gap(text[k - 1]):
                k -= 1
            return v.cut(0, k).trim()
    return v


def _is_list_gap(ch: str) -> bool:
    return ch.isspace() or ch in ",;"


_SENTENCE_END = re.compile(
    # not before a sentence that only leaves things out ("what did newton do besides writing
    # hymns? no amazing grace, no cowper"): it belongs to the one before
    rf"(?<=[?!;])\s+(?!(?:no|none\s+of)\s+(?!(?:{NO_FOLLOW_EXCEPT})\b))"
    r"|(?<=\.)\s+(?=[A-Z(\"'])"
)
_CLAUSE_JOIN = re.compile(
    r",\s*or\s+|;\s*or\s+|,\s*and\s+(?=(?:how|what|why|when|where|which|who|whose)\b)"
    r"|(?<!\s)\s+and\s+(?=(?:how|what|why|when|where|which|who|whose)\b)",
    re.I,
)


#: a word that leaves something out, and an "and" between two such ("french films excluding
#: comedies and italian films excluding westerns": each side is a clause of its own)
_EXCLUSION_WORD = re.compile(
    r"\b(?:excluding|except|other\s+than|apart\s+from|aside\s+from|besides|but\s+not|minus"
    r"|without)\b",
    re.I,
)
_AND_JOIN = re.compile(r",?\s+and\s+", re.I)


def _joins_two(text: str, m: re.Match[str], words: list[int]) -> bool:
    """Whether the "and" at ``m`` stands between two stretches that each leave something out,
    the second naming what it wants in two words or more before its own word ("... and italian
    films excluding westerns"; not "excluding comedies and dramas, but not french ones")."""
    after = [w for w in words if w >= m.end()]
    if not after or words[0] >= m.start():
        return False
    return len(_WORD.findall(text, m.end(), after[0])) >= 2


#: a comparison, whose "and" joins the two things compared ("the similarities between A
#: (excluding a) and B (excluding b)", "compare X and Y")
_COMPARES = re.compile(
    r"\b(?:between|compar\w*|similar\w*|differ\w*|contrast\w*|relationship|both|versus|vs)\b",
    re.I,
)


_WORD = re.compile(r"[^\W_][\w'\u2019-]*")


def split_clauses(v: View) -> list[View]:
    """Sentences and ", or" / ", and how ..." clauses, outside parentheses; where two words
    leave things out, an "and" between them parts two clauses too."""
    text = v.text
    cuts: list[tuple[int, int]] = []
    words = [m.start() for m in _EXCLUSION_WORD.finditer(text)]
    joins: tuple[re.Pattern[str], ...] = (_SENTENCE_END, _CLAUSE_JOIN)
    if len(words) >= 2 and not _COMPARES.search(text):
        joins = (*joins, _AND_JOIN)
    for pat in joins:
        for m in outside_brackets(pat, text):
            if pat is _AND_JOIN and not _joins_two(text, m, words):
                continue
            if (
                pat is _SENTENCE_END
                and text[m.start() - 1 : m.start()] == "."
                and is_abbreviation(text, m.start() - 1)
            ):
                continue
            cuts.append((m.start(), m.end()))
    cuts.sort()
    parts: list[View] = []
    start = 0
    for s, e in cuts:
        if s < start:
            continue
        parts.append(v.cut(start, s))
        start = e
    parts.append(v.cut(start, len(text)))
    return [p for p in parts if p.text.strip()]


_NEGATIVE_ITEM = re.compile(
    rf"^\s*(?:not|never|without|excluding|exclude|except(?:\s+for)?|other\s+than"
    rf"|(?:{AUX})\s+(?:not|never)|{NT})\b\s*",
    re.I,
)


_EXCEPTION_START = re.compile(r"\s*(?:excluding|exclude|except|other)\b", re.I)
_BARE_NOT = re.compile(r"\s*not\b", re.I)
_PARTICIPLE = re.compile(
    r"(?:[^\W\d_]{2,}(?:ed|en)|made|set|shot|built|born|grown|known|sold|found|won|run|held"
    r"|written|about|in|on|at|from|by|for|with|to|before|after|during)\b",
    re.I,
)


#: the word an item is read after, set off by a comma, to see whether it only leaves things out
_HOST = "things, "


def set_off_item(item: View, b: Builder) -> Query | None:
    """A list item that only leaves something out in words that need a clause before them
    ("3) Finland not required", "4) anything but a farm", "- no pets"): the item read as if set
    off by a comma after a word of its list -> its NOT terms; None, with nothing recorded, when
    the item asks for anything of its own."""
    cues, spans = list(b.cues), dict(b.spans)
    probe = View(_HOST + item.text, (-1,) * len(_HOST) + item.pos)
    clause = negations(probe, b)
    own = "".join(
        ch for ch, at in zip(clause.positive.text, clause.positive.pos, strict=True) if at >= 0
    )
    if clause.negated and all(isinstance(q, Not) for q in clause.negated) and not has_content(own):
        return all_of(clause.negated)
    b.cues[:], b.spans = cues, spans
    return None


def negative_item(item: View, b: Builder) -> Query | None:
    """A list item that is only a negation ("3. is not a capital") -> NOT term.

    Its cue says what kind of negation: ``is not`` a negated copula, ``did not`` / ``never`` a
    predicate, ``excluding`` / ``without`` an exclusion, a bare ``not`` a list-item condition.
    """
    m = _NEGATIVE_ITEM.match(item.text)
    if not m:
        return None
    concept = without_article(clean_negated(item.cut(m.end(), len(item.text))))
    t = b.term(concept) if concept.has_content() else None
    if t is None:
        return None
    cue = m.group()
    if _EXCEPTION_START.match(cue):
        b.cue(NEGATION_EXCEPTION)
    elif cue.strip().lower() == "without":
        b.cue(NEGATION_WITHOUT)
    elif _BARE_NOT.match(cue):
        # "not released before 1990" states a condition; "not a sequel", "not poetry" a topic
        b.cue(NEGATION_LIST_ITEM if _PARTICIPLE.match(concept.text) else NEGATION_NOT)
    else:
        b.cue(verbal_kind(cue, attached=True))  # an item describes the list's subject
    return Not(t)
