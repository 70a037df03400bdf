"""A dense scorer with random unit document vectors and a fake query encoder that records each
call (shared by the tests that count encoder calls; no model is loaded)."""

from __future__ import annotations

import numpy as np
import pytest

from logir.index import dense


def fake_dense(
    monkeypatch: pytest.MonkeyPatch, n_docs: int, dim: int, seed: int, calls: list[list[str]]
) -> dense.DenseScorer:
    """A DenseScorer over ``n_docs`` random unit vectors (``seed``); each query encoder call
    appends its texts to ``calls`` and embeds a text as a unit vector seeded by its bytes."""

    def fake_encode(model: object, texts: list[str]) -> np.ndarray:
        calls.append(list(texts))
        vecs = np.stack([np.random.default_rng(sum(t.encode())).normal(size=dim) for t in texts])
        return (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)

    monkeypatch.setattr(dense, "get_model", lambda model=None: None)
    monkeypatch.setattr(dense, "encoder_for", lambda model=None: None)
    monkeypatch.setattr(dense, "_encode_queries", fake_encode)
    emb = np.random.default_rng(seed).normal(size=(n_docs, dim)).astype(np.float32)
    return dense.DenseScorer(emb / np.linalg.norm(emb, axis=1, keepdims=True))
