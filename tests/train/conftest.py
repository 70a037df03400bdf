"""A tiny BERT and its tokenizer, built from a config in the test (nothing is downloaded)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "train" / "triplets.jsonl"


def tiny_bert(folder: Path) -> Path:
    """Write a 2-layer, 32-wide BERT with a word-level vocabulary of the fixture into `folder`."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    words: set[str] = set()
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for text in row.values():
            words.update(text.lower().split())
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(words)]
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = transformers.BertTokenizerFast(vocab={w: i for i, w in enumerate(vocab)})
    config = transformers.BertConfig(
        vocab_size=len(vocab),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
    )
    torch.manual_seed(0)
    transformers.BertModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.fixture(scope="session")
def tiny_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_bert(tmp_path_factory.mktemp("tiny-bert"))


@pytest.fixture()
def triplets() -> Path:
    return FIXTURE
