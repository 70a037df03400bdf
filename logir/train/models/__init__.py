"""The trainable models by name: reader (cross-encoder) and dense (bi-encoder)."""

from __future__ import annotations

from logir.errors import LogirError
from logir.train import KINDS
from logir.train.models.base import Trainable
from logir.train.models.dense import DenseModel
from logir.train.models.reader import ReaderModel


def build_model(kind: str, base: str, max_length: int, device: str, others: int = 2) -> Trainable:
    """A fresh trainable model of `kind` from `base` (a resolved path or name)."""
    if kind == "reader":
        return ReaderModel.from_base(base, max_length, device, others)
    if kind == "dense":
        return DenseModel.from_base(base, max_length, device)
    raise LogirError(f"unknown model kind {kind!r}; expected one of {', '.join(KINDS)}")
