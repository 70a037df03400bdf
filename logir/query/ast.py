"""The logical form of a query: text terms combined with AND, OR and NOT.

Nodes are frozen dataclasses, so a query is immutable, hashable and comparable. ``str(q)`` is the
canonical logir syntax and :func:`logir.query.parse` reads it back: ``parse(str(q)) == q``.

``And`` and ``Or`` are n-ary (at least two children). A chain such as ``a AND b AND c`` is one
node with three children, while ``(a AND b) AND c`` keeps its inner node; the printer writes
parentheses around a nested node of the same kind so that this distinction survives a round trip.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

__all__ = [
    "And",
    "Not",
    "Or",
    "Query",
    "Term",
    "from_dict",
    "is_purely_negative",
    "n_negations",
    "negated_terms",
    "operators",
    "positive_terms",
    "signed_terms",
    "terms",
    "to_dict",
]

# Binding strength, used by the printer to decide where parentheses are needed.
_PREC_OR, _PREC_AND, _PREC_NOT, _PREC_TERM = 1, 2, 3, 4


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


@dataclass(frozen=True, repr=False)
class Term:
    """A piece of text to be matched against documents; whitespace is collapsed and stripped."""

    text: str

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError(f"Term text must be a str, got {type(self.text).__name__}")
        collapsed = " ".join(self.text.split())
        if not collapsed:
            raise ValueError("Term text must not be empty or only whitespace")
        object.__setattr__(self, "text", collapsed)

    def __repr__(self) -> str:
        return f"Term({self.text!r})"

    def __str__(self) -> str:
        return _quote(self.text)


@dataclass(frozen=True, init=False, repr=False)
class _Nary:
    """Shared body of And and Or: a tuple of at least two child queries."""

    children: tuple[Query, ...]
    operator: ClassVar[str] = ""
    precedence: ClassVar[int] = 0

    def __init__(
        self, *args: Query | Iterable[Query], children: Iterable[Query] | None = None
    ) -> None:
        # Accept And((a, b)), And([a, b]), And(a, b) and And(children=(a, b)).
        if children is not None:
            if args:
                raise TypeError(f"{type(self).__name__}() got children both by position and name")
            items = tuple(children)
        elif len(args) == 1 and not isinstance(args[0], _NODE_TYPES):
            items = tuple(args[0])  # type: ignore[arg-type]
        else:
            items = tuple(args)
        for child in items:
            if not isinstance(child, _NODE_TYPES):
                raise TypeError(
                    f"{type(self).__name__} children must be Query nodes, "
                    f"got {type(child).__name__}"
                )
        if len(items) < 2:
            raise ValueError(f"{type(self).__name__} needs at least 2 children, got {len(items)}")
        object.__setattr__(self, "children", items)

    def __repr__(self) -> str:
        inner = ", ".join(repr(c) for c in self.children)
        return f"{type(self).__name__}({inner})"

    def __str__(self) -> str:
        parts = []
        for child in self.children:
            text = str(child)
            # "<=" also wraps a child of the same kind, so that nesting survives a round trip.
            if _precedence(child) <= self.precedence:
                text = f"({text})"
            parts.append(text)
        return f" {self.operator} ".join(parts)


@dataclass(frozen=True, init=False, repr=False)
class And(_Nary):
    """Conjunction: a document should satisfy every child."""

    operator: ClassVar[str] = "AND"
    precedence: ClassVar[int] = _PREC_AND


@dataclass(frozen=True, init=False, repr=False)
class Or(_Nary):
    """Disjunction: a document should satisfy at least one child."""

    operator: ClassVar[str] = "OR"
    precedence: ClassVar[int] = _PREC_OR


@dataclass(frozen=True, repr=False)
class Not:
    """Negation: a document should not satisfy the child."""

    child: Query

    def __post_init__(self) -> None:
        if not isinstance(self.child, _NODE_TYPES):
            raise TypeError(f"Not child must be a Query node, got {type(self.child).__name__}")

    def __repr__(self) -> str:
        return f"Not({self.child!r})"

    def __str__(self) -> str:
        text = str(self.child)
        if _precedence(self.child) < _PREC_NOT:
            text = f"({text})"
        return f"NOT {text}"


Query: TypeAlias = Term | And | Or | Not
_NODE_TYPES = (Term, And, Or, Not)


def _precedence(q: Query) -> int:
    if isinstance(q, Term):
        return _PREC_TERM
    if isinstance(q, Not):
        return _PREC_NOT
    return q.precedence


def _walk_terms(q: Query) -> list[tuple[Term, bool]]:
    """Every term occurrence in pre-order with whether it sits under an odd number of NOTs."""
    out: list[tuple[Term, bool]] = []

    def walk(q: Query, negated: bool) -> None:
        if isinstance(q, Term):
            out.append((q, negated))
        elif isinstance(q, Not):
            walk(q.child, not negated)
        else:
            for child in q.children:
                walk(child, negated)

    walk(q, False)
    return out


def signed_terms(q: Query) -> tuple[list[Term], list[Term]]:
    """``(positive_terms(q), negated_terms(q))`` from one walk of the tree."""
    positive: dict[Term, None] = {}
    negated: dict[Term, None] = {}
    for t, neg in _walk_terms(q):
        (negated if neg else positive).setdefault(t)
    return list(positive), list(negated)


def _unique(items: Iterable[Term]) -> list[Term]:
    return list(dict.fromkeys(items))


def terms(q: Query) -> list[Term]:
    """All distinct terms of ``q``, in order of first occurrence."""
    return _unique(t for t, _ in _walk_terms(q))


def negated_terms(q: Query) -> list[Term]:
    """Distinct terms that occur under an odd number of NOTs, in order of first such occurrence."""
    return _unique(t for t, neg in _walk_terms(q) if neg)


def positive_terms(q: Query) -> list[Term]:
    """Distinct terms that occur under an even number of NOTs (possibly zero)."""
    return _unique(t for t, neg in _walk_terms(q) if not neg)


def n_negations(q: Query) -> int:
    """Number of Not nodes in ``q``."""
    if isinstance(q, Term):
        return 0
    if isinstance(q, Not):
        return 1 + n_negations(q.child)
    return sum(n_negations(c) for c in q.children)


def operators(q: Query) -> set[str]:
    """The operators used in ``q``, a subset of {"AND", "OR", "NOT"}."""
    if isinstance(q, Term):
        return set()
    if isinstance(q, Not):
        return {"NOT"} | operators(q.child)
    found = {q.operator}
    for child in q.children:
        found |= operators(child)
    return found


def is_purely_negative(q: Query) -> bool:
    """True when no term occurs positively, e.g. ``NOT a`` or ``NOT (a OR b)``."""
    return not positive_terms(q)


def to_dict(q: Query) -> dict[str, Any]:
    """A JSON-friendly nested dict: {"term": s}, {"and": [...]}, {"or": [...]} or {"not": {...}}."""
    if isinstance(q, Term):
        return {"term": q.text}
    if isinstance(q, Not):
        return {"not": to_dict(q.child)}
    return {q.operator.lower(): [to_dict(c) for c in q.children]}


_DICT_KEYS = ("term", "and", "or", "not")


def from_dict(d: Mapping[str, Any]) -> Query:
    """Inverse of :func:`to_dict`; raises ValueError naming the offending path on a bad shape."""
    return _from_dict(d, "$")


def _from_dict(d: Any, path: str) -> Query:
    def bad(reason: str) -> ValueError:
        return ValueError(f"invalid query dict at {path}: {reason}")

    if not isinstance(d, Mapping):
        raise bad(f"expected an object, got {type(d).__name__}")
    if len(d) != 1 or next(iter(d)) not in _DICT_KEYS:
        keys = ", ".join(repr(k) for k in d) or "none"
        raise bad(f"expected exactly one key out of 'term', 'and', 'or', 'not'; got {keys}")
    key, value = next(iter(d.items()))
    if key == "term":
        if not isinstance(value, str):
            raise bad(f"'term' must be a string, got {type(value).__name__}")
        if not value.strip():
            raise bad("'term' must not be empty")
        return Term(value)
    if key == "not":
        return Not(_from_dict(value, f"{path}.not"))
    if not isinstance(value, list | tuple):
        raise bad(f"'{key}' must be a list, got {type(value).__name__}")
    if len(value) < 2:
        raise bad(f"'{key}' needs at least 2 items, got {len(value)}")
    children = tuple(_from_dict(v, f"{path}.{key}[{i}]") for i, v in enumerate(value))
    return And(children) if key == "and" else Or(children)
