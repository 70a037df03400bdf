"""An excluded nation is read by its names: a passage whose lead says "an English tenor" is of
the nation "the brits" leaves out."""

from __future__ import annotations

import numpy as np
import pytest

from logir.index.base import attach_passages
from logir.index.lexical import BM25Scorer
from logir.logic import get_composer
from logir.logic.nations import (
    NATIONS,
    named_in,
    names_of,
    nation_of,
    nations_in_lead,
    said_in_lead,
    wanted_nations,
)


@pytest.mark.parametrize(
    ("term", "key"),
    [
        ("the brits", "british"),
        ("brits", "british"),
        ("americans", "american"),
        ("US", "american"),
        ("the states", "american"),
        ("made in america", "american"),
        ("those born in Britain", "british"),
        ("england", "english"),
        ("aussies", "australian"),
        ("italian ones", "italian"),
        ("american artists", "american"),
        ("German breeds", "german"),
        ("Australian performers", "australian"),  # a nation's people by their role
        ("british poets", "british"),
        ("the stars", None),
        ("American Civil War", None),  # a nation's event, not its people or works
        ("Spanish conquest", None),
        ("UK", "british"),
        ("Turkey", "turkish"),  # the country, written as a name
        ("turkey", None),  # the bird
        ("chile", None),  # the pepper
        ("US Navy", None),  # a nation and more
        ("invasion of Italy", None),
        ("Japanese American internment", None),
        ("", None),
    ],
)
def test_nation_of_a_term(term: str, key: str | None) -> None:
    assert nation_of(term) == key


def test_a_nation_reads_the_nations_it_is_made_of() -> None:
    names = names_of("british")
    assert {"british", "english", "scottish", "welsh", "northern irish", "UK"} <= set(names)
    assert "british" not in names_of("english")  # an Englishman is British, not the reverse
    for key, nation in NATIONS.items():  # every part is a nation of the table
        assert all(p in NATIONS for p in nation.parts), key


@pytest.mark.parametrize(
    ("text", "key", "said"),
    [
        ("Peter Auty (born 4 November 1969) is an English operatic tenor.", "british", True),
        ("Gavin O'Connor (born 1963) is an American film director.", "american", True),
        ("Bob Lutz is a former U.S. tennis player.", "american", True),
        ("Helmut Kohl was a West German politician.", "german", True),
        ("Kiri Te Kanawa is a New Zealand soprano.", "new zealand", True),
        ("Kiri Te Kanawa is a New Zealand soprano.", "british", False),
        ("Diego Forlan is a South American footballer.", "american", False),
        ("Lagaan is a 2001 Indian English-language film.", "english", False),
        ("Boston is the largest city in New England.", "english", False),
        ("Vancouver is a coastal city in British Columbia.", "british", False),
        ("The wild turkey is a large bird.", "turkish", False),
        ("Ankara is the capital of Turkey.", "turkish", True),
        ("They told us about the dance.", "american", False),  # a pronoun, not the US
        ("The film features several American Indian tribes.", "indian", False),
        ("Ivan Dodig is a Croatian tennis player.", "american", False),
    ],
)
def test_said_in_lead(text: str, key: str, said: bool) -> None:
    assert said_in_lead(text, key) is said


def test_named_in_reads_the_whole_text() -> None:
    assert named_in("Irish history, literature and culture", "irish")
    assert not named_in("South American footballers", "american")
    assert not named_in("history of ink", "chinese")


def test_a_nation_named_past_the_lead_is_not_said() -> None:
    late = "Robert Lutz is a former tennis player. " + "He won many doubles titles. " * 6
    assert not said_in_lead(late + "He was among the top American players.", "american")
    assert said_in_lead("He was among the top American players. " + late, "american")


def _scorer(passages: list[str]) -> BM25Scorer:
    scorer = BM25Scorer.build(passages)
    attach_passages(scorer, passages)
    return scorer


def test_nations_in_lead_is_false_without_passages() -> None:
    scorer = BM25Scorer.build(["An English tenor."])
    assert nations_in_lead(scorer, ["british"], np.arange(1)).tolist() == [[False]]


def test_a_passage_of_the_excluded_nation_falls_below_the_others() -> None:
    career = " He has sung with opera companies across the world for many seasons." * 3
    passages = [
        "Peter Auty (born 1969) is an English operatic tenor." + career,
        "Kiri Te Kanawa (born 1944) is a New Zealand operatic soprano." + career,
        "Tamara Wilson is an American operatic soprano." + career,
        "Jonas Kaufmann (born 1969) is a German operatic tenor." + career,
    ]
    scorer = _scorer(passages)
    rows = np.arange(len(passages))
    query = "operatic tenors and sopranos, no brits"
    on = get_composer("auto,dense_tau=1").score(query, scorer, rows)
    off = get_composer("auto,dense_tau=1,nation=0").score(query, scorer, rows)
    assert on[0] < off[0]  # "English" in the lead is British
    assert on[0] < min(on[1:])
    assert np.array_equal(on[1:], off[1:])  # the others name no part of Britain
    # logir syntax too, and an American excluded leaves the Briton alone
    syntax = get_composer("auto,dense_tau=1").score(
        '"operatic tenors" AND NOT "American"', scorer, rows
    )
    assert syntax[2] < min(syntax[[0, 1, 3]])


def test_a_nation_only_as_the_term_reads_it() -> None:
    plot = " The story follows a family haunted in an old house by night." * 3
    passages = [
        "The Ring is a 2002 American horror film." + plot,
        "Ringu is a 1998 Japanese horror film." + plot,
        "Chinese ink sticks are made of soot and animal glue, an ink history of centuries.",
        "Iron gall ink was the standard writing ink in Europe, a history of many centuries.",
    ]
    scorer = _scorer(passages)
    rows = np.arange(len(passages))

    def both(query: str) -> tuple[np.ndarray, np.ndarray]:
        on = get_composer("auto,dense_tau=1").score(query, scorer, rows)
        return on, get_composer("auto,dense_tau=1,nation=0").score(query, scorer, rows)

    # the modifier that narrows the positive part names a nation: "made in america"
    on, off = both('"horror films" AND NOT "horror films made in america"')
    assert on[0] < off[0] and on[0] < on[1]
    # "Chinese ink" less the positive part's "ink" is no nation: the passage keeps its score
    on, off = both('"history of ink" AND NOT "Chinese ink"')
    assert np.array_equal(on, off)
    # a nation the positive part names too: the bands are left out, not Japan
    on, off = both('"Japanese horror films" AND NOT "Japanese bands"')
    assert np.array_equal(on, off)


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("mexican people, actors boxers musicians wahtever", ["mexican"]),
        ("british actors for my film study", ["british"]),
        ("aussie actors n actresses", ["australian"]),
        ("english or american novelists", ["english", "american"]),
        ("dutch things, ships trade batles whatever", ["dutch"]),
        ("latin american actors", []),  # not the American people
        ("american film institute: its festivals", []),  # a name the role word is part of
        ("American Civil War campaigns", []),  # a nation's event, no people or works
        ("Apollo the Greek god", []),
    ],
)
def test_wanted_nations(text: str, keys: list[str]) -> None:
    assert wanted_nations(text) == keys


def test_a_passage_of_the_nation_asked_for_rises() -> None:
    career = " He played in many films and on stage over a long career." * 3
    passages = [
        "Gael Garcia Bernal (born 1978) is a Mexican actor and director." + career,
        "Tom Hardy (born 1977) is an English actor and producer." + career,
        "Pablo Escobar was a drug lord who led the Medellin Cartel." + career,
    ]
    scorer = _scorer(passages)
    rows = np.arange(len(passages))
    query = "mexican people, actors or musicians, no drug lords"
    on = get_composer("auto,dense_tau=1").score(query, scorer, rows)
    off = get_composer("auto,dense_tau=1,pos_nation=0").score(query, scorer, rows)
    assert on[0] == pytest.approx(off[0] + 0.2, abs=1e-5)  # "Mexican" in its lead
    assert np.array_equal(on[1:], off[1:])  # no Mexican in the others' leads
    assert on[0] > on[1]
