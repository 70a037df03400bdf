"""Where and how training runs: the device, CPU threads, bf16 autocast and per-step seeding."""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from logir.errors import LogirError

PRECISIONS = ("auto", "fp32", "bf16")


def import_torch() -> Any:
    """torch, or a LogirError saying which extra installs it."""
    try:
        import torch
    except ImportError:
        raise LogirError("training needs the 'dense' extra: pip install 'logir[dense]'") from None
    return torch


def resolve_device(name: str) -> str:
    """``auto`` -> cuda when a GPU is present, else cpu; an explicit device is checked."""
    torch = import_torch()
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise LogirError(f"--device {name}: no CUDA GPU is visible to torch")
    if not (name == "cpu" or name.startswith("cuda")):
        raise LogirError(f"--device must be auto, cpu, cuda or cuda:N, got {name!r}")
    return name


def deterministic() -> None:
    """Ask torch for deterministic kernels (warning where an op has none), so a run and its
    resumed copy compute the same weights on a GPU too: CUDA's default embedding backward
    adds with atomics in a varying order. cuBLAS needs its workspace setting for this before
    its first use, so call this before any CUDA work."""
    torch = import_torch()
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    torch.use_deterministic_algorithms(True, warn_only=True)
    torch.backends.cudnn.benchmark = False


def set_threads(threads: int) -> int:
    """Set torch's CPU threads (0: the CPUs this process may use); returns the number set."""
    torch = import_torch()
    if threads < 0:
        raise LogirError(f"--threads must be >= 0, got {threads}")
    n = threads or len(os.sched_getaffinity(0))
    torch.set_num_threads(n)
    return n


def _cpu_has_bf16() -> bool:
    """True when the CPU has bf16 matrix instructions (AMX or AVX-512 BF16); without them bf16
    autocast on CPU is slower than fp32."""
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return "amx_bf16" in flags or "avx512_bf16" in flags


def resolve_precision(precision: str, device: str) -> str:
    """``auto`` -> bf16 where it is faster (a bf16-capable GPU or CPU), else fp32."""
    if precision not in PRECISIONS:
        raise LogirError(f"--precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    if precision != "auto":
        return precision
    torch = import_torch()
    if device.startswith("cuda"):
        return "bf16" if torch.cuda.is_bf16_supported() else "fp32"
    return "bf16" if _cpu_has_bf16() else "fp32"


@contextlib.contextmanager
def autocast(device: str, precision: str) -> Iterator[None]:
    """bf16 autocast on `device` when `precision` is bf16, else nothing."""
    if precision != "bf16":
        yield
        return
    torch = import_torch()
    with torch.autocast(
        device_type="cuda" if device.startswith("cuda") else "cpu", dtype=torch.bfloat16
    ):
        yield


def quiet_libraries() -> None:
    """No per-file progress bars or notes from transformers while loading and saving models
    (the trainer's own progress is the one on stderr)."""
    try:
        import transformers
    except ImportError:
        return
    transformers.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()


def seed_everything(seed: int) -> None:
    """Seed python, numpy and torch (CPU and CUDA) generators."""
    torch = import_torch()
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)


def step_seed(seed: int, step: int) -> int:
    """The torch seed of one step (dropout): a function of the run seed and the step only."""
    return (seed * 1_000_003 + step * 7919 + 17) % 2**63
