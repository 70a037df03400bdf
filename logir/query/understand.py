"""Older names for reading a query: ``understand`` is :func:`logir.query.reading.read`.

``Understanding`` is :class:`~logir.query.reading.Reading`; ``to_query(text, mode)`` is
``read(text, mode).query``. See :mod:`logir.query.reading` for the modes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import logir.query.reading as _reading
from logir.query.ast import Query
from logir.query.reading import ALL_MODES, MODES, Reading, looks_like_syntax

if TYPE_CHECKING:
    from logir.llm.client import ChatClient

__all__ = ["ALL_MODES", "MODES", "Understanding", "looks_like_syntax", "to_query", "understand"]

Understanding = Reading


def understand(text: str, mode: str = "auto", client: ChatClient | None = None) -> Reading:
    """Read ``text`` as a query in ``mode`` (:func:`logir.query.reading.read`)."""
    return _reading.read(text, mode, client)


def to_query(text: str, mode: str = "auto", client: ChatClient | None = None) -> Query:
    """Read ``text`` as a Query; see :func:`logir.query.reading.read` for the modes."""
    return _reading.read(text, mode, client).query
