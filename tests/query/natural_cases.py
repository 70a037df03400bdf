"""Shorthands the natural-language reader's tests share."""

from __future__ import annotations

from logir.query import Query, Term
from logir.query.natural import decompose


def T(text: str) -> Term:
    return Term(text)


def q(text: str) -> Query:
    """The logical form ``decompose`` reads from ``text``."""
    return decompose(text).query
