"""A tiny reader folder, built from a config and saved the way `logir train reader` saves one
(nothing is downloaded), and a small index to rerank."""

from __future__ import annotations

from pathlib import Path

import pytest

from logir.data.dataset import Document
from logir.index.store import build_index

PASSAGES = {
    "p0": "vitamin d supports bone health in older adults",
    "p1": "vitamin d and mood in winter months",
    "p2": "vitamin d deficiency and bone fractures",
    "p3": "calcium and vitamin d for bone density",
    "p4": "vitamin d levels and immune response",
    "p5": "sunlight exposure raises vitamin d",
    "p6": "mood disorders and sleep quality",
    "p7": "bone health and exercise",
}


def tiny_reader(folder: Path) -> Path:
    """A 2-layer, 32-wide BERT reader over the test passages' words, saved with the trainer's
    own save (ReaderModel.save) and metadata writer."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from logir.train.loop import FORMAT
    from logir.train.models.base import write_meta
    from logir.train.models.reader import ReaderModel

    words = sorted({w for text in PASSAGES.values() for w in text.split()})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words]
    base = folder.parent / f"{folder.name}-base"
    base.mkdir(parents=True, exist_ok=True)
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
    transformers.BertModel(config).save_pretrained(base)
    tokenizer.save_pretrained(base)
    torch.manual_seed(1)
    model = ReaderModel.from_base(str(base), 64, "cpu")
    folder.mkdir(parents=True, exist_ok=True)
    model.save(folder)
    write_meta(
        folder,
        {"format": FORMAT, "kind": "reader", "finished": True, "max_length": 64, "base": "tiny"},
    )
    return folder


@pytest.fixture(scope="session")
def reader_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_reader(tmp_path_factory.mktemp("rerank") / "tiny-reader")


@pytest.fixture(scope="session")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = [Document(id=i, text=t) for i, t in PASSAGES.items()]
    return build_index(docs, tmp_path_factory.mktemp("rerank-idx") / "idx", retrievers=("bm25",))
