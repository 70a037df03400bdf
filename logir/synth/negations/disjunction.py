"""Disjunction: "<topic> without <x> or <z>", one positive and two hard negatives.

A, B and C share a topic; x is prominent in B, z in C, and each is mentioned by no other of the
three. A satisfies the query; B violates it only through x and C only through z, so a model
that reads only the first (or only the last) excluded thing ranks one of them wrongly.
"""

from __future__ import annotations

from logir.synth.negations.analysis import Passage
from logir.synth.negations.context import Context
from logir.synth.negations.item import Item, check
from logir.synth.negations.wordings import phrase

KIND = "disjunction"
#: neighbours of A tried as B and C (pairs of the first this many)
TRIED = 6


def make(a: Passage, ctx: Context) -> list[Item]:
    """At most one item with `a` as the positive."""
    if (KIND, a.index) in ctx.used:
        return []
    analysis = ctx.analysis
    rng = ctx.rng(KIND, a)
    near = ctx.near(a)[:TRIED]
    for i, b in enumerate(near):
        for c in near[i + 1 :]:
            topic = ctx.choose.shared_topic([a, b, c])
            if topic is None:
                continue
            x = ctx.choose.distinctive(b, [a, c], topic)
            z = ctx.choose.distinctive(c, [a, b], topic)
            if x is None or z is None:
                continue
            topic_text = analysis.phrase_text(a, topic)
            excluded = (analysis.phrase_text(b, x), analysis.phrase_text(c, z))
            worded = phrase(topic_text, excluded, rng)
            if worded is None:
                continue
            check(a, [b, c], topic, [x, z])
            ctx.used.add((KIND, a.index))
            group = "|".join(sorted((a.doc.id, b.doc.id, c.doc.id)))
            text, wording = worded
            return [
                Item(KIND, text, topic_text, excluded, a.index, (b.index, c.index), wording, group)
            ]
    return []
