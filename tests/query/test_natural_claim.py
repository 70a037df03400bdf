"""A claim (a declarative sentence) versus a search request."""

from __future__ import annotations

import pytest

from logir.logic.auto import Auto
from logir.query.natural import nlp
from logir.query.natural.claim import is_claim
from logir.query.reading import read

needs_spacy = pytest.mark.skipif(not nlp.spacy_available(), reason="needs the nlp extra")

CLAIMS = [
    "Vitamin D deficiency is unrelated to birth weight.",
    "Mice without IFN-γ or its receptor are highly susceptible to EAM.",
    "Brown fat cells primarily appear in visceral fat, not subcutaneous fat.",
]
REQUESTS = [
    "films by Nolan or Villeneuve but not sci-fi",
    "python tutorials -django",
    "Vitamin D deficiency is unrelated to birth weight",
    "how to treat migraines without medication",
    "what to see in Rome if you don't like museums",
    "Is it true that bats are not blind?",
    "I want Italian desserts without coffee",
    "Show me Italian desserts without coffee.",
    "Find a passage about a city that: 1. is in Europe; 2. is not a national capital.",
    # a request that ends by leaving an item out: the participle is the cue, not a main verb
    "Lincoln's relations with his generals, Ulysses S. Grant excluded.",
    # a part set aside or excluded: spaCy reads "concluded" as the finite verb, yet it is a request
    "Treaties concluded among the powers, setting aside those in which Napoleon had a hand.",
    "Treaties concluded between states, excluding any agreements made with indigenous peoples.",
    "Uses of americium in industry, smoke detectors excepted.",
    # somebody said to be after something: a request passed on
    "A reader is after books that only came out after their author had died. She says poetry "
    "collections don't interest her.",
    # a first person asking, anywhere in it
    "For a documentary I'm tracing what the Labor Party stood for, though I'd prefer to keep the "
    "White Australia policy out of it.",
    # a heading before a colon: the topic named, then what is wanted of it
    "Ambergris for a lesson on natural perfume fixatives: what it is and how it forms, without "
    "the whaling-law side of things.",
    "How chips are packaged; the story of who invented them is of no interest to me.",
    # a question, then a sentence: a request
    "How do doctors regard alternative medicine? I have no interest in acupuncture.",
    # a request passed on: its subject is not the writer, yet it asks for something
    "A patron wants to know where alabaster is quarried today; she is not after its use in "
    "ancient Egypt or Mesopotamia.",
    # please, or "anything except": a claim asks for nothing
    "My daughter's project is on the medals that countries give to famous people. Nothing British "
    "please, her class already covered OBEs.",
    "Companies AOL bought over the years - anything except the Huffington Post deal.",
]


@needs_spacy
@pytest.mark.parametrize("text", CLAIMS)
def test_a_declarative_sentence_is_a_claim(text: str) -> None:
    assert is_claim(text)


@needs_spacy
@pytest.mark.parametrize("text", REQUESTS)
def test_requests_questions_and_instructions_are_not_claims(text: str) -> None:
    assert not is_claim(text)


@needs_spacy
def test_auto_ranks_a_claim_flat_and_says_why() -> None:
    plan = Auto().plan(read("Vitamin D deficiency is unrelated to birth weight.", "auto"))
    assert plan.kind == "flat"
    assert "claim" in plan.why


def test_without_spacy_nothing_is_a_claim(no_spacy: None) -> None:
    assert not is_claim(CLAIMS[0])
