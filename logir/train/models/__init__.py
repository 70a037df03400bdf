"""The trainable models by name: reader (cross-encoder), dense (bi-encoder), splade."""

from __future__ import annotations

from logir.errors import LogirError
from logir.index.splade_head import SpladeHead
from logir.train import KINDS
from logir.train.models.base import Trainable
from logir.train.models.dense import DenseModel
from logir.train.models.reader import ReaderModel
from logir.train.models.splade import SpladeModel


def build_model(
    kind: str,
    base: str,
    max_length: int,
    device: str,
    others: int = 2,
    head: SpladeHead | None = None,
    flops_weights: tuple[float, float] = (3e-4, 1e-4),
) -> Trainable:
    """A fresh trainable model of `kind` from `base` (a resolved path or name); `others` is
    the reader's, `head` and `flops_weights` (query, document) SPLADE's."""
    if kind == "reader":
        return ReaderModel.from_base(base, max_length, device, others)
    if kind == "dense":
        return DenseModel.from_base(base, max_length, device)
    if kind == "splade":
        return SpladeModel.from_base(base, head or SpladeHead(), max_length, device, flops_weights)
    raise LogirError(f"unknown model kind {kind!r}; expected one of {', '.join(KINDS)}")
