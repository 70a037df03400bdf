"""Tables laid out for a terminal of a given width without cutting any cell.

A table that is too wide is transposed when that fits it in fewer pieces, and otherwise split
into pieces of columns, each repeating the first column. A single column wider than the terminal
is folded by the renderer (``overflow="fold"``), never cut.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len

Grid = tuple[list[str], list[list[str]]]

#: what a rich table with the default box and padding adds around each column, and once more
COLUMN_FRAME = 3
TABLE_FRAME = 1


def transposed(header: Sequence[str], rows: Sequence[Sequence[str]]) -> Grid:
    """Columns as rows: the first row's cells become the header, each header a row's label."""
    new_header = [header[0], *(r[0] for r in rows)]
    new_rows = [[header[j], *(r[j] for r in rows)] for j in range(1, len(header))]
    return new_header, new_rows


def _widths(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    return [
        max(cell_len(header[j]), *(cell_len(r[j]) for r in rows)) if rows else cell_len(header[j])
        for j in range(len(header))
    ]


def pieces(header: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> list[Grid]:
    """``header`` + ``rows`` as few tables as fit in ``width`` columns, keeping the first column
    in each; one piece when it fits as it is."""
    widths = _widths(header, rows)
    first = widths[0] + COLUMN_FRAME + TABLE_FRAME
    groups: list[list[int]] = []
    used = first
    for j in range(1, len(header)):
        need = widths[j] + COLUMN_FRAME
        if groups and used + need <= width:
            groups[-1].append(j)
            used += need
        else:
            groups.append([j])
            used = first + need
    if not groups:
        return [(list(header), [list(r) for r in rows])]
    return [
        ([header[0], *(header[j] for j in g)], [[r[0], *(r[j] for j in g)] for r in rows])
        for g in groups
    ]


def fit(header: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> list[Grid]:
    """The table in as few pieces as fit ``width``: as it is, or transposed when that needs fewer
    pieces."""
    plain = pieces(header, rows, width)
    if len(plain) == 1 or not rows:
        return plain
    t_header, t_rows = transposed(header, rows)
    turned = pieces(t_header, t_rows, width)
    return turned if len(turned) < len(plain) else plain
