"""Command-line options shared by several `logir` commands."""

from __future__ import annotations

import math
from typing import Annotated

import typer

from logir.errors import LogirError
from logir.limits import k_problem


def check_hits(k: int | None) -> int | None:
    """``-k`` checked against ``logir.limits.MAX_K`` with the message every front end gives
    (a typer callback)."""
    problem = None if k is None else k_problem(k)
    if problem:
        raise LogirError(problem)
    return k


QuietOpt = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="No progress on stderr (bars show only when stderr is a terminal; elsewhere one "
        "line per task, or per step with LOGIR_VERBOSE=1).",
    ),
]
Bm25K1Opt = Annotated[
    float | None,
    typer.Option(
        "--bm25-k1",
        help="BM25 k1, term-frequency saturation (default 1.5); fixed when the index is built.",
    ),
]
Bm25BOpt = Annotated[
    float | None,
    typer.Option(
        "--bm25-b",
        help="BM25 b, document-length normalisation from 0 to 1 (default 0.75); fixed when the "
        "index is built.",
    ),
]
#: the largest k1 accepted (past a few units BM25 counts raw term frequency)
MAX_BM25_K1 = 100.0


def bm25_params(k1: float | None, b: float | None) -> dict[str, float]:
    """BM25's ``k1`` and ``b`` as given on the command line (only those given), checked."""
    params: dict[str, float] = {}
    if k1 is not None:
        if not (math.isfinite(k1) and 0 <= k1 <= MAX_BM25_K1):
            raise LogirError(f"--bm25-k1 must be a number from 0 to {MAX_BM25_K1:g}, got {k1}")
        params["k1"] = k1
    if b is not None:
        if not (math.isfinite(b) and 0 <= b <= 1):
            raise LogirError(f"--bm25-b must be a number from 0 to 1, got {b}")
        params["b"] = b
    return params
