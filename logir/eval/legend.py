"""What each figure of an evaluation table means, and which ones are better when lower."""

from __future__ import annotations

import re
from collections.abc import Sequence

from logir.errors import LogirError
from logir.eval.metrics import parse_measure

#: figures where a smaller value is the better one (marked with DOWN in terminal tables)
LOWER_IS_BETTER = ("NegRecall", "ViolationRate", "FlipRate")
DOWN = "↓"

#: ir_measures family -> what it measures; ``{at}`` becomes " in the top k" when it has a cutoff
_STANDARD = {
    "nDCG": "normalised discounted cumulative gain{at} (graded relevance, rank-discounted)",
    "AP": "mean average precision{at}",
    "RR": "mean reciprocal rank of the first relevant document{at}",
    "R": "recall{at}: share of the relevant documents retrieved",
    "P": "precision{at}: share of the retrieved documents that are relevant",
    "Success": "share of queries with a relevant document{at}",
    "Judged": "share of the retrieved documents{at} that carry a judgement",
    "Bpref": "binary preference: relevant documents ranked above judged non-relevant ones",
    "Rprec": "precision at R, the number of relevant documents of the query",
}
_LOGIC = {
    "LSNC": "log-scaled negation consistency{at} (ComLQ): 100 when none of them violates the "
    "query's negation",
    "NegRecall": "share of the query's explicit negatives found{at} (BoolQuestions)",
    "ViolationRate": "share of the slots{at} held by documents that violate the query",
    "PairAcc": "share of queries whose satisfying documents all score above the violating ones",
    "NevIRPairAcc": "NevIR pairwise accuracy: share of pairs with both queries ordered right "
    "(random: 25)",
    "WinRate": "MultiConIR Win Rate{style}: the document meeting more conditions scores higher",
    "FlipRate": "MultiConIR Flip Rate: share of orders that change between instruction and "
    "descriptive wording",
}
_LOGIC_NAME = re.compile(r"^([A-Za-z]+)(?:@(\d+))?(?:\[([^\]]*)\])?$")


def _at(cutoff: object) -> str:
    return "" if cutoff is None else f" in the top {cutoff}"


def describe(name: str) -> str | None:
    """One line saying what figure ``name`` (``nDCG@10``, ``map``, ``NegRecall@10``) measures;
    None for a name that is not a figure."""
    match = _LOGIC_NAME.match(name)
    if match and match.group(1) in _LOGIC:
        family, cutoff, style = match.groups()
        text = _LOGIC[family].format(at=_at(cutoff), style=f" ({style} queries)" if style else "")
    else:
        try:
            measure = parse_measure(name)
        except LogirError:
            return None
        template = _STANDARD.get(measure.NAME)
        if template is None:
            return None
        text = template.format(at=_at(measure.params.get("cutoff")))
    return text + (", lower is better" if lower_is_better(name) else "")


def lower_is_better(name: str) -> bool:
    """Whether a smaller value of figure ``name`` is the better one."""
    match = _LOGIC_NAME.match(name)
    return bool(match) and match.group(1) in LOWER_IS_BETTER


def figure_of(column: str) -> str:
    """The figure a table column shows: ``nDCG@10`` for ``hybrid:auto nDCG@10``."""
    return column.rsplit(" ", 1)[-1]


def marked(column: str) -> str:
    """The column header with DOWN after it when its figure is better lower."""
    return f"{column} {DOWN}" if lower_is_better(figure_of(column)) else column


def legend(columns: Sequence[str], title: str = "") -> list[str]:
    """Lines explaining the figures among ``columns`` (each once, in order), for a table titled
    ``title``; empty when the table holds no known figure."""
    lines: list[str] = []
    seen: set[str] = set()
    for column in columns:
        name = figure_of(column)
        text = describe(name)
        if text is None or name in seen:
            continue
        seen.add(name)
        mark = f" {DOWN}" if lower_is_better(name) else ""
        lines.append(f"{name}{mark}: {text}")
    lowered = title.lower()
    if "win rate" in lowered:
        lines.append("columns: number of conditions; Win Rate: higher is better")
    if "flip rate" in lowered:
        lines.append(f"columns: number of conditions; Flip Rate {DOWN}: lower is better")
    if lowered.startswith("paired tests"):
        lines.append(
            "diff: mean per-query difference against the first system, in points; p: two-sided "
            "p-values of a paired t-test and a paired randomisation test"
        )
    if lines and any(c == "n" for c in columns):
        lines.append("n: queries in the group")
    return lines
