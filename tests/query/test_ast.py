"""Tests for logir.query.ast: construction, printing and helpers."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest

from logir.query import (
    And,
    Not,
    Or,
    Query,
    Term,
    from_dict,
    is_purely_negative,
    n_negations,
    negated_terms,
    operators,
    positive_terms,
    signed_terms,
    terms,
    to_dict,
)

a, b, c, d = Term("a"), Term("b"), Term("c"), Term("d")


# --- construction -------------------------------------------------------------------------------


def test_term_collapses_and_strips_whitespace() -> None:
    assert Term("  vitamin \t D\n ").text == "vitamin D"
    assert Term("vitamin  D") == Term("vitamin D")


@pytest.mark.parametrize("text", ["", " ", "\t\n", "\u2003"])
def test_term_rejects_empty_text(text: str) -> None:
    with pytest.raises(ValueError, match="empty"):
        Term(text)


def test_term_rejects_non_string() -> None:
    with pytest.raises(TypeError):
        Term(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", [And, Or])
def test_nary_needs_two_children(cls: type[And] | type[Or]) -> None:
    with pytest.raises(ValueError, match="at least 2"):
        cls(())
    with pytest.raises(ValueError, match="at least 2"):
        cls((a,))
    with pytest.raises(ValueError, match="at least 2"):
        cls(a)


@pytest.mark.parametrize("cls", [And, Or])
def test_nary_constructor_forms_agree(cls: type[And] | type[Or]) -> None:
    expected = cls((a, b, c))
    assert cls([a, b, c]) == expected
    assert cls(a, b, c) == expected
    assert cls(children=(a, b, c)) == expected
    assert isinstance(cls([a, b]).children, tuple)


def test_children_must_be_nodes() -> None:
    with pytest.raises(TypeError):
        And((a, "b"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        And("ab")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Not("a")  # type: ignore[arg-type]


def test_and_or_differ_with_same_children() -> None:
    assert And(a, b) != Or(a, b)
    assert And(a, b) == And(a, b)
    assert And(a, b) != And(b, a)


def test_nodes_are_immutable_and_hashable() -> None:
    q = And(a, Not(Or(b, c)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.children = (a, b)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.text = "z"  # type: ignore[misc]
    assert len({q, And(a, Not(Or(b, c))), a, Term("a")}) == 2
    assert pickle.loads(pickle.dumps(q)) == q
    assert dataclasses.replace(q, children=(b, c)) == And(b, c)


def test_isinstance_query_alias() -> None:
    for node in (a, And(a, b), Or(a, b), Not(a)):
        assert isinstance(node, Query)
    assert not isinstance("a", Query)


def test_pattern_matching() -> None:
    match And(a, Not(b)):
        case And(children=(Term(text=first), Not(child=Term(text=second)))):
            assert (first, second) == ("a", "b")
        case _:
            pytest.fail("pattern did not match")


# --- printing -----------------------------------------------------------------------------------


def test_repr_is_readable_and_evaluable() -> None:
    q = Or(a, And(Term("it's"), Not(c)))
    assert repr(q) == "Or(Term('a'), And(Term(\"it's\"), Not(Term('c'))))"
    assert eval(repr(q)) == q


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        (Term("vitamin D"), '"vitamin D"'),
        (Term('say "hi"'), '"say \\"hi\\""'),
        (Term("back\\slash"), '"back\\\\slash"'),
        (And(a, b, c), '"a" AND "b" AND "c"'),
        (Or(a, And(b, c)), '"a" OR "b" AND "c"'),
        (And(a, Or(b, c)), '"a" AND ("b" OR "c")'),
        (And(And(a, b), c), '("a" AND "b") AND "c"'),
        (Or(a, Or(b, c)), '"a" OR ("b" OR "c")'),
        (Not(a), 'NOT "a"'),
        (Not(Not(a)), 'NOT NOT "a"'),
        (Not(And(a, b)), 'NOT ("a" AND "b")'),
        (Not(Or(a, b)), 'NOT ("a" OR "b")'),
        (And(Not(a), Not(b)), 'NOT "a" AND NOT "b"'),
        (Or(Not(a), And(b, Not(c))), 'NOT "a" OR "b" AND NOT "c"'),
    ],
)
def test_str_is_canonical(q: Query, expected: str) -> None:
    assert str(q) == expected


# --- helpers ------------------------------------------------------------------------------------


def test_terms_unique_in_first_occurrence_order() -> None:
    q = Or(And(c, a), Not(And(a, b)), c)
    assert terms(q) == [c, a, b]


def test_negated_and_positive_terms() -> None:
    q = And(a, Not(b), Not(Not(c)), Not(Or(d, Not(a))))
    assert negated_terms(q) == [b, d]
    assert positive_terms(q) == [a, c]


def test_term_both_positive_and_negated() -> None:
    q = And(a, Not(a))
    assert positive_terms(q) == [a]
    assert negated_terms(q) == [a]


def test_signed_terms_is_positive_and_negated_terms() -> None:
    for q in (And(a, Not(b), Not(Not(c)), Not(Or(d, Not(a)))), And(a, Not(a)), a, Not(b)):
        assert signed_terms(q) == (positive_terms(q), negated_terms(q))


def test_n_negations_counts_not_nodes() -> None:
    assert n_negations(a) == 0
    assert n_negations(Not(Not(a))) == 2
    assert n_negations(And(Not(a), Or(Not(b), Not(a)))) == 3


def test_operators() -> None:
    assert operators(a) == set()
    assert operators(Not(a)) == {"NOT"}
    assert operators(And(a, Or(b, Not(c)))) == {"AND", "OR", "NOT"}
    assert operators(Or(a, And(b, c))) == {"AND", "OR"}


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        (Not(a), True),
        (Not(Or(a, b)), True),
        (And(Not(a), Not(b)), True),
        (a, False),
        (Not(Not(a)), False),
        (And(a, Not(b)), False),
        (Or(Not(a), b), False),
    ],
)
def test_is_purely_negative(q: Query, expected: bool) -> None:
    assert is_purely_negative(q) is expected


# --- dict form ----------------------------------------------------------------------------------


def test_to_dict_shape() -> None:
    q = And(Term("vitamin D"), Not(Or(a, b)))
    expected = {"and": [{"term": "vitamin D"}, {"not": {"or": [{"term": "a"}, {"term": "b"}]}}]}
    assert to_dict(q) == expected
    assert from_dict(json.loads(json.dumps(to_dict(q)))) == q


def test_from_dict_accepts_tuples() -> None:
    assert from_dict({"or": ({"term": "a"}, {"term": "b"})}) == Or(a, b)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("a", r"at \$: expected an object, got str"),
        ({}, r"at \$: expected exactly one key"),
        ({"term": "a", "not": {"term": "b"}}, r"at \$: expected exactly one key"),
        ({"xor": []}, r"at \$: expected exactly one key.*'xor'"),
        ({"term": 1}, r"'term' must be a string"),
        ({"term": "  "}, r"'term' must not be empty"),
        ({"and": {"term": "a"}}, r"'and' must be a list"),
        ({"or": [{"term": "a"}]}, r"'or' needs at least 2 items"),
        ({"and": [{"term": "a"}, {"nor": 1}]}, r"at \$\.and\[1\]: expected exactly one key"),
        ({"not": {"or": [{"term": "a"}, "b"]}}, r"at \$\.not\.or\[1\]: expected an object"),
    ],
)
def test_from_dict_rejects_bad_shapes(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        from_dict(data)  # type: ignore[arg-type]
