"""An exclusion worded "in addition to": "besides X", "apart from X", "aside from X".

"What films has he been in besides Scooby-Doo?", "Apart from being the creator of Raggedy Ann,
what other roles did Johnny Gruelle have?": the wanted passages are about something else, yet
they often name X themselves (the actor's page names his best-known film), because the question
asks for what comes *in addition to* X. A passage about X is still unwanted, but a mention of X
is weaker evidence against a passage than after "excluding X" or "without X", so the composer
weighs such a term's penalty less (``Exclusion``'s ``besides`` share; measured on the tuning
splits, BENCHMARKS.md "An exclusion worded in addition to").

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
    """Whether ``text`` introduces the excluded ``term`` with "besides", "apart from", "aside
    from" or "in addition to" (filler words such as "being" may stand between)."""
    start = _mention(text, term)
    if start < 0:
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
