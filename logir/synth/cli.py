"""``logir synth KIND``: build a benchmark with an LLM, resumably, into a BEIR folder."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from logir.cli_options import QuietOpt
from logir.errors import LogirError
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
)
from logir.synth import PIPELINES

synth_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help=(
        "Build a benchmark with an LLM, or exclusion training data by rule (negations): "
        "logir synth KIND --corpus PATH --out DIR OPTIONS. "
        "Each KIND writes a BEIR folder (corpus.jsonl, queries.jsonl, qrels/test.tsv) that "
        "`logir eval beir --data DIR` evaluates. LLM runs are resumable: "
        "OUT/checkpoint.jsonl keeps every finished unit, so running the same command again "
        "continues where it stopped."
    ),
)

KIND_HELP: dict[str, str] = {
    "comlq": (
        "ComLQ complex logical queries of 14 types over passages of one title. Options: "
        "types (comma-separated, default all), per_type=10, max_passages=3, distractors=3, "
        "full_corpus=false, max_chars=2000."
    ),
    "boolquestions": (
        "BoolQuestions natural questions with AND / OR / NOT over topic clusters. Options: "
        "operators=and,or,not, per_cluster=1, clusters=0, embed=dense|tfidf, model, svd_dim=64, "
        "max_docs=5000, min_words, max_chars. --opt help lists all with defaults."
    ),
    "multiconir": (
        "MultiConIR ladders: ten conditions per seed document, queries with 1..10 conditions "
        "(instruction and descriptive style), hard negatives HN1..HN10. Options: "
        "domain=document, features='', strategy=alter|mislead, verify=true, keep_corpus=false, "
        "max_words=1500. Also writes OUT/DOMAIN.csv for `logir eval multiconir --data OUT`."
    ),
    "itlr": (
        "ITLR three-term template queries (32 templates with AND / OR / NOT), one passage per "
        "satisfying category and flipped-term hard negatives. Options: per_template=10, "
        "max_negatives=3, query_style=natural|logical, keep_corpus=false, min_words=20."
    ),
}

CorpusOpt = Annotated[
    Path | None,
    typer.Option("--corpus", help="Seed passages: a BEIR folder or a JSONL file (id, text)."),
]
OutOpt = Annotated[
    Path | None, typer.Option("--out", help="Output folder (BEIR files + checkpoint).")
]
MaxItemsOpt = Annotated[
    int | None,
    typer.Option("--max-items", help="Only the first N units (rerun with more to extend).", min=1),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the unit sampling.")]
OptOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--opt",
        help="Pipeline option key=value, repeatable; the value is read as JSON when it parses "
        '(3, true, ["a"]), else as text. --opt help lists the options.',
    ),
]
PriceInOpt = Annotated[
    float,
    typer.Option(
        "--llm-price-in", help="Cost per 1M prompt tokens.", min=0.0, rich_help_panel="LLM endpoint"
    ),
]
PriceOutOpt = Annotated[
    float,
    typer.Option(
        "--llm-price-out",
        help="Cost per 1M completion tokens.",
        min=0.0,
        rich_help_panel="LLM endpoint",
    ),
]


def parse_opts(pairs: list[str]) -> dict[str, Any]:
    """`key=value` strings -> options; values are JSON when they parse, else text."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key.isidentifier():
            raise LogirError(f"--opt {pair!r}: expected key=value, e.g. --opt per_template=5")
        try:
            options[key] = json.loads(raw)
        except ValueError:
            options[key] = raw
    return options


def _print_options(kind: str) -> None:
    import inspect

    from logir.synth import pipeline_class, pipeline_options

    cls = pipeline_class(kind)
    print(inspect.cleandoc(cls.__doc__ or kind))
    for name, default in pipeline_options(kind).items():
        shown = "(required)" if default is inspect.Parameter.empty else json.dumps(default)
        print(f"  --opt {name}={shown}")


def _effective(kind: str, options: dict[str, Any]) -> dict[str, Any]:
    """The pipeline's defaults overridden by `options` (what a resumed run must match)."""
    import inspect

    from logir.synth import pipeline_options

    defaults = pipeline_options(kind)
    return {
        **{k: v for k, v in defaults.items() if v is not inspect.Parameter.empty},
        **options,
    }


def run_kind(
    kind: str,
    corpus: Path | None,
    out: Path | None,
    max_items: int | None,
    seed: int,
    opts: list[str],
    llm: dict[str, Any],
    quiet: bool = False,
) -> None:
    """The body of every `logir synth KIND` command (``quiet``: no progress on stderr)."""
    from logir.data.dataset import require_text
    from logir.data.jsonl import require_writable
    from logir.index.store import load_corpus
    from logir.llm import ChatClient
    from logir.llm.options import config_from_options
    from logir.progress import Bars
    from logir.synth import get_pipeline
    from logir.synth.runner import CHECKPOINT, SynthAborted, run_synthesis

    if [o.strip() for o in opts] == ["help"]:
        _print_options(kind)
        return
    if corpus is None or out is None:
        raise LogirError(f"logir synth {kind} needs --corpus PATH and --out DIR")
    require_writable(out, "--out", folder=True)
    options = parse_opts(opts)
    pipeline = get_pipeline(kind, **options)
    docs = load_corpus(corpus)
    require_text(docs, corpus)
    config = config_from_options(**llm)
    bars = Bars("units", quiet, plain_steps=10)
    with ChatClient(config) as client, bars:
        try:
            summary = run_synthesis(
                pipeline,
                docs,
                client,
                out,
                seed=seed,
                max_items=max_items,
                options=_effective(kind, options),
                progress=lambda done, total: bars.update(
                    kind, done, total, info=_usage_line(client)
                ),
            )
        except SynthAborted as exc:
            bars.close()
            for line in exc.summary.lines():
                print(line)
            raise
        except KeyboardInterrupt:
            bars.close()
            print(
                f"interrupted: finished units are kept in {out / CHECKPOINT}; "
                "run the same command again to resume",
                file=sys.stderr,
            )
            raise typer.Exit(130) from None
    for line in summary.lines():
        print(line)
    if summary.failed:
        print(f"{summary.failed} failed unit(s) are retried when the same command runs again")
    print(f"written: {out} (corpus.jsonl, queries.jsonl, qrels/test.tsv, summary.json)")


def _usage_line(client: Any) -> str:
    """Requests and tokens so far, for the progress line."""
    use = client.usage.as_dict()
    return (
        f"{use['requests']} LLM requests, {use['retries']} retries, "
        f"{use['completion_tokens']} answer tokens"
    )


def _command(kind: str) -> Callable[..., None]:
    def command(
        corpus: CorpusOpt = None,
        out: OutOpt = None,
        max_items: MaxItemsOpt = None,
        seed: SeedOpt = 0,
        opt: OptOpt = None,
        llm_base_url: LLMBaseUrlOpt = None,
        llm_model: LLMModelOpt = DEFAULT_MODEL,
        llm_key_env: LLMKeyEnvOpt = DEFAULT_KEY_ENV,
        llm_timeout: LLMTimeoutOpt = DEFAULT_TIMEOUT,
        llm_retries: LLMRetriesOpt = DEFAULT_RETRIES,
        llm_concurrency: LLMConcurrencyOpt = DEFAULT_CONCURRENCY,
        llm_no_cache: LLMNoCacheOpt = False,
        llm_price_in: PriceInOpt = 0.0,
        llm_price_out: PriceOutOpt = 0.0,
        llm_max_tokens: LLMMaxTokensOpt = None,
        llm_context: LLMContextOpt = None,
        quiet: QuietOpt = False,
    ) -> None:
        llm = {
            "base_url": llm_base_url,
            "model": llm_model,
            "key_env": llm_key_env,
            "timeout": llm_timeout,
            "retries": llm_retries,
            "concurrency": llm_concurrency,
            "no_cache": llm_no_cache,
            "price_in": llm_price_in,
            "price_out": llm_price_out,
            "max_tokens": llm_max_tokens,
            "context": llm_context,
        }
        run_kind(kind, corpus, out, max_items, seed, opt or [], llm, quiet)

    command.__name__ = f"synth_{kind}"
    return command


for _kind in PIPELINES:
    synth_app.command(_kind, help=KIND_HELP.get(_kind, f"The {_kind} pipeline."))(_command(_kind))

TestShareOpt = Annotated[
    float,
    typer.Option(
        "--test-share",
        help="Share of the queries held out as qrels/test.tsv (kept out of triplets.jsonl).",
        min=0.0,
        max=0.9,
    ),
]
KindsOpt = Annotated[
    str,
    typer.Option("--kinds", help="Generators to run, comma-separated: title, swap, disjunction."),
]


@synth_app.command(
    "negations",
    help=(
        "Exclusion training data from any corpus, by rule (no LLM): queries such as "
        "'<shared topic> other than <B>' with B's passage as the hard negative, mirrored "
        "attribute swaps and 'without x or z' disjunctions, each read back by logir's own "
        "reader. Writes OUT/triplets.jsonl (for logir train --data) and a BEIR folder whose "
        "qrels/test.tsv holds the held-out queries (for logir eval beir --data OUT). "
        "Deterministic for a seed."
    ),
)
def synth_negations(
    corpus: CorpusOpt = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Output folder (triplets.jsonl, BEIR files, summary.json)."),
    ] = None,
    max_items: Annotated[
        int | None,
        typer.Option(
            "--max-items", help="Make at most N queries (before any is set aside).", min=1
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the passage order and the wordings.")
    ] = 0,
    test_share: TestShareOpt = 0.05,
    kinds: KindsOpt = "title,swap,disjunction",
    quiet: QuietOpt = False,
) -> None:
    """The body of `logir synth negations`."""
    from logir.data.dataset import require_text
    from logir.data.jsonl import require_writable
    from logir.index.store import load_corpus
    from logir.progress import Bars
    from logir.synth.negations.run import synthesize

    if corpus is None or out is None:
        raise LogirError("logir synth negations needs --corpus PATH and --out DIR")
    require_writable(out, "--out", folder=True)
    chosen = tuple(k.strip().lower() for k in kinds.split(",") if k.strip())
    docs = load_corpus(corpus)
    require_text(docs, corpus)
    from logir.synth.folder_lock import folder_lock

    with folder_lock(out), Bars("passages", quiet, plain_steps=10) as bars:
        summary = synthesize(docs, out, seed, max_items, test_share, chosen, progress=bars.update)
    by_kind = ", ".join(f"{k} {n}" for k, n in summary["by_kind"].items())
    print(
        f"negations: {summary['queries']} queries ({by_kind}) from {summary['documents']} "
        f"passages in {summary['seconds']} s; {summary['train_queries']} train, "
        f"{summary['test_queries']} held out, {summary['set_aside']} set aside (they use a "
        "held-out passage)"
    )
    print(
        f"written: {out} (triplets.jsonl: {summary['triplets']} triplets; corpus.jsonl, "
        "queries.jsonl, qrels/train.tsv, qrels/test.tsv, summary.json)"
    )
