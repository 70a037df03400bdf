"""bench/plan_check.py on a tiny set: only the queries the rule picks are ranked, three ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench_reading.tiny_sets import tiny_sets

DOCS = {
    "d1": "Rashomon is a Kurosawa film about a trial told by several witnesses.",
    "d2": "Seven Samurai is a Kurosawa film about farmers who hire warriors.",
    "d3": "Ran is a late Kurosawa film that retells King Lear in feudal Japan.",
    "d4": "Cooking pasta: salt the water well and stir the pasta often.",
}
QUERIES = [
    {"id": "e01", "text": "Kurosawa films other than Rashomon",
     "form": '"Kurosawa film" AND NOT "Rashomon"', "negation": "exclude",
     "relevant": {"d2": 2, "d3": 2}, "violating": ["d1"]},
    {"id": "n01", "text": "cooking pasta", "form": '"cooking pasta"', "negation": "none",
     "relevant": {"d4": 2}, "violating": []},
]  # fmt: skip


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return tiny_sets(tmp_path, monkeypatch, DOCS, {"tiny": QUERIES}, "bench.plan_check")


def test_the_picked_queries_ranked_three_ways(
    tiny: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import plan_check

    argv = ["--plan", "exclude", "--retriever", "bm25", "--data-root", str(tiny / "data"),
            "--index-dir", str(tiny / "idx"), "--per-query"]  # fmt: skip
    assert plan_check.main(argv) == 0
    out = capsys.readouterr().out
    rows = [line.split("\t") for line in out.splitlines() if line.startswith("tiny/")]
    assert [r[0] for r in rows] == ["tiny/e01"]  # the pasta query is planned flat
    flat, auto, exclusion = (float(x) for x in rows[0][3:6])
    assert flat < 1.0 and auto == pytest.approx(1.0) and exclusion == pytest.approx(1.0)
    assert "| exclude | 1 | " in out and "| none |" not in out


def test_a_rule_is_required_and_a_bad_pattern_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import plan_check

    assert plan_check.main([]) == 2
    assert plan_check.main(["--text", "(unclosed"]) == 2
    assert "bad --text pattern" in capsys.readouterr().err


def test_another_composer_adds_a_column(tiny: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bench import plan_check

    argv = ["--plan", "exclude", "--retriever", "bm25", "--data-root", str(tiny / "data"),
            "--index-dir", str(tiny / "idx"), "--per-query",
            "--composer", "exclusion,beta=0"]  # fmt: skip
    assert plan_check.main(argv) == 0
    out = capsys.readouterr().out
    (row,) = [line.split("\t") for line in out.splitlines() if line.startswith("tiny/")]
    exclusion, unpenalised = float(row[5]), float(row[6])
    assert unpenalised < exclusion == pytest.approx(1.0)  # without a penalty Rashomon ranks in
    assert "| bm25:flat | bm25:auto | bm25:exclusion | bm25:exclusion,beta=0 |" in out
