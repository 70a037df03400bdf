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
    (
        "nordic holiday ideas: 1) Norway fjords 2) Sweden 3) Finland not required",
        And(T("nordic holiday ideas"), T("Norway fjords"), T("Sweden"), Not(T("Finland"))),
    ),
    (
        "farm stay options: 1) near a lake 2) dog friendly 3) anything but a farm",
        And(T("farm stay options"), T("near a lake"), T("dog friendly"), Not(T("farm"))),
    ),
    # a verdict after the item; an item that asks for something of its own keeps its reading
    (
        "hotels: 1) near the beach 2) cheap, no casino",
        And(T("hotels"), T("near the beach"), T("cheap"), Not(T("casino"))),
    ),
    (
        "novels: 1) set in Paris 2) written before 1900 3) romance is out",
        And(T("novels"), T("set in Paris"), T("written before 1900"), Not(T("romance"))),
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_list_rules(text: str, expected: Query) -> None:
    assert q(text) == expected


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_list_rules_without_spacy(no_spacy: None, text: str, expected: Query) -> None:
    assert q(text) == expected
    assert decompose(text).parser == "regex"
