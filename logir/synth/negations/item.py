"""One generated query with its positive and hard negatives, and the rule every item must pass.

The rule, by the passages' words: the positive holds the topic phrase and no word of any
excluded phrase (in any form); each hard negative holds the topic phrase and at least one
excluded phrase whole. An item that fails it is a bug in its generator and is never written.
"""

from __future__ import annotations

from dataclasses import dataclass

from logir.query.ast import And, Not, Or, Query, Term
from logir.synth.negations.analysis import Key, Passage, overlaps


@dataclass(frozen=True)
class Item:
    """A query asking for `topic` without any of `excluded`."""

    kind: str  # the generator: title, swap, disjunction
    query: str  # the text as a user would type it
    topic: str
    excluded: tuple[str, ...]
    positive: int  # passage index
    negatives: tuple[int, ...]  # passage indexes, one per excluded thing or fewer
    wording: str  # the name of the wording used
    group: str  # items that share passages share a group (kept on one side of the split)

    def logical_form(self) -> Query:
        """The intended form: topic AND NOT excluded (NOT (x OR z) for two)."""
        out = [Term(x) for x in self.excluded]
        excluded: Query = out[0] if len(out) == 1 else Or(out)
        return And(Term(self.topic), Not(excluded))


def satisfies(p: Passage, topic: Key, excluded: list[Key]) -> bool:
    """Whether `p` holds the topic and mentions no word of any excluded phrase."""
    return p.contains(topic) and not any(p.mentions_any(x) for x in excluded)


def violates(p: Passage, topic: Key, excluded: list[Key]) -> bool:
    """Whether `p` holds the topic and one of the excluded phrases whole."""
    return p.contains(topic) and any(p.contains(x) for x in excluded)


def check(positive: Passage, negatives: list[Passage], topic: Key, excluded: list[Key]) -> None:
    """Raise AssertionError unless the item obeys the rule (see the module docstring)."""
    if not topic or not excluded or any(not x for x in excluded):
        raise AssertionError("an item needs a topic and excluded phrases with content words")
    if any(overlaps(topic, x) for x in excluded):
        raise AssertionError("the topic and an excluded phrase share a word")
    if not satisfies(positive, topic, excluded):
        raise AssertionError(f"positive {positive.doc.id} does not satisfy the query")
    for n in negatives:
        if not violates(n, topic, excluded):
            raise AssertionError(f"hard negative {n.doc.id} does not violate the query")
