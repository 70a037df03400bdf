"""`logir index`: BM25 parameters and progress on stderr."""

from __future__ import annotations

import json
from pathlib import Path

from tests.clirun import logir


def _corpus(path: Path) -> Path:
    rows = [{"_id": f"d{i}", "text": f"passage {i} about topic{i % 3} and more"} for i in range(9)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_index_takes_bm25_k1_and_b_and_says_what_it_builds(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "c.jsonl")
    out = tmp_path / "idx"
    args = ("index", str(corpus), "--out", str(out), "-r", "bm25")
    proc = logir(*args, "--bm25-k1", "1.2", "--bm25-b", "0.6")
    assert proc.returncode == 0, proc.stderr
    bm25 = json.loads((out / "manifest.json").read_text())["retrievers"]["bm25"]
    assert (bm25["k1"], bm25["b"]) == (1.2, 0.6)
    assert "bm25: building over 9 documents" in proc.stderr and "bm25: built in" in proc.stderr
    quiet = logir(*args, "-q")
    assert quiet.returncode == 0 and quiet.stderr == ""
    for bad in (("--bm25-b", "1.5"), ("--bm25-k1", "nan"), ("--bm25-k1", "-1")):
        proc = logir(*args, *bad)
        assert proc.returncode == 2 and proc.stderr.startswith("error:"), proc.stderr
        assert bad[0] in proc.stderr


def test_index_writes_compact_postings_by_default_plain_when_asked_the_same_hits(
    tmp_path: Path,
) -> None:
    corpus = _corpus(tmp_path / "c.jsonl")
    hits = []
    for postings in ("plain", "compact", None):
        out = tmp_path / str(postings)
        asked = ("--postings", postings) if postings else ()
        proc = logir("index", str(corpus), "--out", str(out), "-r", "bm25", *asked)
        assert proc.returncode == 0, proc.stderr
        assert (out / "bm25" / "compact.json").is_file() == (postings != "plain")
        found = logir("search", str(out), '"topic1" AND NOT "passage 4"', "-k", "5", "--json")
        assert found.returncode == 0, found.stderr
        hits.append(json.loads(found.stdout))
    assert hits[0] == hits[1] == hits[2] and hits[0]
    for bad, needle in (
        (("--postings", "tiny"), "unknown --postings 'tiny'"),
        (("--postings", "compact", "-r", "dense"), "--postings compact sets how BM25 stores"),
        (("--postings", "plain", "-r", "dense"), "--postings plain sets how BM25 stores"),
    ):
        proc = logir("index", str(corpus), "--out", str(tmp_path / "x"), *bad)
        assert proc.returncode == 2 and proc.stderr.startswith("error:"), proc.stderr
        assert needle in proc.stderr
