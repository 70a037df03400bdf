"""Terminal tables: never cut a name, split or transpose when too wide, legend under each."""

from __future__ import annotations

import io

from rich.console import Console

from logir.eval.layout import fit, pieces, transposed
from logir.eval.legend import describe, legend, lower_is_better, marked
from logir.eval.report import markdown, print_tables
from logir.eval.runner import EvalResult, SystemResult

LONG = "hybrid:fuzzy,and=min,not=one_minus,calib=sigmoid"
FIGURES = {"nDCG@10": 0.5, "MRR@10": 0.4, "R@100": 0.7, "MAP": 0.3, "NegRecall@10": 0.1}


def _result(names: list[str]) -> EvalResult:
    systems = [SystemResult(n, dict(FIGURES), {}) for n in names]
    return EvalResult("negconstraint", 10, 100, ["nDCG@10"], systems)


def _render(result: EvalResult, width: int) -> str:
    buf = io.StringIO()
    print_tables(result, Console(file=buf, width=width, force_terminal=False))
    return buf.getvalue()


def test_no_name_is_cut_at_100_columns() -> None:
    names = ["bm25", "hybrid:auto", LONG, "dense:vectors,neg=orthogonal"]
    text = _render(_result(names), 100)
    assert "…" not in text
    for name in [*names, *FIGURES]:
        assert name in text, name
    assert max(len(line) for line in text.splitlines()) <= 100


def test_a_table_too_wide_either_way_is_split_into_pieces_that_keep_every_cell() -> None:
    names = [f"{LONG},depth={d}" for d in range(100, 108)]
    text = _render(_result(names), 100)
    assert "(1/" in text and "…" not in text
    for name in names:
        assert name in text, name


def test_fit_transposes_only_when_that_needs_fewer_pieces() -> None:
    header = ["system", "a" * 30, "b" * 30, "c" * 30]
    rows = [["s1", "1", "2", "3"], ["s2", "4", "5", "6"]]
    assert fit(header, rows, 200) == [(header, rows)]
    assert len(pieces(header, rows, 60)) == 3
    assert fit(header, rows, 60) == [transposed(header, rows)]
    assert transposed(header, rows)[0] == ["system", "s1", "s2"]
    wide = [["s1", "1" * 40, "2" * 40], ["s2", "3", "4"]]
    assert len(fit(["system", "a" * 40, "b" * 40], wide, 60)) == 2


def test_legend_says_what_each_figure_is_and_marks_lower_is_better() -> None:
    assert lower_is_better("NegRecall@10") and lower_is_better("ViolationRate@100")
    assert not lower_is_better("nDCG@10") and not lower_is_better("PairAcc")
    assert marked("bm25 NegRecall@10") == "bm25 NegRecall@10 ↓"
    assert "top 10" in (describe("ndcg_cut_10") or "")
    assert describe("system") is None
    lines = legend(["system", "nDCG@10", "NegRecall@10", "ViolationRate@10"])
    assert [line.split(":")[0] for line in lines] == [
        "nDCG@10",
        "NegRecall@10 ↓",
        "ViolationRate@10 ↓",
    ]
    assert all("lower is better" in line for line in lines[1:])
    text = _render(_result(["bm25"]), 100)
    assert "NegRecall@10 ↓" in text and "MRR@10: mean reciprocal rank" in text


def test_markdown_keeps_plain_names_and_no_legend() -> None:
    md = markdown(_result(["bm25", LONG]))
    assert f"| {LONG} |" in md and "↓" not in md
