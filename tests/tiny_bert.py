"""A tiny BERT and its word-level tokenizer, built from a config in the test (nothing is
downloaded): the base model of the train and rerank tests."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest


def save_tiny_bert(folder: Path, words: Iterable[str]) -> Path:
    """Write a 2-layer, 32-wide BERT whose vocabulary is the special tokens plus `words`
    (sorted) into `folder`, with its tokenizer."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(set(words))]
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
