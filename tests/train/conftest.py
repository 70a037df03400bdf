"""A tiny BERT and its tokenizer, built from a config in the test (nothing is downloaded)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tiny_bert import save_tiny_bert

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "train" / "triplets.jsonl"


def tiny_bert(folder: Path) -> Path:
    """Write a 2-layer, 32-wide BERT with a word-level vocabulary of the fixture into `folder`."""
    words: set[str] = set()
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for text in row.values():
            words.update(text.lower().split())
    return save_tiny_bert(folder, words)


@pytest.fixture(scope="session")
def tiny_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_bert(tmp_path_factory.mktemp("tiny-bert"))


@pytest.fixture()
def triplets() -> Path:
    return FIXTURE
