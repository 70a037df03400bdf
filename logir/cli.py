"""The ``logir`` command: parse, index, search, eval, datasets."""

from __future__ import annotations

import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from logir.cli_options import (
    Bm25BOpt,
    Bm25K1Opt,
    QuietOpt,
    RerankDepthOpt,
    RerankOpt,
    RerankWeightOpt,
    SpellingOpt,
    bm25_params,
    check_hits,
    rerank_settings,
)
from logir.cli_ray import RayOpt, ShardsOpt, ray_default, ray_sharding, ray_tasks
from logir.errors import LogirError, describe, one_line, shorten
from logir.limits import MAX_K, MAX_QUERY_CHARS, MAX_SHARD_SIZE, shard_size_problem
from logir.llm.options import (
    DEFAULT_CONCURRENCY,
    DEFAULT_KEY_ENV,
    DEFAULT_MODEL,
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    LLMBaseUrlOpt,
    LLMConcurrencyOpt,
    LLMContextOpt,
    LLMKeyEnvOpt,
    LLMMaxTokensOpt,
    LLMModelOpt,
    LLMNoCacheOpt,
    LLMRetriesOpt,
    LLMTimeoutOpt,
    config_from_options,
)
from logir.rerank.settings import DEFAULT_DEPTH, DEFAULT_WEIGHT

if TYPE_CHECKING:
    from logir.eval.runner import EvalResult
    from logir.llm import ChatClient
    from logir.logic.applied import Applied
    from logir.logic.contract import Composer
    from logir.query.reading import Reading
    from logir.searcher import SearchResult

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Retrieval that obeys the logic of a query.",
)


def _print_version(value: bool) -> None:
    if value:
        from logir import __version__

        print(f"logir {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Retrieval that obeys the logic of a query."""


# tables are wide: when the output goes to a file or a pipe, do not cut them at 80 columns
out = Console() if sys.stdout.isatty() else Console(width=240)
err = Console(stderr=True)


def _query_arg(query: str) -> str:
    """A query given on the command line, refused when blank or not valid UTF-8."""
    if not query.strip():
        raise LogirError("the query is empty")
    if len(query) > MAX_QUERY_CHARS:
        raise LogirError(
            f"the query is {len(query)} characters long; at most {MAX_QUERY_CHARS} are read"
        )
    # bytes that are not UTF-8 reach Python as lone surrogates U+DC80..U+DCFF
    bad = next((i for i, ch in enumerate(query) if "\udc80" <= ch <= "\udcff"), None)
    if bad is not None:
        byte = ord(query[bad]) - 0xDC00
        raise LogirError(f"the query is not valid UTF-8 (byte 0x{byte:02x} at character {bad})")
    if any("\ud800" <= ch <= "\udfff" for ch in query):
        raise LogirError("the query holds a lone surrogate code point")
    return query


@app.command("parse")
def parse_cmd(
    query: Annotated[
        str, typer.Argument(help='A query: natural language, or logir syntax "a" AND NOT b.')
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the tree as JSON.")] = False,
    syntax: Annotated[
        bool, typer.Option("--syntax", help="Logir syntax only (a syntax error stops).")
    ] = False,
    natural: Annotated[
        bool, typer.Option("--natural", help="Decompose natural language into a logical form.")
    ] = False,
    auto: Annotated[
        bool,
        typer.Option("--auto", help="Syntax if the text looks like it, else natural (default)."),
    ] = False,
    llm: Annotated[
        bool,
        typer.Option("--llm", help="Decompose with an LLM (falls back to --natural if it fails)."),
    ] = False,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_model: LLMModelOpt = DEFAULT_MODEL,
    llm_key_env: LLMKeyEnvOpt = DEFAULT_KEY_ENV,
    llm_timeout: LLMTimeoutOpt = DEFAULT_TIMEOUT,
    llm_retries: LLMRetriesOpt = DEFAULT_RETRIES,
    llm_concurrency: LLMConcurrencyOpt = DEFAULT_CONCURRENCY,
    llm_no_cache: LLMNoCacheOpt = False,
    llm_max_tokens: LLMMaxTokensOpt = None,
    llm_context: LLMContextOpt = None,
) -> None:
    """Read a query as `logir search` does (auto mode unless a flag says otherwise), print its
    tree, where each term came from, and what the `auto` composer would apply to it."""
    from logir.query import to_dict, understand
    from logir.searcher import auto_plan, reading_warnings

    query = _query_arg(query)
    if syntax + natural + auto + llm > 1:
        raise LogirError("use only one of --syntax, --natural, --auto and --llm")
    if llm:
        from logir.llm import ChatClient

        config = config_from_options(
            llm_base_url, llm_model, llm_key_env, llm_timeout, llm_retries, llm_concurrency,
            llm_no_cache, max_tokens=llm_max_tokens, context=llm_context,
        )  # fmt: skip
        with ChatClient(config) as client:
            u = understand(query, "llm", client)
        usage = client.usage.as_dict()
    else:
        u = understand(query, "syntax" if syntax else "natural" if natural else "auto")
    q, plan = u.query, auto_plan(u)
    for note in reading_warnings(u):
        err.print(f"warning: {note}", markup=False, highlight=False)
    if as_json:
        payload = {"query": str(q), "tree": to_dict(q), "mode": u.mode_used}
        payload["spans"] = {t: list(s) for t, s in u.spans.items()}
        payload["notes"] = u.notes
        payload["auto"] = {"applied": plan.kind, "reason": plan.reason}
        if llm:
            payload["fallback"] = u.fallback
            payload["llm_usage"] = usage
        out.print_json(json.dumps(payload))
        return
    _print_reading(u, query, plan)
    if llm:
        err.print(
            f"LLM requests: {usage['requests']}, answers from the cache: {usage['cache_hits']}",
            style="dim",
            markup=False,
            highlight=False,
        )


def _print_reading(u: Reading, query: str, plan: Applied) -> None:
    """The tree, the mode, where each term came from, the rules and auto's plan."""
    from logir.query import to_dict

    out.print(str(u.query), markup=False, highlight=False)
    out.print(_tree(to_dict(u.query)), markup=False, highlight=False)
    mode = u.mode_used
    if u.fallback is not None:
        mode += " (rule-based; the LLM's form unused)"
    out.print(f"mode: {mode}", markup=False, highlight=False, soft_wrap=True)
    if u.fallback is not None:
        out.print(f"fallback: {u.fallback}", markup=False, highlight=False, soft_wrap=True)
    for term, (start, end) in u.spans.items():
        shown = query[start:end]
        out.print(f"  {term!r} <- [{start}:{end}] {shown!r}", markup=False, highlight=False)
    rules = [n for n in u.notes if not n.startswith("llm fallback:")]
    if rules:
        out.print("rules: " + ", ".join(rules), markup=False, highlight=False)
    how = "positive part minus excluded evidence" if plan.kind == "exclude" else plan.kind
    out.print(f"auto composer: {how} ({plan.reason})", markup=False, highlight=False)


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
    force: Annotated[
        bool, typer.Option("--force", help="Replace an existing index at --out, whatever it holds.")
    ] = False,
    ann: Annotated[
        str,
        typer.Option(
            "--ann",
            help="Dense top-k search: none (exact), hnsw or ivf (FAISS candidates, each scored "
            "exactly), with parameters (hnsw,M=32,efSearch=512 / ivf,nlist=4096,nprobe=64); "
            "auto: exact below 200000 documents, hnsw from there on.",
        ),
    ] = "auto",
    bm25_k1: Bm25K1Opt = None,
    bm25_b: Bm25BOpt = None,
    shard_size: Annotated[
        int,
        typer.Option(
            "--shard-size",
            help="Documents per shard of a BM25-only build (-r bm25), which streams the corpus "
            f"and resumes where a killed build stopped (1 to {MAX_SHARD_SIZE}).",
        ),
    ] = 100_000,
    postings: Annotated[
        str | None,
        typer.Option(
            "--postings",
            help="How BM25 stores its posting lists: compact (the default: logir's varints, "
            "about a fifth of the size; scores computed when a list is first read, the same "
            "numbers) or plain (bm25s's arrays, a document and a score per posting: no "
            "decoding, five times the disk). Indexes of either format are read.",
            show_default=False,
        ),
    ] = None,
    ray: RayOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Build the on-disk indexes of a corpus. An index of the same documents already at --out
    keeps its other retrievers (-r bm25 adds or rebuilds bm25 only); one of other documents is
    refused unless --force. A BM25-only build streams the corpus in shards: run the same command
    again after a crash and it carries on from the last finished shard. With --ray, the BM25
    shards of such a build and the slices of the corpus dense encodes run as Ray tasks."""
    from logir.data.dataset import require_text, require_words
    from logir.data.jsonl import require_writable
    from logir.index.ann import parse_ann
    from logir.index.bm25compact import DEFAULT_POSTINGS, POSTINGS
    from logir.index.store import RETRIEVERS, build_index, load_corpus, open_index
    from logir.progress import Bars, terminal_progress

    parse_ann(ann)
    retrievers = tuple(retriever or ("bm25", "dense"))
    unknown = set(retrievers) - set(RETRIEVERS)
    if unknown:
        known = ", ".join(RETRIEVERS)
        raise LogirError(f"unknown retriever {shorten(sorted(unknown)[0])!r}; known: {known}")
    if ann != "auto" and "dense" not in retrievers:
        raise LogirError(
            f"--ann {shorten(ann)!r} sets dense's search, and this build has no dense "
            f"(-r {' -r '.join(retrievers)})"
        )
    bm25 = bm25_params(bm25_k1, bm25_b)
    bad_shard = shard_size_problem(shard_size, "--shard-size")
    if bad_shard:
        raise LogirError(bad_shard)
    if postings is not None and postings not in POSTINGS:
        raise LogirError(
            f"unknown --postings {shorten(postings)!r}; choose from {', '.join(POSTINGS)}"
        )
    if postings is not None and "bm25" not in retrievers:
        raise LogirError(
            f"--postings {postings} sets how BM25 stores its lists, and this build has no bm25 "
            f"(-r {' -r '.join(retrievers)})"
        )
    postings = postings or DEFAULT_POSTINGS
    require_writable(out_dir, "index folder (--out)", folder=True)
    tasks = ray_tasks(ray)
    if set(retrievers) == {"bm25"}:
        _index_bm25_streaming(corpus, out_dir, shard_size, bm25, force, quiet, tasks, postings)
        return
    docs = load_corpus(corpus)
    require_text(docs, corpus)
    if "bm25" in retrievers:
        require_words(docs, corpus)
    bars = Bars("documents", quiet, err)

    def stage(name: str, seconds: float | None) -> None:
        done = "" if seconds is None else f" in {seconds:.1f} s"
        what = f"building over {len(docs)} documents" if seconds is None else f"built{done}"
        bars.note(f"{name}: {what}")

    path = build_index(
        docs,
        out_dir,
        retrievers=retrievers,
        dense_model=model,
        splade_model=splade_model,
        source=corpus,
        keep=not force,
        bm25=bm25,
        show_progress=terminal_progress(quiet),
        on_retriever=stage,
        ann=ann,
        tasks=tasks,
        postings=postings,
    )
    kept = [r for r in open_index(path).retrievers if r not in retrievers]
    also = f" (kept {', '.join(kept)} of the index there)" if kept else ""
    out.print(f"indexed {len(docs)} documents with {', '.join(retrievers)}{also} -> {path}")


def _index_bm25_streaming(
    corpus: Path,
    out_dir: Path,
    shard_size: int,
    bm25: dict[str, float],
    force: bool,
    quiet: bool,
    tasks: Any = None,
    postings: str = "compact",
) -> None:
    """``logir index -r bm25``: the corpus streamed and indexed in resumable shards."""
    import time

    from logir.index.store import open_index
    from logir.index.streambuild import build_bm25_index
    from logir.progress import Bars

    with Bars("", quiet, err, plain_steps=10) as bars:
        started = time.perf_counter()
        path, n = build_bm25_index(
            corpus,
            out_dir,
            shard_size=shard_size,
            bm25=bm25,
            keep=not force,
            progress=bars.update,
            note=bars.note,
            tasks=tasks,
            postings=postings,
        )
        bars.note(f"bm25: built in {time.perf_counter() - started:.1f} s")
    kept = [r for r in open_index(path).retrievers if r != "bm25"]
    also = f" (kept {', '.join(kept)} of the index there)" if kept else ""
    out.print(f"indexed {n} documents with bm25{also} -> {path}")


IndexArg = Annotated[Path, typer.Argument(help="An index built by `logir index`.")]
QueryArg = Annotated[str, typer.Argument(help="The query text.")]


HitsOpt = Annotated[
    int, typer.Option("-k", help=f"Number of hits (1 to {MAX_K}).", callback=check_hits)
]
RetrieverOpt = Annotated[
    str, typer.Option("--retriever", "-r", help="bm25, dense, hybrid or splade.")
]
ComposerOpt = Annotated[
    str,
    typer.Option(
        help="auto, flat, exclusion, fuzzy, sets or vectors, with options: "
        "fuzzy,and=min,depth=200. flat ranks the text as it is; -k is the number of hits, "
        "depth= the candidates per term."
    ),
]
ModeOpt = Annotated[
    str,
    typer.Option(
        help="How the query is read: auto (logir syntax when it looks like it, else natural "
        "language), syntax (logir syntax only: a syntax error stops the search), natural, or "
        "llm (an LLM writes the logical form: needs --llm-base-url; when its form is not used "
        "the rules read the query and a warning says why)."
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print hits as JSON.")]
ExplainOpt = Annotated[
    bool, typer.Option("--explain", help="Show the logical form and each hit's term scores.")
]


@app.command("search")
def search_cmd(
    index_dir: IndexArg,
    query: QueryArg,
    k: HitsOpt = 10,
    retriever: RetrieverOpt = "",
    composer: ComposerOpt = "auto",
    mode: ModeOpt = "auto",
    as_json: JsonOpt = False,
    explain: ExplainOpt = False,
    rerank: RerankOpt = None,
    rerank_depth: RerankDepthOpt = DEFAULT_DEPTH,
    rerank_weight: RerankWeightOpt = DEFAULT_WEIGHT,
    spelling: SpellingOpt = True,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_model: LLMModelOpt = DEFAULT_MODEL,
    llm_key_env: LLMKeyEnvOpt = DEFAULT_KEY_ENV,
    llm_timeout: LLMTimeoutOpt = DEFAULT_TIMEOUT,
    llm_retries: LLMRetriesOpt = DEFAULT_RETRIES,
    llm_no_cache: LLMNoCacheOpt = False,
    llm_max_tokens: LLMMaxTokensOpt = None,
    llm_context: LLMContextOpt = None,
) -> None:
    """Search an index and print ranked hits (logic applied by the `auto` composer); with
    --rerank, the top hits reread by a trained reader."""
    from logir.query import QuerySyntaxError
    from logir.query.reading import ALL_MODES
    from logir.searcher import Searcher, spelling_line

    if mode not in ALL_MODES:
        raise LogirError(f"unknown --mode {shorten(mode)!r}; known: {', '.join(ALL_MODES)}")
    text = _query_arg(query)
    try:
        if mode == "llm":
            from logir.llm import ChatClient

            config = config_from_options(
                llm_base_url, llm_model, llm_key_env, llm_timeout, llm_retries, 1, llm_no_cache,
                max_tokens=llm_max_tokens, context=llm_context,
            )  # fmt: skip
            with ChatClient(config) as client:
                reading = Searcher.read(text, mode, client)
        else:
            reading = Searcher.read(text, mode)
    except QuerySyntaxError as exc:
        raise LogirError(str(exc)) from None
    if reading.fallback is not None:
        err.print(
            f"warning: {reading.fallback}; the query was read by the rules instead",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    settings = rerank_settings(rerank, rerank_depth, rerank_weight)
    comp = _composer(composer)
    searcher = Searcher(index_dir, retriever or None, rerank=settings, spelling=spelling)
    result = searcher.search(reading, k=k, composer=comp)
    for note in result.warnings:
        err.print(f"warning: {note}", markup=False, highlight=False)
    if result.corrections and not explain:
        err.print(spelling_line(result.corrections), markup=False, highlight=False)
    if as_json:
        payload = {**result.to_dict(), "composer": composer}
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
    else:
        _print_result(result, composer, explain)


def _print_result(result: SearchResult, composer: str, explain: bool) -> None:
    """The hits as `logir search` prints them; with ``explain``, the explanation and evidence."""
    from rich.markup import escape

    text = result.reading.text
    out.print(f"[bold]{escape(text)}[/bold]  ({result.retriever}, {escape(composer)})")
    for line in result.explanation if explain else ():
        out.print(line, markup=False, highlight=False)
    for h in result.hits:
        title = f" {h.title}" if h.title else ""
        out.print(f"{h.rank:>3}. {h.score:.4f}  {h.id}{title}", markup=False)
        out.print(f"      {h.snippet}", markup=False, highlight=False)
        for label, value in h.evidence.items() if explain else ():
            out.print(f"        {value:8.4f}  {label}", markup=False, highlight=False)


def _composer(spec: str, llm: ChatClient | None = None) -> Composer:
    """The composer ``spec`` names; an old spelling is noted on stderr (and still works)."""
    from logir.logic import get_composer
    from logir.logic.registry import deprecations

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        composer = get_composer(spec, llm=llm)
    for message in deprecations(spec):
        err.print(f"note: {message}", markup=False, highlight=False, soft_wrap=True)
    return composer


@app.command("eval")
def eval_cmd(
    dataset: Annotated[
        str,
        typer.Argument(
            help="demo, first-hour, comlq, negconstraint, boolquestions, "
            "nevir, excluir, scifact, multiconir or beir."
        ),
    ],
    data: Annotated[Path | None, typer.Option("--data", help="Where the dataset lives.")] = None,
    system: Annotated[
        list[str],
        typer.Option(
            "--system",
            "-s",
            help="RETRIEVER[:COMPOSER][+reader=DIR,depth=N,weight=W], repeatable.",
        ),
    ] = None,  # type: ignore[assignment]
    runs_dir: Annotated[Path | None, typer.Option(help="Write one TREC run per system.")] = None,
    out_json: Annotated[
        Path | None, typer.Option("--out", help="Write every figure as JSON.")
    ] = None,
    markdown: Annotated[bool, typer.Option(help="Print Markdown tables.")] = False,
    k: Annotated[
        int | None,
        typer.Option(
            "-k", help="Hits ranked per query (the run's length; default 100).", callback=check_hits
        ),
    ] = None,
    depth: Annotated[
        int | None, typer.Option(help="Old name of -k (deprecated).", callback=check_hits)
    ] = None,
    logical_form: Annotated[
        str,
        typer.Option(
            "--logical-form",
            help="parsed: composers rank each query's form read from its text; gold: the "
            "benchmark's own form where a query has one; both: parsed, plus NAME@gold systems.",
        ),
    ] = "parsed",
    measure: Annotated[
        list[str], typer.Option("--measure", "-m", help="Standard measures (default set if none).")
    ] = None,  # type: ignore[assignment]
    split: Annotated[
        str,
        typer.Option(
            help="all; logir-tune / logir-test, logir's deterministic split of the queries; or, "
            "for beir, scifact and comlq, the BEIR qrels file: test, dev, train (qrels/NAME.tsv)."
        ),
    ] = "all",
    limit: Annotated[int | None, typer.Option(help="Only the first N queries.", min=1)] = None,
    model: Annotated[str | None, typer.Option(help="Dense model name or path.")] = None,
    splade_model: Annotated[
        str | None,
        typer.Option(help="SPLADE model name or path for splade systems (default splade-tiny)."),
    ] = None,
    bm25_k1: Bm25K1Opt = None,
    bm25_b: Bm25BOpt = None,
    spelling: SpellingOpt = True,
    ray: RayOpt = None,
    shards: ShardsOpt = 4,
    quiet: QuietOpt = False,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_model: LLMModelOpt = DEFAULT_MODEL,
    llm_key_env: LLMKeyEnvOpt = DEFAULT_KEY_ENV,
    llm_timeout: LLMTimeoutOpt = DEFAULT_TIMEOUT,
    llm_retries: LLMRetriesOpt = DEFAULT_RETRIES,
    llm_concurrency: LLMConcurrencyOpt = DEFAULT_CONCURRENCY,
    llm_no_cache: LLMNoCacheOpt = False,
    llm_max_tokens: LLMMaxTokensOpt = None,
    llm_context: LLMContextOpt = None,
) -> None:
    """Evaluate systems on a benchmark: tables by query type, TREC runs, JSON.

    Query-rewriting systems (bm25:hyde, dense:lamer, bm25:inter) ask the LLM endpoint; a query
    whose request fails is ranked flat, and the count is reported.
    """
    from logir.cli_eval import resolve_split, run_depth
    from logir.data.benchmarks import load_benchmark
    from logir.data.jsonl import require_writable
    from logir.data.splits import select_split
    from logir.eval.metrics import parse_measure
    from logir.eval.report import markdown as to_markdown
    from logir.eval.report import print_tables, write_json
    from logir.eval.runner import DEFAULT_MEASURES, LOGICAL_FORMS, evaluate
    from logir.eval.systems import ScorerPool, needs_llm, parse_system, split_system
    from logir.logic.registry import deprecations
    from logir.progress import Bars, terminal_progress

    # everything a user gives is checked before the dataset loads and the systems run
    for name in measure or ():
        parse_measure(name)
    if logical_form not in LOGICAL_FORMS:
        known = ", ".join(LOGICAL_FORMS)
        raise LogirError(f"unknown --logical-form {shorten(logical_form)!r}; known: {known}")
    if depth is not None:
        err.print("note: --depth is now -k (the number of hits ranked per query)", markup=False)
    hits, depth_note = run_depth(k or depth, measure or (), DEFAULT_MEASURES)
    bm25 = bm25_params(bm25_k1, bm25_b)
    chosen = resolve_split(dataset, split)
    for note in [*chosen.notes, *([depth_note] if depth_note else [])]:
        err.print(f"note: {note}", markup=False, highlight=False, soft_wrap=True)
    if runs_dir is not None:
        require_writable(runs_dir, "--runs-dir", folder=True)
    if out_json is not None:
        require_writable(out_json, "--out")
    systems = system or ["bm25"]
    llm = None
    if llm_base_url and any(needs_llm(s) for s in systems):
        from logir.llm import ChatClient

        llm = ChatClient(
            config_from_options(
                llm_base_url,
                llm_model,
                llm_key_env,
                llm_timeout,
                llm_retries,
                llm_concurrency,
                llm_no_cache,
                max_tokens=llm_max_tokens,
                context=llm_context,
            )
        )
    for s in systems:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            parse_system(s, llm)
    for s in systems:
        for message in deprecations(split_system(s)[0].partition(":")[2] or "flat"):
            err.print(f"note: {message}", markup=False, highlight=False, soft_wrap=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        ds = select_split(load_benchmark(dataset, data, chosen.qrels), chosen.part)
    if limit is not None:
        ds = ds.subset({t.id for t in ds.queries[:limit]})
    if not any(t.id in ds.qrels for t in ds.queries):
        where = f" in {chosen.describe()}" if split != "all" else ""
        raise LogirError(f"dataset {ds.name} has no judged query to evaluate{where}")
    if not ds.corpus:
        raise LogirError(f"dataset {ds.name} has no corpus to retrieve from ({data})")
    if not any(d.full_text.strip() for d in ds.corpus):
        raise LogirError(f"no document of dataset {ds.name} has any text ({data})")
    err.print(f"[dim]{ds!r}[/dim]")
    try:
        with warnings.catch_warnings(), Bars("queries ranked", quiet, err) as bars:
            warnings.simplefilter("ignore", DeprecationWarning)
            if llm is not None:
                llm.report = bars.update
            result = evaluate(
                ds,
                systems,
                k=hits,
                measures=measure or None,
                runs_dir=runs_dir,
                dense_model=model,
                progress=bars.update,
                pool=ScorerPool(
                    ds.corpus,
                    dense_model=model,
                    splade_model=splade_model,
                    bm25=bm25,
                    show_progress=terminal_progress(quiet),
                    shard=ray_sharding(ray, shards),
                    spelling=spelling,
                ),
                llm=llm,
                logical_form=logical_form,
            )
    finally:
        if llm is not None:
            llm.close()
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
    _report_rewrites(result)
    _report_readers(result)


def _report_readers(result: EvalResult) -> None:
    """What each reranked system's reader reread, and how long it took (about 0 s: its scores
    came from the reader's cache, e.g. a second system with the same reader and depth)."""
    for s in result.systems:
        rd = s.extra.get("reader")
        if not rd:
            continue
        per_pair = f", {1000 * rd['seconds'] / rd['pairs']:.1f} ms per pair" if rd["pairs"] else ""
        err.print(
            f"{s.name}: the reader reread {rd['pairs']} pairs for {rd['queries']} queries in "
            f"{rd['seconds']:.1f} s{per_pair}",
            style="dim",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


def _report_rewrites(result: EvalResult) -> None:
    """LLM usage of each rewriting system, and a warning for queries that fell back to flat."""
    for s in result.systems:
        rw = s.extra.get("rewrite")
        if not rw:
            continue
        use = rw["llm_usage"]
        err.print(
            f"{s.name}: {use['requests']} LLM requests for {rw['queries']} queries "
            f"({use['cache_hits']} answers from the cache, "
            f"{use['prompt_tokens']} prompt + {use['completion_tokens']} answer tokens)",
            style="dim",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
        if rw["fallbacks"]:
            err.print(
                f"warning: {s.name}: {rw['fallbacks']} of {rw['queries']} queries were ranked "
                f"flat, with the original query: {_rewrite_causes(rw)} "
                f"(last error: {rw['last_error']})",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )


def _rewrite_causes(rw: dict) -> str:
    """Why a rewriter's queries fell back to flat, in words that tell an endpoint that failed
    from one that answered with something unusable."""
    causes = []
    failed, unusable = rw.get("endpoint_failures", 0), rw.get("unusable_answers", 0)
    if failed:
        causes.append(f"the LLM endpoint failed on {failed} request{'s' if failed > 1 else ''}")
    if unusable:
        causes.append(
            f"{unusable} answer{'s were' if unusable > 1 else ' was'} unusable "
            "(not what was asked for, or empty)"
        )
    return " and ".join(causes) or "the LLM wrote no passage for them"


@app.command("datasets")
def datasets_cmd() -> None:
    """List the benchmarks logir can load."""
    from logir.data.benchmarks import BENCHMARKS

    for name in BENCHMARKS:
        out.print(name)


from logir.serve.review.cli import review_cmd, review_export_cmd  # noqa: E402

app.command("review")(review_cmd)
app.command("review-export")(review_export_cmd)

from logir.cli_retrieve import retrieve_cmd  # noqa: E402

app.command("retrieve")(retrieve_cmd)

from logir.serve.cli import serve_cmd  # noqa: E402

app.command("serve")(serve_cmd)

from logir.synth.cli import synth_app  # noqa: E402

app.add_typer(synth_app, name="synth")

from logir.train.cli import train_app  # noqa: E402

app.add_typer(train_app, name="train")


try:  # typer >= 0.20 carries its own copy of click
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover
    from click.exceptions import ClickException


def _print_error(message: str) -> None:
    from rich.markup import escape

    err.print(
        f"[bold red]error:[/bold red] {escape(one_line(message))}", highlight=False, soft_wrap=True
    )


def _usage_error(exc: ClickException) -> int:
    """A command-line usage error on one line, with where to find the command's help."""
    if type(exc).__name__ == "NoArgsIsHelpError":
        return exc.exit_code  # the help has been printed
    ctx = getattr(exc, "ctx", None)
    hint = f" (see: {ctx.command_path} --help)" if ctx is not None else ""
    _print_error(exc.format_message() + hint)
    return 2


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line `argv` (default: this process's) inside the error boundary.

    Every failure becomes one ``error:`` line on stderr and exit code 2; an interrupt exits 130.
    With ``LOGIR_DEBUG`` set, unexpected failures show their traceback instead.
    """
    command = typer.main.get_command(app)
    args = ray_default(list(sys.argv[1:] if argv is None else argv))
    try:
        code = command.main(args=args, prog_name="logir", standalone_mode=False)
    except ClickException as exc:
        return _usage_error(exc)
    except typer.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):
            return 130
        if isinstance(exc.__cause__, EOFError):
            _print_error(f"unexpected end of data ({exc.__cause__ or 'EOFError'})")
            return 2
        _print_error("aborted")
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        message, expected = describe(exc)
        if os.environ.get("LOGIR_DEBUG") and not isinstance(exc, LogirError):
            raise
        if not expected:
            message = f"{one_line(message)} (set LOGIR_DEBUG=1 to see the traceback)"
        _print_error(message)
        return 2
    return code if isinstance(code, int) else 0


def main() -> None:
    """Entry point: runs the command line and exits with its code (see :func:`run`)."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    sys.exit(run())


if __name__ == "__main__":
    main()
