"""bench/phrasings.py on a phrasings file and a hand-written set's rows: per-file lines, the
misses, and a last line that sums the files."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench.phrasings import score, summary

PHRASINGS = [
    {"id": "a", "text": "benefits of vitamin D other than bone health",
     "forms": ['"benefits of vitamin D" AND NOT "bone health"'], "negation": "exclude"},
    {"id": "b", "text": "an actor who never won an Oscar",
     "forms": ['"an actor" AND NOT "won an Oscar"'], "negation": "predicate"},
]  # fmt: skip
HANDWRITTEN = [
    {"id": "e01", "text": "Kurosawa films other than Rashomon",
     "form": '"Kurosawa films" AND NOT "Rashomon"', "negation": "exclude",
     "relevant": {"d1": 2}, "violating": []},
    # a none query that the reader reads as an exclusion: counted as wrong, listed as a miss
    {"id": "n01", "text": "Kurosawa films other than Rashomon",
     "form": '"Kurosawa films"', "negation": "none", "relevant": {"d1": 2}, "violating": []},
]  # fmt: skip


KEYS = [f"{w} {k}" for w in ("right", "total") for k in ("exclude", "predicate", "none")]


def write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_handwritten_set_is_scored_with_its_one_form(tmp_path: Path) -> None:
    line, misses, counts = score(write(tmp_path / "set.jsonl", HANDWRITTEN))
    assert line == "set.jsonl: forms 1/2; auto right on exclude 1/1, predicate 0/0, none 0/1"
    assert counts["right none"] == 0 and counts["total none"] == 1
    assert any("n01 plan: none query planned exclude" in m for m in misses)
    assert not any("e01" in m for m in misses)


def test_several_files_end_with_their_sum(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench import phrasings

    a = write(tmp_path / "a.jsonl", PHRASINGS)
    b = write(tmp_path / "b.jsonl", HANDWRITTEN)
    monkeypatch.setattr(sys, "argv", ["phrasings.py", str(a), str(b)])
    from logir.query.natural import nlp

    monkeypatch.setattr(nlp, "spacy_available", lambda: False)
    monkeypatch.setattr(nlp, "load_nlp", nlp.load_nlp)  # main() replaces it: restored after
    phrasings.main()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "spacy: not installed"
    assert out[-1] == (
        "regex: all 2 files: forms 3/4; auto right on exclude 2/2, predicate 1/1, none 0/1"
    )
    assert summary("x", {"forms": 1, "rows": 2} | dict.fromkeys(KEYS, 0)).startswith(
        "x: forms 1/2; auto right on exclude 0/0"
    )


def test_help_and_a_missing_file_exit_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bench import phrasings

    monkeypatch.setattr(sys, "argv", ["phrasings.py", "--help"])
    with pytest.raises(SystemExit) as exc:
        phrasings.main()
    assert "Score the natural-language reader" in str(exc.value.code)
    gone = tmp_path / "gone.jsonl"
    monkeypatch.setattr(sys, "argv", ["phrasings.py", str(gone)])
    with pytest.raises(SystemExit) as exc:
        phrasings.main()
    assert exc.value.code == f"error: no such file: {gone}"
