"""Training checkpoints: model, optimizer, scheduler, RNG states and data position in one
file, written atomically (a kill -9 leaves the previous checkpoint or the new one, never half)."""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from logir.errors import LogirError
from logir.train.runtime import import_torch

CHECKPOINT_FILE = "checkpoint.pt"


def rng_states() -> dict[str, Any]:
    """The python, numpy and torch (CPU, CUDA) generator states, in plain types."""
    torch = import_torch()
    kind, keys, pos, has_gauss, gauss = np.random.get_state()
    return {
        "python": random.getstate(),
        "numpy": [kind, keys.tolist(), int(pos), int(has_gauss), float(gauss)],
        "torch": torch.get_rng_state(),
        "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [],
    }


def restore_rng_states(states: dict[str, Any]) -> None:
    """Put back what :func:`rng_states` saved."""
    torch = import_torch()
    random.setstate(_tuples(states["python"]))
    kind, keys, pos, has_gauss, gauss = states["numpy"]
    np.random.set_state((kind, np.asarray(keys, dtype=np.uint32), pos, has_gauss, gauss))
    torch.set_rng_state(states["torch"])
    if states["cuda"] and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(states["cuda"])


def _tuples(value: Any) -> Any:
    """random.setstate wants nested tuples; a saved state may come back with lists."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list | tuple) else value


def save_checkpoint(folder: Path, state: dict[str, Any]) -> Path:
    """Write `state` to folder/checkpoint.pt atomically (temporary file, fsync, rename)."""
    torch = import_torch()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / CHECKPOINT_FILE
    fd, tmp = tempfile.mkstemp(prefix=".checkpoint.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            torch.save(state, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    return target


def load_checkpoint(folder: Path) -> dict[str, Any] | None:
    """The checkpoint in `folder`, or None when there is none; a damaged one is a LogirError."""
    torch = import_torch()
    path = folder / CHECKPOINT_FILE
    if not path.is_file():
        return None
    try:
        state = torch.load(path, map_location="cpu", weights_only=False)
    except Exception as exc:  # torch raises several kinds for a damaged file
        raise LogirError(
            f"checkpoint {path} cannot be read ({type(exc).__name__}: {exc}); delete it or "
            "pass --fresh to start over"
        ) from None
    if not isinstance(state, dict) or "position" not in state:
        raise LogirError(f"checkpoint {path} is not a logir training checkpoint")
    return state


def remove_checkpoint(folder: Path) -> None:
    """Delete folder/checkpoint.pt and any temporary file a killed write left."""
    (folder / CHECKPOINT_FILE).unlink(missing_ok=True)
    for stale in folder.glob(".checkpoint.*.tmp"):
        stale.unlink(missing_ok=True)
