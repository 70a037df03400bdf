"""`--rerank` on search and retrieve, `+reader=` systems in eval, and their bad input."""

from __future__ import annotations

import json
from pathlib import Path

from tests.clirun import logir
from tests.rerank.conftest import PASSAGES


def test_search_rerank_explains_both_stages(index_dir: Path, reader_dir: Path) -> None:
    args = ("search", str(index_dir), "vitamin d", "-r", "bm25", "-k", "8", "--composer", "flat")
    proc = logir(*args, "--rerank", str(reader_dir), "--rerank-depth", "8", "--explain")
    assert proc.returncode == 0, proc.stderr
    assert "reranked: the top 8 reread by the reader" in proc.stdout
    assert "first stage" in proc.stdout and "reader" in proc.stdout
    plain = json.loads(logir(*args, "--json").stdout)
    weightless = logir(*args, "--json", "--rerank", str(reader_dir), "--rerank-weight", "0")
    assert json.loads(weightless.stdout)["rerank"] == {
        "reader": "tiny-reader",
        "depth": 30,
        "weight": 0.0,
    }
    assert "rerank" not in plain
    assert [h["id"] for h in json.loads(weightless.stdout)["hits"]] == [
        h["id"] for h in plain["hits"]
    ]


def test_bad_reranker_input_is_one_error_line(tmp_path: Path, index_dir: Path) -> None:
    base = ("search", str(index_dir), "vitamin d", "-r", "bm25")
    for extra, words in [
        (("--rerank", str(tmp_path / "nowhere")), str(tmp_path / "nowhere")),
        (("--rerank", str(index_dir), "--rerank-depth", "0"), "from 1 to"),
        (("--rerank-weight", "0.3"), "need --rerank DIR"),
    ]:
        proc = logir(*base, *extra)
        assert proc.returncode == 2, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error:") and words in lines[0]


def test_retrieve_rerank_writes_the_reranked_run(
    tmp_path: Path, index_dir: Path, reader_dir: Path
) -> None:
    topics = tmp_path / "topics.tsv"
    topics.write_text("q1\tvitamin d\nq2\tbone health\n")
    runs = {}
    reranked = ("--rerank", str(reader_dir), "--rerank-weight", "1")
    for name, extra in [("plain", ()), ("reranked", reranked)]:
        run = tmp_path / f"{name}.trec"
        proc = logir(
            "retrieve", str(index_dir), "--topics", str(topics), "--run", str(run), "-r", "bm25",
            "-k", "8", "--composer", "flat", "-q", *extra,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        runs[name] = [line.split() for line in run.read_text().splitlines()]
    assert [r[2] for r in runs["plain"]] != [r[2] for r in runs["reranked"]]
    assert sorted(r[2] for r in runs["plain"]) == sorted(r[2] for r in runs["reranked"])
    proc = logir(
        "retrieve", str(index_dir), "--topics", str(topics), "--run", str(tmp_path / "x.trec"),
        "--rerank", str(tmp_path / "missing"),
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.startswith("error:")


def _beir(root: Path) -> Path:
    (root / "qrels").mkdir(parents=True)
    docs = [{"_id": i, "text": t} for i, t in PASSAGES.items()]
    queries = [{"_id": "q0", "text": "vitamin d bone"}, {"_id": "q1", "text": "vitamin d mood"}]
    (root / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    (root / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries))
    head = "query-id\tcorpus-id\tscore\n"
    (root / "qrels" / "test.tsv").write_text(head + "q0\tp2\t1\nq1\tp1\t1\n")
    return root


def test_eval_reader_system_writes_a_run_and_a_row(tmp_path: Path, reader_dir: Path) -> None:
    data = _beir(tmp_path / "mini")
    runs, out = tmp_path / "runs", tmp_path / "res.json"
    system = f"bm25:flat+reader={reader_dir},depth=5,weight=0.5"
    proc = logir(
        "eval", "beir", "--data", str(data), "--split", "test", "-s", "bm25", "-s", system,
        "--runs-dir", str(runs), "--out", str(out), "--markdown", "-q",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert f"| {system} |" in proc.stdout
    assert f"{system}: the reader reread 10 pairs for 2 queries in " in proc.stderr
    names = sorted(p.name for p in runs.iterdir())
    assert names[0] == "bm25.trec" and names[1].startswith("bm25_flat+reader-tiny-reader-")
    assert names[1].endswith("-d5-w0.5.trec")
    assert json.loads(out.read_text())["systems"][system]["run_file"].endswith(names[1])
    bad = logir("eval", "beir", "--data", str(data), "-s", f"bm25+reader={tmp_path / 'no'}")
    assert bad.returncode == 2 and bad.stderr.strip().splitlines()[-1].startswith("error:")
    assert str(tmp_path / "no") in bad.stderr
