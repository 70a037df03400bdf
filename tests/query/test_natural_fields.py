"""A query written as labelled fields: which labels leave their items out, and the reading."""

from __future__ import annotations

import pytest

from logir.query.natural.fields import fields, leaves_out
from logir.query.natural.view import View
from logir.query.reading import read


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("exclude", True),
        ("EXCLUSIONS", True),
        ("Exclusion criteria", True),
        ("not  wanted", True),
        ("don\u2019t want", True),
        ("topic", False),
        ("era", False),
        ("Research question", False),
    ],
)
def test_leaves_out(label: str, expected: bool) -> None:
    assert leaves_out(label) is expected


def test_fields_split_at_slashes_semicolons_and_sentences() -> None:
    got = fields(View.of("must: jazz pianists / era: 1950s / exclude: Thelonious Monk"))
    assert got is not None
    assert [(label, v.text) for label, v in got] == [
        ("must", "jazz pianists"),
        ("era", "1950s"),
        ("exclude", "Thelonious Monk"),
    ]
    got = fields(View.of("TOPIC: bridges. SCOPE: 20th century. EXCLUSIONS: Tacoma Narrows."))
    assert got is not None
    assert [(label, v.text) for label, v in got] == [
        ("TOPIC", "bridges"),
        ("SCOPE", "20th century"),
        ("EXCLUSIONS", "Tacoma Narrows"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        # one label is a title or a heading, not a form
        "Dune: Part Two reviews",
        "novelty search: drone propeller noise reduction. skip serrated-edge designs",
        "amorphous/glassy solids: skip",
        # a label that leaves out, but nothing asked before it
        "exclude: Thelonious Monk",
    ],
)
def test_text_that_is_not_fields(text: str) -> None:
    assert fields(View.of(text)) is None


@pytest.mark.parametrize(
    ("text", "form"),
    [
        (
            "must: jazz pianists / era: 1950s / exclude: Thelonious Monk",
            '"jazz pianists" AND "1950s" AND NOT "Thelonious Monk"',
        ),
        (
            "topic: marathon training plans; level: beginner; omit: heart-rate zones, carb loading",
            '"marathon training plans" AND "beginner" AND NOT "heart-rate zones" AND NOT '
            '"carb loading"',
        ),
        # a comment in brackets after an item is no part of it
        (
            "query: houseplants for low light / not wanted: succulents (they always die on me)",
            '"houseplants for low light" AND NOT "succulents"',
        ),
        (
            "TOPIC: suspension bridge engineering. SCOPE: 20th century. EXCLUSIONS: Tacoma "
            "Narrows (already documented), Golden Gate.",
            '"suspension bridge engineering" AND "20th century" AND NOT "Tacoma Narrows" AND NOT '
            '"Golden Gate"',
        ),
        # a field that asks for two things keeps its own reading
        (
            "Background: small-business owner. Question: grants or loans. Jurisdiction: Scotland.",
            '"small-business owner" AND ("grants" OR "loans") AND "Scotland"',
        ),
    ],
)
def test_fields_read(no_spacy: None, text: str, form: str) -> None:
    assert read(text).logical_form == form
