"""Attribute swap: two passages on one topic, each excluded in turn by what only it mentions.

For neighbours A and B sharing a topic T, with x a phrase prominent in B that A never mentions
and y one prominent in A that B never mentions: "T without x" (positive A, hard negative B) and
"T without y" (positive B, hard negative A). The same two passages trade roles when the excluded
attribute changes, so only reading the exclusion tells them apart (NevIR's idea, by rule).
"""

from __future__ import annotations

from logir.synth.negations.analysis import Passage
from logir.synth.negations.context import Context
from logir.synth.negations.item import Item, check
from logir.synth.negations.wordings import phrase

KIND = "swap"


def make(a: Passage, ctx: Context) -> list[Item]:
    """Two mirrored items over `a` and its first neighbour that allows them, or none."""
    if (KIND, a.index) in ctx.used:
        return []
    analysis = ctx.analysis
    rng = ctx.rng(KIND, a)
    for b in ctx.near(a):
        if (KIND, b.index) in ctx.used:
            continue
        topic = ctx.choose.shared_topic([a, b])
        if topic is None:
            continue
        x = ctx.choose.distinctive(b, [a], topic)
        y = ctx.choose.distinctive(a, [b], topic)
        if x is None or y is None:
            continue
        topic_text = analysis.phrase_text(a, topic)
        x_text, y_text = analysis.phrase_text(b, x), analysis.phrase_text(a, y)
        first = phrase(topic_text, (x_text,), rng)
        second = phrase(topic_text, (y_text,), rng)
        if first is None or second is None:
            continue
        check(a, [b], topic, [x])
        check(b, [a], topic, [y])
        ctx.used.update({(KIND, a.index), (KIND, b.index)})
        group = "|".join(sorted((a.doc.id, b.doc.id)))
        return [
            Item(KIND, first[0], topic_text, (x_text,), a.index, (b.index,), first[1], group),
            Item(KIND, second[0], topic_text, (y_text,), b.index, (a.index,), second[1], group),
        ]
    return []
