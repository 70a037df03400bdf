"""Rule-based decomposition of natural language (logir.query.natural)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logir.query import And, Not, Or, Query, Term, is_purely_negative, natural, terms
from logir.query.natural import Decomposition, decompose


def T(text: str) -> Term:
    return Term(text)


@pytest.fixture
def no_spacy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force the regex-only path, as on an install without the nlp extra."""
    monkeypatch.setattr(natural, "_load_nlp", lambda: None)


@pytest.fixture
def with_spacy() -> None:
    pytest.importorskip("spacy")
    if not natural.spacy_available():
        pytest.skip(f"spaCy model {natural.SPACY_MODEL} not installed")


def q(text: str) -> Query:
    return decompose(text).query


# Rules that are plain regular expressions: the same result with or without spaCy.
REGEX_CASES: list[tuple[str, Query]] = [
    # no cue: the whole text, untouched
    ("What is the weather like today?", T("What is the weather like today?")),
    ("Why is the sky not green?", T("Why is the sky not green?")),
    # negation cues
    ("Aaron's profile, but don't mention Moses.", And(T("Aaron's profile"), Not(T("Moses")))),
    (
        "What are the symptoms of acute paronychia excluding anything related to rhinitis being "
        "complicated by sinusitis?",
        And(
            T("What are the symptoms of acute paronychia"),
            Not(T("rhinitis being complicated by sinusitis")),
        ),
    ),
    (
        "Introduce Achill Island, but do not mention Ireland.",
        And(T("Introduce Achill Island"), Not(T("Ireland"))),
    ),
    ("Tell me about Rome. Don't mention Caesar.", And(T("Tell me about Rome"), Not(T("Caesar")))),
    (
        "Can you introduce Shenyang without mentioning SIASUN UAV",
        And(T("Can you introduce Shenyang"), Not(T("SIASUN UAV"))),
    ),
    (
        "Mountains in Utah except for the Wasatch",
        And(T("Mountains in Utah"), Not(T("the Wasatch"))),
    ),
    ("Plays by Shakespeare other than Hamlet", And(T("Plays by Shakespeare"), Not(T("Hamlet")))),
    (
        "Songs about rain unrelated to the topic of floods",
        And(T("Songs about rain"), Not(T("floods"))),
    ),
    (
        "Explore the theme of memory in The Great Gatsby, excluding Gatsby's past with Daisy.",
        And(
            T("Explore the theme of memory in The Great Gatsby"), Not(T("Gatsby's past with Daisy"))
        ),
    ),
    (
        "Apart from being the creator of Raggedy Ann, what other roles did Johnny Gruelle have?",
        And(T("what other roles did Johnny Gruelle have"), Not(T("the creator of Raggedy Ann"))),
    ),
    (
        "In addition to Halston Sage, what other actors were in Before I Fall?",
        And(T("what other actors were in Before I Fall"), Not(T("Halston Sage"))),
    ),
    (
        "Can you tell me about Gareth Lewis, and could you please refrain from mentioning any "
        "information about Michael Gambon?",
        And(T("Can you tell me about Gareth Lewis"), Not(T("Michael Gambon"))),
    ),
    (
        "Which dog breeds were developed for hunting but were never used in dog shows?",
        And(T("Which dog breeds were developed for hunting"), Not(T("used in dog shows"))),
    ),
    (
        "Which country does not use the euro but joined the Schengen Area?",
        And(T("Which country joined the Schengen Area"), Not(T("use the euro"))),
    ),
    # parenthetical exclusions, several of them in one clause
    (
        "How do democracy (excluding Democracy in America) and dictatorship (excluding The "
        "Dictator's Handbook) differ?",
        And(
            T("How do democracy and dictatorship differ"),
            Not(T("Democracy in America")),
            Not(T("The Dictator's Handbook")),
        ),
    ),
    (
        "Who discovered penicillin, excluding Alexander Fleming, Howard Florey, and Ernst Chain?",
        And(
            T("Who discovered penicillin"),
            Not(T("Alexander Fleming, Howard Florey, and Ernst Chain")),
        ),
    ),
    # neither / nor
    (
        "Research on ion channels that is neither authored by Hodgkin nor about the patch clamp",
        And(
            T("Research on ion channels"),
            Not(T("authored by Hodgkin")),
            Not(T("Research about the patch clamp")),  # shares the head "Research"
        ),
    ),
    # several negated clauses: (A - a) OR (B - b)
    (
        "Films by Nolan but not Inception, or films by Villeneuve without Dune",
        Or(
            And(T("Films by Nolan"), Not(T("Inception"))),
            And(T("films by Villeneuve"), Not(T("Dune"))),
        ),
    ),
    (
        "What were the causes of the Korean War, excluding the armistice? What were the causes "
        "of the Vietnam War, excluding the fall of Saigon?",
        Or(
            And(T("What were the causes of the Korean War"), Not(T("the armistice"))),
            And(T("What were the causes of the Vietnam War"), Not(T("the fall of Saigon"))),
        ),
    ),
    # one exclusion over two sentences: one positive term
    (
        "What were the causes of the American Civil War (excluding slavery)? How did it compare "
        "to the English Civil War?",
        And(
            T(
                "What were the causes of the American Civil War? How did it compare to the "
                "English Civil War"
            ),
            Not(T("slavery")),
        ),
    ),
    # non-X words
    ("non-alcoholic drinks for kids", And(T("drinks for kids"), Not(T("alcoholic drinks")))),
    (
        "1992 non-American independent films",
        And(T("1992 independent films"), Not(T("American independent films"))),
    ),
    ("2010s non-fiction books", T("2010s non-fiction books")),
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
        And(T("Disaster books about London"), Not(T("Disaster books about war"))),
    ),
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
        "Hotels in Lisbon:\n- near the river\n- with a pool\n- no casino",
        And(T("Hotels in Lisbon"), T("near the river"), T("with a pool"), T("no casino")),
    ),
    # explicit either/or and both/and work without a parser
    (
        'Find video games that either borrow elements from "Asteroids" or incorporate mechanics '
        'from "Space Invaders".',
        Or(
            T('Find video games that borrow elements from "Asteroids"'),
            T('Find video games that incorporate mechanics from "Space Invaders"'),
        ),
    ),
]


@pytest.mark.parametrize(("text", "expected"), REGEX_CASES, ids=[c[0][:40] for c in REGEX_CASES])
def test_rules(text: str, expected: Query) -> None:
    assert q(text) == expected


@pytest.mark.parametrize(("text", "expected"), REGEX_CASES, ids=[c[0][:40] for c in REGEX_CASES])
def test_rules_without_spacy(no_spacy: None, text: str, expected: Query) -> None:
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
    # a name that holds "or" stays whole
    (
        "Who won the Nobel Prize in Physiology or Medicine in 1912?",
        T("Who won the Nobel Prize in Physiology or Medicine in 1912?"),
    ),
    # an "or" inside a negated clause is part of the concept
    (
        "Novels about Paris, excluding war or politics",
        And(T("Novels about Paris"), Not(T("war or politics"))),
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


def test_plain_or_is_not_split_without_spacy(no_spacy: None) -> None:
    assert q("films by Nolan or Villeneuve") == T("films by Nolan or Villeneuve")


def test_both_and_without_spacy(no_spacy: None) -> None:
    assert q("Who was involved in both the 1973 coup and the Saur Revolution?") == And(
        T("Who was involved in the 1973 coup"), T("Who was involved in the Saur Revolution")
    )


def test_cues_name_the_rules() -> None:
    d = decompose("Fauna of South China that are also Birds of Vietnam but not Birds of Myanmar")
    assert d.cues == ["negation:but-not", "template:that-are-also"]
    assert decompose("plain words").cues == []
    assert "conjunction:list" in decompose("Find: 1. red 2. blue").cues


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


@pytest.mark.parametrize(
    "text",
    [
        "not",
        "never mind",
        "excluding everything",
        "Don't mention cats.",
        "neither cats nor dogs",
        "without",
        "(excluding)",
    ],
)
def test_no_purely_negative_result(text: str) -> None:
    result = q(text)
    assert not is_purely_negative(result)


def test_empty_text_is_an_error() -> None:
    with pytest.raises(ValueError, match="empty"):
        decompose("   ")
    with pytest.raises(TypeError):
        decompose(None)  # type: ignore[arg-type]


def test_spacy_failure_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        def __call__(self, text: str) -> None:
            raise RuntimeError("parser broke")

    monkeypatch.setattr(natural, "_load_nlp", lambda: Broken())
    assert q("films by Nolan or Villeneuve") == T("films by Nolan or Villeneuve")


def test_missing_spacy_module(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def fake_import(name: str, *args: object, **kwargs: object) -> object:
        if name == "spacy" or name.startswith("spacy."):
            raise ImportError("no spacy here")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    natural._load_nlp.cache_clear()
    monkeypatch.setattr(builtins, "__import__", fake_import)
    try:
        assert natural._load_nlp() is None
        assert not natural.spacy_available()
        assert q("Aaron's profile, but don't mention Moses.") == And(
            T("Aaron's profile"), Not(T("Moses"))
        )
    finally:
        monkeypatch.undo()
        natural._load_nlp.cache_clear()


def test_env_switch_disables_spacy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOGIR_NO_SPACY", "1")
    natural._load_nlp.cache_clear()
    try:
        assert natural._load_nlp() is None
    finally:
        monkeypatch.delenv("LOGIR_NO_SPACY")
        natural._load_nlp.cache_clear()


# Property: any text decomposes without error into non-empty terms, never purely negative.

_VOCAB = [
    "films", "by", "Nolan", "or", "Villeneuve", "not", "never", "but", "and", "both", "either",
    "neither", "nor", "excluding", "except", "without", "other than", "apart from", "besides",
    "don't mention", "non-alcoholic", "that are also", "that are not", "(", ")", ",", ".", "?",
    "1.", "2.", "\n- ", ":", '"', "anything related to", "in addition to", "the", "Paris",
]  # fmt: skip


@st.composite
def query_texts(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.text(min_size=1, max_size=60).filter(lambda s: s.strip()))
    words = draw(st.lists(st.sampled_from(_VOCAB), min_size=1, max_size=14))
    return " ".join(words) if " ".join(words).strip() else "x"


def _check(text: str) -> None:
    d = decompose(text)
    for term in terms(d.query):
        assert term.text.strip()
        assert term.text in d.spans
        start, end = d.spans[term.text]
        assert 0 <= start < end <= len(text)
    assert not is_purely_negative(d.query)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query_texts())
def test_decompose_never_fails(text: str) -> None:
    _check(text)


@settings(max_examples=100, deadline=None)
@given(query_texts())
def test_decompose_never_fails_without_spacy(text: str) -> None:
    original = natural._load_nlp
    natural._load_nlp = lambda: None  # type: ignore[assignment]
    try:
        _check(text)
    finally:
        natural._load_nlp = original  # type: ignore[assignment]
