"""Fuzzing the query readers: no input may crash them, hang them or take superlinear time.

    python bench/fuzz.py [-n 100000] [--seed 0] [--out fuzz.json]

Feeds N random texts to the three readers of user text: ``parse`` (logir syntax),
``decompose`` (natural language) and ``understand`` in its default ``auto`` mode (the reading
``logir search`` and the server use). The texts come from six generators:

- ``unicode``: random code points (no surrogates) with control characters, right-to-left text
  and marks, combining marks, zero-width characters and emoji over-represented;
- ``cues``: words, brackets, quotes and punctuation of the query grammar and of the negation,
  list and coordination cues of ``logir.query.natural``;
- ``nesting``: brackets, NOTs and quotes nested (or left open) up to 10,000 deep;
- ``adversarial``: families built against backtracking and quadratic passes (the listed
  exclusion ``films, excluding a, a, ...`` of issue 10, long whitespace, comma or dot runs,
  repeated cues), at sizes up to 10,000 items;
- ``long``: a few hundred texts of 10,000 characters to 1 MB.

A call may return a Query or raise a ``LogirError`` (a refusal with a message); any other
exception is counted as unexpected and the first few are printed with their input. For each
reader it prints the calls, refusals, unexpected exceptions, the slowest call and its input, and
the mean time per accepted call by length bucket, with the exponent ``a`` of ``time ~ length^a``
fitted over the buckets of 256 characters and more (``a`` near 1: linear). ``--out`` writes the
same figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from logir.errors import LogirError  # noqa: E402
from logir.query.natural import decompose  # noqa: E402
from logir.query.syntax import parse  # noqa: E402
from logir.query.understand import understand  # noqa: E402

TIMEOUT_S = 20.0
"""A call still running after this long is stopped and counted as unexpected (a hang)."""

BUCKETS = (0, 16, 64, 256, 1_024, 4_096, 16_384, 65_536, 262_144, 1 << 30)

_GRAMMAR = ["AND", "OR", "NOT", "and", "or", "not", "Not", "(", ")", '"', '\\"', "\\", "\\\\"]
_CUES = (  # noqa: SIM905 - easier to read as one text
    "not never n't don't isn't doesn't cannot excluding exclude except except for other than "
    "without apart from aside from besides not including leaving out ignoring unrelated to "
    "mention mentioning discuss refrain from avoid omit nothing is said about no mention of "
    "neither nor either both also in addition to what other else non- non-fiction that are also "
    "which is also as well as please but yet while whereas how why when where who whose "
    "films by Nolan Villeneuve cats dogs birds of Asia vitamin D Dr e.g U.S. etc. "
    "anything related to any information about the a an of in find list "
    "1. 2. 3. 1) 2) (1) (2) - * \u2022 \u2013 \u2014"
).split()
_PUNCT = [
    ",", ", ", ".", ". ", ";", ":", "?", "!", "(", ")", '"', "'", "\u2019", "-", " ", "  ",
    "\t", "\n", "\r\n", " \n ", "\u00a0", "\u3000",
]  # fmt: skip
_POOLS = [
    (0x20, 0x7E),  # ASCII
    (0x00, 0x1F),  # control characters
    (0x7F, 0x9F),
    (0xA0, 0x24F),  # Latin
    (0x300, 0x36F),  # combining marks
    (0x590, 0x6FF),  # Hebrew, Arabic
    (0x200B, 0x200F),  # zero-width, LRM/RLM
    (0x202A, 0x202E),  # embeddings and overrides
    (0x2066, 0x2069),  # isolates
    (0x2000, 0x206F),  # general punctuation (unicode spaces, dashes)
    (0x4E00, 0x9FFF),  # CJK
    (0x1F300, 0x1FAFF),  # emoji
    (0xFE00, 0xFFFF),  # variation selectors, specials, BOM
    (0x0, 0x10FFFF),  # anything
]


def _code_point(r: random.Random) -> str:
    lo, hi = r.choice(_POOLS)
    while True:
        c = r.randint(lo, hi)
        if not 0xD800 <= c <= 0xDFFF:
            return chr(c)


def _length(r: random.Random, top: int = 2_000) -> int:
    """Mostly short, log-uniform up to ``top``."""
    return max(1, int(math.exp(r.uniform(0, math.log(top)))))


def gen_unicode(r: random.Random, n: int | None = None) -> str:
    return "".join(_code_point(r) for _ in range(n or _length(r)))


def gen_cues(r: random.Random, n: int | None = None) -> str:
    target = n or _length(r)
    parts: list[str] = []
    size = 0
    while size < target:
        x = r.random()
        if x < 0.45:
            piece = r.choice(_CUES) + " "
        elif x < 0.6:
            piece = r.choice(_GRAMMAR) + r.choice(" (")
        elif x < 0.95:
            piece = r.choice(_PUNCT)
        else:
            piece = _code_point(r)
        parts.append(piece)
        size += len(piece)
    return "".join(parts)[:target]


def gen_nesting(r: random.Random) -> str:
    d = _length(r, 10_000)
    inner = r.choice(["a", "films", "not x", "a OR b", '"a"', "excluding x, y and z", ""])
    kind = r.randrange(8)
    if kind == 0:
        return "(" * d + inner + ")" * d
    if kind == 1:
        return "(" * d + inner
    if kind == 2:
        return inner + ")" * d
    if kind == 3:
        return "NOT " * d + "a"
    if kind == 4:
        return '"' * d + inner
    if kind == 5:
        return "(NOT " * d + "a" + ")" * r.randint(0, d)
    if kind == 6:
        return "films (excluding " * d + "x"
    return "".join(r.choice('()"') for _ in range(d))


_FAMILIES: list[Callable[[int], str]] = [
    lambda k: "films, excluding " + ", ".join(["a"] * k),  # issue 10's reproducer
    lambda k: "films, excluding " + ", ".join(["horror"] * k) + ", and drama",
    lambda k: "films, excluding " + ", ".join(["a"] * k) + " or",
    lambda k: "films" + " " * k + "x",
    lambda k: "films not" + " \t" * k + "x",
    lambda k: "x" + " ," * k + "y",
    lambda k: "a. " * k,
    lambda k: "a.a" * k + ". x",
    lambda k: "x that" + " is" * k + " y",
    lambda k: "x" + " and" * k + " an",
    lambda k: "films " + "not x " * k,
    lambda k: "films " + ", excluding x" * k,
    lambda k: "films " + "(not x " * k,
    lambda k: "either " * k + "x",
    lambda k: "either a " + "or b " * k + "\nx",
    lambda k: "both " * k + "x and",
    lambda k: "films by a" + " or b" * k,
    lambda k: "Films not by x. " * k,
    lambda k: "\n".join(["- not x"] * k),
    lambda k: "Find: " + " ".join(f"{i % 99 + 1}. not x" for i in range(k)),
    lambda k: "-" * k,
    lambda k: "a AND " * k + "b",
    lambda k: '"a" OR ' * k + '"b"',
    lambda k: "films but not (x, excluding a, b or c) either d or e; " * max(1, k // 10),
]


def gen_adversarial(r: random.Random) -> str:
    return r.choice(_FAMILIES)(_length(r, 10_000))


def gen_long(r: random.Random) -> str:
    n = int(math.exp(r.uniform(math.log(10_000), math.log(1_000_000))))
    chunk = gen_cues(r, 2_000) if r.random() < 0.5 else gen_unicode(r, 2_000)
    return (chunk * (n // len(chunk) + 1))[:n]


def inputs(n: int, seed: int) -> list[tuple[str, str]]:
    """``n`` (generator, text) pairs: a few hundred long texts, 1 % nesting, 1 % adversarial, the
    rest random unicode and cue mixes half and half."""
    r = random.Random(seed)
    n_long = min(300, max(1, n // 300))
    n_nest = max(1, n // 100)
    n_adv = max(1, n // 100)
    out = [("long", gen_long(r)) for _ in range(n_long)]
    out += [("nesting", gen_nesting(r)) for _ in range(n_nest)]
    out += [("adversarial", gen_adversarial(r)) for _ in range(n_adv)]
    # The ReDoS family at fixed sizes, so every run times the same cases.
    out += [("adversarial", _FAMILIES[0](k)) for k in (24, 100, 1_000, 10_000)]
    while len(out) < n:
        out.append(("unicode", gen_unicode(r)) if r.random() < 0.5 else ("cues", gen_cues(r)))
    r.shuffle(out)
    return out[:n]


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout


READERS: dict[str, Callable[[str], Any]] = {
    "parse": parse,
    "decompose": decompose,
    "understand": understand,
}


def _bucket(length: int) -> int:
    for i in range(len(BUCKETS) - 1):
        if length < BUCKETS[i + 1]:
            return i
    return len(BUCKETS) - 2


def _label(i: int) -> str:
    def k(x: int) -> str:
        return f"{x // 1024}k" if x >= 1024 else str(x)

    hi = BUCKETS[i + 1]
    return f"{k(BUCKETS[i])}-{k(hi)}" if hi < 1 << 30 else f">={k(BUCKETS[i])}"


def fit_exponent(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of log(time) over log(length)."""
    if len(points) < 2:
        return None
    xs = [math.log(x) for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx


def run(n: int, seed: int, show: int = 5) -> dict[str, Any]:
    cases = inputs(n, seed)
    signal.signal(signal.SIGALRM, _alarm)
    decompose("warm up the reader or not")  # loads spaCy when it is installed
    stats: dict[str, Any] = {}
    for name in READERS:
        stats[name] = {
            "calls": 0,
            "accepted": 0,
            "refused": 0,
            "unexpected": 0,
            "over_1s": 0,
            "max_s": 0.0,
            "max_input": "",
            "max_length": 0,
            "buckets": [[0, 0, 0.0, 0.0] for _ in BUCKETS[:-1]],  # calls, chars, seconds, max
        }
    shown: list[str] = []
    generators: dict[str, int] = {}
    t_start = time.perf_counter()
    for done, (gen, text) in enumerate(cases, 1):
        generators[gen] = generators.get(gen, 0) + 1
        for name, reader in READERS.items():
            s = stats[name]
            s["calls"] += 1
            error: BaseException | None = None
            refused = False
            signal.setitimer(signal.ITIMER_REAL, TIMEOUT_S)
            t0 = time.perf_counter()
            try:
                reader(text)
            except LogirError:
                s["refused"] += 1
                refused = True
            except _Timeout as exc:
                error = exc
            except Exception as exc:  # noqa: BLE001 - counting them is the point
                error = exc
            else:
                s["accepted"] += 1
            finally:
                elapsed = time.perf_counter() - t0
                signal.setitimer(signal.ITIMER_REAL, 0)
            if error is not None:
                s["unexpected"] += 1
                if len(shown) < show:
                    what = "timeout" if isinstance(error, _Timeout) else type(error).__name__
                    shown.append(f"{name}: {what}: {str(error)[:120]!r} on {text[:160]!r}")
            if elapsed > 1.0:
                s["over_1s"] += 1
            if elapsed > s["max_s"]:
                s["max_s"], s["max_input"], s["max_length"] = elapsed, text[:80], len(text)
            if error is None and not refused:
                b = s["buckets"][_bucket(len(text))]
                b[0] += 1
                b[1] += len(text)
                b[2] += elapsed
                b[3] = max(b[3], elapsed)
        if done % 10_000 == 0:
            print(f"  {done:,} inputs, {time.perf_counter() - t_start:.0f} s", file=sys.stderr)
    for s in stats.values():
        points = [
            (b[1] / b[0], b[2] / b[0])
            for i, b in enumerate(s["buckets"])
            if b[0] >= 5 and BUCKETS[i] >= 256 and b[2] > 0
        ]
        s["exponent"] = fit_exponent(points)
    return {
        "inputs": len(cases),
        "seed": seed,
        "generators": generators,
        "seconds": time.perf_counter() - t_start,
        "max_natural_chars": _limit("MAX_NATURAL_CHARS"),
        "max_query_chars": _limit("MAX_QUERY_CHARS"),
        "unexpected_shown": shown,
        "readers": stats,
    }


def _limit(name: str) -> int:
    import logir.limits

    return int(getattr(logir.limits, name))


def report(summary: dict[str, Any]) -> str:
    lines = [
        f"{summary['inputs']:,} inputs (seed {summary['seed']}; "
        + ", ".join(f"{g} {c:,}" for g, c in sorted(summary["generators"].items()))
        + f") in {summary['seconds']:.0f} s",
        "",
        f"{'reader':<11}{'calls':>9}{'accepted':>10}{'refused':>9}{'unexpected':>11}"
        f"{'>1 s':>6}{'max ms':>9}  slowest input",
    ]
    for name, s in summary["readers"].items():
        lines.append(
            f"{name:<11}{s['calls']:>9,}{s['accepted']:>10,}{s['refused']:>9,}"
            f"{s['unexpected']:>11,}{s['over_1s']:>6}{s['max_s'] * 1000:>9.1f}  "
            f"{s['max_length']:,} chars {s['max_input'][:40]!r}"
        )
    lines += ["", "mean ms per accepted call by length (calls in brackets)"]
    names = list(summary["readers"])
    lines.append(f"{'length':<12}" + "".join(f"{n:>22}" for n in names))
    for i in range(len(BUCKETS) - 1):
        cells = []
        for n in names:
            b = summary["readers"][n]["buckets"][i]
            cells.append(f"{b[2] / b[0] * 1000:.3f} ({b[0]:,})" if b[0] else "-")
        if any(c != "-" for c in cells):
            lines.append(f"{_label(i):<12}" + "".join(f"{c:>22}" for c in cells))
    exps = []
    for n in names:
        a = summary["readers"][n]["exponent"]
        exps.append(f"{a:.2f}" if a is not None else "-")
    lines.append(f"{'exponent a':<12}" + "".join(f"{e:>22}" for e in exps))
    if summary["unexpected_shown"]:
        lines += ["", "first unexpected exceptions:", *summary["unexpected_shown"]]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("-n", type=int, default=100_000, help="number of inputs (default 100,000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="write the summary as JSON to this file")
    args = ap.parse_args()
    summary = run(args.n, args.seed)
    print(report(summary))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1, ensure_ascii=True)
    unexpected = sum(s["unexpected"] for s in summary["readers"].values())
    return 1 if unexpected else 0


if __name__ == "__main__":
    raise SystemExit(main())
