"""Coordination: ``A or B`` and ``both A and B`` split into alternatives that share a head and
tail, from spaCy's dependency parse when it is available, else from the explicit ``either ... or``
and ``both ... and`` forms."""

from __future__ import annotations

import bisect
import re
from typing import Any

from logir.query.ast import Query
from logir.query.natural import nlp as pipeline  # looked up per call: tests replace load_nlp
from logir.query.natural.build import Builder, all_of, any_of
from logir.query.natural.lexicon import (
    AUX,
    CONJUNCTION_BOTH_AND,
    DISJUNCTION_EITHER_OR,
    DISJUNCTION_OR,
)
from logir.query.natural.view import SPACES, STOP, View, has_content

_NUMBER = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|\d{1,2})"
_SKIP_OR = re.compile(
    r"\b(?:or\s+not|or\s+so|more\s+or\s+less|whether|and/or|or\s+else|or\s+other|or\s+any"
    # "one or two species", "once or twice": a rough number, not two alternatives
    rf"|{_NUMBER}\s+or\s+{_NUMBER}|once\s+or\s+twice)\b",
    re.I,
)


Found = tuple[str, View, list[View], View]
"""A coordination: its operator (OR / AND), the shared head, the alternatives, the shared tail."""


def split_coordination(v: View, b: Builder) -> Query | None:
    """Split ``A or B`` (-> OR) or ``both A and B`` (-> AND) sharing head and tail.

    The alternatives come from spaCy's parse where it is available, else (or where the parse
    finds none) from the explicit ``either ... or`` / ``both ... and`` forms, and without spaCy
    from a plain ``A or B`` read by :func:`_coordination_plain`. A tail that modifies the whole
    coordination (``cheeses from France or Italy made from goat milk``) becomes a conjunct of its
    own: ``("cheeses from France" OR "cheeses from Italy") AND "made from goat milk"``.
    """
    text = v.text
    has_or = re.search(r"\bor\b", text, re.I) and not _SKIP_OR.search(text)
    if not (has_or or _both_then_and(text)):
        return None
    tokens = pipeline.spacy_tokens(text, b.spacy_left)
    nlp = pipeline.load_nlp() if tokens <= b.spacy_left else None
    found: Found | None = None
    parsed = False
    if nlp is not None:
        b.spacy_left -= tokens
        b.parser = "spacy"
        try:
            found = _coordination_spacy(v, nlp)
            parsed = True
        except Exception:  # a parser failure must never break decomposition
            found = None
    if found is None:
        found = _coordination_regex(v)
    if found is None and not parsed and has_or:
        found = _coordination_plain(v)
    if found is None:
        return None
    return _assemble(found, b, bool(re.search(r"\beither\b", text, re.I)))


def _assemble(found: Found, b: Builder, either: bool) -> Query | None:
    op, head, cores, tail = found
    cores = [c.trim() for c in cores]
    clauses = op == "OR" and _WH_FIRST.match(cores[-1].text) is not None
    if clauses:  # "how patients present or how common the infection is": two questions
        head, cores = _own_question_word(head, cores)
    if op == "OR" and not clauses and not tail.has_content() and _VERB_SLOT.search(head.text):
        cores = _shared_object(cores)
    if op == "OR" and not clauses and not tail.has_content():
        cores, tail = _unbalanced(cores, tail)
    if op == "OR":
        cores = _shared_classifier(cores)
        cores = _shared_by_names(cores)
    factor = op == "OR" and tail.has_content() and _MODIFIER.match(tail.text.lstrip(" ,"))
    if factor:
        terms = [b.term(head.join(c)) for c in cores]
    else:
        terms = [b.term(head.join(c).join(_past_repeat(c, tail))) for c in cores]
    if len(terms) < 2 or any(t is None for t in terms):
        return None
    kept = [t for t in terms if t is not None]
    if len(set(kept)) < 2:
        return None
    if op == "OR":
        b.cue(DISJUNCTION_EITHER_OR if either else DISJUNCTION_OR)
        alternatives = any_of(list(kept))
        shared = b.term(tail) if factor else None
        return alternatives if shared is None else all_of([alternatives, shared])
    b.cue(CONJUNCTION_BOTH_AND)
    return all_of(list(kept))


_WH = r"(?:how|what|where|when|why|which|who|whom|whose|whether)"
_WH_FIRST = re.compile(rf"{_WH}\b", re.I)
_WH_WORD = re.compile(rf"\b{_WH}\b", re.I)


def _own_question_word(head: View, cores: list[View]) -> tuple[View, list[View]]:
    """``where they were jailed or where they found refuge``: the last alternative is a clause
    of its own, opened by a question word, so the first one runs from the head's last question
    word too (the parse leaves "where they were" in the head, shared by both)."""
    marks = list(_WH_WORD.finditer(head.text))
    if not marks or not head.text[marks[-1].end() :].strip():
        return head, cores
    at = marks[-1].start()
    return head.cut(0, at), [head.cut(at, len(head.text)).join(cores[0]), *cores[1:]]


_VERB_SLOT = re.compile(r"\b(?:that|which|who|to)\s*$", re.I)
"""The end of a head after which each alternative is a verb ("studies that develop or evaluate
risk scores", "how to prevent or treat gout")."""


_PARTICLE = re.compile(r"away|up|out|off|down|back|over|in|on", re.I)


def _shared_object(cores: list[View]) -> list[View]:
    """``studies that develop or evaluate risk scores``: verbs of one word before the last
    alternative share what follows its own verb."""
    if any(len(_WORD_TOKEN.findall(c.text)) != 1 for c in cores[:-1]):
        return cores
    words = list(_WORD_TOKEN.finditer(cores[-1].text))
    if len(words) > 2 and _PARTICLE.fullmatch(words[1].group()):
        words = words[1:]  # "sell or give away used items": "away" is "give"'s own
    if len(words) < 2 or _MODIFIER.fullmatch(words[1].group()):
        return cores
    shared = cores[-1].cut(words[1].start(), len(cores[-1].text))
    return [c.join(shared) for c in cores[:-1]] + [cores[-1]]


def _past_repeat(core: View, tail: View) -> View:
    """``tail`` after its first word where ``core`` already ends in that word: "voltage
    sensitive dyes or calcium dyes" shares "dyes" with "calcium" only."""
    first = _WORD_TOKEN.search(tail.text)
    last = list(_WORD_TOKEN.finditer(core.text))
    if first is None or not last or first.group().lower() != last[-1].group().lower():
        return tail
    if tail.text[: first.start()].strip():
        return tail
    return tail.cut(first.end(), len(tail.text))


_MODIFIER = re.compile(
    r"\b(?:for|in|on|at|from|with|by|about|during|of|to|into|against|under|over|after|before"
    r"|since|through|near|between|among|across|around|within|along|via|that|which|who|where|whose|made|set|shot|filmed|published|written"
    r"|directed|produced|released|located|native|endemic|based|found|built|born|grown|known"
    r"|sold|used|[^\W\d_]{3,}ed)\b",
    re.I,
)
"""A word that starts a modifier of a noun phrase: a preposition, a relative, a participle."""
_WORD_TOKEN = re.compile(r"[^\W_]+(?:['\u2019.\-][^\W_]+)*|[^\w\s]")


_MODIFIER_WORD = re.compile(
    r"(?:ing|ed|al|ic|ive|ous|ful|less|ian|ese|ish|ern|ary|able|ible|ant|ent)\W*$", re.I
)
"""The ending of a one-word alternative that modifies what follows (``electric``, ``treating``)."""


_POSSESSIVE_END = re.compile(r"\w['\u2019]s$")


def _unbalanced(cores: list[View], tail: View) -> tuple[list[View], View]:
    """``aspirin or statins for stroke prevention``: the last alternative took the shared tail
    (the explicit forms run it to the end of the clause); give it back when the others are
    bare words and the last one has a modifier after as many words as they have."""
    if any(_MODIFIER.search(c.text) for c in cores[:-1]):
        return cores, tail
    last = cores[-1]
    width = max(len(c.text.split()) for c in cores[:-1])
    words = list(_WORD_TOKEN.finditer(last.text))
    if (
        width == 1
        and len(words) > 1
        and all(_POSSESSIVE_END.search(c.text) for c in [*cores[:-1], last.cut(0, words[0].end())])
    ):
        # "sheep's or goat's milk", "Scott's or Amundsen's expedition": a possessive needs the
        # head the last alternative names
        shared = last.cut(words[1].start(), len(last.text))
        return [c.join(shared) for c in cores[:-1]] + [last], tail
    if (
        width == 1
        and all(_MODIFIER_WORD.search(c.text) for c in cores[:-1])
        and len(words) > 1
        and not _MODIFIER.fullmatch(words[1].group())
        and not last.text[:1].isupper()
    ):
        # "preventing or treating peanut allergy", "electric or hybrid SUVs": the words after
        # the last alternative's first word are shared by every alternative (not after a noun:
        # "coffee or green tea")
        shared = last.cut(words[1].start(), len(last.text))
        return [c.join(shared) for c in cores[:-1]] + [last], tail
    for i, m in enumerate(_WORD_TOKEN.finditer(last.text)):
        if i > width + 1:  # "probiotics or fermented foods for IBS": one word more than theirs
            break
        if i >= 1 and _MODIFIER.fullmatch(m.group()) and (i <= width or m.group().lower() != "of"):
            # (not "Paris or the south of France": "of" past their width binds a noun phrase)
            return [*cores[:-1], last.cut(0, m.start())], last.cut(m.start(), len(last.text))
    return cores, tail


_CLASSIFIER = re.compile(r"[^\W\d_]{2,}(?:an|ese|ish|ch|i)")
"""A word that sorts a noun by people or place ("algerian", "chinese", "french", "iraqi"), and so
applies to every noun of a list after it; not a quality that makes one name with its noun ("red
wine", "nitric acid", "financial markets", "Southern states")."""
_BARE_NOUN = re.compile(r"[^\W\d_]+", re.I)


def _shared_classifier(cores: list[View]) -> list[View]:
    """``algerian history or culture``: a classifying first word of the first alternative
    (:data:`_CLASSIFIER`) goes with every other alternative that is one bare word ("algerian
    culture"); "red wine or beer" keeps its "red" to itself."""
    first = cores[0]
    words = first.text.split()
    if len(words) < 2 or not _CLASSIFIER.fullmatch(words[0]) or words[0].lower() in STOP:
        return cores
    rest = cores[1:]
    if not all(_BARE_NOUN.fullmatch(c.text) and not _CLASSIFIER.fullmatch(c.text) for c in rest):
        return cores
    if any(c.text[:1].isupper() for c in rest):  # a name is not narrowed by it
        return cores
    modifier = first.cut(0, len(words[0]))
    return [first, *(modifier.join(c) for c in rest)]


_NAME_WORD = re.compile(r"[A-Z][\w.\-]*")
_LOWER_WORDS = re.compile(r"[a-z][\w'\u2019-]*(?:\s+[a-z][\w'\u2019-]*){0,2}")


def _shared_by_names(cores: list[View]) -> list[View]:
    """``ATM or ATR responses``, ``Netflix or HBO shows``: where every other alternative is one
    name and the last is a name and words in lower case, those words go with every name ("HBO
    Max", a name of two words, and "coffee or green tea" keep theirs)."""
    last = cores[-1]
    words = last.text.split()
    if len(words) < 2 or not _NAME_WORD.fullmatch(words[0]):
        return cores
    if not all(_NAME_WORD.fullmatch(c.text) for c in cores[:-1]):
        return cores
    start = last.text.index(words[1], len(words[0]))
    rest = last.text[start:].rstrip()
    if not _LOWER_WORDS.fullmatch(rest) or words[1].lower() in STOP:
        return cores
    shared = last.cut(start, start + len(rest))
    return [c.join(shared) for c in cores[:-1]] + [last]


_PLAIN_BOUND = re.compile(
    rf"(?:for|in|on|at|from|with|by|about|during|of|to|into|against|under|over|after|before"
    rf"|since|through|near|between|among|across|around|within|along|via|that|which|who|where"
    rf"|whose|what|either|both|between|like|such|as"
    rf"|{AUX}|am|be|been|being)",
    re.I,
)
_NAME_LINK = frozenset(("in", "of", "for", "and", "&"))


def _coordination_plain(v: View) -> Found | None:
    """``A or B`` without a parser: the alternatives are the words next to ``or`` up to a
    preposition, relative, auxiliary or punctuation mark, the left one cut to the length of the
    right one (or to its run of capitalised words, when both are names); ``A, B or C`` lists
    are read as one coordination. None when unsure (``or`` inside brackets, quotes or a name)."""
    text = v.text
    toks = list(_WORD_TOKEN.finditer(text))
    at = next((i for i, t in enumerate(toks) if t.group().lower() == "or"), -1)
    if at <= 0 or at + 1 >= len(toks):
        return None
    o = toks[at].start()
    if text.count("(", 0, o) != text.count(")", 0, o) or text.count('"', 0, o) % 2:
        return None

    def is_word(t: re.Match[str]) -> bool:
        return t.group()[0].isalnum()

    def bound(t: re.Match[str]) -> bool:
        return not is_word(t) or _PLAIN_BOUND.fullmatch(t.group()) is not None

    ls = at
    while ls > 0 and not bound(toks[ls - 1]):
        ls -= 1
    re_ = at + 1
    while (
        re_ < len(toks)
        and is_word(toks[re_])
        and not (re_ > at + 1 and _MODIFIER.fullmatch(toks[re_].group()))
    ):
        re_ += 1
    left, right = toks[ls:at], toks[at + 1 : re_]
    if not left or not right or not all(is_word(t) for t in right):
        return None
    if len(left) > len(right):
        if right[0].group()[0].isupper() and left[-1].group()[0].isupper():
            k = len(left)
            while k > 0 and left[k - 1].group()[0].isupper():
                k -= 1
            left = left[k:]
        else:
            left = left[-len(right) :]
    first = toks.index(left[0])
    if (
        first >= 2
        and left[0].group()[0].isupper()
        and toks[first - 1].group().lower() in _NAME_LINK
        and toks[first - 2].group()[0].isupper()
    ):
        return None  # inside a name: "Nobel Prize in Physiology or Medicine"
    items = [v.cut(left[0].start(), left[-1].end())]
    start = left[0].start()
    while first >= 2 and toks[first - 1].group() == ",":
        k = first - 1
        while k > 0 and not bound(toks[k - 1]) and first - 1 - k < 4:
            k -= 1
        if k == first - 1 or (k > 0 and not bound(toks[k - 1])):
            break
        items.insert(0, v.cut(toks[k].start(), toks[first - 2].end()))
        start, first = toks[k].start(), k
    items.append(v.cut(right[0].start(), right[-1].end()))
    if not all(i.has_content() for i in items):
        return None
    return "OR", v.cut(0, start), items, v.cut(right[-1].end(), len(text))


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
        after = SPACES.match(text, c.end()).end()
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
        b0 = SPACES.match(text, a).end()
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


def _coordination_regex(v: View) -> Found | None:
    text = v.text
    op = "OR"
    found = _marked_pair(text, _EITHER, _OR_WORD)
    if found is None:
        found = _marked_pair(text, _BOTH, _AND_WORD)
        op = "AND"
    if found is None:
        return None
    start, (s1, e1), (s2, e2) = found
    if not (has_content(text[s1:e1]) and has_content(text[s2:e2])):
        return None
    return op, v.cut(0, start), [v.cut(s1, e1), v.cut(s2, e2)], v.cut(e2, e2)


def _coordination_spacy(v: View, nlp: Any) -> Found | None:
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
            pieces.append(alt)
        else:
            return op, head, pieces, tail
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
