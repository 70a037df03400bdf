"""The real `logir` command on shared datasets (small slices) and on bad input."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import pytrec_eval

from logir.data.trec import read_qrels, read_run
from tests.clirun import logir


def assert_clean_error(proc: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    # progress lines of stages that finished may come first; the error is the last line
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("error:"), proc.stderr
    for n in needles:
        assert n in last, last


def test_eval_comlq_slice_run_file_matches_printed_figure(datasets_dir: Path, tmp_path: Path):
    runs, out = tmp_path / "R", tmp_path / "res.json"
    proc = logir(
        "eval",
        "comlq",
        "--data",
        str(datasets_dir / "comlq"),
        "--system",
        "bm25",
        "--limit",
        "300",
        "--runs-dir",
        str(runs),
        "--out",
        str(out),
        "--markdown",
    )
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(out.read_text())
    printed = figures["systems"]["bm25"]["overall"]["nDCG@10"]
    assert f"| bm25 | {100 * printed:.1f} |" in proc.stdout
    qrels = read_qrels(datasets_dir / "comlq" / "qrels" / "test.tsv")
    run = read_run(runs / "bm25.trec")
    qrels = {q: qrels[q] for q in figures["systems"]["bm25"]["per_query"]}
    per = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10"}).evaluate(run)
    from_file = sum(per.get(q, {}).get("ndcg_cut_10", 0.0) for q in qrels) / len(qrels)
    assert from_file == pytest.approx(printed, abs=1e-9)
    lines = (runs / "bm25.trec").read_text().splitlines()
    assert all(len(line.split()) == 6 for line in lines)


def test_eval_negconstraint_reports_pairwise_and_categories(datasets_dir: Path, tmp_path: Path):
    out = tmp_path / "res.json"
    proc = logir(
        "eval",
        "negconstraint",
        "--data",
        str(datasets_dir / "negconstraint"),
        "-s",
        "bm25",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    res = json.loads(out.read_text())["systems"]["bm25"]
    assert 0.0 <= res["overall"]["PairAcc"] <= 1.0
    assert set(res["breakdown"]["category"]) == {"A - a", "(A - a) ∪ B", "(A - a) ∪ (B - b)"}
    assert "by category" in proc.stdout


def test_eval_nevir_pair_accuracy(datasets_dir: Path, tmp_path: Path):
    out = tmp_path / "res.json"
    proc = logir(
        "eval",
        "nevir",
        "--data",
        str(datasets_dir / "nevir"),
        "-s",
        "bm25",
        "--limit",
        "200",
        "--out",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    overall = json.loads(out.read_text())["systems"]["bm25"]["overall"]
    assert overall["NevIRPairAcc"] <= overall["PairAcc"]


@pytest.mark.dense
def test_eval_demo_prints_table_for_three_systems(tmp_path: Path):
    pytest.importorskip("sentence_transformers")
    proc = logir(
        "eval",
        "demo",
        "-s",
        "bm25",
        "-s",
        "dense",
        "-s",
        "hybrid",
        "--markdown",
        "--runs-dir",
        str(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    for name in ("bm25", "dense", "hybrid"):
        assert f"| {name} |" in proc.stdout
        assert (tmp_path / f"{name}.trec").is_file()
    assert "by type" in proc.stdout


@pytest.mark.dense
def test_index_and_search(tmp_path: Path, datasets_dir: Path):
    pytest.importorskip("sentence_transformers")
    idx = tmp_path / "idx"
    corpus = (datasets_dir / "boolquestions-not" / "corpus.jsonl").read_text(encoding="utf-8")
    head = tmp_path / "corpus.jsonl"  # a slice: the whole corpus adds encoding time, no check
    head.write_text("".join(corpus.splitlines(keepends=True)[:120]), encoding="utf-8")
    proc = logir("index", str(head), "--out", str(idx))
    assert proc.returncode == 0, proc.stderr
    for retriever in ("bm25", "dense", "hybrid"):
        proc = logir(
            "search", str(idx), "symptoms of strep throat", "-k", "5", "--json", "-r", retriever
        )
        assert proc.returncode == 0, proc.stderr
        hits = json.loads(proc.stdout)["hits"]
        assert len(hits) == 5 and hits[0]["rank"] == 1
        assert hits[0]["score"] >= hits[-1]["score"]
        assert "strep" in (hits[0]["snippet"] + hits[1]["snippet"]).lower()
    proc = logir("search", str(idx), "strep throat", "-k", "3", "-r", "bm25")
    assert proc.returncode == 0 and "1." in proc.stdout


def test_index_over_an_index_of_other_documents_needs_force(tmp_path: Path):
    for name, rows in (("a.jsonl", ["cats purr", "dogs bark"]), ("b.jsonl", ["fish swim"])):
        text = "".join(
            json.dumps({"id": f"{name}{i}", "text": t}) + "\n" for i, t in enumerate(rows)
        )
        (tmp_path / name).write_text(text, encoding="utf-8")
    idx = str(tmp_path / "idx")
    assert logir("index", str(tmp_path / "a.jsonl"), "--out", idx, "-r", "bm25").returncode == 0
    proc = logir("index", str(tmp_path / "b.jsonl"), "--out", idx, "-r", "bm25")
    assert_clean_error(proc, "other documents (2 documents", "--force")
    again = logir("index", str(tmp_path / "a.jsonl"), "--out", idx, "-r", "bm25")
    assert again.returncode == 0 and "indexed 2 documents with bm25 ->" in again.stdout
    forced = logir("index", str(tmp_path / "b.jsonl"), "--out", idx, "-r", "bm25", "--force")
    assert forced.returncode == 0 and "indexed 1 documents" in forced.stdout


def test_parse_prints_tree():
    proc = logir("parse", 'vitamin D AND NOT "bone health"')
    assert proc.returncode == 0, proc.stderr
    assert '"vitamin D" AND NOT "bone health"' in proc.stdout
    assert "NOT" in proc.stdout and "TERM 'bone health'" in proc.stdout


def test_parse_reads_like_search_and_previews_auto():
    proc = logir("parse", "an actor who never won an Oscar")
    assert proc.returncode == 0, proc.stderr
    assert "mode: natural" in proc.stdout
    assert "auto composer: flat (the negation states a property" in proc.stdout
    proc = logir("parse", "--json", "benefits of vitamin D other than bone health")
    payload = json.loads(proc.stdout)
    assert payload["mode"] == "natural" and payload["query"].endswith('AND NOT "bone health"')
    assert payload["auto"] == {"applied": "exclude", "reason": "the wording excludes a topic"}
    proc = logir("parse", "a AND (b OR")  # read as search reads it: prose, with a warning
    assert proc.returncode == 0 and "warning: looked like query syntax" in proc.stderr
    assert "mode: natural" in proc.stdout


def test_bad_query_names_column():
    proc = logir("parse", "--syntax", "a AND (b OR")
    assert_clean_error(proc, "column")


def test_unknown_dataset():
    assert_clean_error(logir("eval", "msmarco-logic"), "unknown", "msmarco-logic")


def test_missing_data_path(tmp_path: Path):
    assert_clean_error(logir("eval", "comlq", "--data", str(tmp_path / "nope")), "nope")


def test_malformed_jsonl_line_names_file_and_line(tmp_path: Path):
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text('{"_id": "1", "text": "a"}\n{"_id": "2", "text": \n')
    (folder / "queries.jsonl").write_text('{"_id": "q", "text": "a"}\n')
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq\t1\t1\n")
    assert_clean_error(logir("eval", "beir", "--data", str(folder)), "corpus.jsonl:2")


def test_unknown_system():
    assert_clean_error(logir("eval", "demo", "-s", "splade9000"), "splade9000")


def test_search_missing_index(tmp_path: Path):
    assert_clean_error(logir("search", str(tmp_path / "noindex"), "q"), "noindex")
