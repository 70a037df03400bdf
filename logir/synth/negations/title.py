"""Title exclusion: "<topic A and B share> other than <B's title>", positive A, hard negative B.

B is a passage whose title is a short name (a film, a person, a place); A is one of its BM25
neighbours that never mentions a word of that name. The query asks for what the two share while
excluding B by name, so B is on topic and still violates it.
"""

from __future__ import annotations

import re

from logir.synth.negations.analysis import Passage
from logir.synth.negations.context import Context
from logir.synth.negations.item import Item, check
from logir.synth.negations.wordings import phrase

KIND = "title"
#: titles longer than this (in content words) are descriptions, not names
MAX_TITLE_WORDS = 5
MAX_TITLE_CHARS = 60
_NOT_IN_NAMES = frozenset(':;"[]{}\u2018\u2019\u201c\u201d')
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")  # "Interstellar (film)" -> "Interstellar"


def name_of(title: str) -> str:
    """A title as a name to exclude: its trailing "(...)" qualifier dropped; empty when the
    title reads as a sentence (ends with a full stop) or is too long to be a name."""
    name = _QUALIFIER.sub("", title).strip()
    if not name or len(name) > MAX_TITLE_CHARS or name.endswith((".", "?", "!")):
        return ""
    if any(c in _NOT_IN_NAMES for c in name):
        return ""  # "Supplementary information: 'User's Guide'" is no name
    return name


def make(b: Passage, ctx: Context) -> list[Item]:
    """At most one item excluding `b` by its title."""
    name = name_of(b.doc.title)
    if not name or (KIND, b.index) in ctx.used or ctx.title_count(b.doc.title) > 1:
        return []  # a title several passages carry ("Original Article") names none of them
    analysis = ctx.analysis
    name_key = analysis.key(name)
    if not name_key or len(name_key) > MAX_TITLE_WORDS or not b.contains(name_key):
        return []
    rng = ctx.rng(KIND, b)
    for a in ctx.near(b):
        if a.mentions_any(name_key) or (KIND, a.index) in ctx.used:
            continue
        topic = ctx.choose.shared_topic([a, b], name_key)
        if topic is None:
            continue
        topic_text = analysis.phrase_text(a, topic)
        worded = phrase(topic_text, (name,), rng)
        if worded is None:
            continue
        check(a, [b], topic, [name_key])
        ctx.used.update({(KIND, b.index), (KIND, a.index)})
        text, wording = worded
        group = "|".join(sorted((a.doc.id, b.doc.id)))
        return [Item(KIND, text, topic_text, (name,), a.index, (b.index,), wording, group)]
    return []
