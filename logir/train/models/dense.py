"""Bi-encoder contrastive fine-tuning (multiple-negatives ranking loss): each query must find
its positive among every passage of the batch, its logic hard negative included. The result is
a sentence-transformers folder that `logir index --model DIR` and `logir eval --model DIR` load."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from logir.errors import LogirError
from logir.train.batches import Batch
from logir.train.runtime import import_torch

KIND = "dense"
DEFAULT_SCALE = 20.0


def _sentence_transformers() -> Any:
    try:
        import sentence_transformers
    except ImportError:
        raise LogirError(
            "dense training needs the 'dense' extra: pip install 'logir[dense]'"
        ) from None
    return sentence_transformers


class DenseModel:
    """A SentenceTransformer trained on scaled cosine similarities (MNRL)."""

    kind = KIND

    def __init__(self, module: Any, device: str, scale: float = DEFAULT_SCALE) -> None:
        self.module = module
        self.device = device
        self.scale = scale

    @classmethod
    def from_base(
        cls, base: str, max_length: int, device: str, scale: float = DEFAULT_SCALE
    ) -> DenseModel:
        """A bi-encoder from a sentence-transformers folder or name (a plain encoder gets mean
        pooling); passages are cut at `max_length` tokens."""
        st = _sentence_transformers()
        try:
            module = st.SentenceTransformer(base, device=device)
        except (OSError, ValueError) as exc:
            raise LogirError(f"cannot load dense base model {base!r}: {exc}") from None
        module.max_seq_length = max_length
        return cls(module, device, scale)

    def embed(self, texts: list[str]) -> Any:
        """L2-normalised embeddings with gradients, ``[len(texts), dim]``."""
        torch = import_torch()
        encode = getattr(self.module, "preprocess", None) or self.module.tokenize
        features = encode(texts)
        features = {k: v.to(self.device) if hasattr(v, "to") else v for k, v in features.items()}
        emb = self.module(features)["sentence_embedding"].float()
        return torch.nn.functional.normalize(emb, dim=-1)

    def loss(self, batch: Batch, rng: np.random.Generator) -> Any:
        """Cross-entropy of each query over all batch passages (positives, then hard
        negatives); copies of its own positive in other columns are masked out."""
        torch = import_torch()
        queries = self.embed(batch.queries)
        passages = self.embed(batch.passages())
        scores = self.scale * queries @ passages.T
        mask = torch.from_numpy(batch.false_negatives()).to(scores.device)
        scores = scores.masked_fill(mask, float("-inf"))
        target = torch.arange(len(batch.queries), device=scores.device)
        return torch.nn.functional.cross_entropy(scores, target)

    def score_pairs(self, queries: list[str], passages: list[str]) -> np.ndarray:
        """Cosine of (queries[i], passages[i]) without gradients."""
        torch = import_torch()
        with torch.no_grad():
            return (self.embed(queries) * self.embed(passages)).sum(-1).cpu().numpy()

    def meta(self) -> dict[str, Any]:
        """Nothing beyond the common fields."""
        return {}

    def save(self, folder: Path) -> None:
        """The sentence-transformers folder format."""
        self.module.save(str(folder))
