"""The many ways to say "T but not X", each checked against logir's own reader.

A model trained on one template learns the template; these vary the cue (other than, except,
apart from, without, but not, excluding, besides, ...), its place (before or after the topic)
and the frame around it. :func:`phrase` picks one at random and keeps it only when
``logir.query.reading.read(text, "natural")`` reads the topic as the positive part and exactly
the excluded things as negated terms, so ``logir parse`` shows the exclusion it was made for.
"""

from __future__ import annotations

import random
import re

from logir.query.ast import negated_terms, positive_terms

#: one excluded thing: name -> template with {t} (topic) and {x} (excluded)
SINGLE: dict[str, str] = {
    "other-than": "{t} other than {x}",
    "except": "{t}, except {x}",
    "except-for": "{t} except for {x}",
    "except-for-first": "Except for {x}, what about {t}?",
    "apart-from": "{t}, apart from {x}",
    "apart-from-first": "Apart from {x}, {t}",
    "aside-from": "{t}, aside from {x}",
    "without": "{t} without {x}",
    "but-not": "{t} but not {x}",
    "excluding": "{t}, excluding {x}",
    "not": "{t}, not {x}",
    "besides": "{t} besides {x}",
    "besides-first": "Besides {x}, {t}",
    "not-counting": "{t}, not counting {x}",
    "not-including": "Tell me about {t}, not including {x}",
    "no-mention": "{t} with no mention of {x}",
    "does-not-mention": "{t} that does not mention {x}",
    "not-involving": "{t} not involving {x}",
    "leaving-out": "{t}, leaving out {x}",
    "leave-out": "{t}; leave out {x}",
    "ignoring": "{t}, ignoring {x}",
    "unrelated": "{t}, unrelated to {x}",
    "rather-than": "{t} rather than {x}",
    "anything-except": "anything on {t} except {x}",
}
#: two excluded things: {x} and {z}
PAIR: dict[str, str] = {
    "without-or": "{t} without {x} or {z}",
    "neither-nor": "{t}, but neither {x} nor {z}",
    "not-and-not": "{t}, not {x} and not {z}",
    "excluding-and": "{t}, excluding {x} and {z}",
    "other-than-or": "{t} other than {x} or {z}",
    "leaving-out-and": "{t}, leaving out {x} and {z}",
    "no-mention-or": "{t} with no mention of {x} or {z}",
    "except-or": "{t}, except {x} or {z}",
    "but-not-or": "{t} but not {x} or {z}",
}

_SPACE = re.compile(r"\s+")
_EDGE = re.compile(r"^[^\w]+|[^\w]+$")


def normal(text: str) -> str:
    """Lower case, single spaces, no punctuation at either end (how readings are compared)."""
    return _EDGE.sub("", _SPACE.sub(" ", text.lower()).strip())


def reads_as(text: str, topic: str, excluded: tuple[str, ...]) -> bool:
    """Whether logir's natural reader reads `text` as `topic` AND NOT each of `excluded`."""
    from logir.errors import LogirError
    from logir.query.reading import read

    try:
        form = read(text, "natural").query
    except LogirError:
        return False
    negated = sorted(normal(t.text) for t in negated_terms(form))
    if negated != sorted(normal(x) for x in excluded):
        return False
    want = normal(topic)
    return any(want in normal(t.text) for t in positive_terms(form))


def phrase(topic: str, excluded: tuple[str, ...], rng: random.Random) -> tuple[str, str] | None:
    """(text, wording name) for the query, or None when no wording reads right."""
    table = SINGLE if len(excluded) == 1 else PAIR
    if len(excluded) not in (1, 2):
        raise ValueError(f"one or two excluded things, got {len(excluded)}")
    names = sorted(table)
    rng.shuffle(names)
    for name in names:
        x = excluded[0]
        z = excluded[1] if len(excluded) == 2 else ""
        text = table[name].format(t=topic, x=x, z=z)
        first = text.split(maxsplit=1)[0]
        if first.islower():  # "mRNA" and "iPhone" keep their case
            text = text[0].upper() + text[1:]
        if reads_as(text, topic, excluded):
            return text, name
    return None
