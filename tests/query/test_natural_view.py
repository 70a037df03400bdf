"""Text views and spans: every term maps to the stretch of the input it was read from."""

from __future__ import annotations

import pytest

from logir.query import And, Not, Or
from logir.query.natural import Decomposition, decompose
from logir.query.natural.view import (
    View,
    content_words,
    has_content,
    is_function_word,
    plain_symbols,
    spoken_fillers,
)
from tests.query.natural_cases import T


def test_spans_point_at_the_source_text() -> None:
    text = "What are the symptoms of acute paronychia excluding anything related to rhinitis?"
    d = decompose(text)
    assert isinstance(d, Decomposition)
    assert d.spans == {
        "What are the symptoms of acute paronychia": (0, 41),
        "rhinitis": (72, 80),
    }
    assert text[72:80] == "rhinitis"


def test_span_of_a_parenthetical_cut_covers_both_pieces() -> None:
    text = "How did Daisy, Georgia (excluding climate) grow?"
    d = decompose(text)
    assert d.query == And(T("How did Daisy, Georgia grow"), Not(T("climate")))
    start, end = d.spans["How did Daisy, Georgia grow"]
    assert text[start:end] == "How did Daisy, Georgia (excluding climate) grow"
    start, end = d.spans["climate"]
    assert text[start:end] == "climate"


def test_span_of_a_shared_head_term(no_spacy: None) -> None:
    text = "Songs that either mention rain or mention snow"
    d = decompose(text)
    assert d.query == Or(T("Songs that mention rain"), T("Songs that mention snow"))
    assert text.__getitem__(slice(*d.spans["Songs that mention rain"])) == (
        "Songs that either mention rain"
    )
    assert d.spans["Songs that mention snow"] == (0, len(text))


def test_whole_text_span_ignores_outer_whitespace() -> None:
    d = decompose("  plain query  ")
    assert d.query == T("plain query")
    assert d.spans == {"plain query": (2, 13)}


def test_spans_follow_term_order() -> None:
    d = decompose("Aaron's profile, but don't mention Moses.")
    assert list(d.spans) == ["Aaron's profile", "Moses"]


def test_a_view_keeps_input_positions_through_cuts_and_tidying() -> None:
    v = View.of("films ,  by Nolan (not x) and", offset=10)
    cut = v.without([(9, 17)])  # "by Nolan" goes; tidying mends the comma and the spaces
    assert cut.text == "films, (not x) and"
    assert cut.pos[:8] == (10, 11, 12, 13, 14, 16, 17, 28)
    trimmed = cut.trim()  # the dangling "and" goes
    assert trimmed.text == "films, (not x)"
    assert trimmed.span() == (10, 35)


def test_an_acronym_is_no_function_word() -> None:
    assert is_function_word("us") and is_function_word("Us") and is_function_word("it")
    assert not is_function_word("US") and not is_function_word("IT")
    assert is_function_word("A")  # one capital letter: the article
    assert content_words("boxers from the US") == {"boxers", "us"}
    assert has_content("the US") and not has_content("for us")


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        # an emoji inside the text parts two clauses; at its start or end it is a tag
        (
            "\U0001f30b volcanoes in Iceland \U0001f6ab no guided tours",
            "  volcanoes in Iceland , no guided tours",
        ),
        # hashtags: the "#" inside is a space, the tags at the end go
        ("#vegan brownies minus the banana #baking", " vegan brownies minus the banana        "),
        # "C#" and "#1" are words of their own
        ("C# tutorials, #1 hits", "C# tutorials, #1 hits"),
        # a joined emoji (a zero-width joiner, a variation selector) is one run
        ("games \U0001f6cb\ufe0f\U0001f3ae for two", "games ,   for two"),
    ],
)
def test_plain_symbols_keeps_every_position(text: str, plain: str) -> None:
    out = plain_symbols(text)
    assert out == plain
    assert len(out) == len(text)


def test_plain_symbols_is_linear_on_a_long_run_of_spaces() -> None:
    """The scan back over the tags at the end does not restart at every space."""
    text = "a" + " " * 100_000 + "\U0001f680"
    assert plain_symbols(text) == "a" + " " * 100_001


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        # fillers go, padded with spaces
        ("um so my dog has itchy skin", "   so my dog has itchy skin"),
        ("okay so like ways to save money", "             ways to save money"),
        ("dividend stocks excluding like banks", "dividend stocks excluding      banks"),
        # a correction or a pause before an instruction or a new subject is a comma
        (
            "trails near denver actually skip boulder",
            "trails near denver," + " " * 9 + "skip boulder",
        ),
        ("takeout no wait not pizza", "takeout,        not pizza"),
        ("inception um i've seen it", "inception," + " " * 3 + "i've seen it"),
        # "no ... though" at the end, typed with no comma
        ("songs for a dance no country though", "songs for a dance,no country though"),
        # left as they are: a copula before "actually", "like" as a preposition, capitals,
        # "no" as the object of a verb
        ("movies that are actually not bad", "movies that are actually not bad"),
        ("movies like inception", "movies like inception"),
        ("UM hospital ER visits", "UM hospital ER visits"),
        ("i have no idea though", "i have no idea though"),
    ],
)
def test_spoken_fillers_keeps_every_position(text: str, plain: str) -> None:
    out = spoken_fillers(text)
    assert out == plain
    assert len(out) == len(text)


def test_spoken_fillers_is_linear_on_a_long_list() -> None:
    text = "films, excluding " + ", ".join(["um no"] * 20_000) + " though"
    assert len(spoken_fillers(text)) == len(text)
