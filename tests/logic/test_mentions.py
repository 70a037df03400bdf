"""Negated scopes in passages: a mention inside one is not evidence that a passage is about it."""

from __future__ import annotations

import pytest

from logir.index.lexical import BM25Scorer
from logir.logic.mentions import LEAD_WORDS, Mentions, lead_pairs, mention_counts, plain_words


def counts(text: str, *targets: str) -> dict[str, tuple[int, int]]:
    return {t: (m.total, m.negated) for t, m in mention_counts(text, targets).items()}


@pytest.mark.parametrize(
    "text",
    [
        "A strawberry tiramisu with no coffee in it.",
        "The sponge is soaked in orange juice instead of coffee.",
        "It is sweetened with honey rather than coffee syrup.",
        "A coffee-free take on the classic.",
        "Served without coffee or liqueur.",
        "Unlike coffee, the syrup is mild.",
        "The recipe doesn't use coffee at all.",
        "It contains neither cocoa nor coffee.",
        "A non-coffee version for children.",
        "It is made without this coffee.",  # a determiner, not a pronoun object
        # verbs of keeping away from a thing
        "People with reflux are told to avoid coffee.",
        "Monks of the order abstain from coffee and meat.",
        "The diet shuns coffee entirely.",
    ],
)
def test_a_mention_in_a_negated_scope_is_negated(text: str) -> None:
    assert counts(text, "coffee") == {"coffee": (1, 1)}


@pytest.mark.parametrize(
    "text",
    [
        "Tiramisu layers ladyfingers dipped in coffee.",
        "Not only coffee but also cocoa goes into it.",  # "not only" negates nothing
        "It is never served without coffee.",  # two negations assert it
        "It can't be made without coffee.",
        "There is no cream. Coffee is poured over the ice.",  # the scope ends with its sentence
        "It has no cream, but coffee is poured over it.",  # "but" turns the clause
        "No dessert in Rome is more famous, and its syrup is made from strong black coffee.",
        "Without enough of it coffee tastes thin.",  # the pronoun was the negated object
    ],
)
def test_an_asserted_mention_is_not_negated(text: str) -> None:
    assert counts(text, "coffee") == {"coffee": (1, 0)}


def test_a_scope_ends_at_the_verb_of_the_next_clause() -> None:
    # "unlike" contrasts Dune; what follows the verb is asserted of Arrival
    assert counts("Unlike Dune, Arrival is science fiction.", "science", "dune") == {
        "dune": (1, 1),
        "science": (1, 0),
    }


def test_each_mention_is_counted_on_its_own() -> None:
    text = "Affogato is coffee poured over gelato. A version with no coffee uses hot chocolate."
    assert counts(text, "coffee", "gelato", "cream") == {"coffee": (2, 1), "gelato": (1, 0)}


def test_mentions_are_counted_in_the_index_tokens() -> None:
    bm25 = BM25Scorer.build(["a passage", "another one"])
    got = mention_counts("No espressos here, but two espresso cups", ["espresso"], bm25.analyse)
    assert got == {"espresso": Mentions(total=2, negated=1, lead=1)}  # "espressos" stems so


def test_lead_counts_the_asserted_mentions_near_the_start() -> None:
    filler = "word " * LEAD_WORDS
    text = f"Sicario is a thriller. {filler} It later turned to science."
    got = mention_counts(text, ["science"])
    assert got["science"] == Mentions(total=1, negated=0, lead=0)
    got = mention_counts(f"Science fiction, said the critic. {filler}", ["science"])
    assert got["science"] == Mentions(total=1, negated=0, lead=1)


def test_a_scope_lasts_a_few_words() -> None:
    near = "no sugar or cream or coffee"
    far = "no sugar is added to the cream, said the cook, and coffee"
    assert counts(near, "coffee") == {"coffee": (1, 1)}
    assert counts(far, "coffee") == {"coffee": (1, 0)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # set aside up to the comma: the passage is about what follows
        ("Besides its familiar job in keeping bones strong, vitamin D acts on muscle.", (1, 1)),
        ("Apart from bones, it helps muscle.", (1, 1)),
        ("Aside from bones, it helps muscle.", (1, 1)),
        ("In addition to bones, vitamin D supports immunity.", (1, 1)),
        # the scope ends at the comma, a clause boundary or a word that turns the clause
        ("Apart from that, bones need it.", (1, 0)),
        ("It helps muscle, besides which bones need it.", (1, 0)),
        ("It helps muscle. Bones need it besides.", (1, 0)),
        ("Muscle needs it, besides, bones do too.", (1, 0)),
        # the yardstick of a comparison is set aside too
        ("Nortriptyline works, with an effect similar to that of bones.", (1, 1)),
        ("Muscle strength compared with bones, in older adults.", (1, 1)),
        ("Muscle versus bones: a trial.", (1, 1)),
        ("Muscle vs bones, a trial.", (1, 1)),
        ("Its effect is comparable to bones, the trial found.", (1, 1)),
        ("Muscle relative to bones grows slowly.", (1, 1)),
        # what is compared with the yardstick is asserted
        ("Bones compared with muscle, in older adults.", (1, 0)),
        ("Bones are similar in both groups.", (1, 0)),
    ],
)
def test_a_mention_set_aside_is_not_asserted(text: str, expected: tuple[int, int]) -> None:
    assert counts(text, "bones") == {"bones": expected}


def test_a_set_aside_scope_is_bounded() -> None:
    far = "Besides " + "one two three four five six seven eight nine ten eleven twelve " + "bones."
    assert counts(far, "bones") == {"bones": (1, 0)}


@pytest.mark.parametrize(
    ("text", "opens"),
    [
        ("A coffee-free tiramisu. Later, coffee is added.", True),
        ("Non-coffee drinks for children, with coffee for the adults.", True),
        ("No coffee here, but two coffee cups.", False),  # a plain negation
        ("Tiramisu has coffee, and a coffee-free version exists.", False),  # asserted first
        ("word " * LEAD_WORDS + "A coffee-free tiramisu.", False),  # outside the lead
    ],
)
def test_a_passage_opening_on_an_affix_negation(text: str, opens: bool) -> None:
    assert mention_counts(text, ["coffee"])["coffee"].opens_negated is opens


def test_lead_pairs_are_adjacent_kept_words_within_a_comma_and_the_lead() -> None:
    text = "Dune is science fiction, epic and slow. It won awards" + " word" * 30
    got = [(w, w2) for w, _, w2, _ in lead_pairs(text, plain_words)]
    assert got[:5] == [
        ("dune", "is"),
        ("is", "science"),
        ("science", "fiction"),
        ("epic", "and"),
        ("and", "slow"),
    ]
    assert got[5] == ("it", "won")  # a new clause
    assert ("fiction", "epic") not in got  # a comma between them
    assert len(got) == 22  # words past the lead (LEAD_WORDS) pair with nothing
