"""Tests for logir.query.syntax: parsing, error reporting and the round-trip property."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logir.errors import LogirError
from logir.query import And, Not, Or, Query, QuerySyntaxError, Term, from_dict, parse, to_dict
from logir.query.syntax import MAX_DEPTH

a, b, c, d = Term("a"), Term("b"), Term("c"), Term("d")


# --- structure and precedence -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a", a),
        ('"a"', a),
        ("(a)", a),
        ("((a))", a),
        ("a AND b", And(a, b)),
        ("a OR b", Or(a, b)),
        ("NOT a", Not(a)),
        ("NOT NOT a", Not(Not(a))),
        ("a AND b AND c", And(a, b, c)),
        ("a OR b OR c", Or(a, b, c)),
        ("a OR b AND NOT c", Or(a, And(b, Not(c)))),
        ("a AND b OR c AND d", Or(And(a, b), And(c, d))),
        ("NOT a AND b", And(Not(a), b)),
        ("NOT a OR b", Or(Not(a), b)),
        ("NOT (a OR b)", Not(Or(a, b))),
        ("a AND (b OR c)", And(a, Or(b, c))),
        ("(a AND b) AND c", And(And(a, b), c)),
        ("a AND (b AND c)", And(a, And(b, c))),
        ("(a OR b) OR c", Or(Or(a, b), c)),
        ("a AND (b) AND c", And(a, b, c)),
        ("NOT(a)AND(b)", And(Not(a), b)),
        ('"a"AND"b"', And(a, b)),
    ],
)
def test_structure(text: str, expected: Query) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(
    "text", ["a and b or not c", "a And b Or NoT c", "a AND b oR nOt c", "a aNd b OR NOT c"]
)
def test_operators_are_case_insensitive(text: str) -> None:
    assert parse(text) == Or(And(a, b), Not(c))


def test_operators_only_as_whole_words() -> None:
    assert parse("android AND notion") == And(Term("android"), Term("notion"))
    assert parse("oregon ORx band") == Term("oregon ORx band")
    assert parse("AND. OR,") == Term("AND. OR,")


def test_bare_words_join_into_one_term() -> None:
    assert parse("vitamin D AND NOT bone health") == And(
        Term("vitamin D"), Not(Term("bone health"))
    )
    assert parse("  red \t  wine  ") == Term("red wine")
    assert parse("don't panic") == Term("don't panic")
    assert parse("C:\\dir") == Term("C:\\dir")


def test_quoted_terms() -> None:
    assert parse('"not" AND "OR"') == And(Term("not"), Term("OR"))
    assert parse('"a (b) c"') == Term("a (b) c")
    assert parse('"  spaced   out  "') == Term("spaced out")
    assert parse('"línea ñ 日本"') == Term("línea ñ 日本")


def test_escapes() -> None:
    assert parse(r'"say \"hi\""') == Term('say "hi"')
    assert parse(r'"back\\slash"') == Term("back\\slash")
    assert parse(r'"ends with \\"') == Term("ends with \\")
    # A backslash before any other character stays as it is.
    assert parse(r'"a\nb"') == Term("a\\nb")


def test_purely_negative_queries_parse() -> None:
    assert parse("NOT a") == Not(a)
    assert parse("NOT (a OR b)") == Not(Or(a, b))


def test_canonical_output_parses_back() -> None:
    text = '"vitamin D" AND NOT ("bone health" OR "calcium") OR ("x" AND "y") AND "z"'
    assert str(parse(text)) == text


# --- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "column", "reason"),
    [
        ("", 1, "empty query"),
        ("   ", 1, "empty query"),
        ("(a AND b", 1, "unclosed '('"),
        ("a AND ((b OR c)", 7, "unclosed '('"),
        ("(", 1, "unclosed '('"),
        ("a)", 2, "unmatched ')'"),
        (")", 1, "unmatched ')'"),
        ("(a OR b)) AND c", 9, "unmatched ')'"),
        ("a AND", 3, "AND has no right operand"),
        ("a OR", 3, "OR has no right operand"),
        ("(a AND)", 4, "AND has no right operand"),
        ("AND a", 1, "AND has no left operand"),
        ("(OR a)", 2, "OR has no left operand"),
        ("a OR OR b", 6, "OR followed by OR; expected a term"),
        ("NOT AND a", 5, "NOT followed by AND; expected a term"),
        ("NOT", 1, "NOT has no operand"),
        ("a AND NOT", 7, "NOT has no operand"),
        ("a AND NOT NOT", 11, "NOT has no operand"),
        ('""', 1, "empty quoted term"),
        ('a AND "  "', 7, "empty quoted term"),
        ('"abc', 1, "unterminated quoted term (missing closing '\"')"),
        ('a AND "b\\"', 7, "unterminated quoted term (missing closing '\"')"),
        ("()", 1, "empty parentheses"),
        ("a AND ()", 7, "empty parentheses"),
        ('"a" "b"', 5, "missing operator between terms"),
        ('a "b"', 3, "missing operator between terms"),
        ('"a" b', 5, "missing operator between terms"),
        ("(a) b", 5, "missing operator between terms"),
        ("a (b)", 3, "missing operator before '('"),
        ("a NOT b", 3, "missing operator before NOT (write AND NOT or OR NOT)"),
    ],
)
def test_errors(text: str, column: int, reason: str) -> None:
    with pytest.raises(QuerySyntaxError) as info:
        parse(text)
    err = info.value
    assert (err.column, err.reason, err.query) == (column, reason, text)


def test_error_message_has_caret() -> None:
    with pytest.raises(QuerySyntaxError) as info:
        parse("a AND (b OR")
    assert str(info.value) == (
        "query syntax error at column 10: OR has no right operand\na AND (b OR\n         ^"
    )


def test_error_caret_aligns_with_tabs() -> None:
    with pytest.raises(QuerySyntaxError) as info:
        parse("a\tAND")
    assert str(info.value).splitlines()[1:] == ["a AND", "  ^"]
    assert info.value.query == "a\tAND"


def test_error_is_logir_error_and_pickles() -> None:
    with pytest.raises(LogirError):
        parse("a AND")
    err = QuerySyntaxError("a AND", 3, "AND has no right operand")
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.query, copy.column, copy.reason, str(copy)) == (
        err.query,
        err.column,
        err.reason,
        str(err),
    )


def test_nesting_limit() -> None:
    ok = "(" * (MAX_DEPTH - 1) + "a" + ")" * (MAX_DEPTH - 1)
    assert parse(ok) == a
    with pytest.raises(QuerySyntaxError, match="nests more than"):
        parse("(" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1))
    with pytest.raises(QuerySyntaxError, match="nests more than"):
        parse("NOT " * (MAX_DEPTH + 1) + "a")


def test_parse_rejects_non_string() -> None:
    with pytest.raises(TypeError):
        parse(None)  # type: ignore[arg-type]


# --- round-trip property ------------------------------------------------------------------------

_ALPHABET = st.one_of(
    st.sampled_from(list('"\\()  \t\n\u00a0\u3000aAnNdDoOrRtT')),
    st.characters(exclude_categories=("Cs",)),
)
_TEXTS = st.one_of(
    st.sampled_from(["and", "or", "not", "AND", "Or", "NOT", "a AND b", '"', "\\", "()"]),
    st.text(_ALPHABET, min_size=1, max_size=12),
).filter(lambda s: bool(s.split()))

_TERMS = _TEXTS.map(Term)


def _extend(children: st.SearchStrategy[Query]) -> st.SearchStrategy[Query]:
    many = st.lists(children, min_size=2, max_size=4).map(tuple)
    return st.one_of(many.map(And), many.map(Or), children.map(Not))


_QUERIES = st.recursive(_TERMS, _extend, max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(_QUERIES)
def test_print_parse_round_trip(q: Query) -> None:
    assert parse(str(q)) == q


@settings(max_examples=300, deadline=None)
@given(_QUERIES)
def test_dict_round_trip(q: Query) -> None:
    assert from_dict(to_dict(q)) == q


@settings(max_examples=200, deadline=None)
@given(st.text(_ALPHABET, max_size=30))
def test_arbitrary_text_parses_or_fails_cleanly(text: str) -> None:
    try:
        q = parse(text)
    except QuerySyntaxError as err:
        assert 1 <= err.column <= len(text) + 1
    else:
        assert parse(str(q)) == q


_PIECES = ["a", "b", "AND", "and", "OR", "Not", "NOT", " ", "  ", "\t", "\x1c", "\n", "(", ")"]
_PIECES += ['"', "x y", '"q r"', '""', '" "', "é", "\\", '\\"', "-", "16-bit", 'or"', "(a)"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
def test_regular_expression_tokens_equal_the_character_scan(text: str) -> None:
    from logir.query.syntax import _tokenize, _tokenize_chars, _tokenize_fast

    try:
        want = _tokenize_chars(text)
    except QuerySyntaxError:
        want = None
    fast = _tokenize_fast(text) if text.isascii() and "\\" not in text else None
    if fast is not None:
        assert fast == want
    elif text.isascii() and "\\" not in text:
        assert want is None  # the fast scan declines only text that raises
    if want is not None:
        assert _tokenize(text) == want
