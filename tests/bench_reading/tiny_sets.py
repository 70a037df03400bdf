"""A tiny shared corpus, hand-written sets over it and its BM25 index, for the bench scripts'
tests: what bench/handwritten.py and bench/spelling.py read, in a temporary folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

CORPUS = "tinycorpus"


def tiny_sets(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    docs: dict[str, str],
    sets: dict[str, list[dict[str, Any]]],
    bench_module: str,
) -> Path:
    """``docs`` as ``tmp_path/data/tinycorpus/corpus.jsonl``, ``sets`` as registered sets over
    it (in logir and in ``bench_module``'s own copy of the registry), and the corpus's BM25 index
    in ``tmp_path/idx/tinycorpus``; returns ``tmp_path``."""
    from logir.data.benchmarks import handwritten as hw
    from logir.data.dataset import Document
    from logir.index.store import build_index

    root = tmp_path / "data" / CORPUS
    root.mkdir(parents=True)
    rows = [json.dumps({"_id": i, "title": "", "text": t}) for i, t in docs.items()]
    (root / "corpus.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    folder = tmp_path / "sets"
    folder.mkdir()
    for name, queries in sets.items():
        text = "".join(json.dumps(q) + "\n" for q in queries)
        (folder / f"{name}.jsonl").write_text(text, encoding="utf-8")
    corpora = dict.fromkeys(sets, CORPUS)
    monkeypatch.setattr(hw, "SET_CORPORA", corpora)
    monkeypatch.setattr(hw, "HANDWRITTEN_DIR", folder)
    monkeypatch.setattr(f"{bench_module}.SET_CORPORA", corpora)
    documents = [Document(id=i, text=t) for i, t in docs.items()]
    build_index(documents, tmp_path / "idx" / CORPUS, retrievers=("bm25",))  # no dense model
    return tmp_path
