"""The Composer contract: the base class, spec parameters (``Param``) and per-query caches.

The names of the composers and their ``NAME[,key=value,...]`` specs live in ``registry.py``."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from logir.errors import LogirError
from logir.index.base import Scorer, warm
from logir.logic.ranking import Ranking
from logir.query.reading import Reading

MAX_WEIGHT = 1000.0
"""Largest weight a spec may give a penalty or a mix (``exclusion,beta=``, ``vectors,lam=``)."""

MAX_SCALE = 1e6
"""Largest magnitude of a fixed calibration threshold or slope (``fuzzy,tau=,lam=``)."""

MAX_SAMPLES = 64
"""Most LLM samples, sub-queries or rounds a rewriter spec may ask for per query."""


@dataclass(frozen=True)
class Param:
    """One spec parameter: the constructor argument it sets, its type and what it accepts.

    A number must be finite and lie in ``[minimum, maximum]``; an integer must be written as one
    (``k=1e12`` is refused, not converted). Numeric parameters declare both bounds.
    """

    arg: str
    kind: type = str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    renamed_to: str = ""  # a deprecated key: the key to write instead

    def __post_init__(self) -> None:
        if self.kind in (int, float) and (self.minimum is None or self.maximum is None):
            raise TypeError(f"numeric parameter {self.arg!r} needs a minimum and a maximum")

    def convert(self, composer: str, key: str, value: str) -> Any:
        """``value`` as the constructor wants it, or a LogirError saying what is allowed."""
        bad = f"bad value {_shown(value)} for {composer} parameter {key!r}"
        if self.choices:
            if value not in self.choices:
                raise LogirError(f"{bad}; allowed: {', '.join(self.choices)}")
            return value
        if self.kind not in (int, float):
            return self.kind(value)
        assert self.minimum is not None and self.maximum is not None
        what = "an integer" if self.kind is int else "a finite number"
        allowed = f"{bad}; expected {what} from {self.minimum:g} to {self.maximum:g}"
        try:
            out = self.kind(value)
        except ValueError:  # "1e12" or "1.5" for an integer, "x" for anything
            raise LogirError(allowed) from None
        if not math.isfinite(out) or not self.minimum <= out <= self.maximum:
            raise LogirError(allowed)
        return out


def _shown(value: str) -> str:
    """``value`` quoted, cut short when long (a spec is echoed back in errors)."""
    return repr(value) if len(value) <= 40 else f"{value[:37]!r}..."


class Composer(ABC):
    """Turns Readings into rankings using a scorer; never re-encodes documents.

    - ``rank(readings, scorer, k)`` -> one Ranking per reading, best first, at most ``k`` hits.
    - ``score(reading, scorer, doc_idx)`` -> the composed score of the given document rows; the
      same numbers ``rank`` would give those documents (metrics such as pairwise accuracy read it).

    A plain ``str`` is accepted wherever a Reading is, and read with ``read(text, "auto")`` (taken
    whole, unread, by a composer that ranks the text).
    Subclasses implement ``rank_readings`` and ``score_reading``, and declare their facts:
    ``PARAMS`` (spec keys), ``additive`` (each hit's evidence values add up to its score),
    ``uses_llm`` (the registry gives it an LLM client and the corpus texts) and
    ``reads_logical_form`` (False: it ranks the reading's text alone, as flat and the rewriters do)
    and ``rank_batch`` (most readings a caller should rank at once to report progress often: a
    composer that spends seconds per query sets it; 0: no limit).

    ``query_texts(reading)`` names the texts a composer will ask the scorer about for a reading;
    ``rank`` and ``score`` hand them to the scorer first, all at once (``index.base.warm``: a
    dense scorer embeds a logical query's texts in one encoder call).
    """

    name: ClassVar[str] = ""
    PARAMS: ClassVar[dict[str, Param]] = {}
    additive: ClassVar[bool] = False
    uses_llm: ClassVar[bool] = False
    reads_logical_form: ClassVar[bool] = True
    rank_batch: ClassVar[int] = 0

    def rank(self, readings: Sequence[Reading | str], scorer: Scorer, k: int) -> list[Ranking]:
        """One Ranking of at most ``k`` hits per reading."""
        read = self.reads_logical_form
        rs = [as_reading(r, read) for r in readings]
        warm(scorer, [t for r in rs for t in self.query_texts(r)])
        return self.rank_readings(rs, scorer, k)

    def score(self, reading: Reading | str, scorer: Scorer, doc_idx: np.ndarray) -> np.ndarray:
        """The composed score of each row of ``doc_idx``."""
        r = as_reading(reading, self.reads_logical_form)
        warm(scorer, self.query_texts(r))
        return self.score_reading(r, scorer, np.asarray(doc_idx, np.int64))

    def score_many(
        self, items: Sequence[tuple[Reading | str, np.ndarray]], scorer: Scorer
    ) -> list[np.ndarray]:
        """``score`` of each ``(reading, doc_idx)``: the same numbers, the scorer told about
        all of them first (texts read at once; ``score_ahead``)."""
        read = self.reads_logical_form
        pairs = [(as_reading(r, read), np.asarray(rows, np.int64).ravel()) for r, rows in items]
        warm(scorer, [t for r, _ in pairs for t in self.query_texts(r)])
        self.score_ahead(pairs, scorer)
        return [self.score_reading(r, scorer, rows) for r, rows in pairs]

    def score_ahead(self, items: list[tuple[Reading, np.ndarray]], scorer: Scorer) -> None:
        """Tell ``scorer`` what scoring these ``(reading, rows)`` will ask of it, where a
        composer knows (:func:`~logir.index.base.ahead`; a sharded scorer then answers them in
        one round trip). Nothing by default."""
        return None

    def query_texts(self, reading: Reading) -> list[str]:
        """The texts this composer asks a scorer about for ``reading`` (terms, the text ...), or
        none where it asks about one text, or all of them in one call, anyway."""
        return []

    @abstractmethod
    def rank_readings(self, readings: list[Reading], scorer: Scorer, k: int) -> list[Ranking]:
        """``rank`` over Readings."""

    @abstractmethod
    def score_reading(self, reading: Reading, scorer: Scorer, doc_idx: np.ndarray) -> np.ndarray:
        """``score`` of one Reading."""

    def explain(self, reading: Reading) -> str | None:
        """One line on how this composer ranks ``reading`` (None: nothing beyond its form)."""
        return None

    def stats(self) -> dict[str, Any]:
        """Counters this composer keeps over the queries it ranked (LLM fallbacks ...)."""
        return {}


def as_reading(item: Reading | str, read: bool = True) -> Reading:
    """``item`` itself, or the Reading of a text in ``auto`` mode (with ``read`` False, the text
    taken whole, unread: all a composer that ranks the text needs)."""
    if isinstance(item, Reading):
        return item
    from logir.query import reading

    if not read and item.strip():
        return reading.verbatim(item)
    return reading.read(item, "auto")


T = TypeVar("T")


class StateCache(Generic[T]):
    """Per-query states of a composer, keyed by (scorer, query key); least recently used first out.

    A query key is whatever the composer's state depends on (the text, the logical form, or
    both). ``split`` returns the cached states and the keys still to build (each once, in order);
    ``put`` stores a built one. A state belongs to the scorer it was built with.
    """

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._d: OrderedDict[tuple[int, Hashable], tuple[Scorer, T]] = OrderedDict()

    def split(
        self, keys: Sequence[Hashable], scorer: Scorer
    ) -> tuple[dict[Hashable, T], list[Hashable]]:
        found: dict[Hashable, T] = {}
        todo: dict[Hashable, None] = {}
        for key in keys:
            hit = self._d.get((id(scorer), key))
            if hit is not None and hit[0] is scorer:
                found[key] = hit[1]
                self._d.move_to_end((id(scorer), key))
            else:
                todo[key] = None
        return found, list(todo)

    def put(self, scorer: Scorer, key: Hashable, state: T) -> None:
        self._d[(id(scorer), key)] = (scorer, state)
        if len(self._d) > self.limit:
            self._d.popitem(last=False)

    def __len__(self) -> int:
        return len(self._d)
