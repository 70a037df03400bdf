"""The exclusion composer reads the candidates' passages: a mention of the excluded term in a
negated scope ("no coffee in it") is no evidence that a passage is about it."""

from __future__ import annotations

import numpy as np
import pytest

from logir.errors import LogirError
from logir.index.base import DENSE_PART, LEXICAL_PART, attach_passages, topk
from logir.index.lexical import BM25Scorer
from logir.logic import get_composer
from logir.logic.asserted import asserted_in_lead, asserted_share
from logir.logic.auto import distinct_words, restricts_head

PASSAGES = [
    "Tiramisu is an Italian dessert of ladyfingers dipped in coffee, layered with mascarpone.",
    "A strawberry tiramisu is an Italian dessert with ladyfingers soaked in orange juice: "
    "no coffee in it.",
    "Panna cotta is an Italian dessert of sweetened cream set with gelatin.",
    "Affogato is an Italian dessert: a scoop of gelato drowned in hot coffee.",
    "Coffee is brewed from roasted coffee beans.",
    "Ramen is a Japanese noodle soup.",
]
QUERY = '"Italian dessert" AND NOT "coffee"'


def _bm25(passages: list[str]) -> BM25Scorer:
    """A BM25 scorer over ``passages`` that carries their texts (the composer reads them)."""
    scorer = BM25Scorer.build(passages)
    attach_passages(scorer, passages)
    return scorer


@pytest.fixture
def bm25() -> BM25Scorer:
    return _bm25(PASSAGES)


def test_a_negated_mention_is_not_penalised(bm25: BM25Scorer) -> None:
    comp = get_composer("exclusion,tau=0,keyword=1")
    (r,) = comp.rank([QUERY], bm25, 6)
    penalty = dict(zip(r.doc_idx.tolist(), r.evidence["NOT coffee"].tolist(), strict=True))
    assert penalty[1] == 0.0  # "no coffee in it"
    assert penalty[0] < 0 and penalty[3] < 0  # tiramisu and affogato are coffee desserts
    assert sorted(r.doc_idx[:2].tolist()) == [1, 2]  # the two desserts without coffee first
    # without reading the passages, the strawberry tiramisu is penalised like the others
    (every,) = get_composer("exclusion,tau=0,mentions=all,keyword=1").rank([QUERY], bm25, 6)
    assert every.evidence["NOT coffee"][every.doc_idx.tolist().index(1)] < 0


def test_a_passage_that_says_it_lacks_the_excluded_thing_comes_first(bm25: BM25Scorer) -> None:
    # ``negated`` (0.2 by default): a passage that says it lacks the excluded thing gains that
    # share of the term's evidence; off (0), it ranks by its positive part alone
    off = get_composer("exclusion,tau=0,keyword=1,negated=0")
    on = get_composer("exclusion,tau=0,keyword=1,negated=0.5")
    (r_off,) = off.rank([QUERY], bm25, 6)
    (r_on,) = on.rank([QUERY], bm25, 6)
    assert r_on.doc_idx[0] == 1  # "no coffee in it"
    gain = dict(zip(r_on.doc_idx.tolist(), r_on.scores.tolist(), strict=True))
    base = dict(zip(r_off.doc_idx.tolist(), r_off.scores.tolist(), strict=True))
    assert gain[1] > base[1]
    assert gain[2] == pytest.approx(base[2])  # panna cotta names no coffee: no change
    np.testing.assert_allclose(on.score(QUERY, bm25, r_on.doc_idx), r_on.scores, rtol=1e-6)
    with pytest.raises(LogirError):
        get_composer("exclusion,negated=2")


def test_score_equals_rank_and_evidence_adds_up(bm25: BM25Scorer) -> None:
    comp = get_composer("exclusion,tau=0,keyword=1")
    (r,) = comp.rank([QUERY], bm25, 6)
    np.testing.assert_allclose(comp.score(QUERY, bm25, r.doc_idx), r.scores, rtol=1e-6)
    np.testing.assert_allclose(sum(r.evidence.values()), r.scores, rtol=1e-6, atol=1e-7)


def test_a_scorer_without_passages_keeps_every_mention() -> None:
    bare = BM25Scorer.build(PASSAGES)
    share = asserted_share(bare, ["coffee"], np.arange(len(PASSAGES)))
    assert share.tolist() == [[1.0] * len(PASSAGES)]


def test_the_share_follows_bm25_saturation(bm25: BM25Scorer) -> None:
    text = "Coffee granita: frozen coffee, though a decaf take has no coffee at all."
    scorer = BM25Scorer.build([*PASSAGES, text])
    attach_passages(scorer, [*PASSAGES, text])
    share = asserted_share(scorer, ["coffee", "cream"], np.array([0, 1, 2, 6]))
    k1 = scorer.params["k1"]
    sat = lambda tf: tf / (tf + k1)  # noqa: E731
    np.testing.assert_allclose(share[0], [1.0, 0.0, 1.0, sat(2) / sat(3)], rtol=1e-6)
    assert share[1].tolist() == [1.0, 1.0, 1.0, 1.0]  # nothing negated


def test_a_passing_mention_counts_less_when_asked() -> None:
    lead = "Tiramisu is a coffee dessert. " + "It is sweet and rich and layered. " * 5
    passing = (
        "Panna cotta is a set cream dessert. "
        + "It is sweet and cold. " * 5
        + ("Some serve it with coffee.")
    )
    scorer = BM25Scorer.build([lead, passing])
    attach_passages(scorer, [lead, passing])
    rows = np.arange(2)
    assert asserted_share(scorer, ["coffee"], rows).tolist() == [[1.0, 1.0]]
    half = asserted_share(scorer, ["coffee"], rows, passing=0.5)[0]
    k1 = scorer.params["k1"]
    assert half[0] == 1.0 and half[1] == pytest.approx((0.5 / (0.5 + k1)) / (1 / (1 + k1)))


def test_distinct_words() -> None:
    book = "Renewable Energy: A First Course"
    assert distinct_words(book, "renewable energy") == "A First Course"
    assert distinct_words("blue cheeses", "cheese") == "blue"
    assert distinct_words("coffee", "Italian desserts") == "coffee"
    assert distinct_words("cheese", "blue cheese") == "cheese"  # nothing else left: the term


def test_a_region_of_a_wanted_nation_keeps_its_compass_word() -> None:
    assert distinct_words("Northern Ireland", "Irish history and Irish places") == "Northern"
    assert distinct_words("East Germany", "German history") == "East"
    assert distinct_words("Northern Ireland", "British history") == "Northern Ireland"
    # only a compass word and the name: an entity keeps every word
    assert distinct_words("White Australia policy", "Australian Labor") == "White Australia policy"
    assert distinct_words("american artists", "folk acts from outside the states") == (
        "american artists"
    )


def test_words_the_positive_part_shares_weigh_less(bm25: BM25Scorer) -> None:
    passages = [
        "Renewable energy sources such as wind and solar power cut emissions.",
        "Renewable Energy: A First Course is a textbook for a first course on the subject.",
        "Fossil fuels emit carbon dioxide.",
    ]
    scorer = BM25Scorer.build(passages)
    attach_passages(scorer, passages)
    query = '"renewable energy" AND NOT "Renewable Energy: A First Course"'
    whole = get_composer("exclusion,tau=0,shared=1,keyword=1").score(query, scorer, np.arange(3))
    split = get_composer("exclusion,tau=0,keyword=1").score(query, scorer, np.arange(3))
    assert whole[0] < whole[1] + 0.5  # the shared words penalise the passage about the topic
    assert split[0] > whole[0] and split[0] > split[1]


@pytest.mark.parametrize(
    ("term", "positive", "narrows"),
    [
        ("himalaya mountains in nepal", "himalaya mountains", True),
        ("cheeses from France", "cheese", True),  # a final "s" ignored
        ("Renewable Energy: A First Course", "renewable energy", False),  # a title, no modifier
        ("Nepal", "himalaya mountains", False),  # nothing shared
        ("mountains in", "mountains", False),  # no modifier after the preposition
    ],
)
def test_restricts_head(term: str, positive: str, narrows: bool) -> None:
    assert restricts_head(term, positive) is narrows


def test_a_head_narrowed_by_a_modifier_is_read_by_the_modifier_alone() -> None:
    passages = [
        "Kangphu Kang is a mountain in the Himalayas on the border of Tibet and Bhutan.",
        "Dhaulagiri is a mountain in the Himalayas, in Nepal.",
        "Nepal is a country in South Asia.",
    ]
    scorer = BM25Scorer.build(passages)
    attach_passages(scorer, passages)
    query = '"himalaya mountains" AND NOT "himalaya mountains in nepal"'
    ev = get_composer("exclusion,tau=0,keyword=1").evidence(
        get_composer("exclusion").plan(query), scorer, np.arange(3)
    )
    penalty = ev["NOT himalaya mountains in nepal"]
    # the Tibetan peak shares the head with the excluded term, yet names no Nepal: no penalty
    assert penalty[0] == 0.0 and penalty[1] < 0.0


class _Hybrid:
    """A hybrid-like scorer over a lexical and a dense part (their mean), with passages."""

    name = "hybrid"

    def __init__(self, lexical, dense, passages: list[str]) -> None:
        self.parts = {LEXICAL_PART: lexical, DENSE_PART: dense}
        self.n_docs = lexical.n_docs
        self.passages = passages

    def score(self, texts, doc_idx=None):
        return 0.5 * sum(p.score(texts, doc_idx) for p in self.parts.values())

    def search(self, texts, k):
        return topk(self.score(texts), k)


def test_dense_evidence_alone_can_penalise_a_passage_in_other_words(fake) -> None:
    # d1 says "espresso": no lexical evidence for "coffee", but its meaning is as close to
    # coffee as the closest passage's; d2 is far from it. Mixed with the lexical part at
    # neg_dense 0.25, d1's evidence never reaches tau; on its own it passes dense_tau.
    passages = ["coffee granita", "espresso granita", "lemon granita"]
    lexical = fake({"granita": [1, 1, 1], "coffee": [2, 0, 0]})
    dense = fake({"granita": [0.5, 0.5, 0.5], "coffee": [0.5, 0.45, 0.1]})
    hybrid = _Hybrid(lexical, dense, passages)
    query = '"granita" AND NOT "coffee"'
    mixed = get_composer("exclusion,tau=0.5,flat_weight=0,neg_dense=0.25,dense_tau=1,keyword=1")
    alone = get_composer("exclusion,tau=0.5,flat_weight=0,neg_dense=0.25,dense_tau=0.8,keyword=1")
    rows = np.arange(3)
    assert mixed.score(query, hybrid, rows)[1] == pytest.approx(1.0)  # not penalised
    s = alone.score(query, hybrid, rows)
    assert s[1] == pytest.approx(1.0 - 0.4 * (0.9 - 0.8) / 0.2)
    assert s[0] < s[1] < s[2] == pytest.approx(1.0)
    (r,) = alone.rank([query], hybrid, 3)
    assert r.doc_idx.tolist() == [2, 1, 0]
    np.testing.assert_allclose(sum(r.evidence.values()), r.scores, rtol=1e-6)


def test_dense_floor_lessens_the_penalty_near_an_absent_topic(fake) -> None:
    # no passage is about the Mona Lisa: the closest one's cosine (0.42) is the corpus's best, so
    # on the corpus's own scale it is as much about it as any passage can be (evidence 1); with
    # a floor of 0.5 its evidence is 0.42 / 0.5, 0.14 above dense_tau
    passages = ["Leonardo's Last Supper", "Leonardo's Vitruvian Man", "Raphael's Madonna"]
    lexical = fake({"Leonardo": [1, 1, 0], "Mona Lisa": [0, 0, 0]})
    dense = fake({"Leonardo": [0.6, 0.6, 0.2], "Mona Lisa": [0.3, 0.42, 0.1]})
    hybrid = _Hybrid(lexical, dense, passages)
    query = '"Leonardo" AND NOT "Mona Lisa"'
    base = "exclusion,flat_weight=0,kind_tau=1,keyword=1"
    rows = np.arange(3)
    off = get_composer(base).score(query, hybrid, rows)
    on = get_composer(base + ",dense_floor=0.5").score(query, hybrid, rows)
    assert off[1] == pytest.approx(1.0 - 0.4)  # the full penalty
    assert on[1] == pytest.approx(1.0 - 0.4 * (0.84 - 0.7) / 0.3)
    assert off[0] < on[0] == pytest.approx(1.0)  # 0.3 / 0.42 passes dense_tau, 0.3 / 0.5 not
    with pytest.raises(LogirError, match="dense_floor"):
        get_composer("exclusion,dense_floor=2")


def test_without_a_lexical_part_mentions_count_alike(fake) -> None:
    # a scorer with no lexical analysis (dense only): each mentioned token weighs the same
    passages = ["Coffee and cocoa.", "It has no coffee. Cocoa it has.", "Lemon ice."]
    dense = fake({"coffee cocoa": [0.9, 0.8, 0.1]})
    attach_passages(dense, passages)
    share = asserted_share(dense, ["coffee cocoa"], np.arange(3))
    np.testing.assert_allclose(share[0], [1.0, 0.5, 1.0])  # coffee negated, cocoa asserted


def test_a_passage_defined_by_the_absence_asserts_none_of_its_mentions() -> None:
    """A passage whose first mention is "non-X" or "X-free" in its lead is about X's absence:
    a later mention describes it ("the alcohol removed"), not a topic of the passage. A plain
    negation first ("no alcohol here, but ...") does not do that."""
    texts = [
        "Guinness 0.0 is an alcohol-free stout. The alcohol is removed by cold filtration.",
        "Non-alcoholic IPA: brewers dry hop it to make up for the body lost with the alcohol.",
        "No alcohol in the first glass, but the second stout has alcohol and alcohol.",
        "An Irish dry stout has around 4 percent alcohol.",
    ]
    scorer = BM25Scorer.build(texts)
    attach_passages(scorer, texts)
    share = asserted_share(scorer, ["alcohol"], np.arange(len(texts)))
    assert share[0, :2].tolist() == [0.0, 0.0]
    assert 0.0 < share[0, 2] < 1.0 and share[0, 3] == 1.0


def test_asserted_in_lead() -> None:
    late = "A dessert of cream, sugar and eggs " + "whisked slowly " * 12 + "with coffee."
    passages = [
        "Tiramisu is a coffee dessert from Veneto.",
        "A dessert with no coffee in it.",
        late,
        "Coffee-free tiramisu is made with cocoa.",
    ]
    scorer = BM25Scorer.build(passages)
    attach_passages(scorer, passages)
    got = asserted_in_lead(scorer, ["coffee", "coffee dessert", "tea"], np.arange(4))
    assert got.tolist() == [
        [True, False, False, False],  # negated, past the lead, defined by its absence
        [True, False, False, False],  # every word of the term asserted in the lead
        [False] * 4,
    ]


def test_a_common_term_asserted_in_a_keyword_querys_lead_is_penalised_at_the_floor() -> None:
    filler = " It has a large campus, a library, many students and several faculties." * 3
    passages = [
        "Stetson University is a private university in Florida." + filler,
        "Ohio State University is a public university in Columbus." + filler,
        "Private, private, private: a private college is a private institution.",
        "Augustus was the first Roman emperor." + filler,
        "Tiberius, the stepson of Augustus, was the second Roman emperor." + filler * 3,
    ]
    scorer = BM25Scorer.build(passages)
    attach_passages(scorer, passages)
    query = "universities that are not private"
    rows = np.arange(len(passages))
    off = get_composer("auto,lead_floor=0,dense_tau=1").score(query, scorer, rows)
    on = get_composer("auto,dense_tau=1").score(query, scorer, rows)
    assert on[0] < off[0]  # its one mention in the lead now counts in full above the floor
    assert on[1] == off[1]  # the public one says nothing of it
    # a name: its siblings name it in their lead; typed in lower case, the corpus's capitals
    # tell it is one
    for name in ("roman emperors but not Augustus", "roman emperors but not augustus"):
        assert np.array_equal(
            get_composer("auto,lead_floor=0").score(name, scorer, rows),
            get_composer("auto").score(name, scorer, rows),
        ), name


UNION_PASSAGES = [
    "French films: a survey of the new wave directors and their dramas.",
    "French comedies of the 1960s made audiences laugh across Europe.",
    "Italian films: neorealism and the postwar directors.",
    "Italian westerns, the spaghetti westerns of Sergio Leone.",
    "Japanese anime films.",
]


def test_a_union_of_exclusions_reads_each_alternative_on_its_own() -> None:
    scorer = _bm25(UNION_PASSAGES)
    form = '("french films" AND NOT "comedies") OR ("italian films" AND NOT "westerns")'
    plan = get_composer("auto").plan(form)
    assert plan.alternatives == ("french films", "italian films")
    (best,) = get_composer("exclusion,tau=0,keyword=1,union=max").rank([form], scorer, 5)
    (joined,) = get_composer("exclusion,tau=0,keyword=1,union=joined").rank([form], scorer, 5)
    assert sorted(best.doc_idx[:2].tolist()) == [0, 2]  # the films of either, not the excluded
    assert sorted(joined.doc_idx[:2].tolist()) == [0, 2]
    key = "french films italian films"  # the positive part, all alternatives joined
    assert plan.positive == key

    def positive(r: object, doc: int) -> float:
        return float(r.evidence[key][r.doc_idx.tolist().index(doc)])  # type: ignore[attr-defined]

    # read alone, each alternative's own passage counts in full; joined, it shares the text
    assert positive(best, 0) > positive(joined, 0)
    assert positive(best, 2) >= positive(joined, 2) - 1e-6
    with pytest.raises(LogirError):
        get_composer("exclusion,union=min")


DRIVERS = [
    "Stirling Moss, who drove for Mercedes, Maserati and Vanwall in the 1950s and finished "
    "second in the championship four times, never won the world title.",
    "Racing driver Mika Hakkinen won the world title with McLaren, a racing team that won "
    "the world title again later.",
    "Racing driver Jenson Button won the world title with Brawn in 2009.",
    "Ramen is a Japanese noodle soup.",
]


def test_a_passage_that_states_a_predicate_negated_gains_under_predicate() -> None:
    # "drivers who never won the world title" is ranked flat (the negation states a property);
    # with ``predicate`` (0.2 by default; 0 turns it off), a passage that says "never won the
    # world title" gains that share of the statement's evidence, the others keep their flat scores
    scorer = _bm25(DRIVERS)
    query = "racing drivers who never won the world title"
    off, on = get_composer("auto,predicate=0"), get_composer("auto")
    assert on.plan(query).kind == "flat" and on.plan(query).stated == ("won the world title",)
    # not in an entity question: its answer passages seldom state what it negates
    assert on.plan("Which racing drivers never won the world title?").stated == ()
    (r_off,) = off.rank([query], scorer, 4)
    (r_on,) = on.rank([query], scorer, 4)
    assert r_off.doc_idx[0] != 0
    assert r_on.doc_idx[0] == 0  # Moss
    base = dict(zip(r_off.doc_idx.tolist(), r_off.scores.tolist(), strict=True))
    gain = dict(zip(r_on.doc_idx.tolist(), r_on.scores.tolist(), strict=True))
    assert gain[0] > base[0]
    assert gain[1] == pytest.approx(base[1]) and gain[2] == pytest.approx(base[2])
    np.testing.assert_allclose(on.score(query, scorer, r_on.doc_idx), r_on.scores, rtol=1e-6)
    np.testing.assert_allclose(sum(r_on.evidence.values()), r_on.scores, rtol=1e-6, atol=1e-7)
    assert "stated negated" in r_on.evidence and "stated negated" not in r_off.evidence
    with pytest.raises(LogirError):
        get_composer("auto,predicate=2")
