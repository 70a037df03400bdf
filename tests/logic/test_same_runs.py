"""Issue 11's promise: the composers rank as they did before Readings (a sample of the runs).

``tests/fixtures/composer_runs`` holds top-10 runs of the demo benchmark's first 15 queries for
every composer over BM25, written by the code before issue 11 (commit 1fdb41a, with the composer
``hybrid``, now ``exclusion``); the current code must give the same documents in the same order
and scores within 1e-6 (relative: the vectors composer's float32 sums come out a few ulps apart
from one process to the next, before issue 11 as after).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from bench.compare_runs import compare
from logir.data.benchmarks import load_benchmark
from logir.eval.runner import evaluate

FIXTURES = Path(__file__).parent.parent / "fixtures" / "composer_runs"
SYSTEMS = {
    "bm25": "bm25",
    "bm25:fuzzy": "bm25_fuzzy",
    "bm25:fuzzy,and=min,calib=minmax": "bm25_fuzzy,and=min,calib=minmax",
    "bm25:fuzzy,not=inverse,calib=rank": "bm25_fuzzy,not=inverse,calib=rank",
    "bm25:sets": "bm25_sets",
    "bm25:sets,depth=20": "bm25_sets,depth=20",
    "bm25:vectors": "bm25_vectors",
    "bm25:vectors,neg=nrf,union=add": "bm25_vectors,neg=nrf,union=add",
    "bm25:vectors,inter=cpt": "bm25_vectors,inter=cpt",
    "bm25:exclusion": "bm25_hybrid",
    "bm25:exclusion,beta=0.5,tau=0": "bm25_hybrid,beta=0.5,tau=0",
    "bm25:auto": "bm25_auto",
    "bm25:hybrid": "bm25_hybrid",  # the old name still ranks the same
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ds = load_benchmark("demo", None)
    ds = ds.subset({f"q{i:02d}" for i in range(1, 16)})
    out = tmp_path_factory.mktemp("runs")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        evaluate(ds, list(SYSTEMS), k=10, runs_dir=out)
    return out


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_composer_runs_are_unchanged(runs: Path, system: str) -> None:
    after = runs / f"{system.replace(':', '_')}.trec"
    verdict, detail = compare(FIXTURES / f"{SYSTEMS[system]}.trec", after, 1e-6, relative=True)
    assert verdict in ("identical", "within tolerance"), (system, detail)
