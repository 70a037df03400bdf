"""The grounding rule of LLM logical forms (logir.query.grounding)."""

from __future__ import annotations

import pytest

from logir.query import parse
from logir.query.grounding import check_grounding, content_words, word_forms

NOLAN = "films directed by Christopher Nolan or Denis Villeneuve"


@pytest.mark.parametrize(
    ("question", "form"),
    [
        (NOLAN, '"films directed by Christopher Nolan" OR "films directed by Denis Villeneuve"'),
        (NOLAN, '"movies by Christopher Nolan" OR "movies by Denis Villeneuve"'),  # one synonym
        ("Which birds of New Zealand are not flightless?", '"NZ birds" AND NOT "flightless birds"'),
        ("board games excluding deckbuilding ones", '"board games" AND NOT "deck-building games"'),
        ("board games but not deck-building", '"board games" AND NOT "deckbuilding"'),
        ("Nolan's stories", '"story by Nolan"'),
        ("What causes the northern lights to change colour?", '"causes of the colours"'),
    ],
)
def test_grounded_forms(question: str, form: str) -> None:
    assert check_grounding(question, parse(form)) is None


def test_copied_example_is_not_grounded() -> None:
    form = parse(
        '("science fiction novels by Ursula K. Le Guin" OR "science fiction novels by Octavia '
        'Butler") AND "novels published after 1980"'
    )
    why = check_grounding(NOLAN, form)
    assert why is not None
    assert "term 'novels published after 1980' has no content word of the question" in why
    assert "0 of 12 content words of the form are the question's (at least 60% must be" in why


def test_each_term_needs_a_word_of_the_question() -> None:
    why = check_grounding(NOLAN, parse('"films by Christopher Nolan" OR "Denis"  OR "jazz"'))
    assert why == "term 'jazz' has no content word of the question"
    assert check_grounding("x", parse('"the"')) == "term 'the' has no content word"


def test_each_term_needs_half_its_words_from_the_question() -> None:
    question = "vaccines approved in 2021 but not mRNA ones"
    form = parse('"vaccines approved in 2021" AND NOT "vaccine studies on mice"')
    why = check_grounding(question, form)
    assert why == (
        "term 'vaccine studies on mice' has 1 of 3 content words from the question (at least "
        "50% must be; not in it: studies, mice)"
    )
    assert check_grounding(question, parse('"vaccines" AND NOT "mRNA shots"')) is None


def test_most_words_must_come_from_the_question() -> None:
    form = parse('"films by Nolan" OR "Nolan thriller heist dream"')
    why = check_grounding(NOLAN, form, min_term_share=0.25)
    assert why is not None and "2 of 5 content words of the form" in why and "thriller" in why
    assert check_grounding(NOLAN, form, min_share=0.4, min_term_share=0.25) is None


def test_normalisation() -> None:
    assert word_forms("stories") == {"stories", "story", "storie"}
    assert word_forms("bus") == {"bus"} and word_forms("class") == {"class"}
    assert {"deckbuilding", "deck", "building", "nolan"} <= content_words("Nolan's deck-building")
    assert "the" not in content_words("the of by")
