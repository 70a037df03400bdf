"""bench/spelling.py on a tiny set: only the query with a misspelt word is ranked, off and on."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench_reading.tiny_sets import tiny_sets

DOCS = {
    "d1": "Rashomon is a Kurosawa film about a trial told by several witnesses.",
    "d2": "Seven Samurai is a Kurosawa film about farmers who hire warriors.",
    "d3": "Cooking pasta: salt the water well and stir the pasta often.",
    "d4": "Warriors of the north: a history of vikings.",
}
QUERIES = [
    {"id": "q1", "text": "samurai farmers", "form": '"samurai farmers"', "negation": "none",
     "relevant": {"d2": 2}, "violating": []},
    {"id": "q2", "text": "farmmers and warriors", "form": '"warriors" AND "farmers"',
     "negation": "none", "relevant": {"d2": 2}, "violating": []},
]  # fmt: skip


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return tiny_sets(tmp_path, monkeypatch, DOCS, {"tiny": QUERIES}, "bench.spelling")


def test_the_corrected_query_is_ranked_both_ways(
    tiny: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import spelling

    argv = ["--set", "tiny", "--data-root", str(tiny / "data"), "--index-dir",
            str(tiny / "idx"), "-s", "bm25", "--per-query"]  # fmt: skip
    assert spelling.main(argv) == 0
    out = capsys.readouterr().out
    rows = [line.split("\t") for line in out.splitlines() if line.startswith("tiny/")]
    assert [r[0] for r in rows] == ["tiny/q2"]  # q1 has no misspelt word
    off, on = float(rows[0][2]), float(rows[0][3])
    assert on == pytest.approx(1.0) and off < on  # "farmmers" read as "farmers" finds d2 first
    assert "{'farmmers': 'farmers'}" in rows[0][5]
    assert "| bm25 | 1 | " in out


def test_an_unknown_set_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import spelling

    assert spelling.main(["--set", "no-such-set"]) == 2
    assert "unknown set(s): no-such-set" in capsys.readouterr().err
