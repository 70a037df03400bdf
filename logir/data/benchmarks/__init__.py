"""Benchmark adapters by name: each turns a published dataset into a Dataset."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from logir.data.beir import load_beir
from logir.data.benchmarks.boolquestions import load_boolquestions
from logir.data.benchmarks.comlq import load_comlq
from logir.data.benchmarks.excluir import load_excluir
from logir.data.benchmarks.multiconir import load_multiconir
from logir.data.benchmarks.negconstraint import load_negconstraint
from logir.data.benchmarks.nevir import load_nevir
from logir.data.benchmarks.quest import load_quest
from logir.data.benchmarks.scifact import load_scifact
from logir.data.dataset import Dataset
from logir.errors import LogirError

Loader = Callable[[Path | None], Dataset]


def _needs_path(name: str, load: Callable[[Path], Dataset]) -> Loader:
    """Wrap an adapter so that a missing path is a clear error."""

    def loader(path: Path | None) -> Dataset:
        if path is None:
            raise LogirError(f"dataset {name} needs --data PATH")
        return load(path)

    loader.__name__ = f"load_{name}"
    loader.__doc__ = load.__doc__
    return loader


def _load_demo(path: Path | None) -> Dataset:
    """The small demo dataset bundled with logir (or a copy of it at `path`)."""
    from logir.data.benchmarks.demo import load_demo

    return load_demo(path)


def _load_first_hour(path: Path | None) -> Dataset:
    """The first-hour example of the source repository (or a copy of it at `path`)."""
    from logir.data.benchmarks.first_hour import load_first_hour

    return load_first_hour(path)


BENCHMARKS: dict[str, Loader] = {
    "comlq": _needs_path("comlq", load_comlq),
    "negconstraint": _needs_path("negconstraint", load_negconstraint),
    "boolquestions": _needs_path("boolquestions", load_boolquestions),
    "nevir": _needs_path("nevir", load_nevir),
    "excluir": _needs_path("excluir", load_excluir),
    "quest": _needs_path("quest", load_quest),
    "scifact": _needs_path("scifact", load_scifact),
    "multiconir": _needs_path("multiconir", load_multiconir),
    "beir": _needs_path("beir", load_beir),
    "demo": _load_demo,
    "first-hour": _load_first_hour,
}


#: the benchmarks read from a BEIR folder, whose qrels file ``qrels/NAME.tsv`` can be chosen
QRELS_SPLITS: dict[str, Callable[[Path, str], Dataset]] = {
    "beir": load_beir,
    "scifact": load_scifact,
    "comlq": load_comlq,
}
#: a qrels split name: a plain file name, no folder
_SPLIT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def load_benchmark(
    name: str, path: str | Path | None = None, qrels_split: str | None = None
) -> Dataset:
    """Load benchmark `name` from `path` (only "demo" and "first-hour" may go without one).

    ``qrels_split`` names the BEIR qrels file (``test`` reads ``qrels/test.tsv``) of a benchmark
    in QRELS_SPLITS; None keeps each benchmark's own default (``test``)."""
    key = name.strip().lower()
    loader = BENCHMARKS.get(key)
    if loader is None:
        known = ", ".join(sorted(BENCHMARKS))
        raise LogirError(f"unknown dataset {name!r}; known datasets: {known}")
    if qrels_split is None:
        return loader(None if path is None else Path(path))
    if key not in QRELS_SPLITS:
        raise LogirError(
            f"dataset {key} has no BEIR qrels splits to choose from; "
            f"only {', '.join(QRELS_SPLITS)} read qrels/NAME.tsv"
        )
    if not _SPLIT_NAME.fullmatch(qrels_split):
        raise LogirError(f"bad qrels split name {qrels_split!r}: letters, digits, '_', '-', '.'")
    if path is None:
        raise LogirError(f"dataset {key} needs --data PATH")
    return QRELS_SPLITS[key](Path(path), qrels_split)


__all__ = ["BENCHMARKS", "QRELS_SPLITS", "Loader", "load_benchmark"]
