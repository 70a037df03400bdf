"""One entry point from text to a Query: to_query / understand and their modes."""

from __future__ import annotations

import pytest

from logir.query import And, Not, Or, Term, Understanding, to_query, understand
from logir.query.natural import nlp
from logir.query.syntax import QuerySyntaxError
from logir.query.understand import looks_like_syntax


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('"a" AND NOT b', True),
        ("cats AND dogs", True),
        ("cats OR dogs", True),
        ("NOT cats", True),
        ('say "hello"', True),
        ("cats and dogs", False),
        ("cats or dogs, not birds", False),
        ("ANDROID phones", False),
        ("NOTE-taking apps", False),
        ("films by Nolan", False),
        # typed all in capitals, "OR" is one more upper-case word
        ("CHEAP FLIGHTS TO LISBON OR PORTO, NO RYANAIR!!!", False),
        ('"CHEAP FLIGHTS" OR PORTO', True),
        # a short form in capitals is still a form
        ("A AND NOT B", True),
        ("NOT B", True),
        ("(COVID OR FLU) AND NOT MRNA", True),
        ("COVID VACCINE TRIALS NOT MRNA", False),
        # a search-box minus is no part of the syntax: the text is read as natural language
        ("home automation OR media server -kodi -plex", False),
        ("(a OR b) AND NOT c -d", True),
    ],
)
def test_looks_like_syntax(text: str, expected: bool) -> None:
    assert looks_like_syntax(text) is expected


def test_auto_routes_syntax_to_the_parser() -> None:
    u = understand('"vitamin D" AND NOT "bone health"')
    assert u.query == And(Term("vitamin D"), Not(Term("bone health")))
    assert u.mode_used == "syntax"
    assert u.spans == {"vitamin D": (1, 10), "bone health": (21, 32)}


def test_auto_routes_prose_to_natural() -> None:
    u = understand("Aaron's profile, but don't mention Moses.")
    assert isinstance(u, Understanding)
    assert u.mode_used == "natural"
    assert u.query == And(Term("Aaron's profile"), Not(Term("Moses")))
    assert u.spans["Moses"] == (35, 40)
    assert "negation:dont-mention" in u.notes


def test_auto_falls_back_to_natural_when_syntax_fails() -> None:
    text = 'The "Matrix" films AND'
    u = understand(text)
    assert u.mode_used == "natural"
    assert u.query == Term(text)
    assert any("did not parse" in n for n in u.notes)


def test_lower_case_operators_stay_natural() -> None:
    assert to_query("cats and dogs") == Term("cats and dogs")


def test_syntax_mode_raises_on_bad_syntax() -> None:
    with pytest.raises(QuerySyntaxError):
        to_query("a AND", mode="syntax")


def test_syntax_mode_reads_lower_case_operators() -> None:
    assert to_query("cats or dogs", mode="syntax") == Or(Term("cats"), Term("dogs"))


def test_natural_mode_ignores_operator_words() -> None:
    q = to_query("Plays by Shakespeare other than Hamlet", mode="natural")
    assert q == And(Term("Plays by Shakespeare"), Not(Term("Hamlet")))
    u = understand("A AND B", mode="natural")
    assert u.mode_used == "natural"
    assert u.query == Term("A AND B")


def test_natural_without_spacy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nlp, "load_nlp", lambda: None)
    assert to_query("films by Nolan but not Inception") == And(
        Term("films by Nolan"), Not(Term("Inception"))
    )


def test_unknown_mode_and_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown mode"):
        to_query("x", mode="magic")
    with pytest.raises(TypeError):
        understand(3)  # type: ignore[arg-type]


def test_cli_parse_natural(capsys: pytest.CaptureFixture[str]) -> None:
    from typer.testing import CliRunner

    from logir.cli import app

    text = "Aaron's profile, but don't mention Moses."
    result = CliRunner().invoke(app, ["parse", "--natural", text])
    assert result.exit_code == 0, result.output
    assert '"Aaron\'s profile" AND NOT "Moses"' in result.output
    assert "'Moses' <- [35:40] 'Moses'" in result.output
    result = CliRunner().invoke(app, ["parse", "--auto", '"a" AND b', "--json"])
    assert result.exit_code == 0, result.output
    assert '"mode": "syntax"' in result.output
