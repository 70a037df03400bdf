"""SciFact (BEIR layout): ordinary scientific claims, the check that logic does not hurt."""

from __future__ import annotations

from pathlib import Path

from logir.data.beir import load_beir
from logir.data.dataset import Dataset


def load_scifact(path: str | Path, split: str = "test") -> Dataset:
    """Load the SciFact BEIR folder (test split unless told otherwise)."""
    return load_beir(path, split=split, name="scifact")
