"""`logir synth negations` as a real command: its files, eval and train reading them, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logir.data.beir import load_beir
from tests.clirun import logir
from tests.tiny_bert import save_tiny_bert

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "synth" / "negations-corpus.jsonl"
FILES = ("triplets.jsonl", "corpus.jsonl", "queries.jsonl", "qrels/train.tsv", "summary.json")


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("negations") / "out"
    proc = logir("synth", "negations", "--corpus", str(CORPUS), "--out", str(folder), "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.startswith("negations: ") and "triplets" in proc.stdout
    return folder


def test_writes_triplets_train_reads_and_a_beir_folder_with_violating_labels(out: Path) -> None:
    assert all((out / f).is_file() for f in FILES)
    rows = [json.loads(x) for x in (out / "triplets.jsonl").read_text().splitlines()]
    assert rows and all(r["positive"] != r["negative"] for r in rows)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["triplets"] == len(rows) and summary["documents"] == 16
    train = load_beir(out, split="train")
    assert train.queries and all(train.violating[t.id] for t in train.queries)
    held = {r["query_id"] for r in rows}
    assert held == {t.id for t in train.queries}, "held-out queries stay out of the triplets"
    test = load_beir(out, split="test")
    assert test.queries and not {t.id for t in test.queries} & held
    test_passages = {d for t in test.queries for d in [*test.qrels[t.id], *test.violating[t.id]]}
    trained_on = {r[k] for r in rows for k in ("positive_id", "negative_id")}
    assert not test_passages & trained_on, "no held-out passage is trained on"
    texts = {d.id: d.full_text for d in train.corpus}
    for r in rows:
        assert texts[r["positive_id"]] == r["positive"] and texts[r["negative_id"]] == r["negative"]
        assert r["negative_id"] in train.violating[r["query_id"]]
        assert train.qrels[r["query_id"]] == {r["positive_id"]: 1}


def test_the_same_command_writes_the_same_bytes(out: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    proc = logir("synth", "negations", "--corpus", str(CORPUS), "--out", str(again), "-q")
    assert proc.returncode == 0, proc.stderr
    for name in FILES:
        assert (again / name).read_bytes() == (out / name).read_bytes(), name


def test_eval_beir_scores_the_held_out_queries(out: Path, tmp_path: Path) -> None:
    folder = tmp_path / "all-held-out"
    proc = logir(
        "synth", "negations", "--corpus", str(CORPUS), "--out", str(folder),
        "--test-share", "0.5", "--quiet",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    ev = logir("eval", "beir", "--data", str(folder), "-s", "bm25", "--quiet")
    assert ev.returncode == 0, ev.stderr
    assert "PairAcc" in ev.stdout


def test_train_reader_accepts_the_triplets_and_the_folder(out: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    words: set[str] = set()
    for line in (out / "triplets.jsonl").read_text().splitlines():
        row = json.loads(line)
        for key in ("query", "positive", "negative"):
            words.update(row[key].lower().split())
    base = save_tiny_bert(tmp_path / "tiny", words)
    for data in (out / "triplets.jsonl", out):
        model = tmp_path / f"reader-{data.name}"
        proc = logir(
            "train", "reader", "--data", str(data), "--base", str(base), "--out", str(model),
            "--max-steps", "2", "--batch-size", "4", "--max-length", "64", "--threads", "1",
            "--holdout", "0", "--quiet",
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert (model / "logir.json").is_file()


def test_a_bad_corpus_line_is_one_error_naming_file_and_line(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"id": "a", "text": "one"}\n{"id": "b", "text": \n', encoding="utf-8")
    proc = logir("synth", "negations", "--corpus", str(corpus), "--out", str(tmp_path / "o"))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {corpus}:2: not valid JSON")


def test_a_corpus_with_nothing_to_pair_says_so(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    rows = [{"id": "a", "text": "Apples are red."}, {"id": "b", "text": "Trains run late."}]
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    proc = logir("synth", "negations", "--corpus", str(corpus), "--out", str(tmp_path / "o"))
    assert proc.returncode == 2
    errors = [x for x in proc.stderr.splitlines() if x.startswith("error:")]
    assert len(errors) == 1
    assert errors[0].startswith("error: no exclusion query could be made from these 2 passages")


def test_an_unknown_generator_is_refused(tmp_path: Path) -> None:
    proc = logir(
        "synth", "negations", "--corpus", str(CORPUS), "--out", str(tmp_path / "o"),
        "--kinds", "title,antonym",
    )  # fmt: skip
    assert proc.returncode == 2
    assert "unknown negation generator(s) antonym; known: title, swap, disjunction" in proc.stderr
