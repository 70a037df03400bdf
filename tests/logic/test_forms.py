"""An excluded word's derived forms ("Buddhist" for "Buddhism") count as lexical evidence."""

from __future__ import annotations

import numpy as np
import pytest

from logir.errors import LogirError
from logir.index.base import attach_passages
from logir.index.lexical import BM25Scorer
from logir.logic import get_composer
from logir.logic.forms import derived_forms, derived_forms_of, index_token, root


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Buddhism", "buddh"),
        ("buddhists", "buddh"),
        ("relativistic", "relativ"),
        ("Italy", "ital"),
        ("Catholicism", "cathol"),  # two endings: -ism, then -ic
        ("Japanese", "japan"),
        ("music", "music"),  # "mus" is too short a root
        ("glass", "glass"),  # a double s is no plural
        ("meat", "meat"),
    ],
)
def test_root(word: str, expected: str) -> None:
    assert root(word) == expected


VOCAB = {"buddhism", "buddhist", "italy", "italian", "japan", "japanese", "chin", "chinese"}
VOCAB |= {"part", "party", "art", "artist", "dada", "dadaist"}


def _token(word: str) -> str | None:
    w = word.lower()
    return ("buddhist" if w == "buddhists" else w) if w in VOCAB | {"buddhists"} else None


@pytest.mark.parametrize(
    ("word", "forms"),
    [
        ("Buddhism", ["buddhist"]),
        ("Buddhist", ["buddhism"]),
        ("Italy", ["italian"]),
        ("Dada", ["dadaist"]),
        ("art", ["artist"]),
        ("Japanese", ["japan"]),  # a root of five letters is a form by itself
        ("Chinese", []),  # "chin" is not
        ("party", []),  # nor "part"
        ("sci-fi", []),
    ],
)
def test_derived_forms(word: str, forms: list[str]) -> None:
    assert derived_forms(word, _token) == forms


PASSAGES = [
    "Buddhism spread along the trade routes of the empire under the king.",
    "The Buddhist chronicle tells of the king and his empire.",
    "The king built roads across the empire and collected taxes.",
    "Buddhism came late to the island, long after the king.",
]


def test_derived_forms_of_a_term_read_from_the_index() -> None:
    bm25 = BM25Scorer.build(PASSAGES)
    assert index_token(bm25) is not None
    assert derived_forms_of("Buddhism", bm25) == ["buddhist"]
    assert derived_forms_of("the Buddhism part", bm25) == []  # two content words
    assert index_token(object()) is None  # type: ignore[arg-type]
    assert derived_forms_of("Buddhism", object()) == []  # type: ignore[arg-type]


def test_a_passage_that_says_the_derived_form_is_penalised() -> None:
    scorer = BM25Scorer.build(PASSAGES)
    attach_passages(scorer, PASSAGES)
    rows = np.arange(len(PASSAGES))
    query = '"king empire" AND NOT "Buddhism"'
    spec = "exclusion,tau=0,flat_weight=0,dense_tau=1,kind_tau=1,keyword=1"
    comp, off = get_composer(spec), get_composer(spec + ",forms=none")
    with_forms = comp.evidence(comp.plan(query), scorer, rows)["NOT Buddhism"]
    without = off.evidence(off.plan(query), scorer, rows)["NOT Buddhism"]
    assert without[1] == 0.0 and with_forms[1] < 0  # the Buddhist chronicle
    # the passages that say the word itself keep the evidence they had: each form is read on
    # its own scale, so a form adds no weight to the corpus's best score for the word
    np.testing.assert_allclose(with_forms[[0, 3]], without[[0, 3]], rtol=1e-6)
    assert with_forms[2] == without[2] == 0.0


def test_forms_is_checked() -> None:
    with pytest.raises(LogirError, match="forms"):
        get_composer("auto,forms=every")
