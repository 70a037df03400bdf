"""Rewriting systems (bm25:hyde ...) in evaluate() and in `logir eval`, endpoint up and down."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from logir.data.dataset import Dataset, Document, Topic
from logir.errors import LogirError
from logir.eval.runner import evaluate
from logir.eval.systems import needs_llm, parse_system
from logir.llm import ChatClient, LLMConfig
from tests.clirun import logir as run_logir
from tests.llm.fakeserver import FakeLLMServer
from tests.ports import free_port as closed_port

ANSWER = "The zebrafish, a small striped freshwater fish, regrows its heart within weeks."


def tiny() -> Dataset:
    docs = [
        Document("d0", "Human heart muscle cannot regrow after a heart attack; it scars instead."),
        Document("d1", "The zebrafish is a small striped freshwater fish kept in laboratories."),
        Document("d2", "Regular exercise keeps the heart healthy and lowers blood pressure."),
        Document("d3", "Bread dough rises when yeast ferments its sugars."),
    ]
    topics = [
        Topic("q1", "Which animal can regrow its heart?", facets={"type": "1p"}),
        Topic("q2", "Why does bread dough rise?", facets={"type": "1p"}),
    ]
    return Dataset("tiny", docs, topics, {"q1": {"d1": 1}, "q2": {"d3": 1}})


def answer_tiny(body: dict[str, Any]) -> str:
    if "bread" in body["messages"][-1]["content"]:
        return "Yeast in bread dough ferments sugars into gas, so the dough rises."
    return ANSWER


def test_systems_know_which_need_an_llm() -> None:
    assert needs_llm("bm25:hyde,n=2") and needs_llm("dense:lamer") and needs_llm("bm25:inter")
    assert not needs_llm("bm25") and not needs_llm("hybrid:auto")
    with pytest.raises(LogirError, match="no LLM endpoint was given"):
        parse_system("bm25:hyde")


def test_evaluate_records_rewrites_and_fallbacks(tmp_path: Path) -> None:
    ds = tiny()
    with FakeLLMServer(answer_tiny) as srv:
        cfg = LLMConfig(base_url=srv.base_url, model="fake", cache_dir=tmp_path, max_retries=0)
        with ChatClient(cfg) as llm:
            res = evaluate(ds, ["bm25", "bm25:hyde,n=2"], k=4, llm=llm)
    flat, hyde = res.systems
    assert flat.per_query["q1"]["nDCG@10"] < 1.0 and hyde.overall["nDCG@10"] == 1.0
    rw = hyde.extra["rewrite"]
    assert (rw["queries"], rw["fallbacks"], rw["last_error"]) == (2, 0, None)
    assert rw["llm_usage"]["requests"] == 4 and "rewrite" not in flat.extra

    down = LLMConfig(
        base_url=f"http://127.0.0.1:{closed_port()}/v1",
        model="fake",
        cache_dir=None,
        max_retries=0,
    )
    with ChatClient(down) as llm:
        res = evaluate(ds, ["bm25", "bm25:lamer,n=2", "bm25:hyde,n=2"], k=4, llm=llm)
    flat, lamer, hyde = res.systems
    for rewriter in (lamer, hyde):
        assert rewriter.overall == flat.overall and rewriter.per_query == flat.per_query
        assert rewriter.extra["rewrite"]["fallbacks"] == 2
        assert "connection failed" in rewriter.extra["rewrite"]["last_error"]
    assert lamer.extra["rewrite"]["llm_usage"]["failures"] >= 3
    # the endpoint is known to be down: the next system does not ask it again
    assert hyde.extra["rewrite"]["llm_usage"]["failures"] == 0


def logir(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    return run_logir(*args, env={"LOGIR_CACHE": str(cache)}, drop_prefix="LOGIR_LLM_")


def test_cli_eval_hyde_against_the_fake_server(tmp_path: Path) -> None:
    def answer(body: dict[str, Any]) -> str:
        return "Vitamin D supports immune function and mood; deficiency is common in winter."

    out = tmp_path / "res.json"
    args = ["eval", "demo", "-s", "bm25:hyde", "--limit", "3", "--markdown", "--out", str(out)]
    with FakeLLMServer(answer) as srv:
        proc = logir(*args, "--llm-base-url", srv.base_url, cache=tmp_path)
        asked = len(srv.requests)
        again = logir(*args, "--llm-base-url", srv.base_url, cache=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "| bm25:hyde |" in proc.stdout and "nDCG@10" in proc.stdout
    assert asked == 3 * 4  # 3 queries x 4 hypothetical passages
    assert "bm25:hyde: 12 LLM requests for 3 queries" in proc.stderr
    assert "warning" not in proc.stderr
    # the LLM phase shows its progress: calls done, requests sent, answer tokens
    assert "hyde: LLM calls: 12/12 LLM calls (12 sent, 0 cached, 144 answer tokens)" in proc.stderr
    assert {b["max_tokens"] for b in srv.requests} == {200}  # a passage of about 100 words
    # a second run reads every answer from the on-disk cache
    assert again.returncode == 0, again.stderr
    assert len(srv.requests) == asked
    assert "bm25:hyde: 0 LLM requests for 3 queries (12 answers from the cache" in again.stderr
    assert again.stdout == proc.stdout
    rw = json.loads(out.read_text())["systems"]["bm25:hyde"]["extra"]["rewrite"]
    assert rw["queries"] == 3 and rw["fallbacks"] == 0


def test_cli_eval_with_the_endpoint_down_ranks_flat_and_warns(tmp_path: Path) -> None:
    out = tmp_path / "res.json"
    url = f"http://127.0.0.1:{closed_port()}/v1"
    proc = logir(
        "eval",
        "demo",
        "-s",
        "bm25",
        "-s",
        "bm25:hyde",
        "--limit",
        "3",
        "--out",
        str(out),
        "--llm-base-url",
        url,
        "--llm-retries",
        "0",
        cache=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    warning = [line for line in proc.stderr.splitlines() if line.startswith("warning:")]
    assert len(warning) == 1
    assert (
        "bm25:hyde: 3 of 3 queries were ranked flat, with the original query: the LLM "
        in (warning[0])
    )
    assert "endpoint failed on 12 requests (last error: " in warning[0]  # 3 queries x 4 samples
    assert "unusable" not in warning[0]
    assert "ranked flat" in warning[0] and url in warning[0]
    systems = json.loads(out.read_text())["systems"]
    assert systems["bm25:hyde"]["overall"] == systems["bm25"]["overall"]
    assert systems["bm25:hyde"]["extra"]["rewrite"]["fallbacks"] == 3


def test_cli_eval_rewriter_without_endpoint_is_a_clean_error(tmp_path: Path) -> None:
    proc = logir("eval", "demo", "-s", "bm25:inter", "--limit", "3", cache=tmp_path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    first = proc.stderr.strip().splitlines()[0]
    assert first.startswith("error:") and "'inter'" in first and "--llm-base-url" in first
