"""Serve under abuse: 1,000 malformed or oversized requests in a row against `logir serve`.

Indexes NegConstraint (BM25 + dense) into a temporary folder, starts `logir serve` on a free port
of 127.0.0.1, sends the requests on one keep-alive connection (a mix of kinds, cycled), counts the
answers by status, then checks /healthz and one good `POST /search` (composer auto, a NegConstraint
query with a negation) whose per-part evidence must add up to each hit's score.

Usage: python bench/serve_malformed.py [--data ../shared/datasets/negconstraint] [-n 1000]
Exit status 1 when any request got something other than a 4xx with a JSON message, or the checks
after them fail.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "datasets" / "negconstraint"
GOOD_QUERY = "Provide an introduction to Aalborg Municipality without Denmark."
JSON = {"content-type": "application/json"}


def chunked_oversized() -> Iterator[bytes]:
    yield b'{"query": "'
    for _ in range(64):
        yield b"x" * 1024
    yield b'"}'


def bad_requests() -> list[tuple[str, str, dict[str, Any]]]:
    """(kind, path, httpx request arguments) for each kind of bad request."""
    raw = lambda body, headers=JSON: {"content": body, "headers": headers}  # noqa: E731
    js = lambda body: {"json": body}  # noqa: E731
    terms = " OR ".join(f"t{i}" for i in range(40))
    return [
        ("not JSON", "/search", raw(b'{"query": "Aalborg')),
        ("empty body", "/search", raw(b"")),
        ("text/plain body", "/search", raw(b'{"query": "a"}', {"content-type": "text/plain"})),
        ("JSON array", "/search", js(["Aalborg"])),
        ("missing query", "/search", js({"k": 10})),
        ("query not a string", "/search", js({"query": 42})),
        ("empty query", "/search", js({"query": "   "})),
        ("query too long", "/search", js({"query": "Aalborg " * 200})),
        ("too many terms", "/search", js({"query": terms})),
        ("k = 0", "/search", js({"query": "Aalborg", "k": 0})),
        ("k too big", "/search", js({"query": "Aalborg", "k": 10**6})),
        ("k a string", "/search", js({"query": "Aalborg", "k": "10"})),
        ("unknown mode", "/search", js({"query": "Aalborg", "mode": "magic"})),
        ("unknown composer", "/search", js({"query": "Aalborg", "composer": "magic"})),
        ("bad composer value", "/search", js({"query": "a", "composer": "fuzzy,and=xor"})),
        ("unknown field", "/search", js({"query": "Aalborg", "limit": 5})),
        ("syntax error", "/search", js({"query": '"a" AND AND b', "mode": "syntax"})),
        ("nesting > 100", "/parse", js({"query": "(" * 150 + "a" + ")" * 150, "mode": "syntax"})),
        ("JSON nested 15k deep", "/search", raw(b"[" * 15000 + b"]" * 15000)),
        ("invalid UTF-8", "/search", raw(b'{"query": "\xff\xfe"}')),
        ("oversized 40 KB", "/search", js({"query": "x" * 40_000})),
        ("oversized 2 MB", "/search", raw(b" " * 2_000_000)),
        ("oversized, chunked", "/search", raw(chunked_oversized)),
        ("GET /search", "/search", {"method": "GET"}),
    ]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(client: httpx.Client, proc: subprocess.Popen, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"logir serve exited with {proc.returncode}")
        try:
            if client.get("/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise SystemExit("logir serve did not become healthy")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("-n", type=int, default=1000)
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from logir.index.store import build_index, load_corpus

    failures: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        docs = load_corpus(args.data)
        index = build_index(docs, Path(tmp) / "index", retrievers=("bm25", "dense"))
        print(f"index: {len(docs)} passages of {args.data.name}, bm25 + dense, "
              f"{time.perf_counter() - t0:.1f} s")
        port = free_port()
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}
        env.pop("LOGIR_SERVE_TOKEN", None)
        cmd = [sys.executable, "-m", "logir.cli", "serve", str(index), "--port", str(port),
               "--log-level", "warning"]
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
                t0 = time.perf_counter()
                wait_healthy(client, proc)
                print(f"server: logir serve on 127.0.0.1:{port}, healthy after "
                      f"{time.perf_counter() - t0:.1f} s")
                # warm the scorers so the timing below is the requests only
                client.post("/search", json={"query": "Aalborg", "k": 1})
                failures += hammer(client, args.n)
                failures += check_after(client)
        finally:
            proc.terminate()
            proc.wait(30)
    for f in failures[:20]:
        print("FAIL", f)
    print("result:", "FAIL" if failures else "ok")
    return 1 if failures else 0


def hammer(client: httpx.Client, n: int) -> list[str]:
    cases = bad_requests()
    by_status: Counter[int] = Counter()
    by_kind: dict[str, Counter[int]] = {}
    failures: list[str] = []
    t0 = time.perf_counter()
    for i in range(n):
        kind, path, kwargs = cases[i % len(cases)]
        kwargs = dict(kwargs)
        if callable(kwargs.get("content")):
            kwargs["content"] = kwargs["content"]()
        method = kwargs.pop("method", "POST")
        try:
            r = client.request(method, path, **kwargs)
        except httpx.TransportError as exc:
            failures.append(f"{kind}: no answer ({exc!r})")
            by_status[0] += 1
            continue
        by_status[r.status_code] += 1
        by_kind.setdefault(kind, Counter())[r.status_code] += 1
        try:
            message = r.json().get("error")
        except (json.JSONDecodeError, AttributeError):
            message = None
        if not 400 <= r.status_code < 500 or not message:
            failures.append(f"{kind}: {r.status_code} {r.text[:200]!r}")
    wall = time.perf_counter() - t0
    answered = sum(c for s, c in by_status.items() if 400 <= s < 500)
    print(f"malformed: {n} requests in {wall:.1f} s ({1000 * wall / n:.1f} ms each), "
          f"{answered} answered 4xx with a JSON message")
    print("  by status: " + ", ".join(f"{s}: {c}" for s, c in sorted(by_status.items())))
    for kind, counts in by_kind.items():
        shown = ", ".join(f"{s}" for s in sorted(counts))
        print(f"  {kind:<22} -> {shown} x{sum(counts.values())}")
    return failures


def check_after(client: httpx.Client) -> list[str]:
    failures: list[str] = []
    health = client.get("/healthz")
    print(f"healthz after: {health.status_code} {health.json()}")
    if health.status_code != 200 or health.json().get("status") != "ok":
        failures.append(f"healthz: {health.status_code} {health.text[:200]}")
    t0 = time.perf_counter()
    r = client.post("/search", json={"query": GOOD_QUERY, "composer": "auto", "k": 10})
    ms = 1000 * (time.perf_counter() - t0)
    if r.status_code != 200:
        return [*failures, f"good search: {r.status_code} {r.text[:200]}"]
    body = r.json()
    worst = max(abs(sum(h["evidence"].values()) - h["score"]) for h in body["hits"])
    print(f"good search: {body['query']!r} -> {body['logical_form']} ({body['retriever']}, "
          f"{body['composer']}), {len(body['hits'])} hits in {ms:.0f} ms")
    for h in body["hits"][:3]:
        parts = ", ".join(f"{k!r} {v:+.4f}" for k, v in h["evidence"].items())
        print(f"  {h['rank']}. {h['id']} score {h['score']:.4f} = {parts}")
    print(f"  evidence sums vs scores, all {len(body['hits'])} hits: max |difference| {worst:.1e}")
    if not body["hits"] or worst > 1e-5:
        failures.append(f"good search: evidence does not add up (max difference {worst:.2e})")
    return failures


if __name__ == "__main__":
    sys.exit(main())
