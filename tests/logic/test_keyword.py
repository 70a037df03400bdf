"""A keyword query (a search-box phrase, or logir syntax) is penalised at the keyword factor."""

from __future__ import annotations

import numpy as np
import pytest

from logir.errors import LogirError
from logir.index.base import DENSE_PART, LEXICAL_PART
from logir.logic import get_composer
from logir.logic.auto import plan_query
from logir.logic.keyword import (
    KEYWORD_WORDS,
    SHORT_WORDS,
    is_keyword_query,
    is_request,
    is_short_query,
)


@pytest.mark.parametrize(
    "text",
    [
        "Roman emperors but not Nero",
        "Italian desserts without coffee",
        "antibiotic resistance -penicillin",
        '"Denis Villeneuve" films other than Dune',
        "spicy dishes that don't contain meat",
    ],
)
def test_search_box_phrases_are_keyword_queries(text: str) -> None:
    assert is_keyword_query(text)


@pytest.mark.parametrize(
    "text",
    [
        "what does vitamin D do besides keeping bones strong?",
        "how to treat migraines without medication",
        "Provide an introduction to Aarhus without Denmark",
        "Investigate the role of nature in Walden, excluding Thoreau's critique of society",
        "I'm looking for Nolan films but not sci-fi",
        "Waves that result in constructive interference but not in destructive interference.",
        "films " * KEYWORD_WORDS + "but not Dune",
        "",
    ],
)
def test_questions_requests_and_prose_are_not(text: str) -> None:
    assert not is_keyword_query(text)


def test_plan_says_whether_a_query_is_keyword() -> None:
    assert plan_query("films excluding comedies", "cues").keyword
    assert not plan_query("Which films are there, excluding comedies?", "always").keyword
    # logir syntax: a NOT written out is meant as one
    assert plan_query('"films" AND NOT "comedies"', "cues").keyword


def test_the_penalty_weighs_the_keyword_factor(fake) -> None:
    # P = "films" / best = [1, .5]; N = "comedies" / best = [1, 0]; tau 0, no flat part
    scorer = fake({"films": [4, 2], "comedies": [3, 0]})
    rows = np.arange(2)
    spec = "auto,beta=0.1,tau=0,flat_weight=0,mentions=all,dense_tau=1,kind_tau=1"
    plain = get_composer(spec + ",keyword=1").score("films excluding comedies", scorer, rows)
    assert plain.tolist() == pytest.approx([1.0 - 0.1, 0.5])
    strong = get_composer(spec + ",keyword=4").score("films excluding comedies", scorer, rows)
    assert strong.tolist() == pytest.approx([1.0 - 0.4, 0.5])
    # a request keeps beta as it is
    request = get_composer(spec + ",keyword=4").score(
        "show me films, excluding comedies", scorer, rows
    )
    assert request.tolist() == pytest.approx([1.0 - 0.1, 0.5])
    explained = get_composer(spec + ",keyword=4").explain("films excluding comedies")
    assert "a keyword query: penalty x4" in explained
    assert "evidence counted above" not in explained  # tau 0 here: keyword_tau does not lower it
    lower = get_composer("auto").explain("films excluding comedies")
    assert "a keyword query: penalty x3, evidence counted above 0.4" in lower
    assert "a common term asserted in a passage's lead counts 0.6" in lower
    named = get_composer("auto").explain("roman emperors but not Nero")
    assert "keyword query" in named and "lead counts" not in named  # a name: no floor


def test_a_keyword_query_counts_evidence_above_keyword_tau(fake) -> None:
    # N = "comedies" / best = [1, .5]: .5 is at tau .5, above keyword_tau .4 by a sixth of the rest
    scorer = fake({"films": [4, 2], "comedies": [3, 1.5]})
    rows = np.arange(2)
    spec = "auto,beta=0.1,flat_weight=0,mentions=all,dense_tau=1,kind_tau=1,keyword=1,tau=0.5"
    low = get_composer(spec + ",keyword_tau=0.4").score("films excluding comedies", scorer, rows)
    assert low.tolist() == pytest.approx([0.9, 0.5 - 0.1 * (0.1 / 0.6)])
    off = get_composer(spec + ",keyword_tau=0.5").score("films excluding comedies", scorer, rows)
    assert off.tolist() == pytest.approx([0.9, 0.5])
    # a request keeps tau; a lower tau stays the lower
    request = get_composer(spec + ",keyword_tau=0.4").score(
        "show me films, excluding comedies", scorer, rows
    )
    assert request.tolist() == pytest.approx([0.9, 0.5])
    zero = get_composer(spec.replace("tau=0.5", "tau=0") + ",keyword_tau=0.4")
    assert zero.score("films excluding comedies", scorer, rows).tolist() == pytest.approx(
        [0.9, 0.5 - 0.1 * 0.5]
    )


class _Hybrid:
    """A hybrid scorer's two parts, each a fake scorer."""

    def __init__(self, lexical: object, dense: object) -> None:
        self.parts = {LEXICAL_PART: lexical, DENSE_PART: dense}


def test_a_keyword_querys_positive_part_mixes_the_lexical_evidence_in(fake) -> None:
    # "films": lexical / best = [1, .5], dense / best = [.5, 1]; nothing excluded is found
    scorer = _Hybrid(fake({"films": [4, 2]}), fake({"films": [0.5, 1.0]}))
    rows = np.arange(2)
    spec = "auto,flat_weight=0,question_flat=0,mentions=all,dense_tau=1,kind_tau=1"
    mixed = get_composer(spec + ",keyword_pos_dense=0.8").score(
        "films excluding comedies", scorer, rows
    )
    assert mixed.tolist() == pytest.approx([0.8 * 0.5 + 0.2 * 1.0, 0.8 * 1.0 + 0.2 * 0.5])
    dense = get_composer(spec + ",keyword_pos_dense=1").score(
        "films excluding comedies", scorer, rows
    )
    assert dense.tolist() == pytest.approx([0.5, 1.0])
    # a short request mixes them too; a longer one mixes them at request_pos_dense (0.6), and
    # a longer question keeps pos_dense (1 by default): dense alone
    short = get_composer(spec + ",keyword_pos_dense=0.8").score(
        "show me films, excluding comedies", scorer, rows
    )
    assert short.tolist() == pytest.approx(mixed.tolist())
    long = "show me the films that the critics liked best this year, excluding comedies"
    question = "which films did the critics like best this year, excluding comedies?"
    positive = {
        "films": [4, 2],
        "the films that the critics liked best this year": [4, 2],
        "which films did the critics like best this year": [4, 2],
    }
    scorer = _Hybrid(fake(positive), fake({k: [0.5, 1.0] for k in positive}))
    request = get_composer(spec + ",keyword_pos_dense=0.8").score(long, scorer, rows)
    assert request.tolist() == pytest.approx([0.6 * 0.5 + 0.4 * 1.0, 0.6 * 1.0 + 0.4 * 0.5])
    off = get_composer(spec + ",request_pos_dense=1").score(long, scorer, rows)
    assert off.tolist() == pytest.approx([0.5, 1.0])
    asked = get_composer(spec + ",keyword_pos_dense=0.8,positive_words=0").score(
        question, scorer, rows
    )
    assert asked.tolist() == pytest.approx([0.5, 1.0])
    assert "a request: positive part dense x0.6" in get_composer("auto").explain(long)
    assert "positive part dense x0.6" in get_composer("auto").explain("films excluding comedies")
    with pytest.raises(LogirError, match="keyword_pos_dense"):
        get_composer("auto,keyword_pos_dense=1.5")


def test_a_questions_short_positive_part_mixes_the_lexical_evidence_in(fake) -> None:
    # a question of more than SHORT_WORDS words whose positive part has at most positive_words
    # (10) words: "Alfred Jarry", a name MiniLM may not know, is found by BM25
    question = "What did Alfred Jarry write in his short and eventful life, other than Ubu Roi?"
    assert not is_short_query(question)
    positive = "What did Alfred Jarry write in his short and eventful life"
    assert plan_query(question, "cues").positive == positive
    assert len(positive.split()) == 11
    longer = question.replace("short and", "short and very")
    texts = [positive, positive.replace("short and", "short and very")]
    scorer = _Hybrid(fake({t: [4, 2] for t in texts}), fake({t: [0.5, 1.0] for t in texts}))
    rows = np.arange(2)
    spec = "auto,flat_weight=0,question_flat=0,mentions=all,dense_tau=1,kind_tau=1"
    mixed = [0.6 * 0.5 + 0.4 * 1.0, 0.6 * 1.0 + 0.4 * 0.5]
    at = get_composer(spec + ",positive_words=11")
    assert at.score(question, scorer, rows).tolist() == pytest.approx(mixed)
    assert "a positive part of at most 11 words: dense x0.6" in at.explain(question)
    # one word more than positive_words, or positive_words=0: the dense evidence alone
    assert at.score(longer, scorer, rows).tolist() == pytest.approx([0.5, 1.0])
    off = get_composer(spec + ",positive_words=0")
    assert off.score(question, scorer, rows).tolist() == pytest.approx([0.5, 1.0])
    assert "at most" not in off.explain(question)
    with pytest.raises(LogirError, match="positive_words"):
        get_composer("auto,positive_words=-1")


def test_short_queries() -> None:
    assert is_short_query("how to treat migraines without medication")
    assert is_short_query(" ".join(["word"] * SHORT_WORDS))
    assert not is_short_query(" ".join(["word"] * (SHORT_WORDS + 1)))
    assert plan_query("how is arsenic toxic to people, without groundwater?", "always").short
    assert not plan_query(
        "how is arsenic toxic to people, " * 3 + "without groundwater?", "always"
    ).short


def test_keyword_factor_is_checked() -> None:
    with pytest.raises(LogirError, match="keyword"):
        get_composer("auto,keyword=-1")
    with pytest.raises(LogirError, match="keyword_tau"):
        get_composer("auto,keyword_tau=1.5")


def test_a_long_questions_flat_part_is_its_whole_text(fake) -> None:
    # the positive part scores [1, .5]; the whole text [.2, 1]; the text less "pitchers" [1, 0]
    long = "which MLB players from the last decade were the best hitters, other than pitchers?"
    plan = plan_query(long, "cues")
    assert plan.kind == "exclude" and not plan.keyword and not plan.short
    positive, rest = plan.positive, long.replace(" pitchers", "")
    table = {positive: [2, 1], long: [1, 5], rest.strip(): [4, 0], "pitchers": [0, 0]}
    scorer = fake(table)
    rows = np.arange(2)
    spec = "auto,mentions=all,dense_tau=1,kind_tau=1,lead_floor=0"
    got = get_composer(spec + ",question_flat=0.25").score(long, scorer, rows)
    assert got.tolist() == pytest.approx([0.75 * 1 + 0.25 * 0.2, 0.75 * 0.5 + 0.25 * 1])
    assert long in get_composer("auto").query_texts(_reading(long))
    # a keyword query keeps the text less the excluded words, at flat_weight
    short = "MLB players other than pitchers"
    kw = plan_query(short, "cues")
    assert kw.keyword
    texts = get_composer("auto").query_texts(_reading(short))
    assert short not in texts and "MLB players" in texts
    with pytest.raises(LogirError, match="question_flat"):
        get_composer("auto,question_flat=2")


def _reading(text: str):
    from logir.query.reading import read

    return read(text, "auto")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("famous ppl beefing w each other - politicians, whoever. music beef is out tho", True),
        ("A reader is looking for women who were the first to achieve something.", True),
        ("What are the causes of the war, without the naval battles?", False),
        ("How did the Depression hit trade - not the 1970s oil crisis", False),
        ("In which countries is it legal, excluding Europe", False),
    ],
)
def test_a_request_asks_no_question(text: str, expected: bool) -> None:
    assert is_request(text) is expected
