"""Command-line options shared by several `logir` commands."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer

from logir.errors import LogirError
from logir.limits import k_problem
from logir.rerank.settings import DEFAULT_DEPTH, DEFAULT_WEIGHT, MAX_RERANK_DEPTH, RerankSettings


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
SpellingOpt = Annotated[
    bool,
    typer.Option(
        "--spelling/--no-spelling",
        help="BM25 reads a misspelt query word (one the index and English lack) as the English "
        "word one edit away that the index holds.",
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


RerankOpt = Annotated[
    Path | None,
    typer.Option(
        "--rerank",
        help="A reader folder (from `logir train reader`): its reader rereads the top hits "
        "(--rerank-depth) and their final score mixes both stages (--rerank-weight).",
    ),
]
RerankDepthOpt = Annotated[
    int,
    typer.Option(
        "--rerank-depth", help=f"First-stage hits the reader rereads (1 to {MAX_RERANK_DEPTH})."
    ),
]
RerankWeightOpt = Annotated[
    float,
    typer.Option(
        "--rerank-weight",
        help="The reader's share of the final score, 0 to 1 (0: the first-stage order).",
    ),
]


def rerank_settings(folder: Path | None, depth: int, weight: float) -> RerankSettings | None:
    """The ``--rerank`` options as settings (None without ``--rerank``); a depth or weight given
    without a reader is refused rather than ignored."""
    if folder is None:
        if depth != DEFAULT_DEPTH or weight != DEFAULT_WEIGHT:
            raise LogirError("--rerank-depth and --rerank-weight need --rerank DIR")
        return None
    try:
        settings = RerankSettings(folder, depth, weight)
    except LogirError as exc:
        raise LogirError(f"--rerank: {exc}") from None
    from logir.rerank.reader import check_reader_dir

    check_reader_dir(folder.expanduser())
    return settings
