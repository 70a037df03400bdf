"""The scores ``sets`` composes, row by row on Python floats: for a few kept rows.

On a handful of rows numpy's fixed cost per call is most of the work, so ``sets`` scores that
few one row at a time. The numbers are those of its vectorised walk: an AND adds its children's
scores in order (float64), a NOT negates, an OR takes the best score among the children whose
set holds the row (the first of equals) and -inf where none does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from logir.query import And, Not, Query, Term

__all__ = ["RowScore", "ranked_rows", "row_scorer"]

#: ``score(values, code)``: whether a row is in a form's set, and its composed score, given each
#: term's score on it (``values[i]``) and its code (bit ``i`` set: term ``i``'s set holds it)
RowScore = Callable[[list[float], int], tuple[bool, float]]

_NONE = float("-inf")


def row_scorer(query: Query, row: Mapping[str, int]) -> RowScore:
    """The row scorer of ``query`` (``row``: each term text's position), built once per form."""
    if isinstance(query, Term):
        i = row[query.text]
        bit = 1 << i
        return lambda values, code: (code & bit != 0, values[i])
    if isinstance(query, Not):
        child = row_scorer(query.child, row)

        def negated(values: list[float], code: int) -> tuple[bool, float]:
            inside, score = child(values, code)
            return not inside, -score

        return negated
    parts = [row_scorer(c, row) for c in query.children]
    first, rest = parts[0], parts[1:]
    if isinstance(query, And):

        def every(values: list[float], code: int) -> tuple[bool, float]:
            inside, total = first(values, code)
            for part in rest:
                held, score = part(values, code)
                inside = inside and held
                total = total + score
            return inside, total

        return every

    def some(values: list[float], code: int) -> tuple[bool, float]:
        inside, best = first(values, code)
        best = best if inside else _NONE
        for part in rest:
            held, score = part(values, code)
            score = score if held else _NONE
            inside = inside or held
            if score > best:
                best = score
        return inside, best

    return some


def ranked_rows(
    score: RowScore, values: list[list[float]], codes: list[int]
) -> tuple[list[int], list[float]]:
    """Rows (``values[j]``: each term's score on row ``j``; ``codes[j]``: its code) best first
    by composed score, ties by position, and their composed scores in that order."""
    composed = [score(v, c)[1] for v, c in zip(values, codes, strict=True)]
    order = sorted(range(len(composed)), key=lambda j: -composed[j])
    return order, [composed[j] for j in order]
