"""`logir synth negations` generators on a fixture corpus: every item is right, checked here by
plain text tests of the passages (independent of the generators' own checks)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from logir.data.dataset import Document
from logir.errors import LogirError
from logir.index.store import load_corpus
from logir.query.ast import negated_terms, positive_terms
from logir.query.reading import read
from logir.synth.negations.analysis import Analysis
from logir.synth.negations.item import Item, check
from logir.synth.negations.run import generate
from logir.synth.negations.title import name_of
from logir.synth.negations.wordings import PAIR, SINGLE, phrase, reads_as

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "synth" / "negations-corpus.jsonl"


@pytest.fixture(scope="module")
def docs() -> list[Document]:
    return load_corpus(CORPUS)


@pytest.fixture(scope="module")
def items(docs: list[Document]) -> list[Item]:
    return generate(docs, seed=0)[0]


def says(doc: Document, phrase_text: str) -> bool:
    """Whether the passage says the phrase, whole words, any case, singular or plural."""
    words = [re.escape(w) for w in phrase_text.lower().split()]
    pattern = r"\b" + r"\s+".join(words) + r"(?:s|es)?\b"
    return re.search(pattern, doc.full_text.lower()) is not None


def says_any_word(doc: Document, phrase_text: str) -> bool:
    """Whether any word of the phrase (its first five letters, so plurals and -ing count) is in
    the passage."""
    text = doc.full_text.lower()
    return any(w.lower()[:5] in text for w in phrase_text.split())


def test_every_item_has_a_satisfying_positive_and_violating_negatives(
    docs: list[Document], items: list[Item]
) -> None:
    assert len(items) >= 15
    for item in items:
        pos = docs[item.positive]
        assert says(pos, item.topic), (item, pos.id)
        for x in item.excluded:
            assert not says_any_word(pos, x), (item.query, pos.id, x)
        assert item.negatives and item.positive not in item.negatives
        for n in item.negatives:
            neg = docs[n]
            assert says(neg, item.topic), (item.query, neg.id)
            assert any(says(neg, x) for x in item.excluded), (item.query, neg.id)


def test_each_query_is_read_by_logir_as_the_topic_without_the_excluded(items: list[Item]) -> None:
    for item in items:
        form = read(item.query, "natural").query
        negated = sorted(t.text.lower() for t in negated_terms(form))
        assert negated == sorted(x.lower() for x in item.excluded), item.query
        assert any(item.topic.lower() in t.text.lower() for t in positive_terms(form))


def test_title_exclusion_excludes_the_negative_by_its_own_title(
    docs: list[Document], items: list[Item]
) -> None:
    titles = [i for i in items if i.kind == "title"]
    assert titles
    for item in titles:
        (neg,) = item.negatives
        assert item.excluded == (name_of(docs[neg].title),)
    nolan = [i for i in titles if i.topic == "Christopher Nolan"]
    assert nolan, "the Nolan films share their director: one is excluded by name"
    for item in nolan:
        assert docs[item.positive].id.startswith("film-")
        assert "Christopher Nolan" in docs[item.positive].text


def test_swaps_come_in_mirrored_pairs(items: list[Item]) -> None:
    swaps = [i for i in items if i.kind == "swap"]
    assert swaps and len(swaps) % 2 == 0
    for first, second in zip(swaps[::2], swaps[1::2], strict=True):
        assert first.group == second.group and first.topic == second.topic
        assert (first.positive,) == second.negatives and (second.positive,) == first.negatives
        assert first.excluded != second.excluded


def test_each_disjunction_negative_breaks_one_excluded_thing_only(
    docs: list[Document], items: list[Item]
) -> None:
    pairs = [i for i in items if i.kind == "disjunction"]
    assert pairs
    for item in pairs:
        x, z = item.excluded
        b, c = (docs[n] for n in item.negatives)
        assert says(b, x) and not says_any_word(b, z), item.query
        assert says(c, z) and not says_any_word(c, x), item.query


def test_the_same_seed_gives_the_same_items_and_another_seed_other_wordings(
    docs: list[Document], items: list[Item]
) -> None:
    assert generate(docs, seed=0)[0] == items
    other = generate(docs, seed=1)[0]
    assert [i.query for i in other] != [i.query for i in items]


def test_queries_vary_their_wording(items: list[Item]) -> None:
    assert len({i.wording for i in items}) >= 12


def test_max_items_caps_the_queries(docs: list[Document]) -> None:
    assert len(generate(docs, seed=0, max_items=3)[0]) == 3


@pytest.mark.parametrize("name", sorted(SINGLE))
def test_every_single_wording_reads_as_an_exclusion(name: str) -> None:
    text = SINGLE[name].format(t="white matter", x="preterm infants")
    assert reads_as(text, "white matter", ("preterm infants",)), text


@pytest.mark.parametrize("name", sorted(PAIR))
def test_every_pair_wording_reads_as_a_double_exclusion(name: str) -> None:
    text = PAIR[name].format(t="Christopher Nolan", x="Tenet", z="Memento")
    assert reads_as(text, "Christopher Nolan", ("Tenet", "Memento")), text


def test_a_wording_the_reader_gets_wrong_is_never_used() -> None:
    import random

    assert not reads_as("Nolan beyond Tenet", "Nolan", ("Tenet",))
    assert not reads_as("Nolan but not Tenet", "Nolan", ("Memento",))
    text, name = phrase("Nolan", ("Tenet",), random.Random(0)) or ("", "")
    assert reads_as(text, "Nolan", ("Tenet",)) and name in SINGLE


def test_a_query_starts_with_a_capital_unless_its_first_word_has_its_own_case() -> None:
    import random

    for seed in range(8):
        text, _ = phrase("mRNA decay", ("microRNA",), random.Random(seed)) or ("", "")
        assert "MRNA" not in text and "mRNA decay" in text
        text, _ = phrase("white matter", ("infants",), random.Random(seed)) or ("", "")
        assert text[0].isupper()


def test_check_refuses_a_swapped_item(docs: list[Document]) -> None:
    analysis = Analysis(docs)
    inception, tenet = (next(p for p in analysis.passages if p.doc.id == d) for d in (
        "film-inception", "film-tenet"))  # fmt: skip
    topic, excluded = analysis.key("Christopher Nolan"), [analysis.key("Tenet")]
    check(inception, [tenet], topic, excluded)
    with pytest.raises(AssertionError, match="does not satisfy"):
        check(tenet, [inception], topic, excluded)
    with pytest.raises(AssertionError, match="does not violate"):
        check(inception, [inception], topic, excluded)


def test_a_name_is_not_the_common_word_it_stems_to() -> None:
    docs = [
        Document("a", "Jordan Peele directed a horror film. Peele also wrote it."),
        Document("b", "Peel the orange and keep the peel for the cake."),
    ]
    analysis = Analysis(docs)
    a, b = analysis.passages
    assert analysis.key("Peele") == ("^peele",)
    assert not b.contains(analysis.key("Peele"))
    assert b.mentions_any(analysis.key("Peele")), "mentions are generous: never a missed exclusion"


def test_a_word_that_starts_a_longer_word_counts_as_mentioned() -> None:
    from logir.synth.negations.analysis import overlaps

    analysis = Analysis(
        [
            Document("a", "NF-kappaB controls the response of infantile cells."),
            Document("b", "RATIONALE We measured the rationale for NF-kappa inhibitors."),
        ]
    )
    a, b = analysis.passages
    assert a.mentions_any(analysis.key("NF-kappa")) and a.mentions_any(analysis.key("infant"))
    assert not a.mentions_any(analysis.key("inhibitors"))
    assert overlaps(analysis.key("NF-kappaB"), analysis.key("NF-kappa"))
    assert not overlaps(analysis.key("NF-kappaB"), analysis.key("inhibitors"))
    assert analysis.key("RATIONALE for NF-kappa") == analysis.key("NF-kappa"), "a section label"


def test_titles_that_read_as_sentences_are_not_names() -> None:
    assert name_of("Interstellar (film)") == "Interstellar"
    assert name_of("Microglia drive neuron loss in mice.") == ""
    assert name_of("Supplementary information: 'Guide'") == ""
    assert name_of("") == ""


def test_a_corpus_of_one_passage_is_refused() -> None:
    with pytest.raises(LogirError, match="at least 2 passages"):
        generate([Document("a", "text")])


def test_no_test_share_keeps_every_query_for_training(
    docs: list[Document], items: list[Item], tmp_path: Path
) -> None:
    from logir.synth.negations.run import synthesize

    (tmp_path / "qrels").mkdir()
    (tmp_path / "qrels" / "test.tsv").write_text("left by an earlier run\n", encoding="utf-8")
    summary = synthesize(docs, tmp_path, seed=0, test_share=0)
    assert summary["queries"] == summary["train_queries"] == len(items)
    assert summary["test_queries"] == summary["set_aside"] == 0
    assert summary["triplets"] == sum(len(i.negatives) for i in items)
    assert not (tmp_path / "qrels" / "test.tsv").exists()
