"""Numbered and bulleted condition lists."""

from __future__ import annotations

import pytest

from logir.query import And, Not, Query
from logir.query.natural import decompose
from tests.query.natural_cases import T, q

# Rules that are plain regular expressions: the same result with or without spaCy.
CASES: list[tuple[str, Query]] = [
    # numbered and bulleted condition lists (MultiConIR instruction style)
    (
        "Find a movie that meets the following conditions: 1. Action genre, 2. Directed by James "
        "Cameron, 3. Released in the 1990s",
        And(T("Action genre"), T("Directed by James Cameron"), T("Released in the 1990s")),
    ),
    (
        "Find a case that meets the following conditions: 1) middle-aged female patient; "
        "2) hospitalized for breathing difficulties; 3) not allergic to antibiotics",
        And(
            T("middle-aged female patient"),
            T("hospitalized for breathing difficulties"),
            Not(T("allergic to antibiotics")),
        ),
    ),
    (
        "Find a document that satisfies: (1) written in French (2) about cheese",
        And(T("written in French"), T("about cheese")),
    ),
    (
        # an item that only leaves something out is a NOT (session 37: "3) Finland not required")
        "Hotels in Lisbon:\n- near the river\n- with a pool\n- no casino",
        And(T("Hotels in Lisbon"), T("near the river"), T("with a pool"), Not(T("casino"))),
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_list_rules(text: str, expected: Query) -> None:
    assert q(text) == expected


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_list_rules_without_spacy(no_spacy: None, text: str, expected: Query) -> None:
    assert q(text) == expected
    assert decompose(text).parser == "regex"
