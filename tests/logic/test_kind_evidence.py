"""A passage that names a kind of an excluded topic ("beef" for "meat") in its lead is evidence
for it, unless the kind is named in a negated scope or is a word the query asks for."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from logir.errors import LogirError
from logir.index.base import DENSE_PART, LEXICAL_PART, Scorer, attach_passages
from logir.index.lexical import BM25Scorer
from logir.logic import get_composer
from logir.logic.kinds import kind_evidence, names_an_entity, variant, written_as_name


def _unit(cos_with_meat: float) -> np.ndarray:
    return np.array([cos_with_meat, math.sqrt(1 - cos_with_meat**2), 0.0], dtype=np.float32)


#: cosine of each word with "meat" (and with "nuts" for the nut words, on the third axis)
WORDS = {"meat": _unit(1.0), "beef": _unit(0.82), "lamb": _unit(0.65), "beans": _unit(0.45)}
NUTS = np.array([0.0, 0.0, 1.0], dtype=np.float32)
WORDS |= {"nuts": NUTS, "almonds": np.array([0.0, 0.6, 0.8], dtype=np.float32)}
OTHER = np.array([0.0, 1.0, 0.0], dtype=np.float32)  # any other word: far from both terms


class FakeEncoder:
    """Embeds words from the table above, counting what it is asked to embed."""

    def __init__(self) -> None:
        self.encoded: list[str] = []

    def encode_words(self, texts: list[str]) -> np.ndarray:
        self.encoded.extend(texts)
        return np.stack([WORDS.get(t.lower(), OTHER) for t in texts])


class Parts:
    """A scorer made of a BM25 part and the fake encoder, carrying its passages."""

    def __init__(self, passages: Sequence[str]) -> None:
        self.lexical = BM25Scorer.build(list(passages))
        self.dense = FakeEncoder()
        self.parts: Mapping[str, object] = {LEXICAL_PART: self.lexical, DENSE_PART: self.dense}
        self.passages = passages

    @property
    def n_docs(self) -> int:
        return len(self.passages)


STEWS = [
    "Chili con carne is a stew, a slow stew of beef and beans.",
    "A chili made without beef, with beans and peppers.",
    "A stew of beans and peppers, simmered slowly with onions and garlic for hours.",
    "Meat pie is baked in a crust.",
    "A stew of lamb and beans.",
]


def _kinds(scorer: object, terms: list[str], tau: float = 0.6, **kw: str) -> list[list[float]]:
    rows = np.arange(len(STEWS))
    out = kind_evidence(scorer, terms, rows, tau, 0.1, **kw)  # type: ignore[arg-type]
    assert out is not None
    return out.round(3).tolist()


def test_an_asserted_kind_is_evidence_a_negated_one_is_not() -> None:
    scorer = Parts(STEWS)
    # beef (0.82) is full evidence; "without beef" none; beans (0.45) none; "meat" itself is
    # lexical evidence, not a kind; lamb (0.65) half way up the ramp from 0.6 to 0.7
    assert _kinds(scorer, ["meat"]) == [[1.0, 0.0, 0.0, 0.0, 0.5]]


def test_a_kind_named_past_the_lead_is_no_evidence() -> None:
    late = "A stew of beans and peppers, simmered for hours with onions, garlic, cumin, " + (
        "paprika and tomatoes until thick; cooks in the north of the country serve it at "
        "feasts, and some add beef."
    )
    scorer = Parts([late, *STEWS[1:]])
    assert _kinds(scorer, ["meat"])[0][0] == 0.0


def test_a_passage_defined_by_the_terms_absence_has_no_kind_evidence() -> None:
    # "meat-free" opens the first passage: the beef it names is a taste, not the thing excluded
    free = "A meat-free stew that tastes of beef."
    scorer = Parts([free, "A stew that tastes of beef.", *STEWS[2:]])
    assert _kinds(scorer, ["meat"])[0][:2] == [0.0, 1.0]
    # a plain negation first does not define the passage by the absence
    plain = Parts(["No meat in the pot, only beef stock and beans.", *STEWS[1:]])
    assert _kinds(plain, ["meat"])[0][0] == 1.0


def test_words_the_query_asks_for_are_no_evidence() -> None:
    scorer = Parts(STEWS)
    assert _kinds(scorer, ["meat"], ignore="beef stew") == [[0.0, 0.0, 0.0, 0.0, 0.5]]


def test_each_term_reads_its_own_kinds() -> None:
    scorer = Parts([*STEWS[:4], "Cantucci are biscuits with almonds."])
    assert _kinds(scorer, ["meat", "nuts"]) == [[1, 0, 0, 0, 0], [0, 0, 0, 0, 1.0]]


def test_words_are_embedded_once() -> None:
    scorer = Parts(STEWS)
    _kinds(scorer, ["meat"])
    first = list(scorer.dense.encoded)
    assert len(first) == len(set(first))
    _kinds(scorer, ["meat"])
    assert scorer.dense.encoded == first  # the second call embeds nothing new


def test_no_encoder_no_kind_evidence() -> None:
    bare = BM25Scorer.build(STEWS)
    attach_passages(bare, STEWS)
    assert kind_evidence(bare, ["meat"], np.arange(len(STEWS)), 0.6, 0.1) is None


class KindBM25(BM25Scorer):
    """BM25 over its passages, with the fake encoder's words (the encoder a dense part has)."""

    def encode_words(self, texts: list[str]) -> np.ndarray:
        return FakeEncoder().encode_words(texts)


@pytest.fixture
def stews() -> Scorer:
    scorer = KindBM25.build(STEWS)
    attach_passages(scorer, STEWS)
    return scorer


def test_the_composer_ranks_a_kind_of_the_excluded_topic_last(stews: Scorer) -> None:
    query = '"stew" AND NOT "meat"'
    (plain,) = get_composer("exclusion,tau=0,kind_tau=1,keyword=1").rank([query], stews, 5)
    (kinds,) = get_composer("exclusion,tau=0,kind_tau=0.6,keyword=1").rank([query], stews, 5)
    before = plain.doc_idx.tolist()
    assert before.index(0) < before.index(2)  # the beef stew leads the bean stew on "stew"
    assert kinds.evidence["NOT meat"][kinds.doc_idx.tolist().index(0)] == pytest.approx(-0.4)
    assert kinds.doc_idx.tolist().index(0) > kinds.doc_idx.tolist().index(2)
    comp = get_composer("exclusion,tau=0,kind_tau=0.6,keyword=1")
    np.testing.assert_allclose(comp.score(query, stews, kinds.doc_idx), kinds.scores, rtol=1e-6)
    # logir syntax reads as a keyword query: the kind evidence weighs the keyword factor too
    (strong,) = get_composer("exclusion,tau=0,kind_tau=0.6,keyword=2").rank([query], stews, 5)
    at = strong.doc_idx.tolist()
    assert strong.evidence["NOT meat"][at.index(0)] == pytest.approx(-0.8)  # beef: 1 x 2 x 0.4
    assert strong.evidence["NOT meat"][at.index(4)] == pytest.approx(-0.4)  # lamb: 0.5 x 2 x 0.4


@pytest.mark.parametrize(
    ("term", "query", "named"),
    [
        ("meat", "spicy dishes that don't contain meat", False),
        ("sci-fi", "films by Nolan or Villeneuve but not sci-fi", False),
        ("allergic reactions", "side effects of antibiotics apart from allergic reactions", False),
        ("Meat", "Meat-free dishes from India", False),  # capitalised as the query's first word
        ("Indonesia", "deforestation in Southeast Asia (excluding Indonesia)", True),
        ("Nevada City", "U.S. Highway 50 in Nevada, without mentioning Nevada City", True),
        ("the role of Set", "the Osiris myth (excluding the role of Set)", True),
        ("Europe", "Europe and Asia, not Europe", True),  # the first word, met again later
        ("iPhone", "Apple computers not the iPhone", True),
    ],
)
def test_names_an_entity(term: str, query: str, named: bool) -> None:
    assert names_an_entity(term, query) is named


def test_a_named_term_gets_no_kind_evidence_unless_asked(stews: Scorer) -> None:
    """ "Meat" written as a name: its closest words would be its siblings, not its kinds."""
    query = '"stew" AND NOT "Meat"'
    spec = "exclusion,tau=0,kind_tau=0.6,keyword=1"
    (common,) = get_composer(spec).rank([query], stews, 5)
    (every,) = get_composer(spec + ",kind_terms=all").rank([query], stews, 5)
    beef = 0  # the beef stew: a kind of meat, never the word
    assert common.evidence["NOT Meat"][common.doc_idx.tolist().index(beef)] == 0.0
    assert every.evidence["NOT Meat"][every.doc_idx.tolist().index(beef)] == pytest.approx(-0.4)
    with pytest.raises(LogirError, match="kind_terms"):
        get_composer(spec + ",kind_terms=some")


@pytest.mark.parametrize(
    ("term", "texts", "name"),
    [
        ("karpov", ["The match saw Karpov defend his title.", "Karpov lost."], True),
        ("golden dawn", ["He joined the Hermetic Order of the Golden Dawn in 1898."], True),
        (
            "meat",
            ["Meat is cooked slowly.", "A stew of meat and beans."],
            False,
        ),  # a sentence opens
        ("nuts", ["Panforte: Nuts and honey.", "Cake with nuts."], False),
        ("sci-fi", ["Tenet is a sci-fi thriller."], False),
        ("augustus", [], False),  # never mentioned: the query's writing decides
        # a capital whose lower case is two letters ("\u0130mam" -> "i\u0307mam") still counts
        # for its word, and raises nothing
        ("imam", ["In Istanbul the \u0130mam of the mosque spoke.", "an imam leads"], True),
        ("imam", ["an imam leads prayers", "the imam spoke"], False),
    ],
)
def test_written_as_name(term: str, texts: list[str], name: bool) -> None:
    assert written_as_name(term, texts) is name


def test_a_name_typed_in_lower_case_gets_no_kind_evidence() -> None:
    """The passages write "Lamb" mid-sentence with a capital, so "lamb" typed in lower case is
    read as a name: the words closest to it would be its siblings."""
    passages = [p.replace("beef", "Lamb Inc") for p in STEWS]
    scorer = KindBM25.build(passages)
    attach_passages(scorer, passages)
    rows = np.arange(len(passages))
    assert not kind_evidence(scorer, ["lamb"], rows, 0.6, 0.1).any()
    assert kind_evidence(scorer, ["lamb"], rows, 0.6, 0.1, named=[False]).any()
    assert kind_evidence(scorer, ["meat"], rows, 0.6, 0.1).any()  # "meat" stays a common noun


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("autocracy", "autocratic", True),
        ("nut", "nuts", True),
        ("meat", "meats", True),
        ("vaccine", "vaccination", True),
        ("medication", "medicines", False),  # another word for it: a kind's evidence
        ("beef", "beer", False),
        ("antibiotics", "antibodies", False),
    ],
)
def test_variant(a: str, b: str, same: bool) -> None:
    assert variant(a, b) is same
    assert variant(b, a) is same


def test_another_form_of_a_wanted_word_is_no_kind_one_of_the_excluded_word_is() -> None:
    """ "autocratic" is "autocracy" in another form, which the analyser does not join to it: as
    a form of the query's word it is no evidence; as one of the excluded term's, it is."""
    axis = np.array([0.0, 0.0, 1.0], dtype=np.float32)
    close = np.array([0.0, 0.3, 0.954], dtype=np.float32)  # cos 0.95 with the axis
    words = {"autocracy": axis, "autocracies": axis, "autocratic": close, "tyranny": close}
    passages = ["Autocratic rule in the empire.", "Tyranny ruled the empire."]
    scorer = KindBM25.build(passages)
    attach_passages(scorer, passages)
    old = dict(WORDS)
    WORDS.update(words)
    try:
        rows = np.arange(2)
        excluded = kind_evidence(scorer, ["autocracy"], rows, 0.6, 0.1)
        wanted = kind_evidence(scorer, ["tyranny"], rows, 0.6, 0.1, ignore="autocracies")
    finally:
        WORDS.clear()
        WORDS.update(old)
    assert excluded[0].tolist() == pytest.approx([1.0, 1.0])
    assert wanted[0].tolist() == pytest.approx([0.0, 0.0])  # "tyranny" is the term's own word


def test_a_ranking_reads_the_kinds_of_the_rows_that_can_reach_the_top_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Kinds are read best first until the top k is settled: the same top k as reading every
    candidate, with fewer words embedded."""
    import logir.logic.auto as auto

    names = [f"zq{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(60)]  # a word each
    # bean stews, each longer than the last (no two score alike), the first two with beef
    filler = [
        f"A {n} stew{' slowly' * i} of beans{' and beef' if i < 2 else ''}."
        for i, n in enumerate(names)
    ]
    passages = [*STEWS, *filler]
    words: list[str] = []

    class Counting(KindBM25):
        def encode_words(self, texts: list[str]) -> np.ndarray:
            words.extend(texts)
            return FakeEncoder().encode_words(texts)

    scorer = Counting.build(passages)
    attach_passages(scorer, passages)
    monkeypatch.setattr(auto, "KIND_BATCH", 4)
    comp = get_composer("exclusion,tau=0,kind_tau=0.6,keyword=1,depth=100")
    (lazy,) = comp.rank(['"stew" AND NOT "meat"'], scorer, 3)
    lazy_words = len(words)
    every = comp.score('"stew" AND NOT "meat"', scorer, np.arange(len(passages)))
    best = np.argsort(-every, kind="stable")[:3]
    assert sorted(lazy.doc_idx.tolist()) == sorted(best.tolist())
    np.testing.assert_allclose(lazy.scores, np.sort(every)[::-1][:3], rtol=1e-6)
    assert 0 < lazy_words < len(words) / 2  # the full scoring embedded what the ranking never read


#: "sci-fi" on a fourth axis: the pair "science fiction" is close to it, each word alone is not
#: (a pair is embedded only where one of its words comes within PAIR_MARGIN of tau)
SCIFI = np.array([0.0, 0.0, 0.0, 1.0], dtype=np.float32)
PAIRS = {
    "sci-fi": SCIFI,
    "science fiction": np.array([0.0, 0.57, 0.0, 0.82], dtype=np.float32),
    "science": np.array([0.0, 0.835, 0.0, 0.55], dtype=np.float32),  # within PAIR_MARGIN of tau
}


class PairEncoder(FakeEncoder):
    def encode_words(self, texts: list[str]) -> np.ndarray:
        self.encoded.extend(texts)
        return np.stack([PAIRS.get(t.lower(), np.array([0, 1, 0, 0], np.float32)) for t in texts])


FILMS = [
    "Arrival is a science fiction film about linguists and visitors.",
    "Arrival is a film about science, fiction and language.",  # a comma splits the pair
    "Sicario is a thriller about the drug war, not science fiction at all.",
    "Prisoners is a thriller about a missing girl.",
]


@pytest.mark.parametrize(("pairs", "expected"), [(True, [1.0, 0.0, 0.0, 0.0]), (False, [0.0] * 4)])
def test_two_adjacent_words_can_name_the_topic(pairs: bool, expected: list[float]) -> None:
    scorer = Parts(FILMS)
    scorer.dense = PairEncoder()
    scorer.parts = {LEXICAL_PART: scorer.lexical, DENSE_PART: scorer.dense}
    out = kind_evidence(scorer, ["sci-fi"], np.arange(4), 0.6, 0.1, pairs=pairs)  # type: ignore[arg-type]
    assert out is not None
    assert out.round(3).tolist() == [expected]
    # the pair is embedded as two words, once; without pairs it is never asked for
    assert scorer.dense.encoded.count("science fiction") == (1 if pairs else 0)
    # nor is a pair neither of whose words comes near the term
    assert "missing girl" not in scorer.dense.encoded
