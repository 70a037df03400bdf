"""logir.query: the logical query language (AST, parser, helpers)."""

from logir.query.ast import (
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
from logir.query.reading import Reading, gold, read
from logir.query.syntax import QuerySyntaxError, parse
from logir.query.understand import Understanding, to_query, understand

__all__ = [
    "And",
    "Not",
    "Or",
    "Query",
    "QuerySyntaxError",
    "Reading",
    "Term",
    "from_dict",
    "gold",
    "is_purely_negative",
    "n_negations",
    "negated_terms",
    "operators",
    "parse",
    "positive_terms",
    "read",
    "signed_terms",
    "terms",
    "to_dict",
    "Understanding",
    "to_query",
    "understand",
]
