"""Choosing the phrases of a query: a topic several passages share, a thing only one mentions."""

from __future__ import annotations

import math
from dataclasses import dataclass

from logir.synth.negations.analysis import Analysis, Key, Passage

#: an excluded thing is a word or two (a title excluded by name may be longer)
MAX_EXCLUDED_WORDS = 2


@dataclass(frozen=True)
class Limits:
    """How common a word may be: in at most ``share`` of the corpus's passages, or ``floor``
    passages when that is more (a small corpus has few passages per topic).

    A topic word more common than that is too vague to ask for ("group", "trial"); an excluded
    word more common is too vague to exclude ("portion", "session"). A word in only one passage
    is never used (a typo or a one-off number is no concept).
    """

    topic_share: float = 0.03
    topic_floor: int = 6
    excluded_share: float = 0.01
    excluded_floor: int = 4


def _df_ok(analysis: Analysis, key: Key, share: float, floor: int) -> bool:
    cap = max(share * analysis.n, floor)
    return all(2 <= analysis.df.get(s, 0) <= cap for s in key)


def shared_topic(
    analysis: Analysis, passages: list[Passage], avoid: Key, limits: Limits
) -> Key | None:
    """The rarest phrase every passage holds whole and makes prominent (title, lead, or said
    twice), sharing no word with `avoid` (None if none); the first passage gives its wording."""
    first, rest = passages[0], passages[1:]
    best: tuple[float, Key] | None = None
    for key in first.phrases:
        if set(key) & set(avoid) or not all(p.contains(key) for p in rest):
            continue
        if not _df_ok(analysis, key, limits.topic_share, limits.topic_floor) or not first.surface(
            key
        ):
            continue
        if not all(p.salient(key) for p in passages):
            continue
        if not analysis.nounish(first.surface(key)):
            continue
        score = sum(analysis.idf(s) for s in key)
        if best is None or (score, key) > best:
            best = (score, key)
    return None if best is None else best[1]


def distinctive(
    analysis: Analysis,
    owner: Passage,
    others: list[Passage],
    avoid: Key,
    limits: Limits,
) -> Key | None:
    """The best phrase of at most MAX_EXCLUDED_WORDS words that `owner` makes prominent, that
    some other passage of the corpus also says, and that no passage of `others` mentions any
    word of, sharing no word with `avoid` (None if there is none)."""
    best: tuple[float, Key] | None = None
    for key in owner.phrases:
        if len(key) > MAX_EXCLUDED_WORDS or set(key) & set(avoid):
            continue
        if len(key) > 1 and analysis.phrase_df[key] < 2:
            continue  # a phrase said in one passage only is seldom a name of anything
        if not owner.salient(key) or not analysis.nounish(owner.surface(key)):
            continue
        if any(p.mentions_any(key) for p in others):
            continue
        if not _df_ok(analysis, key, limits.excluded_share, limits.excluded_floor):
            continue
        mean = sum(analysis.idf(s) for s in key) / len(key)
        score = mean * (1 + 0.25 * (len(key) - 1)) + math.log1p(owner.phrases[key])
        if best is None or (score, key) > best:
            best = (score, key)
    return None if best is None else best[1]
