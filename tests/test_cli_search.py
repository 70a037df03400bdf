"""`logir search`: the logic is applied by default, explained with --explain, and a query that
does not parse is reported (a warning in auto mode, an error in syntax mode)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.clirun import logir

PASSAGES = [
    (
        "sat",
        "Einstein's key achievements in physics: the photoelectric effect and Brownian motion.",
    ),
    ("vio", "Einstein's key achievement in physics was relativity; relativity changed physics."),
    ("other1", "Newton described gravity and the laws of motion in the Principia."),
    ("other2", "Marie Curie studied radioactivity and won two Nobel prizes."),
    ("other3", "The photoelectric effect releases electrons from metal under light."),
]
EXCLUDING = "Key achievements of Einstein in physics, excluding relativity"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("search")
    corpus = root / "passages.jsonl"
    corpus.write_text(
        "".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in PASSAGES), encoding="utf-8"
    )
    proc = logir("index", str(corpus), "--out", str(root / "idx"), "-r", "bm25")
    assert proc.returncode == 0, proc.stderr
    return root / "idx"


def ranked_ids(stdout: str) -> list[str]:
    return re.findall(r"^\s*\d+\.\s+-?[\d.]+\s+(\S+)", stdout, flags=re.M)


def test_default_composer_applies_the_exclusion(index: Path) -> None:
    flat = logir("search", str(index), EXCLUDING, "-k", "2", "--composer", "flat")
    assert flat.returncode == 0, flat.stderr
    assert ranked_ids(flat.stdout)[0] == "vio"  # similarity alone returns what is excluded
    auto = logir("search", str(index), EXCLUDING, "-k", "2")
    assert auto.returncode == 0, auto.stderr
    assert "(bm25, auto)" in auto.stdout
    assert ranked_ids(auto.stdout)[0] == "sat"


def test_explain_shows_the_form_the_plan_and_evidence_that_adds_up(index: Path) -> None:
    # -k 5, the whole corpus: the excluded passage falls below the top 3 of this keyword query
    proc = logir("search", str(index), EXCLUDING, "-k", "5", "--explain")
    assert proc.returncode == 0, proc.stderr
    assert 'logical form: "Key achievements of Einstein in physics" AND NOT "relativity"' in (
        proc.stdout
    )
    assert "auto: positive part minus excluded evidence (the wording excludes a topic)" in (
        proc.stdout
    )
    assert "the parts of its score (they add up to it)" in proc.stdout
    blocks = re.split(r"^\s*\d+\.\s+", proc.stdout, flags=re.M)[1:]
    assert len(blocks) >= 3
    for block in blocks:
        score = float(block.split()[0])
        parts = [float(v) for v in re.findall(r"^\s+(-?\d+\.\d{4})\s{2}\S", block, flags=re.M)]
        assert len(parts) == 2  # the positive part and NOT relativity
        assert abs(sum(parts) - score) <= 2e-4
    vio = next(b for b in blocks if b.split()[1] == "vio")
    assert float(re.search(r"(-\d\.\d{4})\s+NOT relativity", vio).group(1)) < 0


def test_explain_of_fuzzy_says_the_values_are_term_scores(index: Path) -> None:
    proc = logir("search", str(index), EXCLUDING, "--composer", "fuzzy", "--explain", "-k", "1")
    assert proc.returncode == 0, proc.stderr
    assert "each term's calibrated score" in proc.stdout and "NOT " in proc.stdout
    assert "add up" not in proc.stdout


def test_explain_says_why_a_negation_is_ranked_flat(index: Path) -> None:
    proc = logir("search", str(index), "Which physicists did not study gravity?", "--explain")
    assert proc.returncode == 0, proc.stderr
    assert "auto: flat (" in proc.stdout


def test_json_carries_the_reading(index: Path) -> None:
    proc = logir("search", str(index), '"Einstein" AND NOT relativity', "--json", "-k", "5")
    assert proc.returncode == 0, proc.stderr
    body = json.loads(proc.stdout)
    assert body["composer"] == "auto" and body["mode_used"] == "syntax"
    assert body["logical_form"] == '"Einstein" AND NOT "relativity"'
    assert body["notes"] == []
    assert (body["applied"], body["applied_reason"]) == ("exclude", "logir syntax")
    vio = next(h for h in body["hits"] if h["id"] == "vio")
    assert vio["evidence"]["NOT relativity"] < 0  # a soft penalty: beta * evidence
    fuzzy = logir(
        "search", str(index), '"Einstein" AND NOT relativity', "--json", "--composer", "fuzzy"
    )
    assert fuzzy.returncode == 0, fuzzy.stderr
    assert json.loads(fuzzy.stdout)["hits"][0]["id"] == "sat"
    prop = logir("search", str(index), "Einstein who never lived in Germany", "--json", "-k", "2")
    body = json.loads(prop.stdout)
    assert "NOT" in body["logical_form"] and body["applied"] == "flat"
    assert "no exclusion cue" in body["applied_reason"]


def test_query_that_does_not_parse_warns_in_auto_mode_and_fails_in_syntax_mode(
    index: Path,
) -> None:
    broken = '"Einstein" AND NOT (relativity'
    auto = logir("search", str(index), broken, "-k", "1")
    assert auto.returncode == 0, auto.stderr
    assert "warning: looked like query syntax but did not parse" in auto.stderr
    assert "column 20" in auto.stderr
    strict = logir("search", str(index), broken, "--mode", "syntax")
    assert strict.returncode == 2 and strict.stdout == ""
    assert "column 20" in strict.stderr and "Traceback" not in strict.stderr


def test_unknown_mode_is_an_error(index: Path) -> None:
    proc = logir("search", str(index), "x", "--mode", "boolean")
    assert proc.returncode == 2 and "unknown --mode 'boolean'" in proc.stderr


def test_markup_in_a_query_is_printed_as_text(index: Path) -> None:
    proc = logir("search", str(index), "[red]Newton[/red] gravity", "-k", "1")
    assert proc.returncode == 0, proc.stderr
    assert "[red]Newton[/red] gravity" in proc.stdout


def test_a_misspelt_word_is_read_as_the_indexed_one_and_said_so(index: Path) -> None:
    typo = "the photoelectic effect"
    proc = logir("search", str(index), typo, "-k", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["corrections"] == {"photoelectic": "photoelectric"}
    assert got["hits"][0]["id"] in ("sat", "other3")
    plain = logir("search", str(index), typo, "-k", "1")
    assert "spelling: BM25 read 'photoelectic' as 'photoelectric'" in plain.stderr
    explained = logir("search", str(index), typo, "-k", "1", "--explain")
    assert "spelling: BM25 read 'photoelectic' as 'photoelectric'" in explained.stdout
    off = logir("search", str(index), typo, "-k", "1", "--json", "--no-spelling")
    assert off.returncode == 0, off.stderr
    got_off = json.loads(off.stdout)
    assert got_off["corrections"] == {}
    assert got_off["hits"][0]["score"] < got["hits"][0]["score"]  # only "effect" matched
