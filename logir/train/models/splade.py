"""SPLADE fine-tuning: query and passage become term-weight vectors over the vocabulary and the
score is their dot product. Trained like the dense model (each query's positive among every
passage of the batch, hard negatives included) plus the FLOPS regulariser that keeps vectors
sparse. The head is vanilla ReLU/max or the signed SNReLU of the set-compositional paper, whose
negative weights let a query penalise passages that contain a negated term."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from logir.errors import LogirError
from logir.index.splade_head import SpladeHead
from logir.train.batches import Batch
from logir.train.runtime import import_torch

KIND = "splade"
QUERY_MAX_LENGTH = 64
DEFAULT_FLOPS_QUERY = 3e-4
DEFAULT_FLOPS_DOC = 1e-4


def flops(weights: Any) -> Any:
    """The FLOPS regulariser: the sum over terms of the squared mean absolute weight."""
    return (weights.abs().mean(dim=0) ** 2).sum()


class SpladeModel:
    """A masked-LM transformer with a SPLADE head."""

    kind = KIND

    def __init__(
        self,
        module: Any,
        tokenizer: Any,
        head: SpladeHead,
        max_length: int,
        device: str,
        flops_query: float = DEFAULT_FLOPS_QUERY,
        flops_doc: float = DEFAULT_FLOPS_DOC,
    ) -> None:
        self.module = module
        self.tokenizer = tokenizer
        self.head = head
        self.max_length = max_length
        self.device = device
        self.flops_query = flops_query
        self.flops_doc = flops_doc

    @classmethod
    def from_base(
        cls,
        base: str,
        head: SpladeHead,
        max_length: int,
        device: str,
        flops_weights: tuple[float, float],
    ) -> SpladeModel:
        """A SPLADE model from a masked-LM folder or name (splade-tiny by default)."""
        try:
            import transformers
        except ImportError:
            raise LogirError(
                "SPLADE training needs the 'dense' extra: pip install 'logir[dense]'"
            ) from None
        try:
            tokenizer = transformers.AutoTokenizer.from_pretrained(base)
            module = transformers.AutoModelForMaskedLM.from_pretrained(base)
        except (OSError, ValueError) as exc:
            raise LogirError(f"cannot load SPLADE base model {base!r}: {exc}") from None
        return cls(module.to(device), tokenizer, head, max_length, device, *flops_weights)

    def encode(self, texts: list[str], max_length: int) -> Any:
        """Term weights ``[len(texts), vocab]`` with gradients."""
        enc = self.tokenizer(
            texts, truncation=True, max_length=max_length, padding=True, return_tensors="pt"
        ).to(self.device)
        return self.head.pool(self.module(**enc).logits.float(), enc["attention_mask"])

    def loss(self, batch: Batch, rng: np.random.Generator) -> Any:
        """In-batch cross-entropy over dot products plus FLOPS on queries and passages."""
        torch = import_torch()
        queries = self.encode(batch.queries, min(QUERY_MAX_LENGTH, self.max_length))
        passages = self.encode(batch.passages(), self.max_length)
        scores = queries @ passages.T
        mask = torch.from_numpy(batch.false_negatives()).to(scores.device)
        scores = scores.masked_fill(mask, float("-inf"))
        target = torch.arange(len(batch.queries), device=scores.device)
        ranking = torch.nn.functional.cross_entropy(scores, target)
        return ranking + self.flops_query * flops(queries) + self.flops_doc * flops(passages)

    def score_pairs(self, queries: list[str], passages: list[str]) -> np.ndarray:
        """Dot products of (queries[i], passages[i]) without gradients."""
        torch = import_torch()
        with torch.no_grad():
            q = self.encode(queries, min(QUERY_MAX_LENGTH, self.max_length))
            return (q * self.encode(passages, self.max_length)).sum(-1).cpu().numpy()

    def save(self, folder: Path) -> None:
        """transformers' save_pretrained (the head is recorded in logir.json by :meth:`meta`)."""
        self.module.save_pretrained(folder)
        self.tokenizer.save_pretrained(folder)

    def meta(self) -> dict[str, Any]:
        """The head, for logir.json: the splade retriever reads it when it loads the folder."""
        return {"splade": self.head.to_meta()}
