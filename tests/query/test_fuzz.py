"""No text crashes, hangs or escapes the query readers (issue 10); bench/fuzz.py runs 100,000."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logir.errors import LogirError
from logir.limits import MAX_NATURAL_CHARS, MAX_QUERY_CHARS
from logir.query import Not, Query, QuerySyntaxError, parse, terms, to_dict, understand
from logir.query.natural import EmptyQuery, QueryTooComplex, QueryTooLong, decompose
from logir.query.syntax import MAX_DEPTH


def _within(seconds: float, fn: Callable[[], Any]) -> Any:
    """``fn()``, failing the test when it runs past ``seconds`` (catches exponential regressions,
    not slowness: the bound is far above the expected time)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            box["error"] = exc

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still running after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box["value"]


# Any text: a Query (or a reading) or a LogirError, nothing else.

_CUE_PIECES = [
    "films", "not", "never", "n't", "excluding", "except for", "other than", "without", "besides",
    "unrelated to", "don't mention", "refrain from", "nothing is said about", "neither", "nor",
    "either", "both", "or", "and", "but", "that are also", "as well as", "in addition to", "other",
    "non-alcoholic", "Dr.", "e.g.", "1.", "2)", "(1)", "- ", "AND", "OR", "NOT", "(", ")", '"',
    "\\", ",", ", ", ".", ";", "?", "\n", "\t", "  ", "\u200f", "\u202e", "\u00a0", "\U0001f600",
]  # fmt: skip

_TEXTS = st.one_of(
    st.text(max_size=80),
    st.text(st.characters(codec="utf-8"), max_size=40),
    st.lists(st.sampled_from(_CUE_PIECES), max_size=30).map("".join),
    st.lists(st.sampled_from(_CUE_PIECES), max_size=30).map(" ".join),
)

_FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_FUZZ
@given(_TEXTS)
def test_parse_gives_a_query_or_a_logir_error(text: str) -> None:
    try:
        q = parse(text)
    except LogirError:
        return
    assert parse(str(q)) == q


@_FUZZ
@given(_TEXTS)
def test_decompose_gives_a_query_or_a_logir_error(text: str) -> None:
    try:
        d = decompose(text)
    except LogirError:
        assert not text.strip()
        return
    assert terms(d.query)
    assert parse(str(d.query)) == d.query


@_FUZZ
@given(_TEXTS)
def test_understand_gives_a_reading_or_a_logir_error(text: str) -> None:
    try:
        u = understand(text)
    except LogirError:
        return
    assert parse(str(u.query)) == u.query


# The cases of issue 10, deterministic.


def test_listed_exclusion_of_ten_thousand_items_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # linear time is what is tested (the 10 s bound below); the reader's own 0.5 s budget would
    # make the test depend on how busy the machine's cores are (a reading here takes about 0.3 s
    # of CPU, more on a crowded virtual machine), so it is raised for this test
    from logir.query.natural.build import Builder

    monkeypatch.setattr(Builder.__init__, "__defaults__", (5.0,))
    text = "films, excluding " + ", ".join(["a"] * 10_000)  # exponential before the fix
    d = _within(10, lambda: decompose(text))
    assert "a, a, a" in " ".join(t.text for t in terms(d.query))
    named = "films, excluding " + ", ".join(f"genre{i}" for i in range(2_000)) + ", and drama"
    q = _within(10, lambda: decompose(named)).query
    negated = [c.child.text for c in q.children if isinstance(c, Not)]  # type: ignore[union-attr]
    assert len(negated) == 1
    assert negated[0].startswith("genre0, genre1,") and negated[0].endswith("genre1999, and drama")


@pytest.mark.parametrize("items", [3, 24, 40])
def test_listed_exclusion_names_its_items(items: int) -> None:
    text = "films, excluding " + ", ".join(f"genre{i}" for i in range(items)) + ", and drama"
    q = _within(10, lambda: decompose(text)).query
    if items < 16:  # a short list: each item excluded on its own
        assert str(q).startswith('"films" AND NOT "genre0" AND NOT "genre1" AND NOT "genre2"')
    else:  # a long one stays one negated term
        assert str(q).startswith('"films" AND NOT "genre0, genre1, ')
    assert "drama" in str(q)


@pytest.mark.parametrize(
    "text",
    [
        "(" * 10_000 + "a",
        "a" + ")" * 10_000,
        '"' * 10_000 + "a",
        "a" + '"' * 10_000,
        "(" * 5_000 + "films not x" + ")" * 5_000,
        "films (excluding " * 1_000 + "x",
        "(" * 10_000,
        '"' * 1_572 + "a OR b",  # 1.7 s in spaCy before its budget counted tokens
    ],
)
def test_unbalanced_brackets_and_quotes(text: str) -> None:
    d = _within(10, lambda: decompose(text))
    assert terms(d.query)
    u = _within(10, lambda: understand(text))
    assert terms(u.query)


def test_deep_nesting_in_syntax_is_a_clear_error() -> None:
    deep = "(" * 10_000 + "a" + ")" * 10_000
    with pytest.raises(QuerySyntaxError, match=f"nests more than {MAX_DEPTH} levels") as info:
        parse(deep)
    assert len(str(info.value)) < 400  # the message shows the text around the column only
    with pytest.raises(QuerySyntaxError, match="nests more than"):
        parse("NOT " * 10_000 + "a")
    # Too long for natural language too: the syntax error is the better message.
    deeper = "(" * 20_000 + "a AND b" + ")" * 20_000
    assert len(deeper) > MAX_NATURAL_CHARS
    with pytest.raises(QuerySyntaxError, match="nests more than"):
        understand(deeper)


def test_deepest_allowed_tree_prints_and_walks() -> None:
    text = "(" * (MAX_DEPTH - 1) + "a OR NOT b" + ")" * (MAX_DEPTH - 1)
    q: Query = parse(text)
    assert parse(str(q)) == q
    assert [t.text for t in terms(q)] == ["a", "b"]
    assert to_dict(q) == {"or": [{"term": "a"}, {"not": {"term": "b"}}]}


def test_syntax_error_in_a_long_query_shows_the_column() -> None:
    text = "a AND " * 2_000 + "(b"
    with pytest.raises(QuerySyntaxError) as info:
        parse(text)
    err = info.value
    assert err.column == len(text) - 1
    shown, caret = str(err).splitlines()[1:]
    assert shown.startswith("...") and len(shown) < 200
    assert shown[caret.index("^")] == "("


def test_over_long_texts_are_refused_clearly() -> None:
    with pytest.raises(QueryTooLong, match=f"{MAX_NATURAL_CHARS + 1:,} characters") as info:
        decompose("x " * (MAX_NATURAL_CHARS // 2) + "y")
    assert f"{MAX_NATURAL_CHARS:,}" in str(info.value)
    assert isinstance(info.value, LogirError)
    with pytest.raises(QueryTooLong, match=f"at most {MAX_QUERY_CHARS:,}"):
        parse("a" * (MAX_QUERY_CHARS + 1))
    with pytest.raises(QueryTooLong):
        understand("films " * MAX_QUERY_CHARS)


def test_empty_text_is_a_logir_error() -> None:
    with pytest.raises(EmptyQuery, match="empty"):
        decompose(" \n\t ")
    assert issubclass(EmptyQuery, LogirError) and issubclass(EmptyQuery, ValueError)


def test_long_text_takes_the_regex_path() -> None:
    text = "films by Nolan or Villeneuve; " * 100  # 600 tokens: past spaCy's budget
    d = _within(10, lambda: decompose(text))
    assert d.parser == "regex"
    assert terms(d.query)


def test_a_reading_past_its_time_budget_is_refused_clearly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A budget already spent refuses at the first step, with a LogirError that says why."""
    import logir.query.natural.build as build

    monkeypatch.setattr(build.Builder.__init__, "__defaults__", (-1.0,))
    with pytest.raises(QueryTooComplex, match="took over -1 s; shorten it or write it in logir"):
        decompose("films by Nolan but not sci-fi, excluding Dune")
    monkeypatch.undo()
    assert (
        str(decompose("films by Nolan but not sci-fi").query) == '"films by Nolan" AND NOT "sci-fi"'
    )
