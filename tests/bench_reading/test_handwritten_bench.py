"""bench/handwritten.py on two tiny sets over one corpus: the written-form rows and the closing
table over every query of both sets."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.bench_reading.tiny_sets import tiny_sets

DOCS = {
    "d1": "Rashomon is a Kurosawa film about a trial told by several witnesses.",
    "d2": "Seven Samurai is a Kurosawa film about farmers who hire warriors.",
    "d3": "Ran is a late Kurosawa film that retells King Lear in feudal Japan.",
    "d4": "Cooking pasta: salt the water well and stir the pasta often.",
    "d5": "A risotto needs stock added slowly while the rice is stirred.",
}
SETS = {
    "tiny1": [
        {"id": "e01", "text": "Kurosawa films other than Rashomon",
         "form": '"Kurosawa film" AND NOT "Rashomon"', "negation": "exclude",
         "relevant": {"d2": 2, "d3": 2}, "violating": ["d1"]},
        {"id": "n01", "text": "cooking pasta", "form": '"cooking pasta"', "negation": "none",
         "relevant": {"d4": 2}, "violating": []},
    ],
    "tiny2": [
        {"id": "n01", "text": "how to cook risotto rice", "form": '"risotto" AND "rice"',
         "negation": "none", "relevant": {"d5": 2}, "violating": []},
    ],
}  # fmt: skip


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return tiny_sets(tmp_path, monkeypatch, DOCS, SETS, "bench.handwritten")


def test_written_forms_and_the_closing_table(
    tiny: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import handwritten

    argv = ["handwritten.py", "--set", "tiny1", "--set", "tiny2", "--data-root",
            str(tiny / "data"), "--index-dir", str(tiny / "idx"), "-s", "bm25", "-s",
            "bm25:auto", "--written-form"]  # fmt: skip
    monkeypatch.setattr(sys, "argv", argv)
    handwritten.main()
    out = capsys.readouterr().out
    assert "handwritten-tiny1: 2 queries (1 exclude, 0 predicate, 1 none)" in out
    closing = out.split("all 2 sets: 3 queries")[1].splitlines()
    rows = [line.strip("| ").split(" | ") for line in closing]
    table = {r[0]: r[1:] for r in rows if len(r) > 3 and r[1][0].isdigit()}
    assert set(table) == {"bm25", "bm25:auto", "bm25 @form", "bm25:auto @form"}
    for system, (mean, exclude, _, none) in table.items():
        assert exclude.endswith("(1)") and none.endswith("(2)"), system
        ex, no = float(exclude.split()[0]), float(none.split()[0])
        assert float(mean) == pytest.approx((ex + 2 * no) / 3, abs=1e-4)
    # the exclusion moves Rashomon below the two wanted films; the flat ranking does not
    assert float(table["bm25:auto"][1].split()[0]) == pytest.approx(1.0)
    assert float(table["bm25:auto @form"][1].split()[0]) == pytest.approx(1.0)
    assert float(table["bm25"][1].split()[0]) < 1.0
