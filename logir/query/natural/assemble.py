"""Assembly: a query read clause by clause (several negated clauses become a union), a condition
list item by item, and the public :func:`decompose` with its result type."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from logir.errors import LogirError
from logir.limits import MAX_NATURAL_CHARS
from logir.query.ast import Not, Query, Term, is_purely_negative
from logir.query.natural.build import Builder, all_of, any_of
from logir.query.natural.fields import fields, leaves_out
from logir.query.natural.lexicon import (
    CLAUSES_UNION,
    CONJUNCTION_LIST,
    FRAME,
    FRAME_DROPPED,
    LIST_HEADER_DROPPED,
    NEGATION_EXCEPTION,
    POLITE_TAIL,
)
from logir.query.natural.lists import (
    LIST_HEADER,
    list_items,
    negative_item,
    set_off_item,
    split_clauses,
)
from logir.query.natural.negation import (
    chat_dropped,
    clean_negated,
    negations,
    split_list,
    without_article,
)
from logir.query.natural.nlp import SPACY_MAX_TOKENS, spacy_available, spacy_tokens
from logir.query.natural.positive import read_positive
from logir.query.natural.view import (
    TITLE_STAND_INS,
    View,
    plain_symbols,
    postscript_unmarked,
    spoken_fillers,
    spoken_punctuation,
)
from logir.query.syntax import QueryTooLong


class EmptyQuery(LogirError, ValueError):
    """A query with nothing but whitespace."""


@dataclass(frozen=True)
class Decomposition:
    """A logical form read from natural language, where its terms came from and why."""

    query: Query
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    cues: list[str] = field(default_factory=list)
    parser: str = "regex"  # "spacy" when the dependency parse was available


def _decompose_text(v: View, b: Builder, allow_clauses: bool = True) -> Query | None:
    """Decompose one stretch of text; None when it has no positive content."""
    clauses = split_clauses(v) if allow_clauses else [v]
    if len(clauses) > 1:
        analysed = []
        for c in clauses:
            b.check()
            analysed.append(negations(c, b))
        with_own = [a for a in analysed if a.has_cue and a.positive.has_content()]
        if len(with_own) >= 2:
            b.cue(CLAUSES_UNION)
            global_nots: list[Query] = []
            alts: list[Query] = []
            for a in analysed:
                b.check()
                if not a.positive.has_content():
                    global_nots.extend(a.negated)
                    continue
                pos = read_positive(a.positive, b)
                if pos is None:
                    continue
                alts.append(all_of([pos, *a.negated]))
            if len(alts) >= 2:
                return all_of([any_of(alts), *global_nots])
    whole = negations(v, b)
    pos_view = chat_dropped(whole.positive) if whole.negated else whole.positive
    if not pos_view.has_content():
        return None
    multi = len(split_clauses(pos_view)) > 1
    pos = b.term(pos_view) if multi else read_positive(pos_view, b)
    if pos is None:
        return None
    return all_of([pos, *whole.negated])


_RELATIVE_END = re.compile(r"\b(?:that|which|who)\s*:?\s*$", re.I)


def _drop_frame(v: View, b: Builder) -> View:
    """``v`` without a frame such as ``Is it true that`` or ``Find a passage about``, and without
    a polite tail ("thanks")."""
    tail = POLITE_TAIL.search(v.text)
    if tail and v.cut(0, tail.start()).has_content():
        v = v.cut(0, len(v.text[: tail.start()].rstrip(" \t\n,;.!?")))
    v = chat_dropped(v)  # "thriller novels lol": the chat word says nothing of the topic
    m = FRAME.match(v.text)
    if not m or not v.cut(m.end(), len(v.text)).has_content():
        return v
    b.cue(FRAME_DROPPED)
    b.asks_fact = m.group("fact") is not None
    rest = v.cut(m.end(), len(v.text))
    prep = _FRAME_PREPOSITION.search(m.group())
    if prep:
        # "I seek passages on A or on B": the frame took the first "on", so the second goes too
        again = re.search(rf"\b(?:or|and)\s+({prep.group(1)}\s+)(?=\S)", rest.text, re.I)
        if again:
            rest = rest.without([(again.start(1), again.end(1))])
    return rest


_FRAME_PREPOSITION = re.compile(r"\b(on|about|regarding|concerning)\s*$", re.I)


#: where the items of a field that leaves things out part ("Tacoma Narrows, Golden Gate")
_FIELD_ITEMS = re.compile(r"[,;]\s*")
#: a comment in brackets at an excluded item's end ("succulents (they always die on me)")
_BRACKET_END = re.compile(r"\s*\([^()]*\)\s*$")


def _read_fields(labelled: list[tuple[str, View]], b: Builder) -> Query | None:
    """A query written as labelled fields (:mod:`logir.query.natural.fields`): each value read
    as text, the items of a field that leaves things out as NOT terms; None when no field asks
    for anything."""
    parts: list[Query] = []
    left_out: list[Query] = []
    for label, value in labelled:
        b.check()
        if label and leaves_out(label):
            at = 0
            pieces = []
            for m in _FIELD_ITEMS.finditer(value.text):
                pieces.append(value.cut(at, m.start()))
                at = m.end()
            pieces.append(value.cut(at, len(value.text)))
            for piece in pieces:
                bracket = _BRACKET_END.search(piece.text)
                if bracket and piece.cut(0, bracket.start()).has_content():
                    piece = piece.cut(0, bracket.start())
                for item in split_list(clean_negated(piece)):
                    t = b.term(without_article(item))
                    if t is not None and Not(t) not in left_out:
                        left_out.append(Not(t))
            continue
        q = _decompose_text(value, b, allow_clauses=False)
        if q is not None:
            parts.append(q)
    if not parts:
        return None
    b.cue(CONJUNCTION_LIST)
    if left_out:
        b.cue(NEGATION_EXCEPTION)
    return all_of([*parts, *left_out])


def _decompose(text: str, b: Builder) -> Query:
    v = _drop_frame(
        View.of(spoken_fillers(spoken_punctuation(postscript_unmarked(plain_symbols(text))))), b
    )
    labelled = fields(v)
    if labelled is not None:
        cues, spans = list(b.cues), dict(b.spans)
        q = _read_fields(labelled, b)
        if q is not None:
            return q
        b.cues[:], b.spans = cues, spans
    listed = list_items(v)
    if listed is not None:
        header, items = listed
        b.cue(CONJUNCTION_LIST)
        parts: list[Query] = []
        head = header.trim()
        if head.has_content() and _RELATIVE_END.search(header.text):
            # "a city that: 1. is in Europe; 2. ...": the header is the subject of the first item
            end = len(header.text.rstrip().rstrip(":").rstrip())
            items = [header.cut(0, end).join(items[0]), *items[1:]]
        elif head.has_content():
            if LIST_HEADER.search(head.text):
                b.cue(LIST_HEADER_DROPPED)
            else:
                q = _decompose_text(head, b, allow_clauses=False)
                if q is not None:
                    parts.append(q)
        for item in items:
            b.check()
            q = (
                negative_item(item, b)
                or set_off_item(item, b)
                or _decompose_text(item, b, allow_clauses=False)
            )
            if q is not None:
                parts.append(q)
        # (an item can be purely negative without being a NOT: "by don't mention not films")
        if parts and any(not is_purely_negative(p) for p in parts):
            return all_of(parts)
        b.cues[:] = [c for c in b.cues if c == FRAME_DROPPED]
        b.spans.clear()
    q = _decompose_text(v, b)
    if q is not None and b.cues:
        return q
    b.cues.clear()
    b.spans.clear()
    if v.text != text and v.has_content():  # only a frame was dropped
        b.cue(FRAME_DROPPED)
        t = b.term(v)
        if t is not None:
            return t
        b.cues.clear()
    whole = Term(text)
    stripped = text.strip()
    start = text.index(stripped[0])
    end = len(text.rstrip())
    b.spans[whole.text] = (start, end)
    return whole


def decompose(text: str) -> Decomposition:
    """Decompose a natural-language query into a logical form; see the module docstring."""
    if not isinstance(text, str):
        raise TypeError(f"decompose() expects a str, got {type(text).__name__}")
    QueryTooLong.check(text, MAX_NATURAL_CHARS, "natural-language reading")
    if not text.strip():
        raise EmptyQuery("cannot decompose an empty query")
    spacy_available()  # the first call loads spaCy (seconds): outside the time budget
    b = Builder()
    q = _decompose(_round_brackets(text), b)
    spans = {t.text: b.spans[t.text] for t in _iter_terms(q) if t.text in b.spans}
    if any(c in t.text for t in _iter_terms(q) for c in TITLE_STAND_INS):
        q = _titles_back(q)
        spans = {_letters_back(t): v for t, v in spans.items()}
    spacy = spacy_tokens(text, SPACY_MAX_TOKENS) <= SPACY_MAX_TOKENS and spacy_available()
    return Decomposition(q, spans, list(b.cues), "spacy" if spacy else "regex")


def _round_brackets(text: str) -> str:
    """``text`` with square brackets written as round ones where each "[" is closed by a "]"
    and none is nested ("live-action tv seasons [no cartoons]" reads as "(no cartoons)"); the
    same length, so spans stay where they are."""
    if "[" not in text:
        return text
    depth = 0
    for c in text:
        if c == "[":
            depth += 1
            if depth > 1:
                return text
        elif c == "]":
            depth -= 1
            if depth < 0:
                return text
    return text if depth else text.replace("[", "(").replace("]", ")")


def _letters_back(text: str) -> str:
    """``text`` with each stand-in letter of a title (view.TITLE_STAND_INS) written back."""
    for stand_in, letter in TITLE_STAND_INS.items():
        text = text.replace(stand_in, letter)
    return text


def _titles_back(q: Query) -> Query:
    """``q`` with the letters of its titles' words (view.TITLE_STAND_INS) back."""
    if isinstance(q, Term):
        return Term(_letters_back(q.text))
    if isinstance(q, Not):
        return Not(_titles_back(q.child))
    return type(q)(*(_titles_back(c) for c in q.children))


def _iter_terms(q: Query) -> Iterator[Term]:
    if isinstance(q, Term):
        yield q
    elif isinstance(q, Not):
        yield from _iter_terms(q.child)
    else:
        for c in q.children:
            yield from _iter_terms(c)
