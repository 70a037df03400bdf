"""The positive part: non-X words (kept whole) and the QUEST ``X that are also Y`` templates."""

from __future__ import annotations

import pytest

from logir.query import And, Not, Query
from logir.query.natural import decompose
from tests.query.natural_cases import T, q

# Rules that are plain regular expressions: the same result with or without spaCy.
CASES: list[tuple[str, Query]] = [
    # a non-X word is one concept, except before a capitalised word (a category left out)
    ("non-alcoholic drinks for kids", T("non-alcoholic drinks for kids")),
    # names of their own: a disease, an accounting measure
    ("non-Hodgkin lymphoma treatment", T("non-Hodgkin lymphoma treatment")),
    ("non-GAAP earnings explained", T("non-GAAP earnings explained")),
    (
        "1992 non-American independent films",
        And(T("1992 independent films"), Not(T("American independent films"))),
    ),
    ("2010s non-fiction books", T("2010s non-fiction books")),
    # an acronym after the word is content, not a function word ("IT", not "it")
    ("non-American IT companies", And(T("IT companies"), Not(T("American IT companies")))),
    # QUEST templates
    (
        "Fauna of South China that are also Birds of Vietnam but not Birds of Myanmar",
        And(T("Fauna of South China"), T("Birds of Vietnam"), Not(T("Birds of Myanmar"))),
    ),
    (
        "what are Oceanian realm fauna that are also both Birds of North America and Fauna of "
        "Europe",
        And(T("Oceanian realm fauna"), T("Birds of North America"), T("Fauna of Europe")),
    ),
    ("Mammals that are also Cetaceans", And(T("Mammals"), T("Cetaceans"))),
    (
        "Endemic flora of Peninsular Malaysia that are not Trees of Malaya",
        And(T("Endemic flora of Peninsular Malaysia"), Not(T("Trees of Malaya"))),
    ),
    (
        "Birds found in Sierra Madre Oriental that aren't found in Sierra Madre Occidental",
        And(
            T("Birds found in Sierra Madre Oriental"),
            Not(T("Birds found in Sierra Madre Occidental")),
        ),
    ),
    (
        "Disaster books about London but not war",
        And(T("Disaster books about London"), Not(T("war"))),
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_positive_rules(text: str, expected: Query) -> None:
    assert q(text) == expected


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_positive_rules_without_spacy(no_spacy: None, text: str, expected: Query) -> None:
    assert q(text) == expected
    assert decompose(text).parser == "regex"
