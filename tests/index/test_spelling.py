"""Query-side spelling correction (logir.index.spelling) and BM25's use of it."""

from __future__ import annotations

import pytest

from logir.index import spelling
from logir.index.lexical import BM25Scorer
from logir.index.spelling import Speller, corrections, is_contraction, names, one_edit, set_spelling

DOCS = [
    "Tuberculosis treatment in children with antibiotics.",
    "Government movement on tuberculosis policy.",
    "A moment of calm before the storm.",
    "Buried treasure on the island.",
    "The Bateman family home.",
]


@pytest.fixture(scope="module")
def bm25() -> BM25Scorer:
    return BM25Scorer.build(DOCS)


def test_one_edit_weighs_kinds_and_keeps_the_first_letter() -> None:
    edits = one_edit("movment")
    assert edits["movement"] == 1.0  # a dropped letter, put back
    assert edits["moment"] == 0.01  # a letter deleted: the least likely typo
    assert edits["movmnet"] == 1.0  # a swap of neighbours
    assert "lovment" not in edits  # the first letter stays
    assert "omvment" in edits  # ... unless the first two are swapped
    assert "movment" not in edits


def test_five_letter_words_get_insertions_and_swaps_only() -> None:
    edits = one_edit("govts")
    assert "goats" not in edits and "govt" not in edits  # no substitution, no deletion
    assert "govets" in edits and "gvots" in edits


def test_names_are_capitalised_words_past_a_sentence_start() -> None:
    got = names(
        "films by Nolan or Villeneuve. Not sci-fi, and NICE rules? Publix ok; O\u2019Neill's"
    )
    assert got == {"nolan", "villeneuve", "nice", "oneill"}


def test_contractions_without_apostrophes() -> None:
    words = {"aren't": 5, "who've": 3, "parent": 9}
    assert is_contraction("arent", words) and is_contraction("whove", words)
    assert not is_contraction("parnet", words)


def test_speller_picks_the_likeliest_word_the_index_holds() -> None:
    speller = Speller({"movement": 0, "moment": 1}, lambda ws: ws)
    assert speller.correct("movment") == "movement"  # not the commoner "moment"
    only_moment = Speller({"moment": 1}, lambda ws: ws)
    assert only_moment.correct("movment") == "moment"  # the one the index holds
    assert Speller({}, lambda ws: ws).correct("movment") is None  # none the index holds


def test_speller_leaves_real_short_and_odd_words(bm25: BM25Scorer) -> None:
    speller = Speller({"emit": 0, "tuberculosi": 1}, lambda ws: ws)
    assert speller.correct("remit") is None  # an English word, though not the index's
    assert speller.correct("arent") is None  # a contraction
    assert speller.correct("tbc1x") is None and speller.correct("tub") is None


def test_bm25_reads_a_misspelt_word_as_the_indexed_one(bm25: BM25Scorer) -> None:
    text = "tuberculossis treatmnts in childern"
    assert bm25.corrections(text) == {
        "tuberculossis": "tuberculosis",
        "treatmnts": "treatments",
        "childern": "children",
    }
    assert bm25.tokenize([text]) == [["tuberculosi", "treatment", "children"]]
    assert bm25.analyse("the goverment")[1] == ("goverment", "govern")
    assert len(bm25.token_ids([text])[0]) == 3
    assert bm25.score([text])[0].argmax() == 0


def test_bm25_keeps_names_and_words_it_holds(bm25: BM25Scorer) -> None:
    assert bm25.corrections("policy of the Goverment") == {}  # written as a name
    assert bm25.corrections("Goverment policy") == {"goverment": "government"}  # a sentence start
    assert bm25.corrections("policy of the goverment") == {"goverment": "government"}
    assert bm25.corrections("buried treasure") == {}
    assert bm25.corrections("burried treasure") == {"burried": "buried"}


def test_spelling_can_be_turned_off(bm25: BM25Scorer) -> None:
    text = "tuberculossis"
    assert len(bm25.token_ids([text])[0]) == 1
    set_spelling(bm25, False)
    try:
        assert not bm25.spelling
        assert bm25.corrections(text) == {} and corrections(bm25, text) == {}
        assert bm25.tokenize([text]) == [["tuberculossi"]]
        assert len(bm25.token_ids([text])[0]) == 0  # ids kept from before were dropped
    finally:
        set_spelling(bm25, True)
    assert corrections(bm25, text) == {"tuberculossis": "tuberculosis"}


def test_the_switch_is_a_parameter(tmp_path) -> None:
    off = BM25Scorer.build(DOCS)
    off.spelling = False
    assert BM25Scorer(off._bm25, {**off.params, "spelling": False}).spelling is False
    assert BM25Scorer(off._bm25, off.params).spelling is True


def test_without_the_dictionary_nothing_is_corrected(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spelling, "english", lambda: None)
    assert Speller({"movement": 0}, lambda ws: ws).correct("movment") is None


def test_corrected_rewrites_only_the_misspelt_words(bm25: BM25Scorer) -> None:
    text = "Tuberculossis treatmnts, the goverment's plan; the goverment\u2019s; O'Goverment"
    assert bm25.corrected(text) == (
        "tuberculosis treatments, the government's plan; the government\u2019s; O'Goverment"
    )
    assert bm25.corrected("buried treasure") == "buried treasure"


def test_a_hybrid_dense_part_reads_the_corrected_words(
    bm25: BM25Scorer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import numpy as np

    from logir.index import dense as dense_module
    from logir.index.dense import DenseScorer
    from logir.index.hybrid import HybridScorer

    encoded: list[str] = []

    def encode(model: object, texts: list[str], batch_size: int = 64) -> np.ndarray:
        encoded.extend(texts)
        return np.ones((len(texts), len(DOCS)), dtype=np.float32)

    monkeypatch.setattr(dense_module, "encoder_for", lambda model: None)
    monkeypatch.setattr(dense_module, "_encode_queries", encode)
    dense = DenseScorer(np.eye(len(DOCS), dtype=np.float32), model="fake")
    hybrid = HybridScorer(bm25, dense)
    hybrid.score(["goverment policy"])
    dense.score(["goverment policy"])  # the dense scorer alone reads the text as typed
    assert encoded == ["government policy", "goverment policy"]
    set_spelling(hybrid, False)
    try:
        hybrid.parts["dense"].embed(["the goverment"])
        assert encoded[-1] == "the goverment"
    finally:
        set_spelling(hybrid, True)
