"""Shared test set-up: offline models, a private cache, the shared datasets folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def shared_datasets() -> Path:
    """../shared/datasets beside the repository, or $LOGIR_SHARED_DATASETS."""
    env = os.environ.get("LOGIR_SHARED_DATASETS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1].parent / "shared" / "datasets"


@pytest.fixture(scope="session")
def datasets_dir() -> Path:
    path = shared_datasets()
    if not path.is_dir():
        pytest.skip(f"shared datasets not found at {path}")
    return path


@pytest.fixture(scope="session", autouse=True)
def _embedding_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep dense embeddings of test corpora out of the user's cache, shared across tests."""
    if "LOGIR_CACHE" not in os.environ:
        os.environ["LOGIR_CACHE"] = str(tmp_path_factory.mktemp("logir-cache"))
