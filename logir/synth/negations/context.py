"""What every generator works from: the read corpus, its neighbours, limits and a seed."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from logir.synth.negations.analysis import Analysis, Passage
from logir.synth.negations.choose import Chooser, Limits


@dataclass
class Context:
    """The shared state of one run; `used` remembers passages already given a role."""

    analysis: Analysis
    neighbours: list[list[int]]
    seed: int
    limits: Limits = field(default_factory=Limits)
    used: set[tuple[str, int]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.choose = Chooser(self.analysis, self.limits)
        self._titles = Counter(p.doc.title.strip().lower() for p in self.analysis.passages)

    def title_count(self, title: str) -> int:
        """How many passages carry this title."""
        return self._titles[title.strip().lower()]

    def near(self, p: Passage) -> list[Passage]:
        """`p`'s neighbours, best first."""
        return [self.analysis.passages[i] for i in self.neighbours[p.index]]

    def rng(self, kind: str, p: Passage) -> random.Random:
        """A random source for one generator at one passage: the same for the same seed."""
        return random.Random(f"{self.seed}\x00{kind}\x00{p.doc.id}")
