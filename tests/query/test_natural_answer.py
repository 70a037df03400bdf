"""A negation that describes the answer asked for versus one that leaves a topic out."""

from __future__ import annotations

import pytest

from logir.logic.auto import Auto
from logir.query.natural import nlp
from logir.query.natural.answer import negation_describes_answer
from logir.query.reading import read

needs_spacy = pytest.mark.skipif(not nlp.spacy_available(), reason="needs the nlp extra")

DESCRIBE_THE_ANSWER = [
    # a question or instruction for entities, the negation in their description
    "What are the dog breeds that were popular in Renaissance Italy but were not bred smaller?",
    "What concepts combine encapsulation and locking without requiring condition variables?",
    "What are the prophets who are named in the Bible but are not mentioned in the Quran?",
    "Find the Roman emperor who ruled from Rome and managed the provinces without leaving Italy.",
    "List the Nolan films that were not shot in IMAX.",
    "need a phone that isn't expensive",  # a property of the answer, an adjective
    # a noun phrase with a positive predicate and a negated one of its own
    "Processors that supported 16-bit operations but were not compatible with their predecessors.",
    "Microprocessors designed by Intel but not made by Intel.",
]

LEAVE_A_TOPIC_OUT = [
    "What are Nolan films other than sci-fi?",  # on a noun
    "benefits of vitamin D other than bone health",
    "Find recipes without nuts",  # on the request
    "What desserts can I make without eggs?",  # done by "I", not by the answer
    "what to cook for dinner if you don't like fish",  # about the asker
    "What causes hallucinations that are not related to drugs?",  # a clause on another noun
    "What are good hiking trails in Colorado but not in Rocky Mountain National Park?",  # a phrase
    "What are the key facts about the Moon landing, not including the conspiracy theories?",
    "Provide an introduction to Shakespeare's tragedies, but do not mention Hamlet.",  # the text
    "What can we know about the Beatles without mentioning any details about Yoko Ono?",
    "What are the main sights of Rome? Please answer without mentioning the Vatican.",
    "Find an introduction to the Austrian School that does not include economics",  # a text
    "smartphones that are not made by Apple",  # the only predicate
    "laptops that are cheap but not slow",  # a bare word contrasted
    # a request's copula with a noun leaves a kind out ("phones other than iPhones")
    "Find a phone that isn't an iPhone",
    "need a new phone that's not an iPhone or a Samsung",
    "restaurants in Tokyo that serve sushi or ramen but not tempura",
]


@needs_spacy
@pytest.mark.parametrize("text", DESCRIBE_THE_ANSWER)
def test_a_negation_in_the_description_of_the_answer(text: str) -> None:
    assert negation_describes_answer(text)


@needs_spacy
@pytest.mark.parametrize("text", LEAVE_A_TOPIC_OUT)
def test_a_topic_left_out_is_not_a_description(text: str) -> None:
    assert not negation_describes_answer(text)


@needs_spacy
@pytest.mark.parametrize("text", DESCRIBE_THE_ANSWER)
def test_auto_ranks_a_described_answer_flat_and_says_why(text: str) -> None:
    plan = Auto().plan(read(text, "auto"))
    assert plan.kind == "flat"
    assert "describes the answer" in plan.why


@needs_spacy
@pytest.mark.parametrize(
    "text",
    [
        "What are Nolan films other than sci-fi?",
        "benefits of vitamin D other than bone health",
        "Find a passage about cities that are not national capitals",  # a frame, not a request
        "Find a passage about a city that: 1. is in Europe; 2. is not a national capital.",
    ],
)
def test_auto_still_excludes_a_topic(text: str) -> None:
    assert Auto().plan(read(text, "auto")).kind == "exclude"


def test_without_spacy_no_negation_describes_the_answer(no_spacy: None) -> None:
    assert not negation_describes_answer(DESCRIBE_THE_ANSWER[0])


@needs_spacy
@pytest.mark.parametrize(
    "text, form",
    [
        # the item of "other than" ends where the sentence's verb starts
        (
            "which countries other than France use the euro?",
            '"which countries use the euro" AND NOT "France"',
        ),
        (
            "which bands apart from the beatles came from liverpool",
            '"which bands came from liverpool" AND NOT "beatles"',
        ),
        (
            "muscle regeneration after injury - which progenitor cells besides satellite cells "
            "contribute?",
            '"muscle regeneration after injury - which progenitor cells contribute" AND NOT '
            '"satellite cells"',
        ),
        # not a relative clause's verb, a title's, or one after a relative word
        (
            "1990s F1 races with Damon Hill, other than the ones Schumacher won",
            '"1990s F1 races with Damon Hill" AND NOT "ones Schumacher won"',
        ),
        (
            "what rihanna songs are there besides We Found Love?",
            '"what rihanna songs are there" AND NOT "We Found Love"',
        ),
        # (a relative clause whose verb agrees with the head and not the item describes the head)
        ("cities other than paris that have a metro", '"cities that have a metro" AND NOT "paris"'),
        ("a city other than paris that has a metro", '"a city" AND NOT "paris that has a metro"'),
        # an adverb before the verb goes with it; a comma ends the item first
        (
            "What languages besides French usually use subject-verb-object construction?",
            '"What languages usually use subject-verb-object construction" AND NOT "French"',
        ),
        (
            "In which area, apart from Bishop's Stortford, does the council have an office?",
            '"In which area does the council have an office" AND NOT "Bishop\'s Stortford"',
        ),
    ],
)
def test_an_other_than_item_ends_at_the_main_verb(text: str, form: str) -> None:
    from logir.query.reading import read

    assert read(text).logical_form == form


@needs_spacy
def test_the_main_verbs_auxiliary_ends_the_item() -> None:
    from logir.query.natural.negation import _verb_after_item

    # before the subject too: "does" is the auxiliary of "mean", the sentence's main verb
    text = "Where besides the United Kingdom does a double yellow line mean that cars may pass?"
    start = text.index("the United")
    assert _verb_after_item(text, start, len(text)) == text.index("does")
    text = "What else besides conventional medicine has helped people with cystitis?"
    assert _verb_after_item(text, text.index("conventional"), len(text)) == text.index("has")
    text = "which countries other than France use the euro?"
    assert _verb_after_item(text, text.index("France"), len(text)) == text.index("use")


@needs_spacy
def test_not_counting_after_a_question_leaves_a_topic_out() -> None:
    from logir.logic.auto import plan_query
    from logir.query.reading import read

    text = "what is NAT and why do networks use it, not counting that made-up ipv9 thing"
    assert plan_query(read(text), "cues").kind == "exclude"
