"""``--logical-form parsed|gold|both``: ranking from the benchmark's own logical forms."""

from __future__ import annotations

from dataclasses import replace

import pytest

from logir.data.benchmarks import load_benchmark
from logir.errors import LogirError
from logir.eval.runner import evaluate
from tests.clirun import logir


@pytest.fixture(scope="module")
def demo():
    ds = load_benchmark("demo", None)
    return ds.subset({t.id for t in ds.queries[:12]})


def test_both_adds_gold_systems_for_composers_that_read_the_form(demo) -> None:
    res = evaluate(demo, ["bm25", "bm25:fuzzy", "bm25:auto"], k=10, logical_form="both")
    names = [s.name for s in res.systems]
    assert names == ["bm25", "bm25:fuzzy", "bm25:fuzzy@gold", "bm25:auto", "bm25:auto@gold"]
    gold = evaluate(demo, ["bm25:fuzzy"], k=10, logical_form="gold").systems[0]
    by_name = {s.name: s for s in res.systems}
    assert gold.per_query == by_name["bm25:fuzzy@gold"].per_query
    assert gold.per_query != by_name["bm25:fuzzy"].per_query  # the demo's forms differ from ours


def test_gold_needs_forms_and_a_known_source(demo) -> None:
    bare = demo.subset({t.id for t in demo.queries})
    bare.queries = [replace(t, logical_form=None) for t in bare.queries]
    with pytest.raises(LogirError, match="carries a logical form"):
        evaluate(bare, ["bm25:fuzzy"], logical_form="gold")
    broken = demo.subset({t.id for t in demo.queries})
    broken.queries = [replace(t, logical_form='"a" AND (') for t in broken.queries]
    with pytest.raises(LogirError, match="logical form of query 'q01' does not parse"):
        evaluate(broken, ["bm25:fuzzy"], logical_form="gold")
    with pytest.raises(LogirError, match="unknown logical form"):
        evaluate(demo, ["bm25:fuzzy"], logical_form="silver")


def test_cli_eval_prints_gold_rows_and_notes_old_names() -> None:
    proc = logir("eval", "demo", "-s", "bm25:hybrid", "-s", "bm25:fuzzy,k=50", "--limit", "6",
                 "--logical-form", "both", "--depth", "20", "--markdown")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "| bm25:fuzzy,k=50@gold |" in proc.stdout and "| bm25:hybrid@gold |" in proc.stdout
    assert "note: --depth is now -k" in proc.stderr
    assert "note: composer 'hybrid' is now called 'exclusion'" in proc.stderr
    assert "note: fuzzy parameter 'k' is now 'depth'" in proc.stderr
    bad = logir("eval", "demo", "--logical-form", "silver")
    assert bad.returncode == 2 and "unknown --logical-form 'silver'" in bad.stderr
