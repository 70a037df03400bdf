"""`logir serve` under hostile HTTP (issue 10): malformed requests, a search at its limits, memory.

Builds a BM25 index of a BEIR folder (default: SciFact) unless --index names one, starts
`logir serve` on a free port of 127.0.0.1 and runs three phases:

1. malformed: at least 2,000 bad requests to /search and /parse (random bytes, truncated JSON,
   wrong types, huge numbers, NaN/Infinity literals, deep nesting, unicode junk, wrong content
   types, missing and duplicate fields, over-long queries, bad composer specs including every one
   of issue 10, bad retrievers, unbalanced parentheses, bad headers, slow bodies); counts the
   answers by status. Any 5xx or a request with no answer is a failure.
2. healthz: the slowest of a set of searches at the server's limits runs back to back on one
   connection while /healthz is asked every 20 ms on another; prints its latency p50/p99/max.
3. memory: VmRSS of the server (/proc/PID/status) at start, after a warm-up of unique searches
   and after 10,000 more unique searches (sampled every 1,000); flat means within +-5 %.

The issue's ReDoS reproducers (", excluding a, a, ..." with 40 and 10,000 items) are sent last,
then /healthz once more.

Usage: python bench/http_malformed.py [--data DIR | --index IDX] [-n 2000] [--unique 10000]
Exit status 1 when any request got a 5xx or no answer, /healthz ever took 100 ms or more, or RSS
moved more than 5 % after the warm-up.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "datasets" / "scifact"
JSON = {"content-type": "application/json"}
#: words of SciFact's field, for queries that find something
WORDS = " ".join(
    [
        "cell protein cancer gene expression mutation virus immune brain blood insulin tumor",
        "receptor kinase mice patients therapy risk infection vaccine dose trial children",
        "heart liver lung bone vitamin diet obesity stress sleep memory neuron signal pathway",
    ]
).split(" ")
ISSUE_SPECS = [
    "hybrid,beta=nan",
    "auto,beta=nan",
    "fuzzy,k=1e12",
    "sets,depth=1e12",
    "sets,depth=100000000",
]

Case = tuple[str, str, dict[str, Any]]  # (kind, path, httpx request arguments)

_HEAD = b"POST /search HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
#: requests httpx will not send: bad headers and framing, written to the socket as they are
WIRE = [
    ("Content-Length abc", _HEAD + b'Content-Length: abc\r\n\r\n{"query": "a"}'),
    ("Content-Length -1", _HEAD + b'Content-Length: -1\r\n\r\n{"query": "a"}'),
    (
        "two Content-Lengths",
        _HEAD + b'Content-Length: 14\r\nContent-Length: 3\r\n\r\n{"query": "a"}',
    ),
    (
        "Content-Length and chunked",
        _HEAD + b'Content-Length: 14\r\nTransfer-Encoding: chunked\r\n\r\n{"query": "a"}',
    ),
    ("bad chunk size", _HEAD + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"),
    ("header of 64 KB", _HEAD + b"X-Junk: " + b"a" * 65536 + b"\r\nContent-Length: 2\r\n\r\n{}"),
    ("garbage request line", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n"),
    ("HTTP/0.9", b"GET /healthz\r\n\r\n"),
    ("NUL in header", _HEAD + b"X-A: a\x00b\r\nContent-Length: 2\r\n\r\n{}"),
]


def redos(items: int) -> str:
    return "films, excluding " + ", ".join(["a"] * items)


# -- phase 1: malformed requests ------------------------------------------------------------------


def raw(body: bytes, headers: dict[str, str] | None = None) -> dict[str, Any]:
    return {"content": body, "headers": JSON if headers is None else headers}


def js(body: Any) -> dict[str, Any]:
    return {"content": json.dumps(body).encode(), "headers": JSON}


def junk_text(rnd: random.Random, n: int) -> str:
    """Unicode junk: controls, zero-width and bidi marks, combining marks, CJK, emoji, escapes."""
    pools = [
        (0x0000, 0x001F),
        (0x200B, 0x200F),
        (0x202A, 0x202E),
        (0x0300, 0x036F),
        (0x4E00, 0x4E80),
        (0x1F600, 0x1F64F),
        (0x0041, 0x007A),
        (0xFFF0, 0xFFFF),
    ]
    out = []
    for _ in range(n):
        lo, hi = rnd.choice(pools)
        out.append(chr(rnd.randint(lo, hi)))
    return "".join(out)


def nested(depth: int, kind: str) -> bytes:
    if kind == "list":
        return b"[" * depth + b"]" * depth
    if kind == "object":
        return b'{"a":' * depth + b"1" + b"}" * depth
    return b'{"query": ' + b"[" * depth + b"]" * depth + b"}"


def fixed_cases() -> list[Case]:
    """Every named case once: the issue's, and one of each kind of bad request."""
    cases: list[Case] = []
    for path in ("/search", "/parse"):
        cases += [
            ("empty body", path, raw(b"")),
            ("JSON null", path, raw(b"null")),
            ("JSON array", path, js(["vitamin"])),
            ("JSON string", path, js("vitamin")),
            ("JSON number", path, raw(b"1e999")),
            ("missing query", path, js({"mode": "auto"})),
            ("duplicate query", path, raw(b'{"query": "a", "query": "b"}')),
            ("duplicate query types", path, raw(b'{"query": "a", "query": 5}')),
            ("query null", path, js({"query": None})),
            ("query number", path, js({"query": 1e308})),
            ("query list", path, js({"query": ["a", "b"]})),
            ("query object", path, js({"query": {"a": 1}})),
            ("query bool", path, js({"query": True})),
            ("query blank", path, js({"query": " \t\n "})),
            ("query 1001 chars", path, js({"query": "a" * 1001})),
            ("query 30,000 chars", path, js({"query": "cancer " * 4300})),
            ("query NUL", path, js({"query": "a\u0000b"})),
            ("query lone surrogate", path, raw(b'{"query": "\\ud800"}')),
            ("invalid UTF-8", path, raw(b'{"query": "\xff\xfe\xfd"}')),
            ("UTF-16 body", path, raw('{"query": "a"}'.encode("utf-16"))),
            ("latin-1 body", path, raw('{"query": "caf\xe9"}'.encode("latin-1"))),
            ("BOM", path, raw(b'\xef\xbb\xbf{"query": "a"}')),
            ("mode unknown", path, js({"query": "a", "mode": "regex"})),
            ("mode number", path, js({"query": "a", "mode": 3})),
            ("unknown field", path, js({"query": "a", "colour": "red"})),
            ("text/plain", path, raw(b'{"query": "a"}', {"content-type": "text/plain"})),
            ("form", path, raw(b"query=a", {"content-type": "application/x-www-form-urlencoded"})),
            (
                "multipart",
                path,
                raw(b"--x\r\n\r\na\r\n--x--", {"content-type": "multipart/form-data; boundary=x"}),
            ),
            ("no content type", path, raw(b'{"query": "a"}', {})),
            (
                "JSON charset latin-1",
                path,
                raw(
                    '{"query": "\xe9"}'.encode("latin-1"),
                    {"content-type": "application/json; charset=latin-1"},
                ),
            ),
            ("NaN literal", path, raw(b'{"query": NaN}')),
            ("deep list 15k", path, raw(nested(15_000, "list"))),
            ("deep object 5k", path, raw(nested(5_000, "object"))),
            ("deep query value", path, raw(nested(10_000, "query"))),
            ("oversized 40 KB", path, js({"query": "x" * 40_000})),
            ("oversized 2 MB", path, raw(b" " * 2_000_000)),
            ("syntax error", path, js({"query": '"a" AND AND b', "mode": "syntax"})),
            (
                "nesting 150 (syntax)",
                path,
                js({"query": "(" * 150 + "a" + ")" * 150, "mode": "syntax"}),
            ),
            ("1,000 '(' (auto)", path, js({"query": "(" * 1000})),
            ("1,000 '(' (natural)", path, js({"query": "(" * 999 + "a", "mode": "natural"})),
            ("1,000 ')' (syntax)", path, js({"query": ")" * 1000, "mode": "syntax"})),
            ("500 '(' then a", path, js({"query": "(" * 500 + "a AND b"})),
            ("too many terms", path, js({"query": " OR ".join(f"t{i}" for i in range(40))})),
            ("GET", path, {"method": "GET"}),
            ("PUT", path, {"method": "PUT", **js({"query": "a"})}),
        ]
    cases += [(f"wire: {name}", "/search", {"wire": data}) for name, data in WIRE]
    s = "/search"
    cases += [
        ("k 0", s, js({"query": "a", "k": 0})),
        ("k negative", s, js({"query": "a", "k": -5})),
        ("k 1001", s, js({"query": "a", "k": 1001})),
        ("k 10^30", s, raw(b'{"query": "a", "k": 1000000000000000000000000000000}')),
        ("k 5000 digits", s, raw(b'{"query": "a", "k": 1' + b"0" * 5000 + b"}")),
        ("k 1e308", s, js({"query": "a", "k": 1e308})),
        ("k 1e999", s, raw(b'{"query": "a", "k": 1e999}')),
        ("k -1e308", s, js({"query": "a", "k": -1e308})),
        ("k NaN", s, raw(b'{"query": "a", "k": NaN}')),
        ("k Infinity", s, raw(b'{"query": "a", "k": Infinity}')),
        ("k -Infinity", s, raw(b'{"query": "a", "k": -Infinity}')),
        ("k string", s, js({"query": "a", "k": "10"})),
        ("k float", s, js({"query": "a", "k": 2.5})),
        ("k bool", s, js({"query": "a", "k": True})),
        ("k list", s, js({"query": "a", "k": [10]})),
        ("duplicate k", s, raw(b'{"query": "a", "k": 5, "k": 1e999}')),
        ("retriever elastic", s, js({"query": "a", "retriever": "elastic"})),
        ("retriever dense (absent)", s, js({"query": "a", "retriever": "dense"})),
        ("retriever hybrid (absent)", s, js({"query": "a", "retriever": "hybrid"})),
        ("retriever splade (absent)", s, js({"query": "a", "retriever": "splade"})),
        ("retriever empty", s, js({"query": "a", "retriever": ""})),
        ("retriever number", s, js({"query": "a", "retriever": 5})),
        ("composer empty", s, js({"query": "a", "composer": ""})),
        ("composer number", s, js({"query": "a", "composer": 3})),
        ("composer 201 chars", s, js({"query": "a", "composer": "sets,depth=1" + "0" * 190})),
        ("composer LLM without endpoint", s, js({"query": "a", "composer": "hyde"})),
    ]
    specs = [
        *ISSUE_SPECS,
        "hybrid,beta=inf",
        "hybrid,beta=-inf",
        "hybrid,beta=1e400",
        "auto,tau=1",
        "auto,flat_weight=nan",
        "fuzzy,k=0",
        "fuzzy,k=-1",
        "fuzzy,k=10001",
        "fuzzy,tau=nan,lam=1",
        "fuzzy,tau=1,lam=inf",
        "fuzzy,and=xor",
        "fuzzy,k=1,k=2",
        "sets,depth=",
        "sets,depth=0x10",
        "sets,depth=1_000_000",
        "sets,depth=" + "9" * 150,
        "vectors,lam=nan",
        "vectors,k=1e12",
        "vectors,neg=magic",
        "magic",
        ",,,",
        "flat,k=3",
        "fuzzy,\u00e9=1",
        "sets,depth=\u0661\u0662",
    ]
    cases += [
        (f"composer {spec[:30]}", s, js({"query": "cancer", "composer": spec})) for spec in specs
    ]
    cases.append(
        (
            "composer sets,depth=10000 k=1000 (at the limits)",
            s,
            js({"query": "cancer OR cell", "composer": "sets,depth=10000", "k": 1000}),
        )
    )
    cases.append(("ReDoS 10,000 items", s, js({"query": redos(10_000)})))
    cases.append(("ReDoS 10,000 items", "/parse", js({"query": redos(10_000)})))
    return cases


def random_case(rnd: random.Random) -> Case:
    """One random malformed request."""
    path = rnd.choice(("/search", "/parse"))
    good = json.dumps({"query": " ".join(rnd.choices(WORDS, k=4)), "mode": "auto", "k": 10})
    roll = rnd.randrange(9)
    if roll == 0:
        return "random bytes", path, raw(rnd.randbytes(rnd.randint(1, 3000)))
    if roll == 1:
        cut = rnd.randint(1, len(good) - 1)
        return "truncated JSON", path, raw(good[:cut].encode())
    if roll == 2:
        field = rnd.choice(["query", "mode", "k", "composer", "retriever"])
        value = rnd.choice([None, True, 3, -7, 1.5, [], {}, [1, [2]], {"x": "y"}, "", "\u0000"])
        return f"wrong type ({field})", "/search", js({"query": "cell", field: value})
    if roll == 3:
        literal = rnd.choice([b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-1e999", b"9" * 400])
        field = rnd.choice([b"query", b"k", b"mode"])
        body = b'{"query": "cell", "' + field + b'": ' + literal + b"}"
        return "huge number or NaN/Infinity literal", "/search", raw(body)
    if roll == 4:
        depth = rnd.randint(1_000, 16_000)
        return "deep nesting", path, raw(nested(depth, rnd.choice(["list", "object", "query"])))
    if roll == 5:
        text = junk_text(rnd, rnd.randint(1, 900))
        return (
            "unicode junk",
            path,
            js({"query": text, "mode": rnd.choice(["auto", "natural", "syntax"])}),
        )
    if roll == 6:
        ctype = rnd.choice(
            ["text/plain", "application/xml", "", "application/json; charset=utf-16", "*/*"]
        )
        return (
            "wrong content type",
            path,
            raw(good.encode(), {"content-type": ctype} if ctype else {}),
        )
    if roll == 7:
        spec = rnd.choice(
            ISSUE_SPECS
            + [
                "sets,depth=" + str(rnd.randint(10_001, 10**9)),
                f"fuzzy,k={rnd.random() * 1e12:g}",
                f"hybrid,beta={rnd.choice(['nan', 'inf', '-1', '1e309'])}",
            ]
        )
        return "bad composer spec", "/search", js({"query": "cell AND NOT virus", "composer": spec})
    body = {"query": "x" * rnd.randint(1001, 30_000)} if rnd.random() < 0.5 else {"mode": "auto"}
    return "over-long or missing query", path, js(body)


def send(client: httpx.Client, case: Case) -> tuple[int, str]:
    kind, path, kwargs = case
    if "wire" in kwargs:
        return wire(str(client.base_url), kwargs["wire"])
    kwargs = dict(kwargs)
    method = kwargs.pop("method", "POST")
    headers = kwargs.pop("headers", None)
    try:
        r = client.request(method, path, headers=headers, **kwargs)
    except httpx.TransportError as exc:
        return 0, f"no answer ({type(exc).__name__})"
    try:
        message = str(r.json().get("error", ""))
    except (ValueError, AttributeError):
        message = ""
    return r.status_code, message


def wire(url: str, data: bytes) -> tuple[int, str]:
    """Write ``data`` to a new connection; the status and message answered (0: none)."""
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    got = b""
    with socket.create_connection((host, int(port)), timeout=30) as s:
        try:
            s.sendall(data)
            while chunk := s.recv(65536):
                got += chunk
        except (TimeoutError, ConnectionError):
            pass
    head, _, body = got.partition(b"\r\n\r\n")
    try:
        status = int(head.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0, f"no HTTP answer ({got[:40]!r})"
    try:
        return status, str(json.loads(body).get("error", ""))
    except (ValueError, AttributeError):
        return status, f"(not JSON) {body[:60]!r}"


def slow_body(url: str, sent: bytes, declared: int = 200) -> int:
    """Declare a body of ``declared`` bytes, send ``sent``, stop: the status answered (0: none)."""
    host, port = url.removeprefix("http://").split(":")
    head = (
        f"POST /search HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {declared}\r\n\r\n"
    ).encode()
    with socket.create_connection((host, int(port)), timeout=120) as s:
        s.sendall(head + sent)
        got = b""
        try:
            while chunk := s.recv(65536):
                got += chunk
        except TimeoutError:
            return 0
    try:
        return int(got.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0


class Tally:
    """Answers counted by status and by kind of request."""

    def __init__(self) -> None:
        self.by_status: Counter[int] = Counter()
        self.by_kind: dict[str, Counter[int]] = {}
        self.failures: list[str] = []

    def add(self, kind: str, status: int, message: str) -> None:
        self.by_status[status] += 1
        self.by_kind.setdefault(kind, Counter())[status] += 1
        if status == 0 or status >= 500:
            self.failures.append(f"{kind}: {status} {message[:160]}")
        elif status >= 400 and not message:
            self.failures.append(f"{kind}: {status} without an error message")

    @property
    def total(self) -> int:
        return sum(self.by_status.values())

    def show(self, title: str) -> None:
        fives = sum(c for s, c in self.by_status.items() if s >= 500)
        print(f"{title}: {self.total} requests; 5xx: {fives}; no answer: {self.by_status[0]}")
        print("  by status: " + ", ".join(f"{s}: {c}" for s, c in sorted(self.by_status.items())))
        for kind, counts in sorted(self.by_kind.items()):
            shown = " ".join(f"{s}x{c}" for s, c in sorted(counts.items()))
            print(f"    {kind[:44]:<44} {shown}")


def malformed(url: str, n: int, seed: int) -> Tally:
    rnd = random.Random(seed)
    cases = fixed_cases()
    cases += [random_case(rnd) for _ in range(max(0, n - len(cases)))]
    tally = Tally()
    t0 = time.perf_counter()
    # slow bodies run beside the rest: each holds its connection until the server gives up on it
    slow = [b"", b'{"query": "ca', b'{"query": "cancer", "k": 1']
    with ThreadPoolExecutor(len(slow)) as pool:
        pending = [pool.submit(slow_body, url, s) for s in slow]
        with httpx.Client(base_url=url, timeout=60) as client:
            for case in cases:
                tally.add(case[0], *send(client, case))
        for s, f in zip(slow, pending, strict=True):
            status = f.result()
            tally.add(f"slow body ({len(s)} of 200 bytes sent)", status, "ok" if status else "")
    wall = time.perf_counter() - t0
    print(f"malformed: {tally.total} requests in {wall:.1f} s")
    return tally


# -- phase 2: /healthz while a search at the limits runs --------------------------------------


def worst_cases() -> list[dict[str, Any]]:
    words = WORDS[:16]
    return (
        [
            {"query": " OR ".join(words), "mode": "syntax", "composer": c, "k": 1000}
            for c in (
                "auto",
                "fuzzy,k=10000",
                "sets,depth=10000",
                "vectors,k=10000",
                "hybrid,k=10000",
            )
        ]
        + [
            {
                "query": ("studies of " + " ".join(random.Random(i).choices(WORDS, k=200)))[:1000],
                "mode": "natural",
                "composer": "fuzzy,k=10000",
                "k": 1000,
            }
            for i in range(2)
        ]
        + [
            {
                "query": "papers on " + ", ".join(words) + " but not " + " or ".join(WORDS[16:31]),
                "composer": c,
                "k": 1000,
            }
            for c in ("auto", "fuzzy,k=10000,and=min", "sets,depth=10000")
        ]
    )


def healthz_while_searching(url: str, seconds: float) -> tuple[dict[str, float], list[str]]:
    with httpx.Client(base_url=url, timeout=60) as c:
        timed = []
        for body in worst_cases():
            t0 = time.perf_counter()
            r = c.post("/search", json=body)
            timed.append((time.perf_counter() - t0, r.status_code, body))
        took, status, worst = max(timed, key=lambda t: t[0])
    print(
        f"worst case of {len(timed)}: {took * 1000:.0f} ms ({status}), composer "
        f"{worst['composer']}, {len(worst['query'])} chars, k {worst['k']}"
    )
    stop = threading.Event()
    searches: list[float] = []
    statuses: Counter[int] = Counter()

    def search_loop() -> None:
        with httpx.Client(base_url=url, timeout=60) as c:
            while not stop.is_set():
                t0 = time.perf_counter()
                statuses[c.post("/search", json=worst).status_code] += 1
                searches.append(time.perf_counter() - t0)

    thread = threading.Thread(target=search_loop)
    thread.start()
    latencies: list[float] = []
    failures: list[str] = []
    time.sleep(0.2)
    with httpx.Client(base_url=url, timeout=60) as c:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            t0 = time.perf_counter()
            r = c.get("/healthz")
            latencies.append(time.perf_counter() - t0)
            if r.status_code != 200:
                failures.append(f"healthz: {r.status_code}")
            time.sleep(0.02)
    stop.set()
    thread.join()
    ms = sorted(x * 1000 for x in latencies)
    figures = {
        "n": len(ms),
        "p50": statistics.median(ms),
        "p99": ms[min(len(ms) - 1, int(0.99 * len(ms)))],
        "max": ms[-1],
        "searches": len(searches),
        "search_ms": 1000 * statistics.median(searches) if searches else 0.0,
    }
    print(
        f"healthz while the worst case ran back to back ({figures['searches']} searches, "
        f"median {figures['search_ms']:.0f} ms, statuses {dict(statuses)}): "
        f"{figures['n']} checks, p50 {figures['p50']:.1f} ms, p99 {figures['p99']:.1f} ms, "
        f"max {figures['max']:.1f} ms"
    )
    if figures["max"] >= 100:
        failures.append(f"healthz max {figures['max']:.0f} ms >= 100 ms")
    if any(s >= 500 for s in statuses):
        failures.append(f"worst-case search statuses {dict(statuses)}")
    return figures, failures


# -- phase 3: memory over unique searches -------------------------------------------------------


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise SystemExit(f"no VmRSS for process {pid}")


def unique_bodies(seed: int) -> Iterator[dict[str, Any]]:
    """Endless search bodies, each with a query text never sent before."""
    rnd = random.Random(seed)
    composers = ["auto", "hybrid", "fuzzy", "sets", "flat", "vectors", "fuzzy,and=min"]
    i = 0
    while True:
        a, b, c = rnd.sample(WORDS, 3)
        tag = f"{rnd.choice(WORDS)}{i}"
        query = rnd.choice(
            [
                f"{a} {b} {tag} excluding {c}",
                f'"{a} {tag}" AND NOT "{c}"',
                f"{a} or {b} studies about {tag} without {c}",
                f"which {a} {tag} is not {b}",
                f"{a} {b} {c} {tag} " + " ".join(rnd.choices(WORDS, k=rnd.randint(0, 60))),
            ]
        )
        yield {
            "query": query,
            "composer": composers[i % len(composers)],
            "k": rnd.choice([10, 100]),
        }
        i += 1


def memory(
    url: str, pid: int, warmup: int, unique: int, workers: int = 4
) -> tuple[dict[str, float], list[str]]:
    bodies = unique_bodies(7)
    lock = threading.Lock()
    statuses: Counter[int] = Counter()

    def run(count: int) -> None:
        def one(_: int) -> None:
            with lock:
                body = next(bodies)
            statuses[
                clients[threading.get_ident() % workers].post("/search", json=body).status_code
            ] += 1

        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(one, range(count)))

    clients = [httpx.Client(base_url=url, timeout=60) for _ in range(workers)]
    try:
        first = rss_mb(pid)
        t0 = time.perf_counter()
        run(warmup)
        warm = rss_mb(pid)
        samples = [warm]
        step = max(1, unique // 10)
        for _ in range(0, unique, step):
            run(step)
            samples.append(rss_mb(pid))
        wall = time.perf_counter() - t0
    finally:
        for c in clients:
            c.close()
    final = samples[-1]
    change = 100 * (final - warm) / warm
    figures = {
        "first": first,
        "warm": warm,
        "final": final,
        "change_pct": change,
        "min": min(samples),
        "max": max(samples),
    }
    print(
        f"memory: {warmup} warm-up + {unique} unique searches in {wall:.0f} s, statuses "
        f"{dict(sorted(statuses.items()))}"
    )
    print(
        f"  VmRSS MB: first {first:.1f}, after warm-up {warm:.1f}, final {final:.1f} "
        f"({change:+.1f} %); every {step}: " + " ".join(f"{s:.1f}" for s in samples)
    )
    failures = []
    if abs(change) > 5:
        failures.append(f"RSS moved {change:+.1f} % after the warm-up")
    if any(s >= 500 or s == 0 for s in statuses):
        failures.append(f"unique searches: statuses {dict(statuses)}")
    return figures, failures


# -- driver -------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"logir serve exited with {proc.returncode}")
        try:
            if httpx.get(url + "/healthz", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise SystemExit("logir serve did not become healthy")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA, help="BEIR folder to index (BM25)")
    ap.add_argument("--index", type=Path, help="an index to serve instead of building one")
    ap.add_argument("-n", type=int, default=2000, help="malformed requests (at least the named)")
    ap.add_argument("--unique", type=int, default=10_000, help="unique searches after warm-up")
    ap.add_argument("--warmup", type=int, default=5000, help="unique searches before measuring")
    ap.add_argument("--healthz-seconds", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=10)
    args = ap.parse_args()
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        index = args.index
        if index is None:
            sys.path.insert(0, str(ROOT))
            from logir.index.store import build_index, load_corpus

            t0 = time.perf_counter()
            docs = load_corpus(args.data)
            index = build_index(docs, Path(tmp) / "index", retrievers=("bm25",))
            print(
                f"index: {len(docs)} passages of {args.data.name}, bm25, "
                f"{time.perf_counter() - t0:.1f} s"
            )
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}
        env.pop("LOGIR_SERVE_TOKEN", None)
        cmd = [
            sys.executable,
            "-m",
            "logir.cli",
            "serve",
            str(index),
            "--port",
            str(port),
            "--log-level",
            "critical",
        ]
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env)
        try:
            t0 = time.perf_counter()
            wait_healthy(url, proc)
            print(
                f"server: logir serve (pid {proc.pid}) on {url}, healthy after "
                f"{time.perf_counter() - t0:.1f} s"
            )
            tally = malformed(url, args.n, args.seed)
            _, fails = healthz_while_searching(url, args.healthz_seconds)
            failures += fails
            _, fails = memory(url, proc.pid, args.warmup, args.unique)
            failures += fails
            # last: the issue's ReDoS reproducers, then the health check once more
            with httpx.Client(base_url=url, timeout=60) as client:
                for items in (40, 10_000):
                    for path in ("/search", "/parse"):
                        t0 = time.perf_counter()
                        status, message = send(
                            client, (f"ReDoS {items}", path, js({"query": redos(items)}))
                        )
                        ms = 1000 * (time.perf_counter() - t0)
                        print(
                            f"ReDoS {items} items to {path}: {status} in {ms:.0f} ms "
                            f"{message[:80]!r}"
                        )
                        tally.add(f"ReDoS {items} items (last)", status, message)
                t0 = time.perf_counter()
                try:
                    health = client.get("/healthz", timeout=10).status_code
                except httpx.TransportError as exc:
                    health = 0
                    print(f"healthz after ReDoS: no answer ({type(exc).__name__})")
                ms = 1000 * (time.perf_counter() - t0)
                print(f"healthz after everything: {health} in {ms:.0f} ms")
                if health != 200:
                    failures.append(f"healthz after everything: {health}")
            tally.show("malformed (all phases)")
            failures += tally.failures
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                print("logir serve ignored SIGTERM for 30 s; killing it")
                failures.append("SIGTERM ignored")
                proc.kill()
                proc.wait()
    for f in failures[:30]:
        print("FAIL", f)
    print("result:", "FAIL" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
