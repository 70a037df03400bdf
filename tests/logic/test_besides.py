"""An entity excluded "in addition to" ("besides X", "apart from X") is penalised less."""

from __future__ import annotations

import numpy as np
import pytest

from logir.logic import get_composer
from logir.logic.auto import plan_query
from logir.logic.besides import excluded_besides


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("what films has he been in besides Scooby-Doo (film)?", "Scooby-Doo"),
        (
            "Apart from being the creator of Raggedy Ann, what else did he do?",
            "the creator of Raggedy Ann",
        ),
        (
            "Apart from being the creator of Raggedy Ann, what else did he do?",
            "creator of Raggedy Ann (doll)",
        ),
        ("Aside from Fargo, what films did he make?", "Fargo"),
        ("In addition to Fargo, what other films did he make?", "Fargo"),
        ("causes of the war apart from the Missouri Compromise", "the Missouri Compromise"),
    ],
)
def test_additive_wording_is_found(text: str, term: str) -> None:
    assert excluded_besides(text, term)


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("Italian desserts excluding coffee", "coffee"),
        ("films by Nolan but not sci-fi", "sci-fi"),
        ("recipes without nuts", "nuts"),
        ("Nolan films other than sci-fi", "sci-fi"),
        ("besides the point: films without comedies", "comedies"),  # "besides" elsewhere
        ("films apart from", "comedies"),  # the term is not in the text
        ("side effects of antibiotics apart from allergic reactions", "allergic reactions"),
        ("Besides aspirin, which drugs lower the risk?", "aspirin"),  # a kind, not a name
    ],
)
def test_other_wording_is_not(text: str, term: str) -> None:
    assert not excluded_besides(text, term)


def test_plan_marks_each_term() -> None:
    p = plan_query("films besides Fargo", "cues")
    assert p.kind == "exclude" and p.negated == ("Fargo",) and p.besides == (True,)
    assert plan_query("films excluding comedies", "cues").besides == (False,)
    # a written-out form is taken at its word
    assert plan_query('"films" AND NOT "besides comedies"', "cues").besides == (False,)


def test_the_penalty_weighs_the_besides_share(fake) -> None:
    # P = "films" / best = [1, .5]; N = "comedies" or "Fargo" / best = [1, 0]; tau 0, no flat part
    scorer = fake({"films": [4, 2], "comedies": [3, 0], "Fargo": [3, 0]})
    rows = np.arange(2)
    spec = "auto,beta=0.4,tau=0,flat_weight=0,mentions=all,dense_tau=1,kind_tau=1,keyword=1"
    full = get_composer(spec).score("films excluding comedies", scorer, rows)
    assert full.tolist() == pytest.approx([1.0 - 0.4, 0.5])
    half = get_composer(spec).score("films besides Fargo", scorer, rows)
    assert half.tolist() == pytest.approx([1.0 - 0.2, 0.5])
    whole = get_composer(spec + ",besides=1").score("films besides Fargo", scorer, rows)
    assert whole.tolist() == pytest.approx(full.tolist())
