"""`logir retrieve`: a topics file ranked over an index into a TREC run file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from logir.cli_options import (
    QuietOpt,
    RerankDepthOpt,
    RerankOpt,
    RerankWeightOpt,
    SpellingOpt,
    check_hits,
    rerank_settings,
)
from logir.limits import MAX_K
from logir.rerank.settings import DEFAULT_DEPTH, DEFAULT_WEIGHT
from logir.retrieve import DEFAULT_BATCH


def retrieve_cmd(
    index_dir: Annotated[Path, typer.Argument(help="An index built by `logir index`.")],
    topics: Annotated[
        Path,
        typer.Option(
            "--topics",
            help="The queries: BEIR queries.jsonl rows (_id, text) or 'qid<TAB>text' lines.",
        ),
    ],
    run: Annotated[Path, typer.Option("--run", help="The TREC run file to write.")],
    run_tag: Annotated[str, typer.Option("--run-tag", help="The run's last column.")] = "logir",
    k: Annotated[
        int, typer.Option("-k", help=f"Hits per query (1 to {MAX_K}).", callback=check_hits)
    ] = 1000,
    retriever: Annotated[
        str, typer.Option("--retriever", "-r", help="bm25, dense, hybrid or splade.")
    ] = "",
    composer: Annotated[
        str, typer.Option(help="auto, flat, exclusion, fuzzy, sets or vectors, with options.")
    ] = "auto",
    mode: Annotated[
        str, typer.Option(help="How queries are read: auto, syntax, natural.")
    ] = "auto",
    batch: Annotated[
        int, typer.Option(help="Queries ranked (and written) together.", min=1, max=4096)
    ] = DEFAULT_BATCH,
    quiet: QuietOpt = False,
    rerank: RerankOpt = None,
    rerank_depth: RerankDepthOpt = DEFAULT_DEPTH,
    rerank_weight: RerankWeightOpt = DEFAULT_WEIGHT,
    spelling: SpellingOpt = True,
) -> None:
    """Rank every query of a topics file and write a TREC run (qid Q0 docid rank score tag).

    The run is written to RUN.partial as it goes and renamed to RUN at the end; after an
    interruption the same command continues where it stopped.
    """
    from logir.data.jsonl import require_writable
    from logir.progress import Bars
    from logir.retrieve import partial_paths, retrieve

    err = Console(stderr=True)
    settings = rerank_settings(rerank, rerank_depth, rerank_weight)
    require_writable(run, "--run")
    try:
        with Bars("queries", quiet, err) as bars:
            summary = retrieve(
                index_dir,
                topics,
                run,
                k=k,
                retriever=retriever or None,
                composer=composer,
                mode=mode,
                tag=run_tag,
                batch=batch,
                rerank=settings,
                spelling=spelling,
                progress=lambda done, total: bars.update(str(run.name), done, total),
            )
    except KeyboardInterrupt:
        partial = partial_paths(run)[0]
        if partial.exists():
            err.print(
                f"interrupted: the queries ranked so far are kept in {partial}; "
                "run the same command again to continue",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
        raise
    kept = f" ({summary.resumed} kept from the interrupted run)" if summary.resumed else ""
    print(f"ranked {summary.topics} queries{kept}: {summary.lines} lines -> {summary.run}")
