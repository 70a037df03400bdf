"""Assembly: several negated clauses, cue names, errors and what every decomposition keeps."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logir.query import And, Not, Or, Query, is_purely_negative, natural, terms
from logir.query.natural import decompose, nlp
from tests.query.natural_cases import T, q

# Rules that are plain regular expressions: the same result with or without spaCy.
CASES: list[tuple[str, Query]] = [
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
            And(T("What were the causes of the Korean War"), Not(T("armistice"))),
            And(T("What were the causes of the Vietnam War"), Not(T("fall of Saigon"))),
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
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_clause_rules(text: str, expected: Query) -> None:
    assert q(text) == expected


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_clause_rules_without_spacy(no_spacy: None, text: str, expected: Query) -> None:
    assert q(text) == expected
    assert decompose(text).parser == "regex"


def test_cues_name_the_rules() -> None:
    d = decompose("Fauna of South China that are also Birds of Vietnam but not Birds of Myanmar")
    assert d.cues == ["negation:but-not", "template:that-are-also"]
    assert decompose("plain words").cues == []
    assert "conjunction:list" in decompose("Find: 1. red 2. blue").cues


def test_cue_names_are_exported_constants() -> None:
    assert natural.NEGATION_BUT_NOT == "negation:but-not"
    assert natural.TEMPLATE_THAT_ARE_ALSO == "template:that-are-also"
    assert len(set(natural.CUE_NAMES)) == len(natural.CUE_NAMES)
    text = "Fauna of South China that are also Birds of Vietnam but not Birds of Myanmar"
    assert set(decompose(text).cues) <= set(natural.CUE_NAMES)


def test_empty_text_is_an_error() -> None:
    with pytest.raises(ValueError, match="empty"):
        decompose("   ")
    with pytest.raises(TypeError):
        decompose(None)  # type: ignore[arg-type]


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
    original = nlp.load_nlp
    nlp.load_nlp = lambda: None  # type: ignore[assignment]
    try:
        _check(text)
    finally:
        nlp.load_nlp = original  # type: ignore[assignment]


def test_loading_spacy_is_outside_the_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process's first reading loads spaCy, which may take seconds; it must not time out."""
    import time

    from logir.limits import MAX_NATURAL_SECONDS

    real = nlp.load_nlp

    def slow_first_load() -> object:
        end = time.thread_time() + MAX_NATURAL_SECONDS + 0.2
        while time.thread_time() < end:  # work, not sleep: the budget counts CPU time
            pass
        monkeypatch.setattr(nlp, "load_nlp", real)
        return real()

    monkeypatch.setattr(nlp, "load_nlp", slow_first_load)
    got = decompose("films by Nolan or Villeneuve but not sci-fi").query
    assert "NOT" in str(got)


def test_the_budget_counts_cpu_time_not_waiting() -> None:
    """Waiting for a core (a loaded machine) spends no budget; work does."""
    import time

    from logir.query.natural.build import Builder, QueryTooComplex

    b = Builder(0.2)
    time.sleep(0.3)
    b.check()  # only waited
    end = time.thread_time() + 0.3
    while time.thread_time() < end:
        pass
    with pytest.raises(QueryTooComplex, match="took over 0.2 s"):
        b.check()
