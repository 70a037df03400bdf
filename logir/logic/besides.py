"""An entity excluded "in addition to": "besides Scooby-Doo", "apart from Mount Whittier".

"What films has he been in besides Scooby-Doo?", "Apart from being the creator of Raggedy Ann,
what other roles did Johnny Gruelle have?": the question asks for what comes *in addition to* a
named thing, and the passages it wants are about something tied to it (the actor, the author), so
they often name it themselves (the actor's page names his best-known film). A passage about the
thing is still unwanted, but a mention of it is weaker evidence against a passage than after
"excluding X" or "without X", and the composer weighs such a term's penalty less (``Exclusion``'s
``besides`` share; BENCHMARKS.md, "An exclusion worded in addition to").

Only a *named* thing (a word of the term capitalised, as entities are written): "side effects of
antibiotics apart from allergic reactions" leaves out a kind of the answer, and a passage about
allergic reactions is exactly what it does not want (the first-hour example's q27 falls to a
violating passage when its penalty is halved).

One pass over the words before the term's first mention in the query: linear in its length.
"""

from __future__ import annotations

import re

#: the phrases that introduce an exclusion in the sense of "in addition to", as word tuples
ADDITIVE = (("besides",), ("apart", "from"), ("aside", "from"), ("in", "addition", "to"))

#: words that may stand between the phrase and the term ("apart from *being the* creator of")
FILLER = frozenset({"being", "having", "the", "a", "an", "just", "only", "simply", "its", "their"})

#: words before the term read at most: the longest phrase and a few filler words
LOOK_BACK = 6

_WORD = re.compile(r"[\w'\u2019-]+")


def excluded_besides(text: str, term: str) -> bool:
    """Whether ``term`` names something (a capitalised word) and ``text`` introduces it with
    "besides", "apart from", "aside from" or "in addition to" (filler words such as "being" may
    stand between)."""
    start = _mention(text, term)
    if start < 0 or not any(w[:1].isupper() for w in _WORD.findall(term)):
        return False
    words = [w.lower() for w in _WORD.findall(text[:start])][-LOOK_BACK:]
    while words and words[-1] in FILLER:
        words.pop()
    return any(tuple(words[-len(p) :]) == p for p in ADDITIVE)


def _mention(text: str, term: str) -> int:
    """Where ``term`` (or, failing that, its first word) first appears in ``text``, -1 if not."""
    low = text.lower()
    at = low.find(term.lower())
    if at >= 0:
        return at
    first = _WORD.search(term)
    if first is None:
        return -1
    m = re.search(rf"\b{re.escape(first.group().lower())}\b", low)
    return m.start() if m else -1
