"""The exclusion formula (`hybrid`) and its cue policy (`auto`)."""

from __future__ import annotations

import numpy as np
import pytest

from logir.index.lexical import BM25Scorer
from logir.logic import get_composer
from logir.logic.auto import plan_query


def test_plan_follows_the_policy() -> None:
    # explicit syntax: the user's NOT is an exclusion whatever the policy
    p = plan_query('"vitamin D" AND NOT "bone health"', "cues")
    assert p.kind == "exclude" and p.positive == "vitamin D" and p.negated == ("bone health",)
    # an exclusion cue in natural language
    p = plan_query("Aaron's profile, but don't mention Moses.", "cues")
    assert p.kind == "exclude" and p.negated == ("Moses",)
    # a negated property of the answer: auto stays flat, hybrid penalises
    text = "Which actor starred in a film by Steven Spielberg but is not American?"
    assert plan_query(text, "cues").kind == "flat"
    assert plan_query(text, "always").kind == "exclude"
    # the same question behind a preposition asks for an entity as well
    for text in (
        "In which country was the Mass moved to Saturday, instead of Sunday?",
        "In which country did the studio record, without EMI?",
        "Which banks were registered by an organization other than the ECBS?",
        # ... or behind a request to find it
        "Determine which classifications of plants rest on genetic data rather than morphology.",
        "tell me which painters worked in Paris without a patron",
    ):
        assert plan_query(text, "cues").why.startswith("an entity-seeking question"), text
    # ... unless an exception is set off from it: it leaves items out of the answer
    for text in (
        "From whom did the band buy the studio, apart from EMI?",
        "Which rivers flow through Germany, apart from the Rhine and the Danube?",
        "Who, besides John Field, promoted Presbyterianism?",
        "Which film did she design costumes for, but not including Michael Collins?",
        "Which models of computation, setting aside the Turing machine, made algorithms precise?",
        # ("apart from" only subtracts, set off or not)
        "which genocides are discussed apart from the armenian genocide?",
        # (an instruction set off after it)
        "who lives in highland areas + what gets grown up there - skip sri lanka pls",
        # ... or the negation comes in a sentence of its own after the question
        "who were the puritans?? not the sex and marriage part",
        "Who painted the Mona Lisa? Not interested in the theft.",
        # (a full stop ends the question too, but not one that ends an abbreviation)
        "who owned which newspaper and who bought it. w/o the toronto star",
        # ... or it asks for answers not in, from or about something: a place or topic left out
        "which universities aren't in the united states?",
        "which influenza studies aren't about the immune response?",
        "Which boxers are not from the US?",
    ):
        assert plan_query(text, "cues").kind == "exclude", text
    # (not "in" a state, nor a property of the answer)
    for text in ("Which aircraft is not in working condition?", "Which saints were not martyrs?"):
        assert plan_query(text, "cues").kind == "flat", text
    assert plan_query("Which rivers flow through Germany but not France? Thanks", "cues").kind == (
        "flat"
    )
    for text in (
        "Which actors in St. Elmo's Fire were not American? Thanks",
        "Which rivers in the St. Lawrence basin are not in Canada",
        "Which rivers don't flow into the sea. I need it for school",
    ):
        assert plan_query(text, "cues").kind == "flat", text
    assert plan_query("In 2010, films by Nolan other than Inception", "cues").kind == "exclude"
    assert plan_query("symptoms of strep throat", "always").kind == "flat"
    assert plan_query('"a" AND NOT "b"', "never").kind == "flat"


def test_a_nation_left_out_reads_as_a_name() -> None:
    # its closest words are other nations ("British" for "americans"), not kinds of it
    assert plan_query("tennis players no americans", "cues").named == (True,)
    assert plan_query("spicy dishes, no meat", "cues").named == (False,)


def test_hand_computed_scores(fake) -> None:
    # P = "a" / best("a") = [1, .5, .25]; N = "b" / best("b") = [0, 1, .5]
    scorer = fake({"a": [4, 2, 1], "b": [0, 2, 1]})
    comp = get_composer("exclusion,beta=0.5,tau=0,flat_weight=0,keyword=1")
    s = comp.score('"a" AND NOT "b"', scorer, np.array([0, 1, 2]))
    assert s.tolist() == pytest.approx([1.0, 0.5 - 0.5, 0.25 - 0.25])
    # tau = 0.5: only the part of N above 0.5 counts, rescaled: N' = [0, 1, 0]
    s = get_composer("exclusion,beta=0.5,tau=0.5,flat_weight=0,keyword=1,keyword_tau=0.5").score(
        '"a" AND NOT "b"', scorer, np.arange(3)
    )
    assert s.tolist() == pytest.approx([1.0, 0.0, 0.25])


def test_rank_and_score_agree_and_evidence_adds_up(fake) -> None:
    scorer = fake({"a": [4, 2, 1, 3], "b": [0, 2, 1, 3], "c": [1, 0, 0, 1]})
    comp = get_composer("exclusion,beta=0.7,tau=0,flat_weight=0,keyword=1")
    q = '"a" AND NOT "b" AND NOT "c"'
    (r,) = comp.rank([q], scorer, 4)
    assert sorted(r.doc_idx.tolist()) == [0, 1, 2, 3]
    assert r.scores.tolist() == pytest.approx(comp.score(q, scorer, r.doc_idx).tolist())
    total = np.sum(list(r.evidence.values()), axis=0)
    assert total.tolist() == pytest.approx(r.scores.tolist())
    assert set(r.evidence) == {"a", "NOT b", "NOT c"}
    assert r.logical_form == q


def test_purely_negative_query_ranks_every_document(fake) -> None:
    scorer = fake({"b": [3, 0, 1]})
    (r,) = get_composer("exclusion").rank(['NOT "b"'], scorer, 3)
    assert r.doc_idx.tolist() == [1, 2, 0]


def test_exclusion_beats_flat_on_a_real_corpus() -> None:
    docs = [
        "Vitamin D benefits bone health and protects against bone loss.",
        "Vitamin D benefits the immune system and may lift mood in winter.",
        "Bone health depends on calcium.",
    ]
    bm25 = BM25Scorer.build(docs)
    q = "benefits of vitamin D, excluding bone health"
    flat = get_composer("flat").rank([q], bm25, 3)[0]
    auto = get_composer("auto").rank([q], bm25, 3)[0]
    assert flat.doc_idx[0] in (0, 2)  # similarity returns what the query excludes
    assert auto.doc_idx[0] == 1


def test_bad_parameters_are_rejected() -> None:
    from logir.errors import LogirError

    with pytest.raises(LogirError, match="tau"):
        get_composer("auto,tau=1.5")
    with pytest.raises(LogirError, match="allowed"):
        get_composer("auto,gamma=1")
