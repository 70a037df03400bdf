"""The ``logir`` command: parse, index, search, eval, datasets."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from logir.errors import LogirError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Retrieval that obeys the logic of a query.",
)
# tables are wide: when the output goes to a file or a pipe, do not cut them at 80 columns
out = Console() if sys.stdout.isatty() else Console(width=240)
err = Console(stderr=True)


@app.command("parse")
def parse_cmd(
    query: Annotated[str, typer.Argument(help='A query in logir syntax: "a" AND NOT ("b" OR c)')],
    as_json: Annotated[bool, typer.Option("--json", help="Print the tree as JSON.")] = False,
    natural: Annotated[
        bool, typer.Option("--natural", help="Decompose natural language into a logical form.")
    ] = False,
    auto: Annotated[
        bool, typer.Option("--auto", help="Syntax if the text looks like it, else natural.")
    ] = False,
) -> None:
    """Parse a logical query (or decompose natural language) and print its tree."""
    from logir.query import to_dict, understand

    if natural and auto:
        raise LogirError("use either --natural or --auto, not both")
    u = understand(query, "natural" if natural else "auto" if auto else "syntax")
    q = u.query
    if as_json:
        payload = {"query": str(q), "tree": to_dict(q), "mode": u.mode_used}
        if natural or auto:
            payload["spans"] = {t: list(s) for t, s in u.spans.items()}
            payload["notes"] = u.notes
        out.print_json(json.dumps(payload))
        return
    out.print(str(q), markup=False, highlight=False)
    out.print(_tree(to_dict(q)), markup=False, highlight=False)
    if natural or auto:
        out.print(f"mode: {u.mode_used}", markup=False, highlight=False)
        for term, (start, end) in u.spans.items():
            shown = query[start:end]
            out.print(f"  {term!r} <- [{start}:{end}] {shown!r}", markup=False, highlight=False)
        if u.notes:
            out.print("rules: " + ", ".join(u.notes), markup=False, highlight=False)


def _tree(node: dict, indent: str = "") -> str:
    if "term" in node:
        return f"{indent}TERM {node['term']!r}"
    if "not" in node:
        return f"{indent}NOT\n{_tree(node['not'], indent + '  ')}"
    op = "and" if "and" in node else "or"
    kids = "\n".join(_tree(c, indent + "  ") for c in node[op])
    return f"{indent}{op.upper()}\n{kids}"


@app.command("index")
def index_cmd(
    corpus: Annotated[Path, typer.Argument(help="A BEIR folder or a JSONL file of passages.")],
    out_dir: Annotated[Path, typer.Option("--out", help="Index directory to write.")],
    retriever: Annotated[
        list[str],
        typer.Option("--retriever", "-r", help="bm25, dense and/or splade (default bm25, dense)."),
    ] = None,  # type: ignore[assignment]
    model: Annotated[str | None, typer.Option(help="Dense model name or path.")] = None,
    splade_model: Annotated[
        str | None, typer.Option(help="SPLADE model name or path (default splade-tiny).")
    ] = None,
) -> None:
    """Build the on-disk indexes of a corpus."""
    from logir.index.store import RETRIEVERS, build_index, load_corpus

    retrievers = tuple(retriever or ("bm25", "dense"))
    unknown = set(retrievers) - set(RETRIEVERS)
    if unknown:
        known = ", ".join(RETRIEVERS)
        raise LogirError(f"unknown retriever {sorted(unknown)[0]!r}; known: {known}")
    docs = load_corpus(corpus)
    path = build_index(
        docs, out_dir, retrievers=retrievers, dense_model=model, splade_model=splade_model
    )
    out.print(f"indexed {len(docs)} documents with {', '.join(retrievers)} -> {path}")


@app.command("search")
def search_cmd(
    index_dir: Annotated[Path, typer.Argument(help="An index built by `logir index`.")],
    query: Annotated[str, typer.Argument(help="The query text.")],
    k: Annotated[int, typer.Option("-k", help="Number of hits.", min=1, max=10000)] = 10,
    retriever: Annotated[
        str, typer.Option("--retriever", "-r", help="bm25, dense, hybrid or splade.")
    ] = "",
    composer: Annotated[
        str,
        typer.Option(
            help="flat, fuzzy, sets or vectors, with options: fuzzy,and=min,calib=minmax."
        ),
    ] = "flat",
    as_json: Annotated[bool, typer.Option("--json", help="Print hits as JSON.")] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show the logical form and each hit's term scores.")
    ] = False,
) -> None:
    """Search an index and print ranked hits."""
    from logir.index.hybrid import HybridScorer
    from logir.index.store import open_index
    from logir.logic import get_composer

    if not query.strip():
        raise LogirError("the query is empty")
    index = open_index(index_dir)
    available = list(index.manifest.get("retrievers", {}))
    name = retriever or ("hybrid" if {"bm25", "dense"} <= set(available) else available[0])
    if name == "hybrid":
        scorer = HybridScorer(index.scorer("bm25"), index.scorer("dense"))
    else:
        scorer = index.scorer(name)
    ranking = get_composer(composer).rank([query], scorer, k)[0]
    hits = ranking.hits(index.doc_ids)
    for h in hits:
        doc = index.docs[h.pop("row")]
        h["title"] = doc.title
        h["snippet"] = _snippet(doc.text)
    if as_json:
        payload = {
            "query": query,
            "retriever": name,
            "composer": composer,
            "logical_form": ranking.logical_form,
            "hits": hits,
        }
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
        return
    out.print(f"[bold]{query}[/bold]  ({name}, {composer})")
    if explain:
        form = ranking.logical_form or "(flat: the text as is)"
        out.print(f"logical form: {form}", markup=False, highlight=False)
    for h in hits:
        title = f" {h['title']}" if h["title"] else ""
        out.print(f"{h['rank']:>3}. {h['score']:.4f}  {h['id']}{title}", markup=False)
        out.print(f"      {h['snippet']}", markup=False, highlight=False)
        if explain:
            for label, value in h["evidence"].items():
                out.print(f"        {value:8.4f}  {label}", markup=False, highlight=False)


def _snippet(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1].rsplit(" ", 1)[0] + " …"


@app.command("eval")
def eval_cmd(
    dataset: Annotated[
        str,
        typer.Argument(
            help="demo, comlq, negconstraint, boolquestions, "
            "nevir, excluir, scifact, multiconir or beir."
        ),
    ],
    data: Annotated[Path | None, typer.Option("--data", help="Where the dataset lives.")] = None,
    system: Annotated[
        list[str], typer.Option("--system", "-s", help="RETRIEVER[:COMPOSER], repeatable.")
    ] = None,  # type: ignore[assignment]
    runs_dir: Annotated[Path | None, typer.Option(help="Write one TREC run per system.")] = None,
    out_json: Annotated[
        Path | None, typer.Option("--out", help="Write every figure as JSON.")
    ] = None,
    markdown: Annotated[bool, typer.Option(help="Print Markdown tables.")] = False,
    depth: Annotated[int, typer.Option(help="Documents retrieved per query.", min=1)] = 100,
    measure: Annotated[
        list[str], typer.Option("--measure", "-m", help="Standard measures (default set if none).")
    ] = None,  # type: ignore[assignment]
    split: Annotated[
        str, typer.Option(help="all, or the deterministic tune / test split of the queries.")
    ] = "all",
    limit: Annotated[int | None, typer.Option(help="Only the first N queries.", min=1)] = None,
    model: Annotated[str | None, typer.Option(help="Dense model name or path.")] = None,
) -> None:
    """Evaluate systems on a benchmark: tables by query type, TREC runs, JSON."""
    from logir.data.benchmarks import load_benchmark
    from logir.data.splits import select_split
    from logir.eval.report import markdown as to_markdown
    from logir.eval.report import print_tables, write_json
    from logir.eval.runner import evaluate
    from logir.eval.systems import parse_system

    systems = system or ["bm25"]
    for s in systems:
        parse_system(s)
    ds = select_split(load_benchmark(dataset, data), split)
    if limit is not None:
        ds = ds.subset({t.id for t in ds.queries[:limit]})
    err.print(f"[dim]{ds!r}[/dim]")

    def progress(name: str, done: int, total: int) -> None:
        if done == total or os.environ.get("LOGIR_VERBOSE"):
            err.print(f"[dim]{name}: {done}/{total} queries ranked[/dim]")

    result = evaluate(
        ds,
        systems,
        depth=depth,
        measures=measure or None,
        runs_dir=runs_dir,
        dense_model=model,
        progress=progress,
    )
    if markdown:
        sys.stdout.write(to_markdown(result) + "\n")
    else:
        print_tables(result, out)
    if out_json:
        write_json(result, out_json)
        err.print(f"[dim]figures written to {out_json}[/dim]")
    for s in result.systems:
        if s.run_file:
            err.print(f"[dim]run written to {s.run_file}[/dim]")


@app.command("datasets")
def datasets_cmd() -> None:
    """List the benchmarks logir can load."""
    from logir.data.benchmarks import BENCHMARKS

    for name in BENCHMARKS:
        out.print(name)


def main() -> None:
    """Entry point: a LogirError becomes one line on stderr and exit code 2."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        app()
    except LogirError as exc:
        from rich.markup import escape

        err.print(
            f"[bold red]error:[/bold red] {escape(str(exc))}", highlight=False, soft_wrap=True
        )
        sys.exit(2)
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
