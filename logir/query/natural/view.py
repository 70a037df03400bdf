"""Text views: text cut and pasted from the input that keeps the input position of every
character, with the tidying and trimming every rule relies on, and the word tests (content words,
abbreviations) that read plain text."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class View:
    """Text cut and pasted from the input; ``pos[i]`` is the input index of ``text[i]``.

    A position of -1 marks a space added when two pieces were joined.
    """

    text: str
    pos: tuple[int, ...]

    @staticmethod
    def of(text: str, offset: int = 0) -> View:
        return View(text, tuple(range(offset, offset + len(text))))

    def __len__(self) -> int:
        return len(self.text)

    def cut(self, start: int, end: int) -> View:
        return View(self.text[start:end], self.pos[start:end])

    def without(self, ranges: Iterable[tuple[int, int]]) -> View:
        """This view with the given (start, end) ranges of its own indices removed."""
        n = len(self.text)
        kept_text: list[str] = []
        kept_pos: list[tuple[int, ...]] = []
        at = 0
        for s, e in sorted((max(s, 0), min(e, n)) for s, e in ranges):
            if s > at:
                self._keep(kept_text, kept_pos, at, s)
            at = max(at, e)
        if at < n:
            self._keep(kept_text, kept_pos, at, n)
        return View("".join(kept_text), tuple(itertools.chain.from_iterable(kept_pos))).tidy()

    def _keep(self, text: list[str], pos: list[tuple[int, ...]], start: int, end: int) -> None:
        """Append ``[start, end)`` to the kept pieces, a space between two words a cut brought
        together ("aspirin, not painkillers but heart drugs" less its cuts: "aspirin heart")."""
        piece = self.text[start:end]
        if text and text[-1] and text[-1][-1].isalnum() and piece[:1].isalnum():
            text.append(" ")
            pos.append((-1,))
        text.append(piece)
        pos.append(self.pos[start:end])

    def join(self, other: View) -> View:
        if not self.text:
            return other
        if not other.text:
            return self
        adjacent = self.pos[-1] >= 0 and self.pos[-1] + 1 == other.pos[0]
        glued = other.text[0] in ",.;:?!)" or self.text[-1] == "(" or self.text[-1].isspace()
        if adjacent or glued:
            return View(self.text + other.text, self.pos + other.pos)
        return View(self.text + " " + other.text, self.pos + (-1,) + other.pos)

    def tidy(self) -> View:
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
                k = SPACES.match(text, j).end()
                cut_after_stop = (  # "MSN. [cut], what ...": a stop, then a cut, then the comma
                    last in ".?!" and out_p and out_p[-1] and out_p[-1][-1] + 1 != pos[i]
                )
                if k >= n or text[k] in _TIDY_BEFORE or (last and last in ",(;:") or cut_after_stop:
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
        return View("".join(out_t), tuple(itertools.chain.from_iterable(out_p)))

    def trim(self) -> View:
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
        return has_content(self.text)


# A piece is a whitespace run, a punctuation mark, or a run of plain characters that may hold
# single spaces tidy would keep anyway (not after "(", not before ")"): copied whole, they save
# the loop a turn per word.
_TIDY_PIECE = re.compile(r"[^\s,.?!;:]+(?:(?<!\() (?!\))[^\s,.?!;:]+)*|\s+|[,.?!;:]")
_TIDY_BEFORE = ",.?!;:)"  # whitespace before these goes, and so does a comma
SPACES = re.compile(r"\s*")
_EDGE = r"[\s,;:.?!\-\u2013\u2014]"
_LEAD_JUNK = re.compile(rf"(?:{_EDGE}++|(?:and|or|but|nor|also|then|so|yet|while)\b)++", re.I)
# The dangling tail (edge marks and whole dangling phrases: a connective, "as well (as)", a
# relative with its auxiliaries; the words below) is found by _trailing_junk, a right-to-left
# scan: searched for as a regular expression it costs time quadratic in the length of a long tail.
_EDGE_MARKS = frozenset(",;:.?!-\u2013\u2014")
_DANGLING_WORD = re.compile(
    r"and|or|but|nor|also|either|both|neither|while|whereas|please|yet|then|so|though|although"
    r"|preferably|ideally",
    re.I,
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


def is_word_char(ch: str) -> bool:
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
        if not is_word_char(ch):
            break
        k = i - 1
        while k > lo and is_word_char(text[k - 1]):
            k -= 1
        if not _TAIL_WORD.fullmatch(text, k, i):
            break
        words.append((k, i))
        i = k
    floor = i  # the tail cannot start left of here
    if not words:
        return floor  # edge characters at most: they are the tail
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


def words(text: str) -> list[str]:
    return text.split()


STOP = frozenset(
    words(
        """a an the and or but nor not no of in on at to for from by with about as into onto over
    under than then that this these those which who whom whose what when where why how is are was
    were be been being do does did has have had can could will would should shall may might must
    it its they them their there here i me my we us our you your he him his she her please find
    tell give show list name provide also any some all either both neither other else s"""
    )
)
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)?")


_COMPOUND = re.compile(r"[^\W_]+(?:[-'\u2019][^\W_]+)*")


def is_function_word(word: str) -> bool:
    """A word of :data:`STOP`, unless written as an acronym ("US", "IT", "WHO": two letters or
    more, all capitals): "boxers not from the US" excludes a country, not a pronoun."""
    return word.lower() in STOP and not (len(word) > 1 and word.isupper())


def content_words(text: str) -> set[str]:
    """Content words, hyphenated compounds kept whole ("Basel-Landschaft" is not "Basel")."""
    return {w.lower() for w in _COMPOUND.findall(text) if not is_function_word(w)}


def has_content(text: str) -> bool:
    """True when ``text`` holds a word other than a function word."""
    return any(not is_function_word(m.group()) for m in _WORD.finditer(text))


_ABBREV = frozenset(words("mr mrs ms dr st jr sr vs no nos vol e.g i.e etc inc ltd co fig"))
_DOTTED = re.compile(r"(?:\w\.)+\w")


def is_abbreviation(text: str, dot: int) -> bool:
    """True when the word before the full stop at ``dot`` abbreviates ("Dr", "e.g", "U.S")."""
    end = dot - 1 if dot > 0 and text[dot - 1] == "\n" else dot  # "$" also matches before "\n"
    start = end
    while start > 0 and (is_word_char(text[start - 1]) or text[start - 1] == "."):
        start -= 1
    if start == end:
        return False
    word = text[start:end].lower()
    return len(word) == 1 or word in _ABBREV or bool(_DOTTED.fullmatch(word))


def first_stop(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first match of ``pattern`` in ``text`` that is not a full stop ending an abbreviation
    (the end of a sentence or a phrase, not the one of "St. Vincent's")."""
    return next(
        (
            m
            for m in pattern.finditer(text)
            if text[m.start()] != "." or not is_abbreviation(text, m.start())
        ),
        None,
    )


#: punctuation said aloud by someone dictating ("graves of real people comma nothing
#: prehistoric", "except taylor swift ones full stop", "... who survived one question mark"):
#: "comma" between two words, not after an article or "oxford"/"serial" nor before "splice";
#: "full stop" not after "a"/"the"/"to"; "question mark" not after "a"/"the"
_SPOKEN = re.compile(
    # (the space before the word too: the mark then follows its word, "exiles. skip ...")
    r"(?<=\w)(?<!\ba)(?<!\bthe)(?<!\boxford)(?<!\bserial)(?<!\binverted)"
    r" (?P<comma>comma)(?= (?!splices?\b)\w)"
    r"|(?<=\w)(?<!\ba)(?<!\bthe)(?<!\bto) (?P<stop>full stop)(?=\s*$|\s+\w)"
    r"|(?<=\w)(?<!\ba)(?<!\bthe) (?P<question>question mark)(?=\s*$|\s+\w)",
    re.I,
)


#: "period" said for a full stop, at the end of a dictated text ("leave out alcohol and dengue
#: period"); read so only where a dictated comma shows the text was dictated ("the Edo period")
_SPOKEN_PERIOD = re.compile(r"(?<=\w) period(?=[\s.]*$)", re.I)


def _is_pictograph(ch: str) -> bool:
    """An emoji or another pictograph (not "°" or "©": symbols of running text), or a
    character that only joins or varies one (a zero-width joiner, a variation selector, a skin
    tone)."""
    code = ord(ch)
    if code in (0x200D, 0xFE0F, 0xFE0E) or 0x1F3FB <= code <= 0x1F3FF:
        return True
    return code >= 0x2190 and unicodedata.category(ch) == "So"


def _tags_start(text: str) -> int:
    """Where the hashtags and pictographs that end ``text`` start ("... no guided tours
    #solotravel"), ``len(text)`` where there are none: one scan back from the end."""
    at = len(text)
    i = at
    while i > 0:
        j = i
        while j > 0 and text[j - 1].isspace():
            j -= 1
        k = j
        while k > 0 and _is_pictograph(text[k - 1]):
            k -= 1
        if k == j:  # no pictograph: a hashtag, or the end of the tags
            while k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_"):
                k -= 1
            if k == j or k == 0 or text[k - 1] != "#" or not text[k].isalpha():
                break
            k -= 1
            if k > 0 and not text[k - 1].isspace():
                break
        at = i = k
    return at


def plain_symbols(text: str) -> str:
    """``text`` with each run of emoji inside it read as a comma ("volcanoes in Iceland \U0001f6ab
    no guided tours": the pictograph parts two clauses), emoji and hashtags at its start or end as
    spaces (tags: "#gamenight"), and the "#" of a hashtag inside as a space ("#vegan brownies";
    not "C#"), padded to the same length, so every position still points at the input."""
    if text.isascii() and "#" not in text:
        return text
    chars = list(text)
    end = len(text)
    tail = _tags_start(text)
    if tail < len(text) and text[:tail].strip():
        end = tail
        for i in range(end, len(text)):
            chars[i] = " "
    start = 0
    while start < end and (text[start].isspace() or _is_pictograph(text[start])):
        chars[start] = " " if _is_pictograph(text[start]) else text[start]
        start += 1
    run = 0
    for i in range(start, end):
        ch = text[i]
        if _is_pictograph(ch):
            chars[i] = "," if run == 0 else " "
            run += 1
            continue
        run = 0
        if ch == "#" and (i == 0 or text[i - 1].isspace()) and text[i + 1 : i + 2].isalpha():
            chars[i] = " "
    return "".join(chars)


#: a postscript's mark at a sentence's start ("P.S. ignore anything about ...", "PS: ..."; not
#: "PS5")
_POSTSCRIPT = re.compile(r"(?:^|(?<=[.?!)]\s)|(?<=\n))[ \t]*(?:p\.\s?s\.|ps\b:?)", re.I)


def postscript_unmarked(text: str) -> str:
    """``text`` with each postscript's mark written as spaces, so that what follows reads as a
    sentence of its own, padded to the same length."""
    return _POSTSCRIPT.sub(lambda m: " " * len(m.group()), text)


def spoken_punctuation(text: str) -> str:
    """``text`` with dictated punctuation written as the mark, padded with spaces to the same
    length, so every position still points at the input."""
    commas = 0

    def mark(m: re.Match[str]) -> str:
        nonlocal commas
        commas += bool(m.group("comma"))
        sign = "," if m.group("comma") else "?" if m.group("question") else "."
        return sign.ljust(len(m.group(0)))

    out = _SPOKEN.sub(mark, text)
    return _SPOKEN_PERIOD.sub(".      ", out) if commas else out


#: the words after which "like" is a filler ("but like", "excluding like")
_LIKE_AFTER = ("but", "and", "or", "so", "excluding", "except", "just")
#: a copula or a relative before "actually": "movies that are actually not bad" is no correction
_COPULA_BEFORE = (
    *("are", "is", "was", "were", "be", "been", "am", "that", "who", "which", "it's"),
    *("do", "does", "did"),
)
#: verbs and prepositions whose object a "no" opens ("there is no sugar", "i have no idea")
_NO_OBJECT_OF = (
    *("is", "was", "are", "were", "be", "been", "has", "have", "had", "know", "knew"),
    *("says", "said", "with", "of", "means", "there", "get", "got", "need", "want"),
    *("see", "saw", "make", "made", "do", "does", "did"),
)


#: a filler a speaker or a chatty writer puts between words ("um", "uh", "erm"; not "UM" or "ER"
#: in capitals, names), with a space or the text's edge on both sides
_FILLER = re.compile(
    r"(?<!\S)(?:[Uu]m+|[Uu]h+|[Uu]hm+|[Ee]rm+|[Hh]mm+)(?=\s|[,.?!]|$)"
    # "tl;dr" before what a long post comes down to
    r"|(?<!\S)[Tt][Ll];?[Dd][Rr]:?(?=\s)"
    # a chatty opening: "okay so", "ok so like", "so like"
    r"|^\s*(?:(?:[Oo]kay|[Oo]k|[Aa]lright)\s+so|[Ss]o\s+(?=like\b))(?:\s+like\b)?"
    # a polite word that opens a request to leave something out ("please skip the vaccine
    # stuff, ...", "pls no spoilers - ..."); elsewhere it goes with the request ("please find ...")
    r"|^\s*(?:[Pp]lease|[Pp]ls|[Pp]lz)\b\s*,?(?=\s+(?:skip|leave|keep|no|not|ignore|forget"
    r"|exclude|excluding|omit|besides|apart|aside|except|without|never\s+mind)\b)"
    # "like" as a filler after a conjunction or an exclusion's word ("but like nothing about X",
    # "excluding like banks"; not "movies like inception", "things i like")
    r"|like(?:"
    + "|".join(rf"(?<=\b{w}\slike)" for w in _LIKE_AFTER)
    + r")(?=\s+\w)(?!\s+(?:this|that|these"
    r"|those|it|them|him|her|me|us)\b)"
)

#: a speaker's correction or pause before a new clause ("denver actually skip the ones by
#: boulder", "takeout no wait not pizza places", "oh and not hondas", "bucks uh rule out
#: chromebooks", "inception um i've already seen interstellar"): read as a comma. A pause ("um",
#: "uh") counts only before an instruction or a subject that opens a clause of its own
_INSTRUCTION = (
    r"skip|scratch|forget|take\s+out|cross\s+off|rule\s+out|leave\s+out|exclude|ditch"
    r"|not|no(?!\s+(?:longer|more|one|doubt|matter)\b)|none|nothing"
)
#: more instructions after a pause only ("rover um hold the budget stuff"; not "cells actually
#: remove")
_PAUSED = r"hold|drop|cut|remove"
_CORRECTION = re.compile(
    r"(?=\s+(?:(?:and|but|so)\s+)?(?:oh|um|uh|erm|actually|no|wait)\b)(?<=[^\W\d_])"
    + "".join(rf"(?<!\b{w})" for w in _COPULA_BEFORE)
    + r"\s+(?:(?:and|but|so)\s+)?(?:"
    r"(?:(?:oh|um|uh)\s+)?(?:actually|no\s+wait|wait|oh\s+and|oh\s+also|oh)"
    rf"(?=\s+(?:{_INSTRUCTION})\b)"
    # "dinner ideas for tonight wait my wife is allergic to shellfish": a new subject
    r"|wait(?=\s+(?:my|our|i|we|she|he|they)\b)"
    r"|(?:um+|uh+|erm+)"
    rf"(?=\s+(?:{_INSTRUCTION}|{_PAUSED}|i|i['\u2019](?:ve|m|d)|we|we['\u2019](?:ve|re|d)|my|our)\b))",
    re.I,
)


#: "songs for a first dance no country though", "... no taylor swift pls": an afterthought that
#: leaves something out, typed with no comma; the comma is read before "no" (the polite word
#: at the end is cut before any cue is read). Not after a verb or a preposition whose object
#: "no" opens ("there is no sugar though", "i have no idea though")
_TAIL_NO = re.compile(
    r"(?<=[^\W\d_])(?= no\s)"
    + "".join(rf"(?<!\b{w})" for w in _NO_OBJECT_OF)
    + r" (?=no\s+[^\W\d_][\w'\u2019-]*(?:\s+[^\W\d_][\w'\u2019-]*){0,2}"
    r"\s+(?:pls|plz|please|though|tho)[\s.!]*$)",
    re.I,
)


_NEITHER = re.compile(r"\bneither\b", re.I)
_CLAUSE_MARK = re.compile(r"[,;.?!]")


def _second_neither_as_nor(text: str) -> str:
    """ "neither Salzburg neither Innsbruck", as a learner writes "neither ... nor": the second
    "neither" of a clause read as "nor", padded to the same length."""
    out = text
    last: re.Match[str] | None = None
    for m in _NEITHER.finditer(text):
        if (
            last is not None
            and m.start() - last.end() <= 60
            and not _CLAUSE_MARK.search(text, last.end(), m.start())
        ):
            out = out[: m.start()] + "nor    " + out[m.end() :]
            last = None
            continue
        last = m
    return out


#: "but neither with coconut milk" with no "nor": neither of the things asked for, read as "none"
_LONE_NEITHER = re.compile(
    r"\bbut\s+neither(?=\s+(?:with|containing|using|made|having|involving|including|featuring)\b)",
    re.I,
)
_NOR = re.compile(r"\bnor\b", re.I)


def _lone_neither_as_none(text: str) -> str:
    """ "thai or vietnamese soup recipes but neither with coconut milk": a "neither" with no "nor"
    anywhere in the text means none of them, read as "none", padded to the same length."""
    if _NOR.search(text) is not None:
        return text
    return _LONE_NEITHER.sub(lambda m: m.group()[:-7] + "none   ", text)


#: a text that opens on what the writer does not want, set off by a comma before the request
#: ("im sick of fortnite, free shooter games on pc?", "not a fan of jazz, what music for
#: studying"): the comma ends a sentence of its own
_FRONTED_DISLIKE = re.compile(
    r"\s*(?:(?:ngl|tbh|honestly|lol|ok|okay|so|well|also)[,\s]+)?(?:"
    r"(?:i\s*['\u2019]?m|i\s+am|we\s*['\u2019]?re|we\s+are)\s+(?:(?:so|really|kinda|totally|just)\s+)?"
    r"(?:sick\s+of|tired\s+of|done\s+(?:with|w)|over|bored\s+(?:of|with)"
    r"|not\s+(?:interested\s+in|into|a\s+(?:big\s+)?fan\s+of|looking\s+for))"
    r"|not\s+(?:interested\s+in|into|a\s+(?:big\s+)?fan\s+of|looking\s+for)"
    r"|(?:i\s+|we\s+)?(?:don['\u2019]?t|do\s+not)\s+(?:want|need|like|care\s+(?:about|for))"
    r")\s*[^,;.?!]{1,60}?,(?=\s*[^\W\d_][\w'\u2019-]*\s+[^\W\d_])",
    re.I,
)


#: the label of an error message pasted into a search ("fatal: not a git repository",
#: "ModuleNotFoundError: No module named 'cv2'", "zsh: command not found: npm")
_ERROR_LABEL = re.compile(
    r"(?<![\w.])(?:(?i:fatal|error|warning|zsh|bash|npm\s+ERR!)|[A-Z][A-Za-z]*(?:Error|Exception|Warning))"
    r"\s*:"
)
#: the negation words an error message holds as part of its wording
_MESSAGE_NEGATION = re.compile(
    r"\b(?:no|not|cannot|can['\u2019]?t|never|none|nothing|non)\b(?!-)", re.I
)
_MESSAGE_REACH = 80
"""Characters after an error label whose negation words belong to the message."""


def _error_messages_quiet(text: str) -> str:
    """``text`` with the negation words of a pasted error message written as spaces: "not a git
    repository" is what the message says, not what the search leaves out."""
    label = _ERROR_LABEL.search(text)
    if label is None:
        return text
    end = min(len(text), label.end() + _MESSAGE_REACH)
    return (
        text[: label.end()]
        + _MESSAGE_NEGATION.sub(lambda m: " " * len(m.group()), text[label.end() : end])
        + text[end:]
    )


#: a capitalised contraction before a capitalised word: part of a title ("games like Don't
#: Starve", "other than Can't Buy Me Love") where a word in lower case comes before it
_TITLE_CONTRACTION = re.compile(
    r"(?<=\s)(?:Don|Can|Won|Isn|Ain|Didn|Doesn|Wasn|Aren|Couldn|Wouldn|Shouldn)(['\u2019])t"
    r"(?=\s+[A-Z])"
)
_LOWER_WORD_BEFORE = re.compile(
    r"(?:^|\s)(?!(?:that|which|who|i|we|you|they|he|she|it|and|but|or|so)\s)[a-z][a-z'\u2019-]*\s+$"
)
TITLE_APOSTROPHE = "\u02bc"
"""What the apostrophe of such a title's word is read as (a modifier letter, no negation);
the decomposition puts the apostrophe back in its terms."""


#: a capitalised negation word before a capitalised word: the first word of a title ("books
#: like Never Let Me Go", "films other than No Country for Old Men") where a word in lower case
#: comes before it
_TITLE_NEGATION = re.compile(r"(?<=\s)N(?=(?:o|ot|ever|othing|obody|one|owhere)\s+[A-Z][a-z])")
TITLE_N = "\u039d"
"""What the N of such a title's first word is read as (Greek capital nu: no negation word);
the decomposition puts the N back in its terms."""
TITLE_STAND_INS = {TITLE_APOSTROPHE: "'", TITLE_N: "N"}
"""Each stand-in letter of a title's word and the letter it stands for."""


def _title_contractions_quiet(text: str) -> str:
    """``text`` with the apostrophe of a title's contraction written as TITLE_APOSTROPHE and
    the N of a title's negation word as TITLE_N: a capitalised "Don't" or "Never" after a word
    in lower case and before a capitalised one ("movies like Don't Look Up", "books like Never
    Let Me Go"; not "Films That Don't Have ...", typed in title case)."""
    out = list(text)
    for pattern, group, stand_in in (
        (_TITLE_CONTRACTION, 1, TITLE_APOSTROPHE),
        (_TITLE_NEGATION, 0, TITLE_N),
    ):
        for m in pattern.finditer(text):
            if _LOWER_WORD_BEFORE.search(text, max(0, m.start() - 40), m.start()):
                out[m.start(group)] = stand_in
    return "".join(out)


def spoken_fillers(text: str) -> str:
    """``text`` with fillers written as spaces, a speaker's correction before an exclusion as a
    comma, and the comma after an opening dislike as a full stop, padded to the same length, so
    every position still points at the input."""
    out = _error_messages_quiet(_lone_neither_as_none(_second_neither_as_nor(text)))
    out = _title_contractions_quiet(out)
    out = _CORRECTION.sub(lambda m: ",".ljust(len(m.group())), out)
    out = _FILLER.sub(lambda m: " " * len(m.group()), out)
    out = _TAIL_NO.sub(",", out)
    first = _FRONTED_DISLIKE.match(out)
    return out if first is None else out[: first.end() - 1] + "." + out[first.end() :]
