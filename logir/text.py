"""Text shown to people or models: one line, cut at a word boundary."""

from __future__ import annotations


def clip(text: str, limit: int, tail: str = " ...") -> str:
    """``text`` with its whitespace collapsed; past ``limit`` characters, cut at the last word
    boundary within them and ``tail`` appended."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    return (flat[:limit].rsplit(" ", 1)[0] or flat[:limit]) + tail
