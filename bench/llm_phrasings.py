"""`logir parse --llm` over the hand-written phrasings: is every form reported as `mode: llm`
grounded in its question, and does a second run ask nothing?

Each phrasing (JSON lines ``{"id", "text", "forms", "negation"}``, e.g.
../shared/phrasings/phrasings.jsonl) is read by the real command, ``python -m logir.cli parse
--llm --json TEXT``, one process per query, against an OpenAI-compatible endpoint. Per query the
script keeps the mode used, the fallback reason, the form, whether it matches one of the
phrasing's forms (``logir.query.compare.same_form``) and the LLM requests the command reported
(``llm_usage``). It then checks each form reported as ``llm`` again with
``logir.query.grounding.check_grounding``: the count of those that fail must be 0.

Usage:
    python bench/llm_phrasings.py ../shared/phrasings/phrasings.jsonl \\
        --llm-base-url http://127.0.0.1:8080/v1 [--runs 2] [--out results.json] [-- PARSE-OPTIONS]

Options after ``--`` go to every ``logir parse`` (e.g. ``--llm-context 4096``). Answers and
decisions are cached under $LOGIR_CACHE/llm (or ~/.cache/logir/llm): with ``--runs 2`` the second
run should make 0 requests.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from logir.query import parse
from logir.query.compare import same_form
from logir.query.grounding import check_grounding


def parse_llm(text: str, base_url: str, extra: list[str]) -> dict[str, Any]:
    """What ``logir parse --llm --json TEXT`` printed (or its error)."""
    cmd = [sys.executable, "-m", "logir.cli", "parse", "--llm", "--json",
           "--llm-base-url", base_url, *extra, "--", text]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "?"}
    return json.loads(proc.stdout)


def one_run(rows: list[dict[str, Any]], base_url: str, extra: list[str]) -> dict[str, Any]:
    """Every phrasing read once; the per-query records and the totals."""
    records, kinds = [], Counter()
    requests = cache_hits = completion = errors = ungrounded_llm = llm_right = rules_right = 0
    start = time.perf_counter()
    for r in rows:
        got = parse_llm(r["text"], base_url, extra)
        if "error" in got:
            errors += 1
            records.append({"id": r["id"], "error": got["error"]})
            continue
        usage = got.get("llm_usage", {})
        requests += int(usage.get("requests", 0))
        cache_hits += int(usage.get("cache_hits", 0))
        completion += int(usage.get("completion_tokens", 0))
        q = parse(got["query"])
        right = any(same_form(f, q) for f in r["forms"])
        problem = check_grounding(r["text"], q) if got["mode"] == "llm" else None
        if got["mode"] == "llm":
            kinds["llm"] += 1
            ungrounded_llm += problem is not None
            llm_right += right
        else:
            fallback = got.get("fallback") or ""
            kinds[_kind(fallback)] += 1
            rules_right += right
        records.append(
            {
                "id": r["id"],
                "text": r["text"],
                "mode": got["mode"],
                "form": got["query"],
                "matches": right,
                "fallback": got.get("fallback"),
                "grounding_problem": problem,
                "requests": usage.get("requests", 0),
            }  # fmt: skip
        )
    return {
        "queries": len(rows),
        "modes": dict(kinds),
        "llm_forms_not_grounded": ungrounded_llm,
        "llm_forms_matching": llm_right,
        "rules_forms_matching": rules_right,
        "errors": errors,
        "requests": requests,
        "cache_hits": cache_hits,
        "completion_tokens": completion,
        "seconds": round(time.perf_counter() - start, 1),
        "records": records,
    }


def _kind(fallback: str) -> str:
    if fallback.startswith("the LLM endpoint failed"):
        return "fallback: endpoint failed"
    if fallback.startswith("the request did not fit"):
        return "fallback: prompt over the context"
    if fallback.startswith("the LLM's answer was unusable"):
        return "fallback: answer unusable"
    if "is not grounded in the question" in fallback:
        return "fallback: not grounded"
    return "fallback: other"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1 :]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("phrasings", type=Path)
    ap.add_argument("--llm-base-url", default=os.environ.get("LOGIR_LLM_BASE_URL"))
    ap.add_argument("--runs", type=int, default=2, help="Times the whole file is read.")
    ap.add_argument("--out", type=Path, help="Write every record as JSON.")
    args = ap.parse_args(argv)
    if not args.llm_base_url:
        print("error: pass --llm-base-url or set LOGIR_LLM_BASE_URL", file=sys.stderr)
        return 2
    lines = args.phrasings.read_text(encoding="utf-8").splitlines()
    rows = [json.loads(x) for x in lines if x.strip()]
    runs = []
    for i in range(1, args.runs + 1):
        run = one_run(rows, args.llm_base_url, extra)
        runs.append(run)
        modes = ", ".join(f"{k} {v}" for k, v in sorted(run["modes"].items()))
        print(
            f"run {i}: {run['queries']} queries: {modes}; errors {run['errors']}; "
            f"forms reported llm but not grounded: {run['llm_forms_not_grounded']}; "
            f"matching a phrasing form: llm {run['llm_forms_matching']}, rules "
            f"{run['rules_forms_matching']}; LLM requests {run['requests']}, answers from the "
            f"cache {run['cache_hits']}, completion tokens {run['completion_tokens']}; "
            f"{run['seconds']} s"
        )
    if len(runs) > 1:
        same = all(
            [(x.get("mode"), x.get("form")) for x in run["records"]]
            == [(x.get("mode"), x.get("form")) for x in runs[0]["records"]]
            for run in runs[1:]
        )
        print(f"later runs give the same mode and form for every query: {same}")
    if args.out:
        args.out.write_text(json.dumps(runs, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
