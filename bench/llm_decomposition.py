"""How well LLM decomposition (logir.query.llm) recovers the QUEST sample's gold logical forms.

Each QUEST paraphrase (``query``) is sent to an OpenAI-compatible endpoint with the prompt of
:mod:`logir.query.llm`; the answer is scored against the gold atoms and template with the very
functions of ``bench/quest_decomposition.py`` (atom accuracy: one-to-one token-F1 >= 0.5 matches;
structure accuracy: same operator skeleton; see that file). The rule-based decomposition of the
same texts is scored alongside as the reference. Queries whose LLM call failed (endpoint down,
or no parsable answer after the repairs) fall back to the rule-based reading and are counted.

Usage:
    python bench/llm_decomposition.py --llm-base-url http://127.0.0.1:8080/v1 [--llm-model NAME]
        [--data ../shared/datasets/quest-sample] [--limit N] [--out results.json]

The endpoint may also come from LOGIR_LLM_BASE_URL / LOGIR_LLM_MODEL; the API key is read from
the environment variable named by --llm-key-env (default LOGIR_LLM_API_KEY). Answers are cached
under $LOGIR_CACHE/llm (or ~/.cache/logir/llm) unless --llm-no-cache.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from logir.data.benchmarks import load_benchmark
from logir.errors import LogirError
from logir.llm import ChatClient
from logir.llm.options import (
    DEFAULT_CONCURRENCY,
    DEFAULT_KEY_ENV,
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    config_from_options,
)
from logir.query import Query, operators, parse
from logir.query.llm import decompose_llm
from logir.query.natural import decompose

try:  # run as a script: bench/ is on sys.path
    from quest_decomposition import match, signed_terms, skeleton
except ImportError:  # imported as bench.llm_decomposition (tests)
    from bench.quest_decomposition import match, signed_terms, skeleton

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "quest-sample"
METRICS = ("atom_accuracy", "atom_sign_accuracy", "term_precision", "structure_accuracy",
           "operator_accuracy")  # fmt: skip


def score(pairs: list[tuple[Query, Query]]) -> dict[str, float]:
    """Atom, sign, precision, structure and operator accuracy of (gold, predicted) pairs."""
    n_gold = n_pred = hit = hit_signed = struct = ops = 0
    for gold_q, pred_q in pairs:
        gold, pred = signed_terms(gold_q), signed_terms(pred_q)
        n_gold += len(gold)
        n_pred += len(pred)
        hit += match(gold, pred, signed=False)
        hit_signed += match(gold, pred, signed=True)
        struct += skeleton(gold_q) == skeleton(pred_q)
        ops += operators(gold_q) == operators(pred_q)
    n = len(pairs)
    return {
        "queries": n,
        "atom_accuracy": hit / n_gold if n_gold else 0.0,
        "atom_sign_accuracy": hit_signed / n_gold if n_gold else 0.0,
        "term_precision": hit / n_pred if n_pred else 0.0,
        "structure_accuracy": struct / n if n else 0.0,
        "operator_accuracy": ops / n if n else 0.0,
    }


def evaluate(data: Path, client: ChatClient, limit: int | None = None) -> dict:
    """Score LLM and rule-based decomposition of the QUEST records at ``data``."""
    ds = load_benchmark("quest", data)
    topics = ds.queries[:limit] if limit else ds.queries
    if not topics:
        raise LogirError(f"{data}: no QUEST records")
    workers = client.workers
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(lambda t: decompose_llm(t.text, client), topics))
    gold = [parse(t.logical_form or "") for t in topics]
    llm_rows = [
        {
            "id": t.id,
            "template": t.type,
            "question": t.text,
            "gold": str(g),
            "predicted": str(r.query),
            "fallback": r.fallback,
        }
        for t, g, r in zip(topics, gold, results, strict=True)
    ]
    return {
        "data": str(data),
        "llm": {**score([(g, r.query) for g, r in zip(gold, results, strict=True)]),
                "fallbacks": sum(r.fallback is not None for r in results)},  # fmt: skip
        "rules": score([(g, decompose(t.text).query) for g, t in zip(gold, topics, strict=True)]),
        "usage": client.usage.as_dict(),
        "model": client.config.model,
        "rows": llm_rows,
    }


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA,
                    help="QUEST jsonl file or folder (default: %(default)s)")  # fmt: skip
    ap.add_argument("--limit", type=int, help="Only the first N records.")
    ap.add_argument("--out", type=Path, help="Write every figure and answer as JSON.")
    ap.add_argument("--llm-base-url", default=os.environ.get("LOGIR_LLM_BASE_URL"))
    ap.add_argument("--llm-model", default=os.environ.get("LOGIR_LLM_MODEL") or "default")
    ap.add_argument("--llm-key-env", default=DEFAULT_KEY_ENV)
    ap.add_argument("--llm-timeout", type=float, default=DEFAULT_TIMEOUT)
    ap.add_argument("--llm-retries", type=int, default=DEFAULT_RETRIES)
    ap.add_argument("--llm-concurrency", type=int, default=DEFAULT_CONCURRENCY)
    ap.add_argument("--llm-no-cache", action="store_true")
    ap.add_argument("--llm-max-tokens", type=int, help="Answer tokens per request.")
    ap.add_argument("--llm-context", type=int, help="The server's context size in tokens.")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    try:
        config = config_from_options(
            args.llm_base_url, args.llm_model, args.llm_key_env, args.llm_timeout,
            args.llm_retries, args.llm_concurrency, args.llm_no_cache,
            max_tokens=args.llm_max_tokens, context=args.llm_context,
        )  # fmt: skip
        data = args.data / "quest-sample" if (args.data / "quest-sample").is_dir() else args.data
        start = time.perf_counter()
        with ChatClient(config) as client:
            result = evaluate(data, client, args.limit)
    except LogirError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    llm = result["llm"]
    print(f"QUEST sample ({llm['queries']} queries), model {config.model} at {config.base_url}")
    print(f"| decomposer | {' | '.join(c.replace('_', ' ') for c in METRICS)} |")
    print("|---|" + "---:|" * len(METRICS))
    for name, row in (("llm", llm), ("rules", result["rules"])):
        print(f"| {name} | " + " | ".join(f"{row[c]:.3f}" for c in METRICS) + " |")
    print(f"atom accuracy: {llm['atom_accuracy']:.3f}")
    print(f"structure accuracy: {llm['structure_accuracy']:.3f}")
    print(f"fallbacks to rules: {llm['fallbacks']} of {llm['queries']}")
    if llm["fallbacks"] == llm["queries"]:
        first = result["rows"][0]["fallback"]
        print(f"warning: every LLM call failed, e.g. {first}", file=sys.stderr)
    u = result["usage"]
    print(
        f"requests: {u['requests']}, cache hits: {u['cache_hits']}, repairs: {u['repairs']}, "
        f"tokens: {u['prompt_tokens']} in / {u['completion_tokens']} out; time: {seconds:.1f} s"
    )
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
