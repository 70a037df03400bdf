"""The lean reader: transformers' scores, bit for bit, without importing transformers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from logir.rerank.leanreader import lean_reader
from logir.rerank.reader import InferenceReader
from tests.rerank.conftest import PASSAGES

QUERIES = ["vitamin d", "bone health and exercise", "mood " * 40]  # the last one is cut


def _pairs() -> tuple[list[str], list[str]]:
    texts = list(PASSAGES.values())
    long = " ".join(texts)  # longer than the reader's 64 tokens with any query
    queries = [q for q in QUERIES for _ in range(len(texts) + 1)]
    passages = [p for _ in QUERIES for p in [*texts, long]]
    return queries, passages


def test_the_scores_are_the_transformers_scores_bit_for_bit(reader_dir: Path) -> None:
    lean = InferenceReader(reader_dir, device="cpu", precision="fp32")
    full = InferenceReader(reader_dir, device="cpu", precision="fp32", lean=False)
    assert lean.lean is not None and full.lean is None and full.module is not None
    queries, passages = _pairs()
    got = lean.score_pairs(queries, passages)
    want = full.score_pairs(queries, passages)
    assert got.dtype == np.float32 and len(set(got.tolist())) > 3
    np.testing.assert_array_equal(got, want)
    # one pair alone (no padding) scores as it does in a padded batch, to float rounding
    alone = InferenceReader(reader_dir, device="cpu", precision="fp32").score(
        queries[0], passages[:1]
    )
    np.testing.assert_allclose(alone, got[:1], atol=1e-5)


def test_a_search_with_the_lean_reader_imports_no_transformers(reader_dir: Path) -> None:
    code = (
        "import sys; from logir.rerank.reader import load_reader; "
        f"r = load_reader({str(reader_dir)!r}, device='cpu'); "
        "print(r.score('vitamin d', ['bone health', 'mood']).tolist()); "
        "print('transformers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    scores, imported = out.stdout.strip().splitlines()
    assert len(json.loads(scores)) == 2 and imported == "False"


def _copy(reader_dir: Path, to: Path) -> Path:
    to.mkdir()
    for f in reader_dir.iterdir():
        (to / f.name).write_bytes(f.read_bytes())
    return to


def test_other_folders_are_left_to_transformers(
    reader_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert lean_reader(reader_dir, 64) is not None
    two = _copy(reader_dir, tmp_path / "two")
    cfg = json.loads((two / "config.json").read_text())
    cfg["id2label"] = {"0": "a", "1": "b"}
    (two / "config.json").write_text(json.dumps(cfg))
    assert lean_reader(two, 64) is None  # more than one output
    other = _copy(reader_dir, tmp_path / "other")
    cfg = json.loads((other / "config.json").read_text())
    cfg["architectures"] = ["BertModel"]
    (other / "config.json").write_text(json.dumps(cfg))
    assert lean_reader(other, 64) is None
    no_tok = _copy(reader_dir, tmp_path / "notok")
    (no_tok / "tokenizer.json").unlink()
    assert lean_reader(no_tok, 64) is None
    monkeypatch.setenv("LOGIR_LEAN_ENCODER", "0")
    assert lean_reader(reader_dir, 64) is None
    assert InferenceReader(reader_dir, device="cpu").lean is None
