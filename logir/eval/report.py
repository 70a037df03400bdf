"""Result tables: terminal (rich), Markdown, JSON."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from logir.eval.layout import fit
from logir.eval.legend import legend, marked
from logir.eval.runner import HEADLINE, EvalResult

#: facet values shown in this order when the dataset defines it (ComLQ's 14 types)
FACET_ORDER = {
    "type": [
        "1p",
        "2p",
        "3p",
        "2i",
        "3i",
        "pi",
        "ip",
        "2u",
        "up",
        "2in",
        "3in",
        "inp",
        "pin",
        "pni",
    ],
}


def _pct(v: float) -> str:
    return f"{100 * v:.1f}"


def _ordered(facet: str, values: list[str]) -> list[str]:
    order = FACET_ORDER.get(facet, [])
    known = [v for v in order if v in values]
    return known + sorted(v for v in values if v not in order)


def tables(result: EvalResult) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, header, rows) for the overall table and one table per facet; figures in %."""
    names = []
    for s in result.systems:
        names += [n for n in s.overall if n not in names]
    out = []
    header = ["system", *names]
    rows = [
        [s.name, *(_pct(s.overall[n]) if n in s.overall else "–" for n in names)]
        for s in result.systems
    ]
    title = f"{result.dataset}: {result.n_queries} queries, {result.n_docs} documents (%)"
    out.append((title, header, rows))
    facets: list[str] = []
    for s in result.systems:
        facets += [f for f in s.breakdown if f not in facets]
    for facet in facets:
        values: list[str] = []
        for s in result.systems:
            values += [v for v in s.breakdown.get(facet, {}) if v not in values]
        cols = [s.name for s in result.systems]
        extra = [
            n
            for n in ("PairAcc", "LSNC@10")
            if any(n in row for s in result.systems for row in s.breakdown.get(facet, {}).values())
        ]
        header = [
            facet,
            "n",
            *(f"{c} {HEADLINE}" for c in cols),
            *(f"{c} {n}" for n in extra for c in cols),
        ]
        rows = []
        for v in _ordered(facet, values):
            first = next(s.breakdown[facet][v] for s in result.systems if v in s.breakdown[facet])
            row = [v, str(int(first["n"]))]
            for n in (HEADLINE, *extra):
                for s in result.systems:
                    cell = s.breakdown.get(facet, {}).get(v, {})
                    row.append(_pct(cell[n]) if n in cell else "–")
            rows.append(row)
        out.append((f"by {facet}", header, rows))
    if result.significance:
        rows = [
            [
                k,
                f"{100 * v['measure_diff']:+.2f}",
                f"{v['p_ttest']:.3g}",
                f"{v['p_permutation']:.3g}",
            ]
            for k, v in result.significance.items()
        ]
        out.append(
            (
                f"paired tests on {HEADLINE}",
                ["comparison", "diff", "p (t-test)", "p (permutation)"],
                rows,
            )
        )
    for s in result.systems:
        for key in ("win_rate", "flip_rate"):
            data = s.extra.get(key)
            if not data:
                continue
            if key == "flip_rate":
                data = {"all": data}
            levels = sorted({lv for d in data.values() for lv in d}, key=int)
            rows = [
                [style, *(_pct(d[lv]) if lv in d else "–" for lv in levels)]
                for style, d in data.items()
            ]
            out.append(
                (
                    f"{s.name} {key.replace('_', ' ')} by number of conditions",
                    ["style", *levels],
                    rows,
                )
            )
    return out


def print_tables(result: EvalResult, console: Console | None = None) -> None:
    """Every table on ``console``, none cut: a table wider than the console is transposed or
    split (:mod:`logir.eval.layout`); under each, a legend of its figures (:mod:`legend`)."""
    console = console or Console()
    for title, header, rows in tables(result):
        grids = fit([marked(h) for h in header], rows, console.width)
        for n, (head, body) in enumerate(grids):
            part = f" ({n + 1}/{len(grids)})" if len(grids) > 1 else ""
            t = Table(title=title + part, title_justify="left")
            for i, h in enumerate(head):
                t.add_column(h, justify="left" if i == 0 else "right", overflow="fold")
            for r in body:
                t.add_row(*r)
            console.print(t)
        for line in legend(header, title):
            console.print(f"  {line}", style="dim", markup=False, highlight=False)


def markdown(result: EvalResult) -> str:
    parts = []
    for title, header, rows in tables(result):
        parts.append(f"**{title}**\n")
        parts.append("| " + " | ".join(header) + " |")
        parts.append("|" + "|".join("---" for _ in header) + "|")
        parts += ["| " + " | ".join(r) + " |" for r in rows]
        parts.append("")
    return "\n".join(parts)


def write_json(result: EvalResult, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(result.to_json(), indent=1, sort_keys=False))
    tmp.replace(path)
