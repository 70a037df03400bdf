"""The reader: a cross-encoder that reads a query and a passage together and scores how well
the passage satisfies the query's logic. Trained listwise: a query's positive must outscore its
logic hard negative and a few passages of other queries in the batch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from logir.errors import LogirError
from logir.train.batches import Batch, candidate_lists
from logir.train.models.base import read_meta
from logir.train.runtime import import_torch

KIND = "reader"
DEFAULT_MAX_LENGTH = 256


def _transformers() -> Any:
    try:
        import transformers
    except ImportError:
        raise LogirError("the reader needs the 'dense' extra: pip install 'logir[dense]'") from None
    return transformers


def pair_inputs(
    tokenizer: Any, queries: list[str], passages: list[str], max_length: int, device: str
) -> Any:
    """The reader's input for (queries[i], passages[i]) pairs, on `device`: read together,
    the longer of the two cut first down to `max_length` tokens. Training and reranking share
    it, so a reader reads at inference what it read in training."""
    return tokenizer(
        queries,
        passages,
        truncation="longest_first",
        max_length=max_length,
        padding=True,
        return_tensors="pt",
    ).to(device)


class ReaderModel:
    """A sequence-classification transformer with one output: score(query, passage)."""

    kind = KIND

    def __init__(
        self, module: Any, tokenizer: Any, max_length: int, device: str, others: int = 2
    ) -> None:
        self.module = module
        self.tokenizer = tokenizer
        self.max_length = max_length
        self.device = device
        self.others = others

    @classmethod
    def from_base(cls, base: str, max_length: int, device: str, others: int = 2) -> ReaderModel:
        """A reader initialised from `base` (an encoder; a new one-output head is added);
        `others` passages of other queries join each query's candidates in training."""
        tf = _transformers()
        try:
            tokenizer = tf.AutoTokenizer.from_pretrained(base)
            module = tf.AutoModelForSequenceClassification.from_pretrained(base, num_labels=1)
        except (OSError, ValueError) as exc:
            raise LogirError(f"cannot load reader base model {base!r}: {exc}") from None
        return cls(module.to(device), tokenizer, max_length, device, others)

    def logits(self, queries: list[str], passages: list[str]) -> Any:
        """One score per (queries[i], passages[i]) as a float tensor (with gradients)."""
        enc = pair_inputs(self.tokenizer, queries, passages, self.max_length, self.device)
        return self.module(**enc).logits[:, 0].float()

    def loss(self, batch: Batch, rng: np.random.Generator) -> Any:
        """Listwise cross-entropy: each query's positive first among its candidates."""
        torch = import_torch()
        lists = candidate_lists(batch, self.others, rng)
        queries = [q for q, cands in zip(batch.queries, lists, strict=True) for _ in cands]
        passages = [p for cands in lists for p in cands]
        flat = self.logits(queries, passages)
        width = max(len(c) for c in lists)
        table = torch.full((len(lists), width), float("-inf"), device=flat.device)
        start = 0
        for i, cands in enumerate(lists):
            table[i, : len(cands)] = flat[start : start + len(cands)]
            start += len(cands)
        target = torch.zeros(len(lists), dtype=torch.long, device=flat.device)
        return torch.nn.functional.cross_entropy(table, target)

    def score_pairs(self, queries: list[str], passages: list[str]) -> np.ndarray:
        """Scores of (queries[i], passages[i]) without gradients."""
        torch = import_torch()
        with torch.no_grad():
            return self.logits(queries, passages).cpu().numpy()

    def meta(self) -> dict[str, Any]:
        """Nothing beyond the common fields."""
        return {}

    def save(self, folder: Path) -> None:
        """transformers' save_pretrained of the model and its tokenizer."""
        self.module.save_pretrained(folder)
        self.tokenizer.save_pretrained(folder)


class Reader:
    """A trained reader loaded from its folder, for ranking passages against a query."""

    def __init__(self, folder: str | Path, device: str = "cpu", batch_size: int = 32) -> None:
        meta = read_meta(folder)
        if meta and meta.get("kind") != KIND:
            raise LogirError(f"{folder} holds a {meta.get('kind')!r} model, not a reader")
        self.meta = meta
        self.batch_size = batch_size
        self.model = ReaderModel.from_base(
            str(folder), int(meta.get("max_length", DEFAULT_MAX_LENGTH)), device
        )
        self.model.module.eval()

    def score(self, query: str, passages: list[str]) -> np.ndarray:
        """One float32 score per passage (higher: satisfies the query better)."""
        out = [
            self.model.score_pairs([query] * len(chunk), chunk)
            for chunk in (
                passages[i : i + self.batch_size] for i in range(0, len(passages), self.batch_size)
            )
        ]
        return np.concatenate(out).astype(np.float32) if out else np.zeros(0, np.float32)
