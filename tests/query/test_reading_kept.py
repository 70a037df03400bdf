"""A syntax reading depends on its text alone: a short text is read once, then shared."""

from __future__ import annotations

import pytest

from logir.query import QuerySyntaxError
from logir.query.reading import read


def test_a_short_syntax_text_is_read_once() -> None:
    text = '"kept alpha" AND NOT "kept beta"'
    first = read(text, "auto")
    assert read(text, "auto") is first
    assert read(text, "syntax") is first  # the same reading whichever mode found it
    assert first.mode_used == "syntax" and first.notes == ()


def test_a_long_text_is_read_each_time() -> None:
    text = " OR ".join(f'"long{i}"' for i in range(400))
    assert len(text) > 2000
    a, b = read(text, "syntax"), read(text, "syntax")
    assert a == b and a is not b


def test_a_syntax_error_is_raised_every_time() -> None:
    for _ in range(2):
        with pytest.raises(QuerySyntaxError):
            read('"open AND', "syntax")
    fallback = read('"open AND', "auto")  # auto still falls back to natural language
    assert fallback.mode_used == "natural" and fallback.notes
