"""Reading the logir query language into a :mod:`logir.query.ast` tree.

Grammar (after ITLR §2.1, with NOT allowed to repeat)::

    query   := or_expr
    or_expr := and_expr ("OR" and_expr)*
    and_expr:= not_expr ("AND" not_expr)*
    not_expr:= "NOT" not_expr | atom
    atom    := TERM | "(" or_expr ")"

NOT binds tightest, then AND, then OR; parentheses override. ``a OR b AND NOT c`` therefore reads
as ``a OR (b AND (NOT c))``. A chain of one operator becomes a single n-ary node.

Lexical rules:

- ``AND``, ``OR`` and ``NOT`` are operators in any letter case, but only as whole words.
- A term is either a double-quoted string or a run of bare words. Inside quotes, ``\\"`` stands
  for a quote and ``\\\\`` for a backslash; a backslash before any other character is kept as is.
  Bare words end at whitespace, parentheses and quotes, and consecutive bare words make one term
  joined by single spaces: ``vitamin D AND NOT bone health`` has the terms ``vitamin D`` and
  ``bone health``. To use an operator word as a term, quote it: ``"not" AND "or"``.
- A quoted term next to another term (``"a" "b"``, ``a "b"``) is an error: the operator between
  them is missing.

Purely negative queries such as ``NOT a`` or ``NOT (a OR b)`` are valid. They mean: every document
qualifies, ranked by how little it matches the negated part. A composer must therefore rank the
whole collection (or its candidate set) for them rather than return nothing.

Errors raise :class:`QuerySyntaxError`, which carries the 1-based column of the problem; a text
longer than :data:`logir.limits.MAX_QUERY_CHARS` raises :class:`QueryTooLong` before any reading.
"""

from __future__ import annotations

import re
from typing import NamedTuple, NoReturn

from logir.errors import LogirError
from logir.limits import MAX_QUERY_CHARS
from logir.query.ast import And, Not, Or, Query, Term

__all__ = ["MAX_DEPTH", "QuerySyntaxError", "QueryTooLong", "parse"]

MAX_DEPTH = 100
"""Deepest allowed nesting of parentheses and NOTs, a guard against runaway recursion."""

_KEYWORDS = {"AND": "and", "OR": "or", "NOT": "not"}
_TERM, _LPAREN, _RPAREN, _END = "term", "(", ")", "end"
_OPERATOR_KINDS = ("and", "or", "not")


_SHOWN = 72
"""Characters of the query an error message shows on each side of the problem, at most."""


class QueryTooLong(LogirError, ValueError):
    """A query text past the length a reader accepts (the message names both lengths)."""

    @classmethod
    def check(cls, text: str, limit: int, reader: str) -> None:
        """Refuse ``text`` when it is longer than ``limit`` characters; ``reader`` names what
        refuses it ("the query syntax", "natural-language reading")."""
        if len(text) > limit:
            raise cls(
                f"the query is {len(text):,} characters long; {reader} takes at most {limit:,}"
            )


class QuerySyntaxError(LogirError):
    """A query that does not follow the grammar; ``column`` is 1-based."""

    def __init__(self, query: str, column: int, reason: str) -> None:
        self.query = query
        self.column = column
        self.reason = reason
        # Show each whitespace character as one space so the caret lines up under the column;
        # of a long query, only the stretch around the column, marked by "...".
        start = max(0, column - 1 - _SHOWN)
        end = min(len(query), column - 1 + _SHOWN)
        shown = "".join(" " if ch.isspace() else ch for ch in query[start:end])
        lead = "..." if start > 0 else ""
        shown = lead + shown + ("..." if end < len(query) else "")
        caret = " " * (len(lead) + column - 1 - start) + "^"
        super().__init__(f"query syntax error at column {column}: {reason}\n{shown}\n{caret}")

    def __reduce__(self) -> tuple[type[QuerySyntaxError], tuple[str, int, str]]:
        return (type(self), (self.query, self.column, self.reason))


class _Token(NamedTuple):
    kind: str  # "term", "and", "or", "not", "(", ")" or "end"
    text: str
    column: int


# ASCII text without backslashes, cut into runs of (whitespace | parenthesis | quoted term |
# bare word); the whitespace class is the ASCII characters str.isspace accepts
_ASCII_SPACE = "\t\n\x0b\x0c\r\x1c-\x1f "
_FAST_TOKEN = re.compile(rf'[{_ASCII_SPACE}]+|([()])|"([^"]*)"|([^{_ASCII_SPACE}()"]+)')


def _tokenize(query: str) -> list[_Token]:
    fast = _tokenize_fast(query) if query.isascii() and "\\" not in query else None
    return fast if fast is not None else _tokenize_chars(query)


def _tokenize_fast(query: str) -> list[_Token] | None:
    """``_tokenize_chars(query)`` for ASCII text without backslashes, by regular expression;
    None where the text would raise (an empty or unterminated quoted term)."""
    tokens: list[_Token] = []
    words: list[str] = []
    words_column = 0
    end = 0
    for m in _FAST_TOKEN.finditer(query):
        start = m.start()
        if start != end:
            return None  # a quote that opens no complete term
        end = m.end()
        paren, quoted, word = m.groups()
        if paren is None and quoted is None and word is None:
            continue  # whitespace
        if word is not None:
            kind = _KEYWORDS.get(word.upper())
            if kind is None:
                if not words:
                    words_column = start + 1
                words.append(word)
                continue
            token = _Token(kind, word.upper(), start + 1)
        elif paren is not None:
            token = _Token(paren, paren, start + 1)
        else:
            if not quoted.strip():
                return None
            token = _Token(_TERM, quoted, start + 1)
        if words:
            tokens.append(_Token(_TERM, " ".join(words), words_column))
            words.clear()
        tokens.append(token)
    if end != len(query):
        return None
    if words:
        tokens.append(_Token(_TERM, " ".join(words), words_column))
    tokens.append(_Token(_END, "", len(query) + 1))
    return tokens


def _tokenize_chars(query: str) -> list[_Token]:
    tokens: list[_Token] = []
    words: list[str] = []  # pending bare words, joined into one term when the run ends
    words_column = 0

    def flush_words() -> None:
        if words:
            tokens.append(_Token(_TERM, " ".join(words), words_column))
            words.clear()

    i, n = 0, len(query)
    while i < n:
        ch = query[i]
        if ch.isspace():
            i += 1
        elif ch in "()":
            flush_words()
            tokens.append(_Token(ch, ch, i + 1))
            i += 1
        elif ch == '"':
            flush_words()
            text, end = _read_quoted(query, i)
            tokens.append(_Token(_TERM, text, i + 1))
            i = end
        else:
            start = i
            while i < n and not query[i].isspace() and query[i] not in '()"':
                i += 1
            word = query[start:i]
            kind = _KEYWORDS.get(word.upper()) if word.isascii() else None
            if kind is None:
                if not words:
                    words_column = start + 1
                words.append(word)
            else:
                flush_words()
                tokens.append(_Token(kind, word.upper(), start + 1))
    flush_words()
    tokens.append(_Token(_END, "", n + 1))
    return tokens


def _read_quoted(query: str, start: int) -> tuple[str, int]:
    """Read the quoted term whose opening quote is at index ``start``.

    Returns the unescaped text and the index just past the closing quote.
    """
    chars: list[str] = []
    i, n = start + 1, len(query)
    while i < n:
        ch = query[i]
        if ch == "\\" and i + 1 < n and query[i + 1] in '"\\':
            chars.append(query[i + 1])
            i += 2
        elif ch == '"':
            text = "".join(chars)
            if not text.strip():
                raise QuerySyntaxError(query, start + 1, "empty quoted term")
            return text, i + 1
        else:
            chars.append(ch)
            i += 1
    raise QuerySyntaxError(query, start + 1, "unterminated quoted term (missing closing '\"')")


class _Parser:
    """Recursive descent over the token list; one method per grammar rule."""

    def __init__(self, query: str) -> None:
        self.query = query
        self.tokens = _tokenize(query)
        self.pos = 0
        self.depth = 0

    def fail(self, column: int, reason: str) -> NoReturn:
        raise QuerySyntaxError(self.query, column, reason)

    def peek(self) -> _Token:
        return self.tokens[self.pos]

    def previous(self) -> _Token | None:
        return self.tokens[self.pos - 1] if self.pos > 0 else None

    def advance(self) -> _Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def enter(self, levels: int, column: int) -> None:
        self.depth += levels
        if self.depth > MAX_DEPTH:
            self.fail(column, f"query nests more than {MAX_DEPTH} levels deep")

    def parse(self) -> Query:
        if self.peek().kind == _END:
            self.fail(1, "empty query")
        q = self.parse_or()
        token = self.peek()
        if token.kind == _RPAREN:
            self.fail(token.column, "unmatched ')'")
        return q

    def parse_or(self) -> Query:
        items = [self.parse_and()]
        while self.peek().kind == "or":
            self.advance()
            items.append(self.parse_and())
        return items[0] if len(items) == 1 else Or(tuple(items))

    def parse_and(self) -> Query:
        items = [self.parse_not()]
        while True:
            token = self.peek()
            if token.kind == "and":
                self.advance()
                items.append(self.parse_not())
            elif token.kind == _TERM:
                self.fail(token.column, "missing operator between terms")
            elif token.kind == _LPAREN:
                self.fail(token.column, "missing operator before '('")
            elif token.kind == "not":
                self.fail(token.column, "missing operator before NOT (write AND NOT or OR NOT)")
            else:
                break
        return items[0] if len(items) == 1 else And(tuple(items))

    def parse_not(self) -> Query:
        nots = 0
        while self.peek().kind == "not":
            self.enter(1, self.advance().column)
            nots += 1
        q = self.parse_atom()
        self.depth -= nots
        for _ in range(nots):
            q = Not(q)
        return q

    def parse_atom(self) -> Query:
        token = self.peek()
        if token.kind == _TERM:
            self.advance()
            return Term(token.text)
        if token.kind == _LPAREN:
            self.advance()
            if self.peek().kind == _RPAREN:
                self.fail(token.column, "empty parentheses")
            if self.peek().kind == _END:
                self.fail(token.column, "unclosed '('")
            self.enter(1, token.column)
            q = self.parse_or()
            self.depth -= 1
            if self.peek().kind != _RPAREN:  # parse_or stops only at ')' or the end
                self.fail(token.column, "unclosed '('")
            self.advance()
            return q
        self.missing_operand(token)

    def missing_operand(self, token: _Token) -> NoReturn:
        """Explain why ``token`` stands where a term or '(' was expected."""
        prev = self.previous()
        prev_is_operator = prev is not None and prev.kind in _OPERATOR_KINDS
        if token.kind in ("and", "or"):
            if prev_is_operator:
                assert prev is not None
                self.fail(token.column, f"{prev.text} followed by {token.text}; expected a term")
            self.fail(token.column, f"{token.text} has no left operand")
        if prev_is_operator:
            assert prev is not None
            side = "operand" if prev.kind == "not" else "right operand"
            self.fail(prev.column, f"{prev.text} has no {side}")
        # Only a ')' at the very start of the query reaches this point.
        self.fail(token.column, "unmatched ')'")


def parse(text: str) -> Query:
    """Parse logir query syntax into a Query; raises QuerySyntaxError on malformed input."""
    if not isinstance(text, str):
        raise TypeError(f"parse() expects a str, got {type(text).__name__}")
    QueryTooLong.check(text, MAX_QUERY_CHARS, "the query syntax")
    return _Parser(text).parse()
