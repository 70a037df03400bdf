"""The rule that judges a reading against an intended logical form (logir.query.compare)."""

from __future__ import annotations

import pytest

from logir.query import And, Not, Or, Term
from logir.query.compare import content_words, same_form, stem


def test_content_words_drop_function_words_and_stem() -> None:
    assert content_words("the films by Nolan") == {"film", "nolan"}
    assert content_words("countries bordering France") == content_words(
        "which countries border France"
    )
    assert stem("played") == stem("play") and stem("cities") == "city"
    assert stem("glass") == "glass"  # a double s is no plural
    assert stem("serve") == stem("served") and stem("causes") == stem("causing")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ('"films by Nolan"', '"Nolan films"'),
        ('"a" AND "b" AND "c"', '"c" AND ("b" AND "a")'),
        ('"a" OR ("b" OR "c")', '"c" OR "b" OR "a"'),
        ('"vitamin D" AND NOT "bone"', 'NOT "bones" AND "Vitamin D"'),
        # a negated term is compared on the words it does not share with the positive part
        (
            '"books about kings" AND NOT "books about Napoleon"',
            '"books about kings" AND NOT "Napoleon"',
        ),
        # De Morgan inside an AND
        (
            '"castles" AND NOT ("ruins" OR "tourism")',
            '"castles" AND NOT "ruins" AND NOT "tourism"',
        ),
    ],
)
def test_same(a: str, b: str) -> None:
    assert same_form(a, b)
    assert same_form(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ('"films by Nolan or Villeneuve"', '"films by Nolan" OR "films by Villeneuve"'),
        ('"a" AND "b"', '"a" OR "b"'),
        ('"a" AND NOT "b"', '"a" AND "b"'),
        ('"a" AND NOT "b"', '"a" AND NOT "b c"'),
        ('"vitamin D"', '"vitamin"'),
        # shared words are forgiven only inside a NOT
        ('"books about kings" AND "books"', '"books about kings" AND "kings"'),
        # NOT (a AND b) is no NOT a AND NOT b
        (
            '"castles" AND NOT ("ruins" AND "tourism")',
            '"castles" AND NOT "ruins" AND NOT "tourism"',
        ),
    ],
)
def test_different(a: str, b: str) -> None:
    assert not same_form(a, b)
    assert not same_form(b, a)


def test_queries_and_text_mix() -> None:
    q = And(Or(Term("Nolan films"), Term("Villeneuve films")), Not(Term("sci-fi")))
    assert same_form(q, '("films by Nolan" OR "films by Villeneuve") AND NOT "sci-fi"')
