"""Choosing the phrases of a query: a topic several passages share, a thing only one mentions."""

from __future__ import annotations

import math
from dataclasses import dataclass

from logir.synth.negations.analysis import Analysis, Key, Passage, overlaps

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


class Chooser:
    """The phrase choices of one run; what each passage offers is worked out once."""

    def __init__(self, analysis: Analysis, limits: Limits) -> None:
        self.analysis = analysis
        self.limits = limits
        self._topics: dict[int, dict[Key, float]] = {}
        self._excludable: dict[int, list[tuple[float, Key]]] = {}

    def _df_ok(self, key: Key, share: float, floor: int) -> bool:
        cap = max(share * self.analysis.n, floor)
        return all(2 <= self.analysis.df.get(s, 0) <= cap for s in key)

    def topics(self, p: Passage) -> dict[Key, float]:
        """The phrases `p` could share as a topic: prominent in it (title, lead, or said twice),
        a noun phrase as `p` writes it, within the topic limits; each with its rarity."""
        out = self._topics.get(p.index)
        if out is None:
            a, lim = self.analysis, self.limits
            out = {
                key: sum(a.idf(s) for s in key)
                for key in p.phrases
                if self._df_ok(key, lim.topic_share, lim.topic_floor)
                and p.salient(key)
                and a.nounish(p.surface(key))
            }
            self._topics[p.index] = out
        return out

    def excludable(self, p: Passage) -> list[tuple[float, Key]]:
        """The phrases of at most MAX_EXCLUDED_WORDS words that `p` makes prominent, that some
        other passage also says (a phrase said once is seldom the name of anything), a noun
        phrase within the excluded limits; best first."""
        out = self._excludable.get(p.index)
        if out is None:
            a, lim = self.analysis, self.limits
            out = []
            for key, count in p.phrases.items():
                if len(key) > MAX_EXCLUDED_WORDS or (len(key) > 1 and a.phrase_df[key] < 2):
                    continue
                if not self._df_ok(key, lim.excluded_share, lim.excluded_floor):
                    continue
                if not p.salient(key) or not a.nounish(p.surface(key)):
                    continue
                mean = sum(a.idf(s) for s in key) / len(key)
                out.append((mean * (1 + 0.25 * (len(key) - 1)) + math.log1p(count), key))
            out.sort(reverse=True)
            self._excludable[p.index] = out
        return out

    def shared_topic(self, passages: list[Passage], avoid: Key = ()) -> Key | None:
        """The rarest phrase every passage offers as a topic, overlapping no word of `avoid`
        (None if there is none); the first passage gives its wording."""
        offers = [self.topics(p) for p in passages]
        best: tuple[float, Key] | None = None
        for key, score in offers[0].items():
            if overlaps(key, avoid) or not all(key in o for o in offers[1:]):
                continue
            if best is None or (score, key) > best:
                best = (score, key)
        return None if best is None else best[1]

    def distinctive(self, owner: Passage, others: list[Passage], avoid: Key) -> Key | None:
        """`owner`'s best excludable phrase that no passage of `others` mentions any word of,
        overlapping no word of `avoid` (None if there is none)."""
        for _, key in self.excludable(owner):
            if overlaps(key, avoid) or any(p.mentions_any(key) for p in others):
                continue
            return key
        return None
