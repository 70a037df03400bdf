"""Which encoder each stored retriever of an eval pool is built with (``--model``,
``--splade-model``)."""

from __future__ import annotations

import pytest

from logir.data.dataset import Document
from logir.eval import systems
from logir.eval.systems import ScorerPool
from logir.index.lexical import BM25Scorer


@pytest.mark.parametrize(
    ("retriever", "want"), [("dense", "my-dense"), ("splade", "my-splade"), ("bm25", None)]
)
def test_each_retriever_gets_its_own_model(
    monkeypatch: pytest.MonkeyPatch, retriever: str, want: str | None
) -> None:
    seen = {}
    docs = [Document(id="a", text="vitamin d and bones"), Document(id="b", text="immune cells")]
    real = BM25Scorer.build([d.text for d in docs])

    def build(name, texts, options, part=None):
        seen[name] = options.model
        return real

    monkeypatch.setattr(systems.registry, "build", build)
    pool = ScorerPool(docs, dense_model="my-dense", splade_model="my-splade")
    pool.get(retriever)
    assert seen == {retriever: want}
