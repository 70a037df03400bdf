"""Coordination (``or``, ``either ... or``, ``both ... and``) with and without spaCy, and the
optional spaCy pipeline itself."""

from __future__ import annotations

import pytest

from logir.query import And, Not, Or, Query
from logir.query.natural import decompose, nlp
from tests.query.natural_cases import T, q


@pytest.fixture
def with_spacy() -> None:
    pytest.importorskip("spacy")
    if not nlp.spacy_available():
        pytest.skip(f"spaCy model {nlp.SPACY_MODEL} not installed")


# Rules that are plain regular expressions: the same result with or without spaCy.
CASES: list[tuple[str, Query]] = [
    # explicit either/or and both/and work without a parser
    (
        'Find video games that either borrow elements from "Asteroids" or incorporate mechanics '
        'from "Space Invaders".',
        Or(
            T('Find video games that borrow elements from "Asteroids"'),
            T('Find video games that incorporate mechanics from "Space Invaders"'),
        ),
    ),
    # an excluded list "A or B" is two exclusions
    (
        "Novels about Paris, excluding war or politics",
        And(T("Novels about Paris"), Not(T("war")), Not(T("politics"))),
    ),
    # a shared tail that modifies the coordination is a conjunct of its own
    (
        "either aspirin or statins for stroke prevention",
        And(Or(T("aspirin"), T("statins")), T("for stroke prevention")),
    ),
    # not only ... but also: a conjunction
    (
        "artists who were not only painters but also sculptors",
        And(T("artists who were painters"), T("artists who were sculptors")),
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_explicit_coordination(text: str, expected: Query) -> None:
    assert q(text) == expected


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_explicit_coordination_without_spacy(no_spacy: None, text: str, expected: Query) -> None:
    assert q(text) == expected
    assert decompose(text).parser == "regex"


SPACY_CASES: list[tuple[str, Query]] = [
    ("films by Nolan or Villeneuve", Or(T("films by Nolan"), T("films by Villeneuve"))),
    (
        "Find areas that suffer from smog or have experienced Variscan orogeny.",
        Or(
            T("Find areas that suffer from smog"),
            T("Find areas that have experienced Variscan orogeny"),
        ),
    ),
    (
        "Fish that are from both Macaronesia and the Atlantic Ocean.",
        And(T("Fish that are from Macaronesia"), T("Fish that are from the Atlantic Ocean")),
    ),
    # a word that sorts by people or place goes with every bare noun of the list; a quality
    # that makes one name with its noun does not
    ("algerian history or culture", Or(T("algerian history"), T("algerian culture"))),
    (
        "Italian desserts or cheeses, not tiramisu",
        And(Or(T("Italian desserts"), T("Italian cheeses")), Not(T("tiramisu"))),
    ),
    ("red wine or beer", Or(T("red wine"), T("beer"))),
    ("nitric acid or ammonia", Or(T("nitric acid"), T("ammonia"))),
    # a name, or a name and words in lower case: those words go with every name
    ("Netflix or HBO shows", Or(T("Netflix shows"), T("HBO shows"))),
    (
        "ATM or ATR responses to replication stress",
        And(Or(T("ATM responses"), T("ATR responses")), T("to replication stress")),
    ),
    ("Netflix or HBO Max", Or(T("Netflix"), T("HBO Max"))),
    # a name that holds "or" stays whole
    (
        "Who won the Nobel Prize in Physiology or Medicine in 1912?",
        T("Who won the Nobel Prize in Physiology or Medicine in 1912?"),
    ),
    # disjunction of the positive part next to an exclusion
    (
        "Which materials can be used in art or manufacturing but are not obtained from elephants?",
        And(
            Or(
                T("Which materials can be used in art"),
                T("Which materials can be used in manufacturing"),
            ),
            Not(T("obtained from elephants")),
        ),
    ),
]


@pytest.mark.parametrize(("text", "expected"), SPACY_CASES, ids=[c[0][:40] for c in SPACY_CASES])
def test_coordination_with_spacy(with_spacy: None, text: str, expected: Query) -> None:
    d = decompose(text)
    assert d.query == expected
    assert d.parser == "spacy"


PLAIN_OR_CASES: list[tuple[str, Query]] = [
    ("films by Nolan or Villeneuve", Or(T("films by Nolan"), T("films by Villeneuve"))),
    (
        "jazz musicians from New Orleans or Chicago",
        Or(T("jazz musicians from New Orleans"), T("jazz musicians from Chicago")),
    ),
    (
        "Ming dynasty novels or Chinese historical novels",
        Or(T("Ming dynasty novels"), T("Chinese historical novels")),
    ),
    (
        "cheeses from France or Italy made from goat milk",
        And(Or(T("cheeses from France"), T("cheeses from Italy")), T("made from goat milk")),
    ),
    (
        "health benefits of coffee or green tea",
        Or(T("health benefits of coffee"), T("health benefits of green tea")),
    ),
    (
        "films by Nolan, Villeneuve or Fincher",
        Or(T("films by Nolan"), T("films by Villeneuve"), T("films by Fincher")),
    ),
    # a possessive needs the head the last alternative names
    (
        "cheese made from sheep's or goat's milk",
        Or(T("cheese made from sheep's milk"), T("cheese made from goat's milk")),
    ),
    # without spaCy the words before the first noun go with every alternative
    ("algerian history or culture", Or(T("algerian history"), T("algerian culture"))),
    (
        "Italian desserts or cheeses, not tiramisu",
        And(Or(T("Italian desserts"), T("Italian cheeses")), Not(T("tiramisu"))),
    ),
    # a name that holds "or" stays whole
    (
        "Who won the Nobel Prize in Physiology or Medicine in 1912?",
        T("Who won the Nobel Prize in Physiology or Medicine in 1912?"),
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"), PLAIN_OR_CASES, ids=[c[0][:40] for c in PLAIN_OR_CASES]
)
def test_plain_or_without_spacy(no_spacy: None, text: str, expected: Query) -> None:
    assert q(text) == expected


def test_both_and_without_spacy(no_spacy: None) -> None:
    assert q("Who was involved in both the 1973 coup and the Saur Revolution?") == And(
        T("Who was involved in the 1973 coup"), T("Who was involved in the Saur Revolution")
    )


def test_spacy_failure_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        def __call__(self, text: str) -> None:
            raise RuntimeError("parser broke")

    monkeypatch.setattr(nlp, "load_nlp", lambda: Broken())
    # the reading without a parser
    assert q("films by Nolan or Villeneuve") == Or(T("films by Nolan"), T("films by Villeneuve"))


def test_missing_spacy_module(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def fake_import(name: str, *args: object, **kwargs: object) -> object:
        if name == "spacy" or name.startswith("spacy."):
            raise ImportError("no spacy here")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    nlp.load_nlp.cache_clear()
    monkeypatch.setattr(builtins, "__import__", fake_import)
    try:
        assert nlp.load_nlp() is None
        assert not nlp.spacy_available()
        assert q("Aaron's profile, but don't mention Moses.") == And(
            T("Aaron's profile"), Not(T("Moses"))
        )
    finally:
        monkeypatch.undo()
        nlp.load_nlp.cache_clear()


def test_env_switch_disables_spacy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOGIR_NO_SPACY", "1")
    nlp.load_nlp.cache_clear()
    try:
        assert nlp.load_nlp() is None
    finally:
        monkeypatch.delenv("LOGIR_NO_SPACY")
        nlp.load_nlp.cache_clear()


def test_an_alternative_that_names_the_shared_noun_takes_it_once() -> None:
    """spaCy joins "sensitive dyes" to "calcium" and leaves "dyes" as the shared tail."""
    pytest.importorskip("spacy")
    assert q("imaging with voltage sensitive dyes or calcium dyes") == Or(
        T("imaging with voltage sensitive dyes"), T("imaging with calcium dyes")
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "women who founded or ran their own business",
            Or(T("women who founded their own business"), T("women who ran their own business")),
        ),
        (
            "studies that develop or evaluate risk scores",
            Or(T("studies that develop risk scores"), T("studies that evaluate risk scores")),
        ),
    ],
)
def test_verbs_after_a_relative_share_their_object(text: str, expected: Query) -> None:
    assert q(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "HTLV-1 and adult T-cell leukaemia: how patients present or how common the infection"
            " is",
            Or(
                T("HTLV-1 and adult T-cell leukaemia: how patients present"),
                T("HTLV-1 and adult T-cell leukaemia: how common the infection is"),
            ),
        ),
        (
            "dissenters, where they were jailed or where they found refuge",
            Or(T("dissenters, where they were jailed"), T("dissenters, where they found refuge")),
        ),
    ],
)
def test_a_second_question_word_opens_each_alternative(text: str, expected: Query) -> None:
    """Before, the parse left "how patients" in the shared head and a rule for "preventing or
    treating peanut allergy" lent "common the infection is" to "present"."""
    pytest.importorskip("spacy")
    assert q(text) == expected
