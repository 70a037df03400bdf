"""A tiny reader folder, built from a config and saved the way `logir train reader` saves one
(nothing is downloaded), and a small index to rerank."""

from __future__ import annotations

from pathlib import Path

import pytest

from logir.data.dataset import Document
from logir.index.store import build_index
from tests.tiny_bert import save_tiny_bert

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
    pytest.importorskip("transformers")
    from logir.train.loop import FORMAT
    from logir.train.models.base import write_meta
    from logir.train.models.reader import ReaderModel

    base = folder.parent / f"{folder.name}-base"
    save_tiny_bert(base, {w for text in PASSAGES.values() for w in text.split()})
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
