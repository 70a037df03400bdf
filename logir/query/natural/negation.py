"""Negation: finding the negation cues of a clause, how far each negated stretch runs, and cutting
the negated concepts out of the clause (giving a bare concept the head it shares)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from logir.query.ast import Not, Query
from logir.query.natural.build import Builder
from logir.query.natural.lexicon import (
    ABOUT_VERB,
    AFTER_ITEM,
    AUX,
    CHAT_TAIL,
    CONJUNCTION_PROPERTIES,
    CUES,
    DASH,
    EXCLUDING_CUES,
    FOR_NOW,
    LAUGH,
    LEAD_QUESTION,
    LOCATIVE,
    NEG_ARTICLE,
    NEG_ASIDE,
    NEG_FILLER,
    NEG_TAIL,
    NEGATION_BUT_NOT,
    NEGATION_COPULA,
    NEGATION_DONT_MENTION,
    NEGATION_EXCEPTION,
    NEGATION_FRONTED_EXCEPTION,
    NEGATION_NO,
    NEGATION_PREDICATE,
    NEGATION_WITHOUT,
    NO_FOLLOW_EXCEPT,
    NT,
    ORIGIN,
    POSTPOSED,
    SPACED_DASH,
    VERDICT_COMMA,
    VERDICT_DEGREE,
    negated_kind,
    verbal_kind,
)
from logir.query.natural.nlp import parse_whole
from logir.query.natural.view import (
    STOP,
    View,
    content_words,
    first_stop,
    has_content,
    is_abbreviation,
)

_CUE_WORK = 40_000
"""Characters the negation pass may re-read per clause: every cue it keeps costs a pass over the
clause, so a clause of n characters keeps at most ``max(4, _CUE_WORK // n)`` cues (the rest stay
plain text). Real queries, a few hundred characters with a handful of cues, never reach it."""

#: a chat word typed before a comma ("not nascar lol, ..."): a clause boundary
_CHAT_COMMA = rf"\s+(?:{LAUGH})\s*,"

# Clause boundaries that end a negated stretch of text.
#: "because" as typed: a reason after an excluded item starts with it
_BECAUSE = r"because|becuase|becasue|bcuz|cuz|coz|b/c"
_BOUNDARY = re.compile(
    # a spaced dash, unless a name goes on after it ("Philip Pearson - Gregory")
    # (or the pronoun "I" goes on after it: "anything but diabetes - I keep hearing ...")
    rf"[;?!]|\.(?=\s|$)|\)|{DASH}\s(?-i:(?![A-Z])|(?=I(?:\s|['\u2019])))"
    r"|,\s*(?:and|or|but|while|whereas)\s+(?=(?:how|what|why|when|where|which|who|whom|whose"
    rf"|{AUX}|also|then|i|we|you|please|it|its|their|they|he|she|his|her|did)\b)"
    # ("but no fossil record or how old the family is": "or" goes on with the negated item)
    r"|(?<!\s)\s+and\s+(?=(?:how|what|why|when|where|which|who|whose)\b)"
    r"|(?<!\s)\s+but\s+(?!(?:not|never|also|rather|only|just|even)\b)"
    rf"|,\s*and\s+|(?<!\s)\s+and\s+(?=(?:[a-z]+ed|{AUX})\b)"
    # "... eurogames and want something different": the writer's wish, a clause of its own
    r"|(?<!\s)\s+and\s+(?=(?:want|wanna|need|prefer|would\s+like|(?:am|are)\s+looking)\b)"
    r"|,\s*(?:but|however|and\s+also)\b"
    r"|,\s*(?=(?:near|close\s+to|located|situated|with|for|during|in|on|at|from)\b)"
    # a bound after a comma: "not an iPhone or a Samsung, under $400", ", within 10 miles"
    r"|,\s*(?=(?:under|over|below|above|around|within|less\s+than|more\s+than)\s+[$\u00a3\u20ac]?\d)"
    # a reason after the item: "that arnt sharks becuase sharks are scary"
    rf"|(?<!\s)\s+(?=(?:{_BECAUSE})\s+(?!of\b)[^\W\d_])"
    # "ignoring the mongolian sites since i surveyed those myself" (not "since 1990")
    r"|(?<!\s)\s+(?=since\s+(?:i|we|you|they|he|she|it|my|our)\s)"
    # a new clause with a pronoun subject: "not the Adonis one, it always makes me sad"
    # (in lower case: "The Heart, She Holler" is a title)
    r"|,\s*(?-i:(?=(?:it|it['\u2019]s|they|they['\u2019]re|he|she|[iI]|[iI]['\u2019]m|we|you)\s+\w))"
    # a chat word, then a comma: "not nascar lol, like the uk banger stuff" goes on with the
    # positive part
    rf"|{_CHAT_COMMA}",
    re.I,
)
# A listed exclusion "A, B, and C" (items without sentence punctuation, the last after "and" or
# "or" and running to the end of the clause) is read by _listed_end, in one pass: as a regular
# expression, "(?:\s*[^,;?!.()]+?,)+..." backtracks exponentially in the number of items.
_LIST_STOP = re.compile(r"[,;?!.()]")
_LIST_LAST = re.compile(r"\s*+(?:and|or)(\s+)", re.I)
#: a cue that sets an item apart from others of its kind ("actions other than X")
_OTHER_THAN = re.compile(r"\b(?:other\s+than|apart\s+from|aside\s+from|besides)\b", re.I)
#: the cues after whose item examples are of what is wanted ("SREBP outside its classic job in
#: the liver, e.g. in T cells")
_SETS_APART = re.compile(rf"{_OTHER_THAN.pattern}|\boutside\b", re.I)
_EXAMPLE_OPENER = r"e\.\s?g\.|(?:eg|such\s+as|for\s+(?:example|instance))\b"
#: examples set off after the item ("..., e.g. Y", "..., such as Y", "..., for example Y")
_EXAMPLES = re.compile(rf",\s*(?:{_EXAMPLE_OPENER})", re.I)
#: the same after a negated copula, where "like" sets them off too: "creatures that aren't
#: mammals, like frogs, snakes" names creatures that are not mammals
_EXAMPLES_OF_HEAD = re.compile(rf",\s*(?:{_EXAMPLE_OPENER}|like\b)", re.I)
#: a bracket that opens on a negation of its own ("(no benzos, no zopiclone)")
_NEGATING_BRACKET = re.compile(
    r"\s*(?:(?:so|and|but)\s+)?(?:no(?!\s+(?:" + NO_FOLLOW_EXCEPT + r")\b)|not|without|except"
    r"|excluding|minus|nothing)\b",
    re.I,
)
_RELATIVE_TAIL = re.compile(r",\s*(?:which|who|whom|whose|where|a|an|the)\b|(?<!\s)\s+\(", re.I)
#: what a bracket after an item holds where it names examples of the item: a few short names
#: or a list ("(quisling, finland's lapua movement)", "(e.g. bmw or audi)"), not a clause
_EXAMPLES_BRACKET = re.compile(
    r"\s*(?:(?:e\.\s?g|i\.\s?e)\.?,?\s+|like\s+|such\s+as\s+|esp(?:ecially|\.)?\s+)?"
    r"(?!(?:which|who|that|it|they|i|we|you|he|she|this|these|those|because|since|as|if|a|an"
    r"|born|died|b\.|d\.)\b)"
    # (not a label, "(a)", "(B)", nor a contrast, "(paracrine effects rather than ...)", nor a
    # date or a number, "(October 21, 1930)", "(formula_1)")
    r"(?![^\W\d_]\s*$)(?![^()]*\b(?:rather\s+than|instead\s+of|unlike|not|vs|they|it|i|we|you"
    r"|he|she|is|are|was|were)\b)"
    r"(?![^()]*(?:\b\d+\b|_))"
    # (a list, or examples marked so: one name alone is the item's other name, "(asteraceae)")
    r"(?=[^()]*(?:,|/|\s(?:or|and)\s|\betc\b|^\s*(?:e\.\s?g|i\.\s?e|like|such|esp)))"
    r"[^\W\d_][\w'\u2019.&-]*(?:(?:\s+|\s*[,/]\s*|\s+(?:or|and)\s+)[\w'\u2019.&-]+){0,9}"
    r"(?:,?\s+etc\.?)?\s*",
    re.I,
)
_FIRST_COMMA = re.compile(r",")
_WORD_AFTER = re.compile(r"[^\W\d_][\w'\u2019-]*")


#: words after an item's bracket that start something else than the item's head
_NOT_HEAD = STOP | frozenset(("please", "pls", "plz", "thanks", "though", "everyone", "obviously"))


def _head_after(rest: str) -> bool:
    """Whether ``rest`` (after an item's bracket) is one or two words of the item itself
    ("studies", "drug literature"), not a clause or a polite word."""
    found = _WORD_AFTER.findall(rest)
    return 0 < len(found) <= 2 and not any(w.lower() in _NOT_HEAD for w in found)


#: a capitalised name of one to four words between commas (or before the clause's end)
_APPOSITIVE = re.compile(r",\s*[A-Z][\w'\u2019-]*(?:\s+[A-Z][\w'\u2019-]*){0,3}\s*(?=[,.;]|$)")
#: a request that goes on after an excluded item (", I want to know about everything else"): no
#: comment on the item
_ASKS_AFTER = re.compile(
    r",\s*(?:i|we)\s*(?:want|need|would|['\u2019]d|am|['\u2019]m|are|['\u2019]re|like|love|also)\b",
    re.I,
)
#: a reason given right after an item is left out, to the end of its clause ("... aside since
#: everyone already knows about ours")
_REASON_AFTER = re.compile(
    r"\s+(?:since|because|cos|coz|cuz|after(?=\s+(?:my|our|i|we|mine|ours)\b)"
    # "stardew is a no for me ive played it to death": a comment run on with its own subject
    r"|(?:i\s*['\u2019]?ve|ive|i\s*['\u2019]?m|im|i\s+(?:have|am|already|just|hate|can['\u2019]?t)))"
    r"\s+[^.;?!()]*",
    re.I,
)
#: the word after an excluded item that says it is left out ("opioids aside")
_ASIDE = re.compile(
    # a copula before the word belongs to neither ("anything from marvel is excluded"); the
    # longer cues first ("if sport were left out entirely")
    # "houston's a no": the "'s" is the copula's
    # "burgundy's been done to death", "lilies's obviously out"
    rf"(?:['\u2019]s(?=\s+(?:a\s+no|the\s+one|been|out|{VERDICT_DEGREE}\s+out)\b))?"
    rf"(?:\s+|{VERDICT_COMMA})(?:{POSTPOSED}|(?:(?:is|are|was|were|be|being)\s+)?(?:{AFTER_ITEM}"
    r"|to\s+one\s+side(?:\s+if\s+(?:you\s+can|possible))?"
    # "leave the arachne story alone", "keep the vaccine stuff away from me"
    r"|alone|away(?:\s+from\s+(?:me|us))?"
    # "don't bring the slavery question into it"
    r"|into\s+(?:it|this|that)"
    # "leave the visual side out of the segment entirely"
    r"|out(?:\s+of\s+(?:it|this|that|them|(?:the|this|that|my|our|your|tonight['\u2019]s"
    r"|today['\u2019]s)\s+[\w'\u2019-]+))?(?:\s+(?:entirely|altogether|completely))?))"
    rf"(?:\s+(?:{FOR_NOW}))?\b",
    re.I,
)
#: the verb after a neither/nor pair that says what the pair is to the writer ("neither the X
#: work nor the Y work is wanted", "neither A nor B interests me")
_NEITHER_VERB = re.compile(
    r"\s+(?:(?:is|are|was|were|(?:will|would)\s+be)\s+(?:really\s+|at\s+all\s+)?"
    r"(?:wanted|needed|required|relevant|necessary|welcome|desired|helpful|useful"
    r"|of\s+(?:any\s+|much\s+)?(?:interest|use))"
    r"|(?:interests?|matters?|helps?|counts?)\s+(?:me|us|here|now)|(?:please|thanks))\b",
    re.I,
)
#: where a fronted exception ends: "excluding X, ...", "skip X - ...", "never mind X: ..."
_FRONTED_END = re.compile(rf",|;|:|{DASH}\s")
#: where a fronted item ends without a comma: "besides baby shark PLEASE what other kids songs",
#: "apart from X what else ..."
_FRONTED_STOP = re.compile(
    rf",\s*(?:please|pls|plz)\b[\s.;,!]*|{_FRONTED_END.pattern}|\s+(?:please|pls|plz)\b\s*"
    r"|\s+(?=(?:what|which|who|where|how|any)\s+(?:other|else|more)\b)"
    # "besides neonicotinoids what's driving bumblebee declines?": the question proper
    r"|\s+(?=(?:what|who|where|how|why|which)(?:['\u2019]s|\s+(?:is|are|was|were|do|does|did|can"
    r"|could|should|would|will|might|must|to|else))\b)"
    # "besides bts and blackpink what kpop groups are worth it": a question word, a noun or two
    # and a verb start the question proper
    r"|\s+(?=(?:what|which)\s+[^\W\d_]+(?:\s+[^\W\d_]+)?\s+(?:are|is|was|were|do|does|did|should"
    r"|can|could|would|to)\b)",
    re.I,
)
#: where the item of a fronted "Not X but Y" ends
_FRONTED_BUT = re.compile(r"\s+but\s+", re.I)
#: what sets a stretch of the clause off from the one before it
_STRETCH_START = re.compile(rf"{_FRONTED_END.pattern}|[.?!](?=\s)")


#: a short attribute after "without" / "no", then a relative clause: "animals without a backbone
#: that live in water", "recipes without eggs that kids like"
_ITEM_THEN_RELATIVE = re.compile(
    r"\s*(?:(?:a|an|the|any)\s+)?[^\W\d_][\w'\u2019-]*(?:\s+[^\W\d_][\w'\u2019-]*){0,2}?"
    r"(?=\s+(?:that|which|who)\s+(?P<verb>[^\W\d_]+))",
    re.I,
)
_SINGULAR_VERB = re.compile(r"is|was|has|does|[^\W\d_]*[^s\W]s", re.I)
#: a noun in the plural ("cities", "eggs"; not "paris", "crisis", "status", "glass")
_PLURAL_NOUN = re.compile(r"[^\W\d_]*[^\W\d_siu]s", re.I)
#: a verb in the plural's form (not a past tense, which agrees with either)
_PLURAL_VERB = re.compile(r"are|were|have|do|(?![^\W\d_]*(?:ed|s)$)[^\W\d_]{2,}", re.I)
#: ... not where the item is an action ("without mentioning who ...") or a pointer ("without
#: the ones that ...")
_NOT_AN_ATTRIBUTE = re.compile(
    r"\s*(?:(?:the|any)\s+)?(?:ones?|those|these|them|anything|anyone|anybody|people|studies"
    r"|papers|articles|passages|stuff|things?|[^\W\d_]+ing)\b",
    re.I,
)
#: a noun whose "that" opens what it says, not a relative clause ("without much evidence that
#: they work")
_THAT_CLAUSE_NOUN = re.compile(
    r"evidence|proof|claims?|fact|idea|signs?|suggestions?|hints?|indications?|beliefs?|notion"
    r"|assumptions?|guarantees?|chance|fears?|doubts?|worry|knowledge|news|word|mention",
    re.I,
)
_LAST_WORD = re.compile(r"([^\W\d_]+)\W*$")


def _relative_of_head(text: str, h: _Hit, stop: int, agreeing: bool = False) -> int:
    """Where an attribute left out ("without a backbone") ends when a relative clause follows
    it: the clause describes the head before the cue ("animals ... that live in water"), unless
    only the attribute agrees with its verb ("cities without a river that floods"); with
    ``agreeing``, only where the verb agrees with the head and not with the item ("vitamins
    other than vitamin C that boost immunity"). ``stop`` where no such clause follows."""
    item = _ITEM_THEN_RELATIVE.match(text, h.cue_end, stop)
    if item is None or _NOT_AN_ATTRIBUTE.match(text, h.cue_end, stop):
        return stop
    head = _LAST_WORD.search(text, 0, h.cue_start)
    noun = _LAST_WORD.search(text, h.cue_end, item.end())
    if head is None or noun is None or _THAT_CLAUSE_NOUN.fullmatch(noun.group(1)):
        return stop
    plural_head = bool(_PLURAL_NOUN.fullmatch(head.group(1)))
    singular_noun = not _PLURAL_NOUN.fullmatch(noun.group(1))
    verb = item.group("verb")
    if agreeing:
        plural_verb = bool(_PLURAL_VERB.fullmatch(verb))
        singular_verb = bool(_SINGULAR_VERB.fullmatch(verb))
        agrees_head = (plural_verb and plural_head) or (singular_verb and not plural_head)
        agrees_item = (plural_verb and not singular_noun) or (singular_verb and singular_noun)
        return item.end() if agrees_head and not agrees_item else stop
    if _SINGULAR_VERB.fullmatch(verb) and singular_noun and plural_head:
        return stop  # only the attribute agrees with the verb: the clause is its own
    return item.end()


def outside_brackets(
    pattern: re.Pattern[str], text: str, start: int = 0
) -> Iterator[re.Match[str]]:
    """The matches of ``pattern`` in ``text`` from ``start`` on that no bracket opened after
    ``start`` holds ("skip the luxury brands (bmw, audi) - ...": not the comma inside)."""
    depth, counted = 0, start
    for m in pattern.finditer(text, start):
        depth += text.count("(", counted, m.start()) - text.count(")", counted, m.start())
        counted = m.start()
        if depth <= 0:
            yield m


def _stretch_before(text: str, h: _Hit) -> str:
    """The text before a cue back to the last comma, colon, dash or stop: an auxiliary there belongs
    to the cue's own stretch ("did Subaru not acknowledge"), one before it does not ("either
    will do - only not the Adonis one")."""
    start = 0
    for m in _STRETCH_START.finditer(text, 0, h.cue_start):
        start = m.end()
    return text[start : h.cue_start]


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
    the last comma come ``and`` or ``or``, whitespace and the last item (``A, B, and C``), or two
    items joined by ``and`` / ``or`` (``A, B and C``); the list runs to the end of the text, to
    ``;?!)`` or to a full stop followed by whitespace. The end is that of the last item without
    its trailing whitespace.
    """
    i, items, short = start, 0, True
    for stop in _LIST_STOP.finditer(text, start):
        j = stop.start()
        if j == i or text[j] != ",":
            break
        short = short and len(text[i:j].split()) <= _LIST_ITEM_WORDS
        items, i = items + 1, j + 1
    if not items:
        return None
    last = _LIST_LAST.match(text, i)
    n = len(text)
    if not last:
        # "A, B and C": the last comma is followed by "B and C" (no serial comma); only short
        # items make such a list, not a clause that happens to hold an "or".
        stop = _LIST_STOP.search(text, i)
        j = stop.start() if stop else n
        if not short or len(text[i:j].split()) > 2 * _LIST_ITEM_WORDS + 1:
            return None
        if not _INNER_AND.search(text, i, j) or not _ends_clause(text, j):
            return None
        k = j
        while k > i and text[k - 1].isspace():
            k -= 1
        return k
    stop = _LIST_STOP.search(text, last.end(1))
    j = stop.start() if stop else n
    if not _ends_clause(text, j):
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


_INNER_AND = re.compile(r"\S\s+(?:and|or)\s+\S", re.I)


def _ends_clause(text: str, j: int) -> bool:
    """True when index ``j`` is the end of the text, one of ``;?!)`` or a full stop."""
    n = len(text)
    if j >= n or text[j] in ";?!)":
        return True
    return text[j] == "." and (j + 1 == n or text[j + 1].isspace())


def _first_comma(text: str, start: int, stop: int) -> re.Match[str] | None:
    """The first comma in text[start:stop] outside brackets opened there ("excl dietary exposures
    (fruit, SSBs)": the bracketed list is part of the item)."""
    depth = 0  # counted up to each comma from the one before, as _boundary_after counts
    counted = start
    for m in _FIRST_COMMA.finditer(text, start, stop):
        depth += text.count("(", counted, m.start()) - text.count(")", counted, m.start())
        counted = m.start()
        if depth <= 0:
            return m
    return None


def _boundary_after(text: str, start: int, stop: int) -> tuple[int, int]:
    """(index, length) of the first clause boundary in text[start:stop], or (stop, 0)."""
    depth = 0  # parentheses opened inside the negated stretch do not end it
    counted = start
    for m in _BOUNDARY.finditer(text, start, stop):
        token = m.group(0)
        depth += text.count("(", counted, m.start()) - text.count(")", counted, m.start())
        counted = m.start()
        if depth > 0 and (token == ")" or text.find(")", m.end(), stop) >= 0):
            continue  # "(plants? mycobacteria?)": a bracket opened in the stretch goes on
        if token.startswith(".") and is_abbreviation(text, m.start()):
            continue
        return m.start(), len(token)
    return stop, 0


_OTHER_LATER = re.compile(r"\b(?:other|else|another|more|also|further)\b", re.I)
_CUE_BUT = re.compile(r"[\s,]*but\b", re.I)
_BUT_BOUNDARY = re.compile(r"\s+but\s+", re.I)
_CHAT_BOUNDARY = re.compile(_CHAT_COMMA, re.I)
_NOR = re.compile(r"\bnor\b", re.I)


def _find_hits(text: str, verbal_from: int, limit: int | None = None) -> list[_Hit]:
    """The first ``limit`` (default all) non-overlapping negation cues of a clause, in order; a
    verbal or "no" cue only from ``verbal_from`` on."""
    raw: list[_Hit] = []
    for cue in CUES:
        verbal = cue.kind in ("verbal", "no")
        if verbal and verbal_from > len(text):
            continue
        if cue.key is not None and not cue.key.search(text):
            continue
        for m in cue.pattern.finditer(text):
            if m.end() == m.start() and (m.start() or cue.kind != "aside"):
                continue  # an empty cue only where a clause opens on its excluded item
            if verbal and m.start() < verbal_from:
                continue
            if cue.needs_other and not _OTHER_LATER.search(text[m.end() :]):
                continue
            name = verbal_kind(m.group()) if cue.name == NEGATION_PREDICATE else cue.name
            # a cue may match words before it that it only needs to see (group "at")
            at = m.start("at") if "at" in cue.pattern.groupindex and m.group("at") else m.start()
            raw.append(_Hit(name, at, m.end(), kind=cue.kind))
    # Earliest first; at the same start the longest cue wins.
    raw.sort(key=lambda h: (h.cue_start, -(h.cue_end - h.cue_start)))
    starts = sorted(o.cue_start for o in raw if o.kind != "paren")
    bracketed = any(h.kind == "paren" or text.startswith("(", h.cue_start) for h in raw)
    closing = _closing_parens(text) if bracketed else {}
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
    if h.kind == "minus":
        # "-bone", '-"bone health"': one word, or a quoted phrase.
        if text[h.cue_end] == '"':
            close = text.find('"', h.cue_end + 1)
            if close < 0:
                return
            h.neg_end, h.cut_end = close, close + 1
            return
        end = h.cue_end
        while end < len(text) and not text[end].isspace():
            end += 1
        h.neg_end = h.cut_end = end
        return
    if h.kind in ("aside", "fronted"):
        # "opioids aside": the item runs to its cue word; "excluding X, ...": to the comma
        m = (
            _ASIDE.search(text, h.cue_end)
            if h.kind == "aside"
            else next(outside_brackets(_FRONTED_STOP, text, h.cue_end), None)
        )
        if h.kind == "fronted" and text[h.cue_start : h.cue_end].strip().lower() == "not":
            # "Not Netflix but HBO shows": the item ends at "but" (the cue saw it within four
            # words), unless a stop comes first
            but = _FRONTED_BUT.search(text, h.cue_end)
            if but and (not m or but.start() < m.start()):
                m = but
        if not m:
            return
        h.neg_end, h.cut_end = m.start(), m.end()
        if text.startswith("[", h.cue_start) and text.startswith("]", h.cut_end):
            h.cut_end += 1  # "[Würzburg and Bamberg excepted]": the bracket closes with it
        if h.kind == "aside":
            # "set the mammals aside since everyone already knows about ours": the reason for
            # leaving it out goes with it
            reason = _REASON_AFTER.match(text, h.cut_end)
            h.cut_end = reason.end() if reason else h.cut_end
            if (
                not reason
                and NEG_ASIDE.match(text, h.cut_end)
                and not _ASKS_AFTER.match(text, h.cut_end)
            ):
                # "leave the mob bosses out, we've done enough mafia episodes": so does a
                # comment set off by a comma, to the end of its clause
                h.cut_end = max(h.cut_end, _boundary_after(text, h.cut_end + 1, len(text))[0])
        if h.kind == "aside" and text[h.cue_start] == "(":
            # "bands (the beatles excluded) from liverpool": the bracket goes with its item
            close = closing.get(h.cue_start, -1)
            if close >= h.cut_end and not text[h.cut_end : close].strip():
                h.cut_end = close + 1
        return
    examples = _SETS_APART.search(text, h.cue_start, h.cue_end) and _EXAMPLES.search(
        text, h.cue_end, nxt
    )
    if not examples and h.name == NEGATION_COPULA:
        examples = _EXAMPLES_OF_HEAD.search(text, h.cue_end, nxt)
    if examples:
        # "indications other than depressive illness, such as headache": the examples are of
        # what is wanted, and stay with it (after "outside X" too, and after a negated copula:
        # "creatures that aren't mammals, like frogs")
        nxt = examples.start()
    stop, blen = _boundary_after(text, h.cue_end, nxt)
    if _OTHER_THAN.search(text, h.cue_start, h.cue_end):
        verb = _verb_after_item(text, h.cue_end, stop)
        if verb is not None:
            # "which countries other than France use the euro?": the item ends where the
            # sentence's verb starts; what follows says what is wanted
            h.neg_end = h.cut_end = verb
            return
        # "vitamins other than vitamin C that boost immunity": a relative clause whose verb
        # agrees with the head and not with the item describes the head
        stop = _relative_of_head(text, h, stop, agreeing=True)
    if h.kind == "comma" and text[h.cue_start] == ",":
        m = _first_comma(text, h.cue_end, stop)
        listed = _listed_end(text, h.cue_end)
        if listed is not None and listed <= nxt:
            # "excluding A, B, and C": the whole list is negated.
            h.neg_end = h.cut_end = listed
            return
        if m:
            # "with the exception of its capital, Atlanta, which I know well": a name set off
            # by commas right after the item is the item's other name
            named = (
                _APPOSITIVE.match(text, m.start(), stop)
                if text[h.cue_end : m.start()].islower()  # a description, then its name
                else None
            )
            end = named.end() if named else m.start()
            # "leaving aside X, about whom I know a lot": the comment goes with X
            aside = NEG_ASIDE.match(text, end)
            if aside:
                after = stop
            elif named:  # the comma after the name, if any, goes with it
                after = end + 1 if text.startswith(",", end) else end
            else:
                after = m.end()
            h.neg_end, h.cut_end = end, after
            return
    if h.name in (NEGATION_WITHOUT, NEGATION_NO):
        stop = _relative_of_head(text, h, stop)
    h.neg_end, h.cut_end = stop, stop
    if (
        text.startswith(",", stop)
        and NEG_ASIDE.match(text, stop)
        and not _ASKS_AFTER.match(text, stop)
    ):
        # "but not HIV, we know about that one": the comment after the item goes with it, to the
        # end of its clause
        h.cut_end = _boundary_after(text, stop + 1, nxt)[0]
    boundary = text[stop : stop + blen]
    if _REASON_WORD.match(text, stop):
        # "... that arnt sharks becuase sharks are scary": the reason goes with the item
        h.cut_end = _sentence_end(text, stop)
    if (SPACED_DASH.fullmatch(boundary) or boundary.startswith(",")) and _comment_clause(
        text, stop + blen
    ):
        # "without using neem oil — it scorched my roses last summer.", "but leave out Elvis, he
        # always hated Elvis": a comment on the item after a dash or a comma goes with it, to
        # the end of its sentence
        h.cut_end = _sentence_end(text, stop + blen)
    cue_has_but = _CUE_BUT.match(text, h.cue_start)
    if (_BUT_BOUNDARY.fullmatch(boundary) and not cue_has_but) or _CHAT_BOUNDARY.fullmatch(
        boundary
    ):
        # "does not X but did Y": the "but" goes with the negated clause; so does the chat word
        # in "not nascar lol, like the uk banger stuff"
        h.extra_cut = (stop, stop + blen)
    said = _said_after_item(text, h.cue_start, h.cue_end, stop)
    if said is not None:
        # "police forces outside the UK, how they are organised": the item ends at its comma. A
        # preference after it goes on with the request; a comment of its own ("nissan, sick of
        # reading about the pulsar", "Nicomedia, patrons keep mixing them up") goes with it, and
        # so does a question, unless the item opened the clause
        comma, comment = said
        h.neg_end = comma
        h.cut_end = stop if comment else comma
    rel = _RELATIVE_TAIL.search(text, h.cue_end, h.neg_end)
    close = -1  # where the bracket that ``rel`` opens closes
    if rel and rel.group().endswith("("):
        close = (closing or _closing_parens(text)).get(rel.end() - 1, -1)
        if h.cue_end < close < h.neg_end and _head_after(text[close + 1 : h.neg_end]):
            rel = None  # "without fly (Drosophila) studies": the item goes on after its bracket
        elif (
            h.cue_end < close
            and _names_examples(text[h.cue_start : h.cue_end])
            and _EXAMPLES_BRACKET.fullmatch(text, rel.end(), close)
            and not _NEGATING_BRACKET.match(text, rel.end())
            and not text[close + 1 : h.neg_end].strip(" ,.;:!?")
        ):
            # "w/o the nordic ones (quisling, finland's lapua movement)": a bracket that ends
            # the item names what is left out, and goes with it
            rel = None
            h.neg_end = close + 1
    if rel and rel.start() > h.cue_end:
        # A non-restrictive clause after the negated concept describes it; drop it with it.
        h.neg_end = rel.start()
        if _NEGATING_BRACKET.match(text, rel.end()):
            # "that arent sleeping pills (no benzos, no zopiclone)": a negation of its own
            h.cut_end = rel.start()
        elif _answers_bracket(text, h, rel.end(), close):
            # "cells that aren't immune cells (neurons, epithelium...)": what the answers are
            # instead, which stays with the wanted part
            h.cut_end = rel.start()
    if h.kind == "neither":
        nor = _NOR.search(text[h.cue_end : h.neg_end])
        if not nor and h.neg_end < stop:
            # "neither the brain tumour (glioma) work nor the leukaemia work": a bracket in the
            # first item is no description of the whole
            nor = _NOR.search(text[h.cue_end : stop])
            h.neg_end = stop if nor else h.neg_end
        if not nor:
            h.neg_end = -1
            return
        a_end = h.cue_end + nor.start()
        b_start = h.cue_end + nor.end()
        verb = _NEITHER_VERB.search(text, b_start, h.neg_end)
        # "neither the X work nor the Y work is wanted": the verb says both are left out
        h.second = (b_start, verb.start() if verb else h.neg_end)
        h.neg_end = a_end


#: the tags of a finite verb in spaCy's English tag set (not "VBZ": its small model often tags a
#: plural noun so, "besides statins")
_FINITE = frozenset({"VBP", "VBD", "MD"})
_RELATIVE = frozenset({"that", "which", "who", "whom", "whose", "where", "when", "to"})
_ITEM_STOPS = frozenset(',;:.?!()[]"\u201c\u201d')  # not "/" or "-": "BRCA1/BRCA2"


def _verb_after_item(text: str, start: int, stop: int) -> int | None:
    """Where the sentence's finite main verb, or its finite auxiliary, starts between ``start``
    (an "other than" item's first word) and ``stop``: the first verb after at least one word of
    the item, before any stop, comma, bracket or relative word, with an adverb right before it
    ("besides French usually use"; "besides X has helped", "besides the UK does a double line
    mean"). None where the first verb is not the sentence's ("the ones Schumacher won"), is a
    title's ("We Found Love"), or without spaCy."""
    for tok, seen in _walk(text, start, stop, _RELATIVE):
        if tok.pos_ in ("VERB", "AUX"):
            if not (seen and (_finite_root(tok) or _root_auxiliary(tok))):
                return None
            if tok.text[0].isupper():
                return None
            before = tok.doc[tok.i - 1] if tok.i > 0 else None
            if before is not None and before.tag_ == "RB" and before.idx > start:
                return before.idx
            return tok.idx
    return None


def _walk(
    text: str, start: int, stop: int, stops: frozenset[str] = frozenset()
) -> Iterator[tuple[Any, bool]]:
    """spaCy's tokens of ``text`` from ``start`` on, each with whether a word of the stretch
    came before it, up to ``stop``, an item stop (:data:`_ITEM_STOPS`) or a word in ``stops``
    (lower case); none without spaCy."""
    doc = parse_whole(text)
    if doc is None:
        return
    seen = False
    for tok in doc:
        if tok.idx < start or tok.is_space:
            continue
        if tok.idx >= stop or tok.text in _ITEM_STOPS or tok.lower_ in stops:
            return
        yield tok, seen
        seen = seen or any(c.isalnum() for c in tok.text)


#: a preference after an excluded item and a comma, which goes on with the request (", preferably
#: cheap ones")
_PREFERS = re.compile(
    r"\s*(?:preferably|ideally|especially|particularly|mainly|mostly|primarily|specifically"
    r"|in\s+particular)\b",
    re.I,
)
#: what is wanted instead, after an excluded item and a comma ("I've read enough on autophagy,
#: so something else, e.g. lipid droplets"): it goes on with the request
_REDIRECT = re.compile(
    r"\s*(?:(?:so|but|and)\s+)?(?:something|anything|everything)\s+"
    r"(?:else|other\s+than\s+(?:that|this|those|these|them|it))\b",
    re.I,
)
#: a question after an excluded item and a comma (", how they are organised", ", do they
#: exist?"): it ends the item
#: and is left out of the positive part too, whose words say the topic (its words still count
#: in the query's flat text)
_ASKS_ON = re.compile(
    r"\s*(?:how|what|why|when|where|whether"
    # ", do they exist?", ", are there any?": a question led by its auxiliary
    r"|(?:do|does|did|are|is|was|were|can|could|will|would|has|have)\s+"
    r"(?:they|it|there|these|those|you|we|i|such)\b(?=[^,;.!?]*\?))",
    re.I,
)
#: a comment on an item without a verb of its own (", so sick of him", ", tired of reading it")
_FED_UP = re.compile(
    r"\s*(?:(?:so|really|very|totally|kinda|kind\s+of|a\s+bit|just)\s+)?(?:sick|tired|bored|fed\s+up)"
    r"\s+(?:of|with)\b",
    re.I,
)
_JOINED = re.compile(r"\b(?:and|or|nor)\b|/", re.I)


def _said_after_item(text: str, cue_start: int, start: int, stop: int) -> tuple[int, bool] | None:
    """Where an excluded item that starts at ``start`` ends at its first comma because what
    follows up to ``stop`` is not more of it, and whether what follows is cut with the item (a
    comment on it, or a question after an item the request has named its topic before) or goes
    on with the request (False); ``cue_start`` is where the cue before the item starts. A list
    ("except Tokyo, Kyoto and Osaka") is one item."""
    comma = _first_comma(text, start, stop)
    if comma is None or not has_content(text[start : comma.start()]):
        return None
    at = comma.end()
    if _PREFERS.match(text, at) or _REDIRECT.match(text, at):
        return comma.start(), False
    if _ASKS_ON.match(text, at):
        # ("Disregarding its draft, what else can you tell me about X?": where the item opens
        # the clause, the question after it is the request)
        # (the clause's own words, not an earlier sentence's: "Long shift. Besides student loans,
        # what are the ways to pay ...?")
        return comma.start(), has_content(text[_sentence_start(text, cue_start) : cue_start])
    if _listed_end(text, start) is not None:
        return None
    if _FED_UP.match(text, at):
        return comma.start(), True
    if (
        _in_a_list(text, cue_start)
        and not _JOINED.search(text, start, stop)
        and not _has_clause(text, at, stop)
    ):
        # "samba circles, pickup basketball without referees, informal dance contests": the
        # cue sits in an item of the request's own list, and the next item goes on with it
        return comma.start(), False
    rest = text[at:stop]
    if _JOINED.search(rest) or not _has_clause(text, at, stop):
        return None
    return comma.start(), True


_CLAUSE_START = re.compile(r"[:;.?!(]|\s[-\u2013\u2014]+\s")


_REASON_WORD = re.compile(
    rf"\s+(?:(?:{_BECAUSE})\s+(?!of\b)|since\s+(?=(?:i|we|you|they|he|she|it|my|our)\s))", re.I
)
#: what opens a request or a question after a dash, not a comment ("— I want cheap ones",
#: "— what are the best?")
_ASKS_OPEN = re.compile(
    r"\s*(?:(?:i|we|you|please|pls|what|which|who|whom|whose|how|why|when|where|whether|any|only"
    r"|just|but|and|or|so|also|preferably|ideally|especially)\b|[^\w\s])",
    re.I,
)
_SENTENCE_OVER = re.compile(r"[.?!;]+(?:\s|$)")


def _sentence_start(text: str, at: int) -> int:
    """Where the sentence that holds ``at`` starts (after the last stop before it)."""
    start = 0
    for m in _SENTENCE_OVER.finditer(text, 0, at):
        start = m.end()
    return start


def _sentence_end(text: str, start: int) -> int:
    """Where the sentence that goes on at ``start`` ends (before its stop)."""
    m = _SENTENCE_OVER.search(text, start)
    return m.start() if m else len(text)


def _comment_sentences(text: str, after: int) -> list[tuple[int, int]]:
    """The sentences that start after ``after`` and comment rather than ask (:func:`
    _comment_clause`: "Every list says riesling.", "My cellar is out of it."), each with its
    stop; none without spaCy."""
    out: list[tuple[int, int]] = []
    for m in _SENTENCE_OVER.finditer(text, after):
        start = m.end()
        while start < len(text) and text[start].isspace():
            start += 1
        if start >= len(text):
            break
        end = _sentence_end(text, start)
        if (
            _COMMENT_SUBJECT.match(text, start)
            and not _ASKS_IN.search(text, start, end)
            and _comment_clause(text, start)
        ):
            over = _SENTENCE_OVER.search(text, start)
            out.append((start, over.end() if over else len(text)))
    return out


#: how a comment's subject opens: a pronoun or a determiner ("he says ...", "my cellar's out of
#: it", "every list says riesling"; not a bare noun, which may go on with the request)
_COMMENT_SUBJECT = re.compile(
    r"(?:he|she|it|we|they|you|my|our|his|her|their|its|your|every|each|the|this|that|these"
    r"|those|everyone|everybody|someone|somebody|nobody)\b",
    re.I,
)
#: a request inside a sentence ("My kids want to know about sodas that got discontinued")
_ASKS_IN = re.compile(
    r"\b(?:want|wants|wanted|need|needs|like\s+to|looking\s+for|searching|interested|after)\b",
    re.I,
)


def _comment_clause(text: str, start: int) -> bool:
    """Whether the sentence from ``start`` on is a clause of its own that comments, not a
    request: a finite verb after a word of its own, not opened by "I", a question word or a
    connective ("it scorched my roses last summer", "the clients had a bad experience there")."""
    if _ASKS_OPEN.match(text, start):
        return False
    doc = parse_whole(text)
    if doc is None:
        return False
    stop = _sentence_end(text, start)
    first = None
    for tok in doc:
        if tok.idx < start or tok.is_space:
            continue
        first = tok.idx if first is None else first
        if tok.idx >= stop or tok.lower_ in _RELATIVE or tok.text == ",":
            return False
        if tok.pos_ in ("VERB", "AUX") and tok.tag_ in _CLAUSE_VERB:
            # its subject opens the clause ("it scorched", "the clients had")
            return any(
                c.dep_ in ("nsubj", "nsubjpass") and c.left_edge.idx == first and c.i < tok.i
                for c in (*tok.children, *tok.head.children)
            )
    return False


_LINK_BEFORE = re.compile(r"\b(?:while|whilst|but|and|or|though|although|yet|so)\s+$", re.I)


def _in_a_list(text: str, cue_start: int) -> bool:
    """Whether a cue that is a word of its own after a word ("pickup basketball without") sits
    in an item of a list the clause before it holds: a comma outside brackets after the
    clause's start, and no "and"/"or" ("samba circles, pickup basketball without ...")."""
    if (
        not text[cue_start : cue_start + 1].isalpha()
        or not text[:cue_start].rstrip()[-1:].isalnum()
    ):
        return False
    if _LINK_BEFORE.search(text, 0, cue_start):
        return False  # "..., while excluding X": the cue opens a clause of its own
    opened = 0
    for m in _CLAUSE_START.finditer(text, 0, cue_start):
        opened = m.end()
    before = text[opened:cue_start]
    if "(" in before or ")" in before or _JOINED.search(before):
        return False
    return "," in before and has_content(before.rsplit(",", 1)[-1])


def _has_clause(text: str, start: int, stop: int) -> bool:
    """Whether text[start:stop] holds a finite verb after a word of its own, before any further
    stop or comma ("patrons keep mixing them up", "sylvester gives her nightmares"; not "statins",
    which spaCy's small model may tag as a verb). False without spaCy."""
    return any(
        seen and tok.pos_ in ("VERB", "AUX") and tok.tag_ in _CLAUSE_VERB
        for tok, seen in _walk(text, start, stop)
    )


_CLAUSE_VERB = _FINITE | {"VBZ"}


def _finite_root(tok: Any) -> bool:
    """Whether ``tok`` is the sentence's finite main verb."""
    return tok.tag_ in _FINITE and tok.dep_ == "ROOT"


def _root_auxiliary(tok: Any) -> bool:
    """Whether ``tok`` is a finite auxiliary of the sentence's main verb, which follows it ("What
    else besides X has helped ...": "has" is an auxiliary, not a plural noun tagged VBZ)."""
    return (
        tok.dep_ in ("aux", "auxpass")
        and tok.tag_ in _CLAUSE_VERB
        and tok.head.dep_ == "ROOT"
        and tok.head.i > tok.i
    )


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


def clean_negated(v: View) -> View:
    """Strip cue leftovers and filler ("anything related to", "mentioning") from a concept, a
    comment after it (", as I have read about those"), and the words that only point back at the
    query ("mRNA ones", "stomach related")."""
    v = chat_dropped(v.trim())
    aside = NEG_ASIDE.search(v.text)
    if aside and has_content(v.text[: aside.start()]):
        v = v.cut(0, aside.start()).trim()
    for _ in range(6):
        before = v.text
        for pat in NEG_FILLER:
            m = pat.match(v.text)
            if m and m.end() < len(v.text) and has_content(v.text[m.end() :]):
                v = v.cut(m.end(), len(v.text)).trim()
        m = NEG_TAIL.search(v.text)
        if m and m.start() > 0 and has_content(v.text[: m.start()]) and not _compound(v.text, m):
            v = v.cut(0, m.start()).trim()
        if v.text == before:
            break
    return v


#: the verb that said what the writing is about ("concern smoking")
_ABOUT_START = re.compile(rf"(?:{ABOUT_VERB})\s+(?=\S)", re.I)


def _lead_cut(v: View, lead: re.Pattern[str]) -> View:
    """``v`` without the words ``lead`` matches at its start (all of ``v`` where it does not)."""
    m = lead.match(v.text)
    return v.cut(m.end(), len(v.text)) if m else v


def chat_dropped(v: View) -> View:
    """``v`` without a chat word at its end ("those lol", "football tho"): it says nothing of the
    topic."""
    chat = CHAT_TAIL.search(v.text)
    return v.cut(0, chat.start()).trim() if chat and chat.start() > 0 else v


def without_article(v: View) -> View:
    """``v`` without a lower-case article before its words ("the alcohol" -> "alcohol")."""
    m = NEG_ARTICLE.match(v.text)
    if m and has_content(v.text[m.end() :]):
        return v.cut(m.end(), len(v.text))
    return v


def _compound(text: str, tail: re.Match[str]) -> bool:
    """Whether a hyphenated ``tail`` ("-oriented") makes one adjective with a lower-case word
    ("object-oriented", "plant-based"), unlike a name or acronym before it ("mRNA-based",
    "Marvel-themed"), which is what the query points back at."""
    if text[tail.start()] != "-":
        return False
    before = text[: tail.start()].rsplit(None, 1)
    return bool(before) and before[-1].isalpha() and before[-1].islower()


#: (a slash set off by spaces parts two items as "or" does: "blade runner / do androids dream";
#: not "80186/80188", "hiv/aids")
_LIST_SEP = re.compile(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+|\s+/\s+", re.I)
_LIST_ITEM_WORDS = 4
_NAME_START = re.compile(r"(?:the\s+)?[A-Z0-9]")  # a title or name: its own item
_TITLE_WORD = re.compile(r"(?:His|Her|Its|Their|My|Our|Your|Thy)\b")
_AND = re.compile(r"\band\b", re.I)
_POSSESSIVE = re.compile(r"\w['\u2019]s\s")  # "Heathcliff and Catherine's relationship": one thing
_AND_OR = re.compile(r"\b(?:and|or)\b|\s/\s", re.I)


#: an article, or "(any) other" ("sartre or any other thinker"), opens a noun phrase of its own
_ARTICLE_START = re.compile(r"(?:the|a|an|(?:any|all|every)\s+other|other)\s")


_INNER_NO = re.compile(
    rf"(?<=[^\W\d_])(?:,\s*|\s+)no\s+(?!(?:{NO_FOLLOW_EXCEPT})\b)(?=[^\W\d_])", re.I
)


#: a cue after which a bracket of examples names more of what is left out ("skip the money side
#: (marketing, tv rights)", "w/o the nordic ones (quisling, ...)"); after "other than", "outside"
#: or a negated verb it names what is wanted instead ("organs other than the heart (liver,
#: kidney, brain)", "ion channels that aren't voltage-gated (mechano, ligand, ...)")
_EXAMPLES_CUE = re.compile(
    r"skip|ignor|leav|keep|minus|w/|without|exclud|excl|\bno\b|nothing|interest|need|care|spare"
    r"|drop|forget|hold|ditch|pass|remove|omit|avoid|rule|scratch|cross|bother",
    re.I,
)
_ALTERNATIVE_CUE = re.compile(
    r"other|outside|apart|aside\s+from|besides|except|instead|rather|\b(?:that|which|who)\b"
    r"|to\s+do\s+with",
    re.I,
)


#: a relative negation's cue ("that aren't", "which do not", "who never")
_RELATIVE_CUE = re.compile(r"\s*(?:(?:but|yet)\s+)?(?:that|which|who)\b", re.I)


def _answers_bracket(text: str, h: _Hit, start: int, close: int) -> bool:
    """Whether the bracket from ``start`` to ``close`` (-1: none) after the item of a relative
    negation lists examples of what the answers are instead ("ion channels that aren't
    voltage-gated (mechano, ligand, store-operated...)"), with nothing after it but punctuation."""
    if close < 0 or not _RELATIVE_CUE.match(text, h.cue_start, h.cue_end):
        return False
    # (a guess may end the list: "(vascular smooth muscle, heart valve cells?)")
    end = close - 1 if text[close - 1 : close] == "?" else close
    return (
        end > start
        and bool(_EXAMPLES_BRACKET.fullmatch(text, start, end))
        and not text[close + 1 : h.cut_end].strip(" ,.;:!?")
    )


def _names_examples(cue: str) -> bool:
    """Whether a bracket of examples after the item of this cue names more of what is left out."""
    return bool(_EXAMPLES_CUE.search(cue)) and not _ALTERNATIVE_CUE.search(cue)


#: a bracket at the end of an excluded item, and the words that open a list of examples in it
_END_BRACKET = re.compile(r"\(([^()]*)\)\s*$")
_EXAMPLES_LEAD = re.compile(
    r"\s*(?:(?:e\.\s?g|i\.\s?e)\.?,?\s+|like\s+|such\s+as\s+|esp(?:ecially|\.)?\s+)", re.I
)
_ETC = re.compile(r",?\s+etc\.?\s*$|^etc\.?$", re.I)


def split_list(v: View, examples: bool = False) -> list[View]:
    """An excluded list as its items (:func:`_split_items`), a "no" inside it parting two
    ("football clubs outside england no premier league teams": "england", "premier league
    teams"; "(no benzos, no zopiclone)"); with ``examples``, a bracket of examples after an
    item adds them as items ("the nordic ones (quisling, finland's lapua movement)")."""
    bracket = _examples_at_end(v) if examples else None
    if bracket is None or _NEGATING_BRACKET.match(bracket.group(1)):
        return _split_around_no(v)
    inner = _lead_cut(v.cut(bracket.start(1), bracket.end(1)), _EXAMPLES_LEAD)
    etc = _ETC.search(inner.text)
    inner = inner.cut(0, etc.start()) if etc else inner
    examples = [inner.cut(a, b).trim() for a, b in _spans_between(inner.text, _LIST_SEP)]
    head = _split_around_no(clean_negated(v.cut(0, bracket.start())))
    return head + [e for e in examples if e.has_content()]


def _examples_at_end(v: View) -> re.Match[str] | None:
    """The bracket of examples (:data:`_EXAMPLES_BRACKET`) at the end of ``v``, where words
    stay before it."""
    bracket = _END_BRACKET.search(v.text)
    if (
        bracket is None
        or not has_content(v.text[: bracket.start()])
        or not _EXAMPLES_BRACKET.fullmatch(bracket.group(1))
    ):
        return None
    return bracket


def _without_end_bracket(v: View) -> View:
    """``v`` without a bracket of examples at its end, where words stay before it."""
    bracket = _examples_at_end(v)
    return v if bracket is None else v.cut(0, bracket.start()).trim()


def _spans_between(text: str, sep: re.Pattern[str]) -> list[tuple[int, int]]:
    """The stretches of ``text`` between the matches of ``sep``."""
    spans, at = [], 0
    for m in sep.finditer(text):
        spans.append((at, m.start()))
        at = m.end()
    return [*spans, (at, len(text))]


def _split_around_no(v: View) -> list[View]:
    """:func:`split_list` for an item with no bracket of examples."""
    pieces: list[View] = []
    at = 0
    for m in _INNER_NO.finditer(v.text):
        pieces.append(v.cut(at, m.start()))
        at = m.end()
    pieces.append(v.cut(at, len(v.text)))
    if len(pieces) == 1 or not all(p.has_content() for p in pieces):
        return _split_items(v)
    # "no spongebob n no dreamworks": the "n" before the next "no" joins nothing left
    pieces = [_without_and(p) for p in pieces]
    return [item for p in pieces for item in _split_items(p)]


def _without_and(v: View) -> View:
    """``v`` without a conjunction at its end ("spongebob n"), where words stay before it."""
    m = _TRAILING_AND.search(v.text)
    return v.cut(0, m.start()).trim() if m and v.cut(0, m.start()).has_content() else v


_TRAILING_AND = re.compile(r"\s+(?:n|and|&|\+)\s*$", re.I)


def _split_items(v: View) -> list[View]:
    """An excluded list ``A, B and C`` / ``A or B`` as its items; any other concept as is.

    Only short items (at most four words each) joined by at least one ``and`` / ``or`` count as a
    list, and not where the items look like they share a word or make one name (a one-word first
    item before a longer last one, "comparing or referencing X"; a long first item before a
    one-word last one; a possessive), unless every item is a name or title ("Dune or Blade
    Runner", "Midway and Iwo Jima"; not "Man and His Symbols", one title): a longer stretch is more
    likely one description than several things.
    """
    items: list[View] = []
    at = 0
    for m in _LIST_SEP.finditer(v.text):
        items.append(v.cut(at, m.start()))
        at = m.end()
        if len(items) > 16:
            return [v]
    if not items:
        return [v]
    items.append(v.cut(at, len(v.text)))
    items = [i.trim() for i in items]
    sizes = [len(i.text.split()) for i in items]
    # names or titles are items: "Dune or Blade Runner", "1984 or Animal Farm", "Midway and Iwo
    # Jima", unless an item opens with a capitalised pronoun, the mark of one title ("Man and His
    # Symbols"), or an "and" joins owners of one thing ("Heathcliff and Catherine's relationship")
    titled = any(_TITLE_WORD.match(i.text) for i in items[1:])
    owned = bool(_AND.search(v.text)) and any(_POSSESSIVE.search(i.text) for i in items)
    names = not titled and not owned and all(_NAME_START.match(i.text) for i in items)
    if (
        not _AND_OR.search(v.text)  # "Carlton, Victoria", "Safelite Group, Inc": one name
        or any(
            not i.has_content() or n > _LIST_ITEM_WORDS for i, n in zip(items, sizes, strict=True)
        )
        or (  # "A's and B's life" (not "Scott's or Amundsen's": each item is a name)
            any(i.text.endswith(("'s", "\u2019s")) for i in items[:-1])
            and not items[-1].text.endswith(("'s", "\u2019s"))
        )
        # "comparing or referencing X" (not "Rothbard and the anarcho-capitalism side": an
        # article opens a noun phrase of its own)
        or (
            sizes[0] == 1
            and sizes[-1] > 1
            and not names
            and not _ARTICLE_START.match(items[-1].text)
        )
        or (sizes[0] >= 3 and sizes[-1] == 1 and not names)  # "international honors and awards"
    ):
        return [v]
    # "material on nuclear fusion or on radioactive decay": the later item repeats the
    # preposition the cue took before the first; "no nuts, like almonds or walnuts": the word
    # that opens examples of the first is no part of the next
    return [items[0], *(_lead_cut(i, _ITEM_LEAD) for i in items[1:])]


#: a later item's repeated preposition ("... or on radioactive decay") or the word that opens
#: examples ("..., like almonds"), where words follow
_ITEM_LEAD = re.compile(
    r"(?:on|about|regarding|concerning|with|like|such\s+as|e\.\s?g\.,?|eg|for\s+(?:example"
    r"|instance),?|especially)\s+(?=\S)",
    re.I,
)


#: a negated "concept" that only points back at one named before ("those", "them", "it")
#: a clause that only says the speaker dislikes its subject ("airships r boring", "jazz is way
#: too slow"), right before an exclusion of that subject
_DISLIKE_COMMENT = re.compile(
    r"(?:[\w'\u2019-]+\s+){1,5}(?:is|are|r|was|were|seem|seems|get|gets)\s+"
    r"(?:so\s+|too\s+|really\s+|kinda\s+|pretty\s+|very\s+|a\s+bit\s+|just\s+|way\s+too\s+"
    r"|super\s+)?(?:boring|overrated|dull|lame|gross|annoying|tedious|meh|cringe|overdone"
    r"|tiresome|disgusting|awful|terrible|the\s+worst|slow|depressing|creepy)",
    re.I,
)
_COMMENT_CHARS = 80


def _comment_before(text: str, cue_start: int) -> tuple[int, int] | None:
    """The span of a dislike comment ending right before the cue at ``cue_start`` ("airships r
    boring, | no airships"): from the clause's start to the cue; None when there is none."""
    end = len(text[:cue_start].rstrip(" ,;:-\u2013\u2014"))
    low = max(0, end - _COMMENT_CHARS)
    start = end
    while start > low and text[start - 1] not in ".;!?,:()\n\u2013\u2014":
        start -= 1
    if start == low and low > 0:
        return None  # a longer clause: no short comment
    while start < end and text[start].isspace():
        start += 1
    if start == end or not _DISLIKE_COMMENT.fullmatch(text, start, end):
        return None
    return start, cue_start


_BACK_REFERENCE = re.compile(
    # ("mothers day doesnt count, already did that one")
    r"(?:those|these|them|that|this|it|him|her|his|hers|theirs|they|ones|(?:that|this)\s+one"
    r"|(?:those|these)\s+ones)?",
    re.I,
)
#: an item that ends by pointing back at one left out before it ("skip lilies, we already have
#: a client handout on those"): a comment on that item, not a second one
_POINTS_BACK = re.compile(r"\s(?:on|about|of|for|with)\s+(?:those|them|it|that|these)\s*$", re.I)
_WHY_OR_YESNO = re.compile(
    # (not "is there a puppy food that isn't chicken-based?": a search for one that exists)
    rf"^\s*(?:why|how\s+come|(?!(?:is|are)\s+there\s+(?:a|an|any|some)\b)(?:{AUX})\b|{NT})",
    re.I,
)

#: the end of a text's first sentence, with more text after it
_FIRST_STOP = re.compile(r"[?!.]+\s+(?=\S)")


#: a contrast that a why-question asks about ("why ... instead of Y", "how come ... rather than")
_CONTRAST = re.compile(r"\b(?:instead\s+of|rather\s+than)\b", re.I)
_WHY = re.compile(r"\b(?:why|how\s+come)\b", re.I)


def _asks_why_contrast(text: str, h: _Hit) -> bool:
    """The cue is "instead of" or "rather than" in a why-question's sentence, before its
    question mark: the question asks about the contrast, and leaves nothing out."""
    if not _CONTRAST.search(text, h.cue_start, h.cue_end):
        return False
    start = max(text.rfind(c, 0, h.cue_start) for c in ".?!:;") + 1
    if not _WHY.search(text, start, h.cue_start):
        return False
    stop = min((i for i in (text.find(c, h.cue_end) for c in ".?!") if i >= 0), default=-1)
    return stop >= 0 and text[stop] == "?"


def _verbal_from(text: str, asks_fact: bool) -> int:
    """Where verbal negation may start: anywhere, or, in a why or yes/no question (whose own
    negation asks about a fact), only in a sentence after it that is no such question ("why do
    arteries calcify?? not the kidney disease ones"); past the end when nowhere."""
    if not (asks_fact or _WHY_OR_YESNO.match(text)):
        return 0
    stop = first_stop(_FIRST_STOP, text)  # not "St. Vincent's"
    if stop is None or _WHY_OR_YESNO.match(text[stop.end() :]):
        return len(text) + 1
    return stop.end()


#: a negation denied: "it's not that I don't like horror films" says the writer likes them
_NOT_THAT_NOT = re.compile(
    rf"\bnot\s+that\s+(?:i|we|you|they|he|she)\s+(?:{NT}|do\s+not|did\s+not|dont|didnt)\s+\w+",
    re.I,
)
#: "there" after a negated copula: an existential question ("aren't there ...?")
_THERE = re.compile(r"\s*there\b", re.I)


@dataclass
class Clause:
    """A clause split into its positive view and its other conjuncts: the negated concepts (and a
    property split off before ``but not``)."""

    positive: View
    negated: list[Query]
    has_cue: bool


def negations(v: View, b: Builder) -> Clause:
    """Cut the negated parts out of a clause."""
    text = v.text
    hits = _find_hits(text, _verbal_from(text, b.asks_fact), max(4, _CUE_WORK // max(1, len(text))))
    cuts: list[tuple[int, int]] = []
    negated: list[Query] = []
    conjuncts: list[Query] = []  # positive terms split off the clause
    used: list[str] = []
    plain_until = -1  # a double negation runs to here: plain text, no cue
    liked = [m.span() for m in _NOT_THAT_NOT.finditer(text)]
    comments = _comment_sentences(text, min(h.cue_start for h in hits)) if hits else []
    # (not a sentence that holds a cue: "Astronauts don't count, I want ...")
    comments = [
        (s, e) for s, e in comments if not any(s < h.cut_end and h.cue_start < e for h in hits)
    ]
    for h in hits:
        b.check()
        if h.cue_start < plain_until or any(s <= h.cue_start < e for s, e in liked):
            continue
        if h.name in (NEGATION_COPULA, NEGATION_PREDICATE) and _THERE.match(text, h.cue_end):
            continue  # "aren't there vaccines that ...?": a question whether some exist
        if h.name in (NEGATION_EXCEPTION, NEGATION_FRONTED_EXCEPTION):
            double = _DOUBLE_NEGATION.match(text, h.cue_end)
            if double:
                # "excluding those that did not involve X" keeps only what involves X: no topic
                # is left out, and the inner negation is not one either
                plain_until = double.end()
                continue
            if _NOT_BEFORE.search(text, max(0, h.cue_start - 8), h.cue_start) and (
                _NEGATABLE_EXCEPTION.match(text, h.cue_start)
            ):
                continue  # "not excluding X": X is kept, not left out
            if _asks_why_contrast(text, h):
                continue  # "why do these plants store inulin instead of starch?": a contrast
        if h.kind in ("verbal", "no", "minus") and not has_content(text[: h.cue_start]):
            continue  # "What should not be done ...": no subject to keep
        was = h.name
        h.name = negated_kind(
            h.name,
            text[h.cue_end : h.neg_end],
            _stretch_before(text, h),
            text[: h.cue_start],
            text[h.cue_start : h.cue_end],
        )
        start = h.cue_end
        if was == NEGATION_PREDICATE and h.name == NEGATION_COPULA:
            # "bands that didn't come from the uk": where they are from ("from the uk")
            origin = ORIGIN.match(text, h.cue_end)
            start = origin.end() if origin else start
        parts = [(start, h.neg_end)]
        if h.second:
            parts.append(h.second)
        concepts = [clean_negated(v.cut(s, e)) for s, e in parts]
        if h.name == NEGATION_DONT_MENTION:
            concepts = [_lead_cut(c, _ABOUT_START) for c in concepts]
        examples = _names_examples(text[h.cue_start : h.cue_end])
        if h.name not in EXCLUDING_CUES and examples:
            # "mice w/o SIRT1 (KO or knockdown)": a bracket kept for a list of what is left out
            # says how, where the cue turned out to state a fact
            concepts = [_without_end_bracket(c) for c in concepts]
        if h.name in EXCLUDING_CUES:
            # (each item cleaned as the whole was: "w/o rodent studies or anything on shift
            # workers")
            concepts = [
                chat_dropped(clean_negated(item))
                for c in concepts
                for item in split_list(c, examples)
            ]
        concepts = [without_article(c) for c in concepts]
        back = bool(negated) and all(
            _BACK_REFERENCE.fullmatch(c.text) or _POINTS_BACK.search(c.text) for c in concepts
        )
        if back or not all(c.has_content() for c in concepts):
            if back:
                # "can we leave the boy bands out? she's not interested in those": the pronoun
                # points back at what is already left out, so the restatement is no part of the
                # positive either
                trial = [*cuts, (h.cue_start, h.cut_end)]
                if v.without(trial).trim().has_content():
                    cuts = trial
            continue
        trial = cuts + [(h.cue_start, h.cut_end)] + ([h.extra_cut] if h.extra_cut else [])
        rest = v.without(trial).trim()
        if not rest.has_content():
            continue  # nothing positive would be left: keep this cue as plain text
        # what the query asks for, without the other negated stretches ("armenia i know already,
        # so not armenia please": each names the item the other leaves out)
        others = [(o.cue_start, o.cut_end) for o in hits if o is not h and o.cut_end > o.cue_start]
        # (and without the comments after it: "... but not riesling. Every list says riesling")
        said = content_words(v.without(trial + comments).trim().text if comments else rest.text)
        asked = (
            content_words(v.without(trial + others + comments).trim().text)
            if others or comments
            else said
        )
        if all(content_words(c.text) <= asked for c in concepts) and all(
            content_words(text[s:e]) <= said for s, e in parts
        ):
            comment = _comment_before(text, h.cue_start)
            if comment is None:
                continue  # excluding what the query also asks for would defeat it
            # "airships r boring, no airships": the item is named first in a comment on it,
            # which goes with the exclusion
            trial = [*trial, comment]
            rest = v.without(trial).trim()
            if not rest.has_content() or any(
                content_words(c.text) <= content_words(rest.text) for c in concepts
            ):
                continue
        cuts = trial
        short = len(text.split()) <= _PROPERTY_MAX_WORDS  # a category, not a long question
        prop = (
            _PROPERTY_END.search(text, 0, h.cue_start)
            if h.name == NEGATION_BUT_NOT and short
            else None
        )
        if prop and has_content(text[: prop.start()]):
            # "laptops that are light but not expensive": two properties of one head
            t = b.term(v.cut(prop.start(1), prop.end(1)))
            if t is not None:
                cuts = [*cuts, (prop.start(), prop.end())]
                conjuncts.append(t)
                used.append(CONJUNCTION_PROPERTIES)
        for c in concepts:
            c = _borrow_head(v.without(cuts).trim(), c)
            t = b.term(c)
            if t is not None and Not(t) not in negated:
                negated.append(Not(t))
        used.append(h.name)
    for name in used:
        b.cue(name)
    if negated and comments:
        # "... but not riesling. Every list says riesling and my cellar's out of it.": a
        # sentence after the exclusion that comments is no part of the request
        trial = [*cuts, *comments]
        if v.without(trial).trim().has_content():
            cuts = trial
    positive = v.without(cuts).trim() if cuts else v.trim()
    if cuts and _cut_after(v, positive, cuts):
        positive = _undangled(positive)
    return Clause(positive, [*conjuncts, *negated], bool(negated))


# Words that introduced the negated stretch and hang at the end of the positive part once it is
# cut out: "desserts containing [neither dairy nor eggs]", "cakes made [without eggs]".
_DANGLING_TAILS = frozenset(
    {
        ("containing",),
        ("made",),
        ("made", "with"),
        ("made", "from"),
        ("made", "of"),
        ("cooked",),
        ("cooked", "with"),
        ("prepared",),
        ("prepared", "with"),
        ("served",),
        ("served", "with"),
        ("using",),
        # "travel, anything except India": the word the exception hangs on
        ("anything",),
        ("everything",),
        # "andean cultures and civilisations, just not the inca": the word "not" hangs on
        ("just",),
        # "us presidential elections but like not the lincoln ones": a filler before "not"
        ("but", "like"),
        ("but",),
    }
)


def _cut_after(v: View, positive: View, cuts: list[tuple[int, int]]) -> bool:
    """Whether a cut of ``v`` starts right after the last character of ``positive`` (only
    spaces between): the positive part's last words led into the negated stretch."""
    if not positive.text or positive.pos[-1] < 0:
        return False
    target = positive.pos[-1]
    last = next((j for j in range(len(v.pos) - 1, -1, -1) if v.pos[j] == target), -1)
    if last < 0:
        return False
    nxt = last + 1
    while nxt < len(v.text) and v.text[nxt].isspace():
        nxt += 1
    if nxt < len(v.text) and v.text[nxt] in ",;:":
        return False  # "... made, excluding X": the word ends a clause of its own
    if v.text.startswith(("- ", "-- ", "\u2013", "\u2014"), nxt):
        return False  # "how ink was made - not india ink": so does a spaced dash
    return any(s <= nxt and last < s for s, _ in cuts)


def _undangled(positive: View) -> View:
    """``positive`` without a last word or two in ``_DANGLING_TAILS`` (read right to left over
    at most the last three words, so its cost does not grow with the text)."""
    text = positive.text
    last = text.rsplit(None, 3)
    for n in (2, 1):
        if len(last) <= n:
            continue
        tail = tuple(w.lower() for w in last[-n:])
        if tail in _DANGLING_TAILS:
            end = len(text)
            for _ in range(n):  # back over a word, then the space before it
                while end > 0 and not text[end - 1].isspace():
                    end -= 1
                while end > 0 and text[end - 1].isspace():
                    end -= 1
            kept = positive.cut(0, end).trim()
            return kept if kept.has_content() else positive
    return positive


# An exception whose object is itself negated: "excluding those that did not involve X",
# "except ones which aren't vegan".
_DOUBLE_NEGATION = re.compile(
    r"\s*(?:the\s+)?(?:those|ones|any|cases|all|items)\s+(?:that|which|who|where)\s+"
    rf"(?:(?:{AUX})\s+(?:not|never)|{NT}|never)\b",
    re.I,
)


# An exception word that "not" turns into an inclusion ("not excluding", "not omitting"); "not
# including" and "not counting" are exceptions in their own right.
_NOT_BEFORE = re.compile(r"\bnot\s+$", re.I)
_NEGATABLE_EXCEPTION = re.compile(
    r"\s*(?:excluding|exclude|omitting|ignoring|disregarding|leaving\s+out)\b", re.I
)


_PROPERTY_MAX_WORDS = 12
# "... that are light" right before "but not": a one-word property (two words would more often be
# a phrase of its own: "deemed effective").
_PROPERTY_END = re.compile(
    r"\s+(?:that|which|who)\s+(?:is|are|was|were)\s+([^\W\d_][\w-]*)[\s,]*$", re.I
)


_PREP_START = re.compile(
    r"^(?:in|from|of|by|on|at|about|during|for|with|found|set|shot|filmed|published|written"
    rf"|directed|produced|made|released|located|native|endemic|based|{LOCATIVE})\b",
    re.I,
)
_HEAD_END = re.compile(
    r"\b(?:in|from|of|by|on|at|about|during|for|with|that|which|who|found|set|shot|filmed"
    rf"|published|written|directed|produced|made|released|located|native|endemic|based|{LOCATIVE}"
    r"|and|or)\b"
    # the sentence ends the head ("optogenetics experiments that aren't about hunger?? need it
    # for a school project")
    r"|[?!;(]|\.(?=\s|$)",
    re.I,
)


_ABOUT_LEAD = re.compile(r"(?:about|regarding|concerning)\s+(?=\S)", re.I)
_CLAUSE_WORD = re.compile(rf"\b(?:{AUX}|am|i|me|my|we|our|you|your)\b", re.I)


#: a head of one word in "-ing": a gerund, no noun to lend ("helping", "looking")
_GERUND_HEAD = re.compile(r"[^\W\d_]+ing", re.I)


def _borrow_head(positive: View, concept: View) -> View:
    """Give a negated concept that opens with a preposition the head it shares with the
    positive part: ``Birds found in X ... but not in Y`` -> ``Birds in Y``.

    A bare concept stays as written: in "emperors of Rome but not Nero" or "jazz musicians from
    New Orleans but not Louis Armstrong" it names one of the things asked for, not a place like
    the positive part's ("emperors of Nero").
    """
    if not _PREP_START.match(concept.text) or len(concept.text.split()) > 6:
        return concept
    if _ABOUT_LEAD.match(concept.text):
        # "peripheral artery disease ... but not the ones about exercise therapy": what "about"
        # names is the topic, not a kind of the head
        return _lead_cut(concept, _ABOUT_LEAD)
    p = positive
    m = LEAD_QUESTION.match(p.text)
    if m:
        p = p.cut(m.end(), len(p.text))
    end = first_stop(_HEAD_END, p.text)
    if end and (end.start() == 0 or end.group(0).lower() in ("and", "or")):
        return concept
    head = p.cut(0, end.start() if end else len(p.text)).trim()
    if _CLAUSE_WORD.search(head.text) or _GERUND_HEAD.fullmatch(head.text):
        # "my daughter is 9 ... not in the adult section": a clause, no head to give; nor has a
        # gerund ("helping with my son's homework: ... not in maths")
        return concept
    if not head.has_content() or len(head.text.split()) > 4:
        return concept
    return head.join(concept)
