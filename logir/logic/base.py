"""The Composer contract, the registry of composers and their ``NAME[,key=value,...]`` specs."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import numpy as np

from logir.errors import LogirError
from logir.index.base import Scorer
from logir.logic.ranking import Ranking

if TYPE_CHECKING:
    from logir.llm import ChatClient
    from logir.query import Query


class Composer(Protocol):
    """Turns a query into a ranking using a scorer; never re-encodes documents.

    - ``rank(queries, scorer, k)`` -> one Ranking per query, best first.
    - ``score(query, scorer, doc_idx)`` -> the composed score of the given document rows; the
      same numbers ``rank`` would give those documents (metrics such as pairwise accuracy read it).
    """

    name: str

    def rank(self, queries: list[str], scorer: Scorer, k: int) -> list[Ranking]: ...

    def score(self, query: str, scorer: Scorer, doc_idx: np.ndarray) -> np.ndarray: ...


MAX_WEIGHT = 1000.0
"""Largest weight a spec may give a penalty or a mix (``hybrid,beta=``, ``vectors,lam=``)."""

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


#: composers whose evidence values add up to each hit's score (checked in tests/serve/test_api.py);
#: the others report each term's own (calibrated) score, a NOT term's included
ADDITIVE_COMPOSERS = frozenset({"flat", "auto", "hybrid"})


def _registry() -> dict[str, type]:
    from logir.logic.agr import AGR
    from logir.logic.auto import Auto, Exclusion
    from logir.logic.flat import Flat
    from logir.logic.fuzzy import Fuzzy
    from logir.logic.hyde import HyDE
    from logir.logic.inter import InteR
    from logir.logic.lamer import LameR
    from logir.logic.sets import Sets
    from logir.logic.vectors import Vectors

    return {
        "flat": Flat,
        "fuzzy": Fuzzy,
        "sets": Sets,
        "vectors": Vectors,
        "hybrid": Exclusion,
        "auto": Auto,
        "hyde": HyDE,
        "lamer": LameR,
        "inter": InteR,
        "agr": AGR,
    }


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"NAME[,key=value,...]"`` into the name and the raw key/value pairs."""
    name, *items = [part.strip() for part in spec.strip().split(",")]
    params: dict[str, str] = {}
    for item in items:
        key, eq, value = (x.strip() for x in item.partition("="))
        if not eq or not key or not value:
            raise LogirError(
                f"bad parameter {item!r} in composer spec {spec!r}; expected key=value"
            )
        if key in params:
            raise LogirError(f"parameter {key!r} given twice in composer spec {spec!r}")
        params[key] = value
    return name, params


def uses_llm(spec: str) -> bool:
    """Whether the composer named by ``spec`` rewrites queries with an LLM (hyde, lamer, inter,
    agr)."""
    cls = _registry().get(parse_spec(spec)[0])
    return bool(getattr(cls, "USES_LLM", False))


def get_composer(
    spec: str,
    *,
    llm: ChatClient | None = None,
    passages: Sequence[str] | None = None,
) -> Composer:
    """A composer from a spec such as ``flat``, ``sets,depth=200`` or
    ``fuzzy,and=min,not=one_minus,calib=minmax,k=100``.

    The LLM rewriters (``hyde``, ``lamer``, ``inter``, ``agr``) also need ``llm``, the client of an
    OpenAI-compatible endpoint, and ``passages``, the corpus texts by row (their prompts show
    retrieved passages); the other composers ignore both. Unknown names, keys or values, and a
    rewriter without ``llm``, raise a LogirError that says what is allowed.
    """
    name, raw = parse_spec(spec)
    composers = _registry()
    if name not in composers:
        plain = ", ".join(sorted(n for n, c in composers.items() if not getattr(c, "USES_LLM", 0)))
        rewriters = ", ".join(sorted(n for n, c in composers.items() if getattr(c, "USES_LLM", 0)))
        raise LogirError(
            f"unknown composer {name!r}; known composers: {plain}; "
            f"with an LLM endpoint: {rewriters}"
        )
    cls = composers[name]
    # each composer class declares its spec keys as PARAMS: {key: Param}
    declared: dict[str, Param] = getattr(cls, "PARAMS", {})
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in declared:
            allowed = ", ".join(declared) or "none"
            raise LogirError(f"unknown parameter {key!r} for composer {name!r}; allowed: {allowed}")
        param = declared[key]
        kwargs[param.arg] = param.convert(name, key, value)
    if getattr(cls, "USES_LLM", False):
        if llm is None:
            raise LogirError(
                f"composer {name!r} rewrites queries with an LLM and no LLM endpoint was given: "
                "run it with `logir eval ... --llm-base-url URL` (an OpenAI-compatible /v1 root) "
                "or with LOGIR_LLM_BASE_URL set"
            )
        kwargs.update(llm=llm, passages=passages)
    try:
        return cls(**kwargs)
    except ValueError as exc:
        raise LogirError(f"composer spec {spec!r}: {exc}") from None


T = TypeVar("T")


class StateCache(Generic[T]):
    """Per-query states of a composer, keyed by (scorer, query text); least recently used first out.

    ``split`` returns the cached states and the texts still to build (each once, in order);
    ``put`` stores a built one. A state belongs to the scorer it was built with.
    """

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._d: OrderedDict[tuple[int, str], tuple[Scorer, T]] = OrderedDict()

    def split(self, queries: list[str], scorer: Scorer) -> tuple[dict[str, T], list[str]]:
        found: dict[str, T] = {}
        todo: list[str] = []
        for text in queries:
            key = (id(scorer), text)
            hit = self._d.get(key)
            if hit is not None and hit[0] is scorer:
                found[text] = hit[1]
                self._d.move_to_end(key)
            elif text not in todo:
                todo.append(text)
        return found, todo

    def put(self, scorer: Scorer, text: str, state: T) -> None:
        self._d[(id(scorer), text)] = (scorer, state)
        if len(self._d) > self.limit:
            self._d.popitem(last=False)

    def __len__(self) -> int:
        return len(self._d)


K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    """A mapping that keeps the ``limit`` most recently used keys; safe to share between threads.

    For caches that callers (a server's clients among them) can feed new keys without end.
    """

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"an LRU needs room for at least one key, got {limit}")
        self.limit = limit
        self._d: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._d.get(key)
            if value is not None:
                self._d.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._d[key] = value
            self._d.move_to_end(key)
            while len(self._d) > self.limit:
                self._d.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._d.clear()

    def __len__(self) -> int:
        return len(self._d)


QUERY_CACHE_SIZE = 4096
"""Query texts whose logical form :func:`query_of` keeps (about 10 MB at 1,000 characters each)."""

_QUERIES: LRU[str, Query] = LRU(QUERY_CACHE_SIZE)


def query_of(text: str) -> Query:
    """The logical form of a query text (``to_query(text, "auto")``), parsed once per recent text.

    Text in the query language is parsed directly: the same Query as ``to_query`` without the
    term spans it also works out.
    """
    q = _QUERIES.get(text)
    if q is None:
        from logir.query.syntax import QuerySyntaxError, parse
        from logir.query.understand import looks_like_syntax, to_query

        try:
            q = parse(text) if looks_like_syntax(text) else None
        except QuerySyntaxError:
            q = None
        q = q if q is not None else to_query(text, "auto")
        _QUERIES.put(text, q)
    return q
