"""Where a passage mentions a term, and whether each mention sits in a negated scope.

"A tiramisu with no coffee in it" mentions coffee, but not as something the passage is about.
In the manner of NegEx (Chapman et al., 2001), a *cue* opens a scope of a few words after it,
closed early by a clause boundary (``. ; : ! ? ( )``), a word that turns the clause ("but",
"however", "which" ...), a copula ("Unlike Dune, Arrival is science fiction": what follows "is"
is asserted) or a pronoun that is the negated object itself ("without enough of it, bones become
thin": the bones are asserted); a mention of the term inside an open scope is *negated*. Cues:

- negation: "no", "not", "never", "without", "nor", "neither", "none", "non", a negated
  auxiliary ("don't", "isn't", "cannot" ...), "lacks", and verbs of keeping away from a thing
  ("avoid", "abstain from", "shun", "eschew", "forgo": "vegans avoid meat");
- substitution and contrast: "instead of", "rather than", "in place of", "unlike", "free of",
  "free from", "absence of";
- after the term: "X-free", "X free" ("coffee-free", "gluten free");
- setting aside: "besides", "apart from", "aside from", "in addition to" ("Besides its familiar
  job in keeping bones strong, vitamin D acts on muscle": the passage is about the muscle). Its
  scope runs to the next comma or clause boundary, at most ``ASIDE_WORDS`` words; a mention in it
  is not what the passage asserts, so it counts as negated;
- the yardstick of a comparison, read as set aside: "compared with", "in comparison with",
  "versus" / "vs", "relative to", "similar to", "comparable to" ("an effect similar to that of
  nicotine replacement": the passage is about the drug it measures against it).

Not cues: "not only / just / merely", "no doubt / matter", and "without" (or "free of") after a
negation in the same clause ("never served without coffee", "can't be made without coffee": a
double negation asserts the term).

Words come from an ``Analyser``: a text's words in order, lower-cased, each with the token a
lexical index keeps for it ('' for a stop word), so that mentions are counted in the index's own
tokens (``BM25Scorer.analyse``); :func:`plain_words` stands in where there is no lexical index.
One left-to-right pass over the words: linear in the passage's length.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

#: a text's words in order, lower-cased, each with its index token ('' for a stop word)
Analyser = Callable[[str], list[tuple[str, str]]]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: words a scope lasts after its cue (NegEx's window)
SCOPE_WORDS = 5

#: the first words of a passage, where a passage about a topic names it (its title, its lead)
LEAD_WORDS = 25

#: words before "without" / "free of" in which a negation makes a double negation
DOUBLE_NEGATION_WORDS = 4

NEGATIONS = _words(
    "no not never without nor neither none non lacks lacking cannot dont doesnt didnt isnt arent "
    "wasnt werent wont wouldnt shouldnt couldnt cant hasnt havent hadnt aint"
)
#: verbs of keeping away from a thing ("vegans avoid meat, dairy and eggs"): what follows them is
#: what the subject does without
AVOIDANCE = _words(
    "avoid avoids avoided avoiding abstain abstains abstained abstaining refrain refrains "
    "refrained refraining shun shuns shunned shunning eschew eschews eschewed eschewing forgo "
    "forgoes forgoing forwent"
)
#: two-word cues: the first word, then the words that may follow it
PAIRED = {
    "instead": frozenset({"of"}),
    "rather": frozenset({"than"}),
    "place": frozenset({"of"}),  # "in place of"
    "free": frozenset({"of", "from"}),
    "absence": frozenset({"of"}),
}
CONTRASTS = frozenset({"unlike"})
#: cues that set a thing aside ("besides X, ..."): the first word, then the words that may
#: follow it (none: the word alone)
ASIDE = {
    "besides": frozenset(),
    "apart": frozenset({"from"}),
    "aside": frozenset({"from"}),
    "addition": frozenset({"to"}),  # "in addition to"
    # the yardstick of a comparison ("similar to that of nicotine replacement")
    "compared": frozenset({"with", "to"}),
    "comparison": frozenset({"with", "to"}),  # "in comparison with"
    "versus": frozenset(),
    "vs": frozenset(),
    "relative": frozenset({"to"}),
    "similar": frozenset({"to"}),
    "comparable": frozenset({"to", "with"}),
}
#: words a set-aside scope lasts at most (it ends at the next comma)
ASIDE_WORDS = 12
#: a word right after a mention that negates it ("coffee-free")
AFTER = frozenset({"free"})
#: a word right before a mention that negates it as part of one word ("non-alcoholic")
AFFIXES = frozenset({"non"})
#: a negation cue followed by one of these negates nothing ("not only", "no doubt")
PSEUDO = frozenset({"only", "just", "merely", "least", "doubt", "matter", "question"})
#: cues that a negation just before them turns into an assertion
CANCELLABLE = frozenset({"without", "free"})
#: words that end a scope: the clause turns, or a copula starts what is asserted
TERMINATORS = _words(
    "but however although though yet whereas while which who whose because since except "
    "is are was were"
)
#: pronouns that end a scope: the negated thing is the pronoun, what follows is asserted
PRONOUNS = _words("it them him")
#: one-word cues that open a negated scope (``_is_cue``)
_OPENERS = NEGATIONS | CONTRASTS | AVOIDANCE
_CLAUSE = re.compile(r"[^.;:!?()\[\]]+")
_COMMA = re.compile(r"[^,]+")
_PLAIN = re.compile(r"\w+(?:['\u2019]\w+)*")


def plain_words(text: str) -> list[tuple[str, str]]:
    """An ``Analyser`` without an index: every word lower-cased, itself its token (an
    apostrophe inside a word dropped, as in "dont")."""
    out = []
    for w in _PLAIN.findall(text.lower()):
        w = w.replace("'", "").replace("\u2019", "")
        out.append((w, w))
    return out


@dataclass(frozen=True)
class Mentions:
    """How a passage mentions one token: ``total`` occurrences, ``negated`` of them in a negated
    scope, ``lead`` of the asserted ones within the passage's first ``LEAD_WORDS`` words;
    ``opens_negated``: its first mention is negated by an affix within those words
    ("Non-alcoholic IPA", "Guinness 0.0 is an alcohol-free version"): the passage's subject is
    defined by the thing's absence (a plain negation, "No espressos here, but two espresso
    cups", does not do that)."""

    total: int
    negated: int
    lead: int
    opens_negated: bool = False

    @property
    def asserted(self) -> int:
        return self.total - self.negated


def mention_counts(
    text: str, targets: Iterable[str], analyse: Analyser = plain_words
) -> dict[str, Mentions]:
    """How ``text`` mentions each target token it holds (see :class:`Mentions`)."""
    want = frozenset(targets)
    counts: dict[str, list[int]] = {}  # token -> [total, negated, lead, opens negated]
    if not want:
        return {}
    seen = 0  # words of the passage before the current clause
    for clause in _CLAUSE.findall(text):
        # the clause's words, each with whether a comma follows it (a set-aside scope ends there)
        words: list[tuple[str, str]] = []
        commas: set[int] = set()
        for part in _COMMA.findall(clause):
            words.extend(analyse(part))
            commas.add(len(words) - 1)
        left = 0  # words still inside the open scope
        aside = 0  # words still inside an open set-aside scope
        last_negation = -(10**9)  # position of the last plain negation in this clause
        prev_hit: list[int] | None = None  # the counts of a mention just before this word
        prev_lead = False
        for i, (word, token) in enumerate(words):
            nxt = words[i + 1][0] if i + 1 < len(words) else ""
            if word in ASIDE and (not ASIDE[word] or nxt in ASIDE[word]):
                aside = ASIDE_WORDS + (2 if ASIDE[word] else 1)  # counted down below
            if word in AFTER and prev_hit is not None and nxt not in PAIRED.get(word, ()):
                prev_hit[1] += 1  # "coffee-free": the mention just counted was negated
                prev_hit[2] -= prev_lead
                if prev_hit[0] == 1:  # it was the first
                    prev_hit[3] = int(prev_lead)
                prev_hit = None
                continue
            prev_hit = None
            if word in TERMINATORS:
                left = aside = 0
            elif _is_cue(word, nxt):
                if word in CANCELLABLE and i - last_negation <= DOUBLE_NEGATION_WORDS:
                    left = 0  # "never served without coffee": the two negations cancel
                else:
                    left = SCOPE_WORDS + (2 if word in PAIRED else 1)  # counted down below
            elif token and token in want:
                hit = counts.setdefault(token, [0, 0, 0, 0])
                hit[0] += 1
                if left > 0 or aside > 0:
                    hit[1] += 1
                    if hit[0] == 1 and i > 0 and words[i - 1][0] in AFFIXES:  # "non-alcoholic"
                        hit[3] = int(seen + i < LEAD_WORDS)
                else:
                    prev_hit, prev_lead = hit, seen + i < LEAD_WORDS
                    hit[2] += prev_lead
            if word in NEGATIONS and word not in CANCELLABLE and nxt not in PSEUDO:
                last_negation = i
            if left > 0:
                left = 0 if word in PRONOUNS else left - 1
            if aside > 0:
                aside = 0 if i in commas else aside - 1
        seen += len(words)
    return {t: Mentions(c[0], c[1], c[2], bool(c[3])) for t, c in counts.items()}


def lead_words(text: str, analyse: Analyser = plain_words) -> list[tuple[str, str]]:
    """The passage's first ``LEAD_WORDS`` analysed words, counted clause by clause as
    :func:`mention_counts` counts them: the only words whose mentions count in ``Mentions.lead``."""
    out: list[tuple[str, str]] = []
    for clause in _CLAUSE.finditer(text):
        out.extend(analyse(clause.group())[: LEAD_WORDS - len(out)])
        if len(out) >= LEAD_WORDS:
            break
    return out


def lead_pairs(text: str, analyse: Analyser = plain_words) -> list[tuple[str, str, str, str]]:
    """The pairs of adjacent words in the passage's lead (:func:`lead_words`) that are both kept
    by the index and not split by a comma or a clause boundary ("science fiction", not
    "Arrival, Blade"): ``(word, token, next word, next token)``, in order."""
    out: list[tuple[str, str, str, str]] = []
    seen = 0
    for clause in _CLAUSE.finditer(text):
        for part in _COMMA.finditer(clause.group()):
            words = analyse(part.group())[: LEAD_WORDS - seen]
            for (w, tok), (w2, tok2) in zip(words[:-1], words[1:], strict=True):
                if tok and tok2:
                    out.append((w, tok, w2, tok2))
            seen += len(words)
            if seen >= LEAD_WORDS:
                return out
    return out


def _is_cue(word: str, nxt: str) -> bool:
    """Whether ``word``, followed by ``nxt``, opens a negated scope."""
    if word in PAIRED:
        return nxt in PAIRED[word]
    return word in _OPENERS and nxt not in PSEUDO
