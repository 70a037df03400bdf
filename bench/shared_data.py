"""The shared benchmark datasets: where they are, and which folder holds which benchmark.

Every bench script that loads a benchmark by name reads these, so each folder is named once.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DATA = Path(os.environ.get("LOGIR_SHARED_DATASETS", ROOT.parent / "shared" / "datasets"))
"""The shared datasets: ``$LOGIR_SHARED_DATASETS``, else ``shared/datasets`` beside the
repository."""

FOLDER_OF = {
    "negconstraint": "negconstraint",
    "boolquestions": "boolquestions-not",
    "excluir": "excluir",
    "nevir": "nevir",
    "comlq": "comlq",
    "scifact": "scifact",
    "quest": "quest-sample",
}
"""Benchmark name, as ``logir.data.benchmarks.load_benchmark`` knows it -> its folder in DATA."""


def folders(*names: str) -> dict[str, str]:
    """:data:`FOLDER_OF` for ``names`` only, in that order."""
    return {name: FOLDER_OF[name] for name in names}
