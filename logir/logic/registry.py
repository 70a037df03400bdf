"""The composers by name, and their ``NAME[,key=value,...]`` specs.

``get_composer("fuzzy,and=min,depth=200")`` builds one; ``composers()`` lists them. Old names keep
working with a DeprecationWarning: the composer ``hybrid`` is ``exclusion`` (a retriever is called
hybrid too), and a candidate depth written ``k=`` is ``depth=`` (``k`` is the number of hits).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from logir.errors import LogirError
from logir.logic.auto import Auto, Exclusion
from logir.logic.contract import Composer, Param
from logir.logic.flat import Flat
from logir.logic.fuzzy import Fuzzy
from logir.logic.rewriters import AGR, HyDE, InteR, LameR
from logir.logic.sets import Sets
from logir.logic.vectors import Vectors

if TYPE_CHECKING:
    from logir.llm import ChatClient

_COMPOSERS: dict[str, type[Composer]] = {
    c.name: c for c in (Flat, Fuzzy, Sets, Vectors, Exclusion, Auto, HyDE, LameR, InteR, AGR)
}

#: composer names that still work, with the name to use instead
RENAMED = {"hybrid": "exclusion"}


def composers() -> dict[str, type[Composer]]:
    """Every composer by name (the names a spec may start with; old names left out)."""
    return dict(_COMPOSERS)


def additive_composers() -> list[str]:
    """Names of the composers whose evidence values add up to each hit's score."""
    return sorted(n for n, c in _COMPOSERS.items() if c.additive)


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


def _class_of(name: str) -> type[Composer] | None:
    return _COMPOSERS.get(RENAMED.get(name, name))


def uses_llm(spec: str) -> bool:
    """Whether the composer named by ``spec`` rewrites queries with an LLM (hyde, lamer, inter,
    agr)."""
    cls = _class_of(parse_spec(spec)[0])
    return cls is not None and cls.uses_llm


def deprecations(spec: str) -> list[str]:
    """What ``spec`` spells the old way, one message each (empty when nothing)."""
    name, raw = parse_spec(spec)
    out = []
    if name in RENAMED:
        out.append(f"composer {name!r} is now called {RENAMED[name]!r}")
    cls = _class_of(name)
    declared = cls.PARAMS if cls is not None else {}
    for key in raw:
        if key in declared and declared[key].renamed_to:
            new = declared[key].renamed_to
            out.append(
                f"{RENAMED.get(name, name)} parameter {key!r} is now {new!r} "
                f"({new}: candidates per term; k: hits returned)"
            )
    return out


def get_composer(
    spec: str,
    *,
    llm: ChatClient | None = None,
    passages: Sequence[str] | None = None,
) -> Composer:
    """A composer from a spec such as ``flat``, ``sets,depth=200`` or
    ``fuzzy,and=min,not=one_minus,calib=minmax,depth=100``.

    The LLM rewriters (``hyde``, ``lamer``, ``inter``, ``agr``) also need ``llm``, the client of an
    OpenAI-compatible endpoint, and ``passages``, the corpus texts by row (their prompts show
    retrieved passages); the other composers ignore both. Unknown names, keys or values, and a
    rewriter without ``llm``, raise a LogirError that says what is allowed.
    """
    name, raw = parse_spec(spec)
    cls = _class_of(name)
    if cls is None:
        plain = ", ".join(sorted(n for n, c in _COMPOSERS.items() if not c.uses_llm))
        rewriters = ", ".join(sorted(n for n, c in _COMPOSERS.items() if c.uses_llm))
        raise LogirError(
            f"unknown composer {name!r}; known composers: {plain}; "
            f"with an LLM endpoint: {rewriters}"
        )
    declared: dict[str, Param] = cls.PARAMS
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in declared:
            allowed = ", ".join(k for k, p in declared.items() if not p.renamed_to) or "none"
            raise LogirError(f"unknown parameter {key!r} for composer {name!r}; allowed: {allowed}")
        param = declared[key]
        if param.renamed_to and param.renamed_to in raw:
            raise LogirError(
                f"composer spec {spec!r} gives both {key!r} and {param.renamed_to!r}; "
                f"write {param.renamed_to!r} only"
            )
        kwargs[param.arg] = param.convert(name, key, value)
    for message in deprecations(spec):
        warnings.warn(message, DeprecationWarning, stacklevel=2)
    if cls.uses_llm:
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
