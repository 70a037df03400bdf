"""The synthesis runner with a toy pipeline and an in-process client: resume, failures, abort."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from logir.data.beir import load_beir
from logir.data.dataset import Dataset, Document, Topic
from logir.errors import LogirError
from logir.llm import LLMError, LLMOutputError
from logir.synth import PIPELINES, get_pipeline
from logir.synth.base import ItemFailed, Pipeline, Unit
from logir.synth.cli import parse_opts
from logir.synth.runner import SynthAborted, run_synthesis
from tests.synth.synthfakes import StubClient

CORPUS = [Document(f"d{i}", f"passage number {i} about topic {i % 3}") for i in range(8)]


class Toy:
    """One query per document; `fail` keys raise ItemFailed, `down` keys an endpoint error."""

    name = "toy"

    def __init__(
        self,
        fail: set[str] = frozenset(),
        down: set[str] = frozenset(),
        bad_json: set[str] = frozenset(),
    ) -> None:
        self.fail, self.down, self.bad_json = set(fail), set(down), set(bad_json)
        self.made: list[str] = []

    def units(self, corpus: list[Document], seed: int) -> Iterator[Unit]:
        order = sorted(range(len(corpus)), key=lambda i: (i * 7 + seed) % len(corpus))
        for i in order:
            yield Unit(f"u{i}", {"doc": corpus[i].id, "text": corpus[i].text})

    def make(self, unit: Unit, client: Any) -> dict[str, Any]:
        self.made.append(unit.key)
        if unit.key in self.fail:
            raise ItemFailed(f"{unit.key} failed the structure check")
        if unit.key in self.down:
            raise LLMError("http://x/v1/chat/completions: status 500\nafter 1 attempt")
        if unit.key in self.bad_json:
            raise LLMOutputError("answer was not JSON after 3 attempts")
        client.usage.add(requests=1, prompt_tokens=5, completion_tokens=3)
        return {"key": unit.key, "doc": unit.payload["doc"], "text": unit.payload["text"].upper()}

    def assemble(self, items: list[dict[str, Any]], corpus: list[Document]) -> Dataset:
        queries = [Topic(f"q:{it['key']}", it["text"]) for it in items]
        qrels = {f"q:{it['key']}": {it["doc"]: 1} for it in items}
        return Dataset("toy", list(corpus), queries, qrels)


def ok_keys(out: Path) -> list[str]:
    lines = (out / "checkpoint.jsonl").read_text().splitlines()
    return [json.loads(x)["key"] for x in lines if json.loads(x)["status"] == "ok"]


def test_toy_pipeline_satisfies_the_protocol():
    assert isinstance(Toy(), Pipeline)


def test_a_run_writes_a_beir_folder_summary_and_checkpoint(tmp_path: Path):
    client = StubClient()
    seen: list[tuple[int, int]] = []
    s = run_synthesis(
        Toy(), CORPUS, client, tmp_path / "o", progress=lambda d, t: seen.append((d, t))
    )
    assert (s.ok, s.failed, s.units, s.resumed) == (8, 0, 8, 0)
    assert s.usage["prompt_tokens"] == 40 and s.usage["completion_tokens"] == 24
    ds = load_beir(tmp_path / "o")
    assert len(ds.queries) == 8 and ds.qrels["q:u0"] == {"d0": 1}
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["ok"] == 8 and summary["complete"] is True
    assert seen[0] == (0, 8) and seen[-1] == (8, 8)
    assert "8/8 items ok" in s.lines()[0]


def test_max_items_then_the_rest_equals_one_uninterrupted_run(tmp_path: Path):
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    run_synthesis(Toy(), CORPUS, StubClient(), whole, seed=3)
    first = Toy()
    s1 = run_synthesis(first, CORPUS, StubClient(), parts, seed=3, max_items=3)
    assert s1.ok == 3 and len(load_beir(parts).queries) == 3
    rest = Toy()
    s2 = run_synthesis(rest, CORPUS, StubClient(), parts, seed=3)
    assert s2.resumed == 3 and s2.new_ok == 5
    assert not set(first.made) & set(rest.made)  # nothing made twice
    assert sorted(ok_keys(parts)) == sorted(ok_keys(whole))
    assert len(ok_keys(parts)) == len(set(ok_keys(parts))) == 8
    for name in ("corpus.jsonl", "queries.jsonl", "qrels/test.tsv"):
        assert (parts / name).read_text() == (whole / name).read_text()


def test_concurrent_workers_give_the_same_output(tmp_path: Path):
    run_synthesis(Toy(), CORPUS, StubClient(concurrency=1), tmp_path / "a")
    run_synthesis(Toy(), CORPUS, StubClient(concurrency=4), tmp_path / "b")
    for name in ("queries.jsonl", "qrels/test.tsv"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()


def test_failed_items_are_recorded_with_reason_and_retried_next_run(tmp_path: Path):
    out = tmp_path / "o"
    s = run_synthesis(Toy(fail={"u2"}, bad_json={"u5"}), CORPUS, StubClient(), out)
    assert (s.ok, s.failed) == (6, 2)
    reasons = {f["key"]: f["reason"] for f in s.failures}
    assert reasons["u2"] == "u2 failed the structure check"
    assert reasons["u5"].startswith("LLM output:")
    assert len(load_beir(out).queries) == 6
    again = Toy()
    s2 = run_synthesis(again, CORPUS, StubClient(), out)
    assert sorted(again.made) == ["u2", "u5"] and (s2.ok, s2.failed) == (8, 0)


def test_consecutive_endpoint_failures_abort_and_keep_what_is_done(tmp_path: Path):
    out = tmp_path / "o"
    units = [u.key for u in Toy().units(CORPUS, 0)]
    down = set(units[2:])  # the first two units work, then the endpoint is gone
    with pytest.raises(SynthAborted) as info:
        run_synthesis(Toy(down=down), CORPUS, StubClient(), out)
    msg = str(info.value)
    assert "3 endpoint failures in a row" in msg and "\n" not in msg
    assert "2 of 8 items are kept" in msg and "run the same command again" in msg
    assert info.value.summary.ok == 2
    assert sorted(ok_keys(out)) == sorted(units[:2])
    assert len(load_beir(out).queries) == 2  # the partial folder is readable
    assert json.loads((out / "summary.json").read_text())["complete"] is False
    s = run_synthesis(Toy(), CORPUS, StubClient(), out)  # endpoint back: resume
    assert (s.ok, s.resumed) == (8, 2)


def test_isolated_endpoint_failures_do_not_abort(tmp_path: Path):
    units = [u.key for u in Toy().units(CORPUS, 0)]
    s = run_synthesis(Toy(down={units[1], units[4]}), CORPUS, StubClient(), tmp_path / "o")
    assert (s.ok, s.failed, s.aborted) == (6, 2, None)


def test_no_item_at_all_is_an_error(tmp_path: Path):
    with pytest.raises(LogirError, match="no item was produced"):
        run_synthesis(Toy(fail={f"u{i}" for i in range(8)}), CORPUS, StubClient(), tmp_path / "o")


def test_resuming_with_other_settings_is_refused(tmp_path: Path):
    out = tmp_path / "o"
    run_synthesis(Toy(), CORPUS, StubClient(), out, seed=1, max_items=2)
    with pytest.raises(LogirError, match="other settings .*seed 1 -> 2"):
        run_synthesis(Toy(), CORPUS, StubClient(), out, seed=2)
    with pytest.raises(LogirError, match="corpus"):
        run_synthesis(Toy(), CORPUS[:5], StubClient(), out, seed=1)


def test_a_bug_in_a_pipeline_propagates_and_keeps_the_checkpoint_readable(tmp_path: Path):
    class Buggy(Toy):
        def make(self, unit: Unit, client: Any) -> dict[str, Any]:
            if unit.key == "u3":
                raise KeyError("oops")
            return super().make(unit, client)

    with pytest.raises(KeyError):
        run_synthesis(Buggy(), CORPUS, StubClient(), tmp_path / "o")
    s = run_synthesis(Toy(), CORPUS, StubClient(), tmp_path / "o")
    assert s.ok == 8 and len(ok_keys(tmp_path / "o")) == len(set(ok_keys(tmp_path / "o")))


def test_registry_and_options():
    assert set(PIPELINES) == {"comlq", "boolquestions", "multiconir", "itlr"}
    with pytest.raises(LogirError, match="unknown synth kind 'nope'; known: comlq, boolquestions"):
        get_pipeline("nope")
    with pytest.raises(LogirError, match="unknown option.*colour.*known: per_template"):
        get_pipeline("itlr", colour="red")
    assert get_pipeline("ITLR", per_template=2).per_template == 2
    with pytest.raises(LogirError, match="per_template must be an integer"):
        get_pipeline("itlr", per_template="many")


def test_parse_opts_reads_json_values_and_rejects_malformed_pairs():
    assert parse_opts(["per_template=3", "verify=false", "domain=movie", "x=[1, 2]"]) == {
        "per_template": 3,
        "verify": False,
        "domain": "movie",
        "x": [1, 2],
    }
    assert parse_opts(["keep-corpus=true"]) == {"keep_corpus": True}
    with pytest.raises(LogirError, match="expected key=value"):
        parse_opts(["novalue"])


def test_sigterm_is_remembered_as_well_as_raised() -> None:
    """A KeyboardInterrupt that SIGTERM raises inside a finaliser is dropped by Python; the
    event the context yields keeps it, and the run's loop checks it."""
    import os
    import signal

    from logir.synth.runner import _sigterm_as_interrupt

    with _sigterm_as_interrupt() as terminated:
        assert not terminated.is_set()
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler runs between bytecodes
                pass
        assert terminated.is_set()
