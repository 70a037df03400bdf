"""`logir eval`'s split and depth options (logir/cli_eval.py), through the real command too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logir.cli_eval import resolve_split, run_depth
from logir.data.benchmarks import load_benchmark
from logir.data.splits import select_split
from logir.errors import LogirError
from tests.clirun import logir


def test_a_beir_split_name_is_the_qrels_file() -> None:
    assert resolve_split("beir", "dev") == resolve_split("scifact", "dev")
    dev = resolve_split("beir", "dev")
    assert (dev.qrels, dev.part, dev.notes) == ("dev", "all", [])
    test = resolve_split("scifact", "test")
    assert (test.qrels, test.part) == ("test", "all")
    assert "logir-test" in test.notes[0]  # it meant logir's own split before: say so
    assert resolve_split("comlq", "train").qrels == "train"


def test_logirs_own_split_has_its_own_names_and_old_ones_still_work() -> None:
    for dataset in ("beir", "negconstraint"):
        assert resolve_split(dataset, "logir-test") == resolve_split(dataset, "logir-test")
        assert (
            resolve_split(dataset, "logir-tune").qrels,
            resolve_split(dataset, "all").qrels,
        ) == (
            None,
            None,
        )
    tune = resolve_split("scifact", "tune")
    assert (tune.qrels, tune.part) == (None, "logir-tune") and "logir-tune" in tune.notes[0]
    test = resolve_split("negconstraint", "test")  # no qrels file to choose: the old meaning
    assert (test.qrels, test.part) == (None, "logir-test") and "logir-test" in test.notes[0]
    with pytest.raises(LogirError, match="unknown --split 'train' for dataset nevir"):
        resolve_split("nevir", "train")


def test_scifact_test_split_is_beirs_300_queries(datasets_dir: Path) -> None:
    path = datasets_dir / "scifact"
    test = load_benchmark("scifact", path, "test")
    assert len(test.queries) == 300
    train = load_benchmark("scifact", path, "train")
    assert len(train.queries) > 300 and not {t.id for t in train.queries} & {
        t.id for t in test.queries
    }
    # logir's own test split keeps the 236 queries BENCHMARKS.md reports
    assert len(select_split(load_benchmark("scifact", path), "logir-test").queries) == 236


def test_qrels_split_names_are_refused_where_they_mean_nothing(tmp_path: Path) -> None:
    with pytest.raises(LogirError, match="no BEIR qrels splits"):
        load_benchmark("demo", None, "dev")
    with pytest.raises(LogirError, match="bad qrels split name"):
        load_benchmark("beir", tmp_path, "../x")


def test_the_run_is_as_deep_as_the_deepest_cutoff_asked_for() -> None:
    assert run_depth(None, []) == (100, None)
    assert run_depth(None, ["nDCG@10", "MAP"]) == (100, None)
    hits, note = run_depth(None, ["R@1000", "ndcg_cut_10"])
    assert hits == 1000 and note is not None and "R@1000" in note
    assert run_depth(1000, ["recall_1000"]) == (1000, None)
    with pytest.raises(LogirError, match="-m R@1000 needs 1000 hits per query but -k is 100"):
        run_depth(100, ["R@1000"])
    with pytest.raises(LogirError, match="at most 1000"):
        run_depth(None, ["R@5000"])
    defaults = ["nDCG@10", "R@100"]
    assert run_depth(10, [], defaults) == (
        10,
        "R@100 counts only the 10 hits ranked per query (-k 10)",
    )
    assert run_depth(100, [], defaults) == (100, None)


def _beir(root: Path) -> Path:
    docs = [{"_id": f"d{i}", "text": f"passage {i} about topic{i % 4}"} for i in range(20)]
    queries = [{"_id": f"q{i}", "text": f"topic{i % 4}"} for i in range(6)]
    (root / "qrels").mkdir(parents=True)
    (root / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    (root / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    head = "query-id\tcorpus-id\tscore\n"
    (root / "qrels" / "test.tsv").write_text(head + "q0\td0\t1\nq1\td1\t1\n")
    (root / "qrels" / "dev.tsv").write_text(head + "q2\td2\t1\nq3\td3\t1\nq4\td4\t1\n")
    return root


def test_eval_beir_split_dev_reads_qrels_dev(tmp_path: Path) -> None:
    folder = _beir(tmp_path / "mini")
    out = tmp_path / "res.json"
    proc = logir("eval", "beir", "--data", str(folder), "--split", "dev", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(out.read_text())["n_queries"] == 3
    proc = logir("eval", "beir", "--data", str(folder), "--split", "test", "--out", str(out))
    assert proc.returncode == 0 and json.loads(out.read_text())["n_queries"] == 2
    assert "note: --split test now reads the BEIR qrels file qrels/test.tsv" in proc.stderr
    proc = logir("eval", "beir", "--data", str(folder), "--split", "train")
    assert proc.returncode == 2 and "qrels/train.tsv" in proc.stderr


def test_eval_trec_eval_measure_names_and_depth(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    proc = logir(
        "eval", "demo", "-m", "ndcg_cut_10", "-m", "recall_1000", "--markdown", "--runs-dir",
        str(runs), "-q",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "| system | ndcg_cut_10 | recall_1000 |" in proc.stdout
    assert "ranking 1000 hits per query (not 100) for -m recall_1000" in proc.stderr
    lines = (runs / "bm25.trec").read_text().splitlines()
    per_query: dict[str, int] = {}
    for line in lines:
        per_query[line.split()[0]] = per_query.get(line.split()[0], 0) + 1
    assert max(per_query.values()) > 100  # the demo holds 310 passages: deeper than 100
    proc = logir("eval", "demo", "-k", "100", "-m", "R@1000")
    assert proc.returncode == 2 and "raise -k to 1000" in proc.stderr
    assert "queries ranked" not in proc.stderr


def test_eval_progress_lines_and_quiet() -> None:
    proc = logir("eval", "demo", "-s", "bm25", "--markdown", env={"LOGIR_VERBOSE": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "bm25: 0/48 queries ranked" in proc.stderr  # verbose: every step, from the start
    assert "bm25: 8/48 queries ranked" in proc.stderr  # the first batch is small (pacing)
    assert "bm25: 48/48 queries ranked" in proc.stderr
    quiet = logir("eval", "demo", "-s", "bm25", "--markdown", "--quiet")
    assert quiet.returncode == 0 and "queries ranked" not in quiet.stderr
    assert quiet.stdout == proc.stdout


def test_version() -> None:
    from logir import __version__

    proc = logir("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"logir {__version__}"


@pytest.mark.dense
def test_the_encoder_draws_no_bar_off_a_terminal_or_when_quiet(tmp_path: Path) -> None:
    folder = _beir(tmp_path / "mini")
    for run, extra in enumerate(([], ["--quiet"])):
        cache = {"LOGIR_CACHE": str(tmp_path / f"cache{run}")}  # empty: the corpus is encoded
        proc = logir("eval", "beir", "--data", str(folder), "-s", "dense", *extra, env=cache)
        assert proc.returncode == 0, proc.stderr
        assert "Batches" not in proc.stderr and "it/s" not in proc.stderr
        assert ("queries ranked" in proc.stderr) == (not extra)  # logir's own line stays
