"""Latency of a 3-term logical query vs the flat query on the same backend, as a ratio.

Corpora: real passages from ComLQ, SciFact, NegConstraint, NevIR and ExcluIR (title + text,
de-duplicated, in a seeded random order). A corpus of ``n`` documents takes the first ``n``
of them; past the ~24.5k real passages it repeats them with a light, seeded perturbation
(sentences shuffled, about one word in ten dropped), so every size is a prefix of the next.

Backends:

- **BM25**: a real BM25 index (``BM25Scorer.build``) over the corpus texts at every size.
- **dense**: all-MiniLM-L6-v2 encodes every query for real. Document embeddings are real
  MiniLM embeddings of the first ``--encode`` passages (cached on disk by
  ``DenseScorer.build``); a larger corpus tiles them with small seeded Gaussian noise and
  re-normalises each row. These stand-ins cost exactly what real embeddings of the same shape
  cost to search, but their rankings mean nothing: this bench measures time only.

Queries: 50 hand-written 3-term queries in logir syntax over topics of these corpora (AND,
OR and NOT mixed); the flat query is the three term texts joined by spaces.

Method: one query per call (``rank([query], scorer, k=10)``), as a search user sends them.
Every system first runs all queries once unmeasured (warm-up). Then for ``--reps`` rounds each
query runs once on every system, interleaved; before every measured call the dense scorer's
query-embedding cache, the parsed-query cache and the composer's per-query state are cleared,
so no call reuses work from an earlier one. Reported: median and p95 latency per system, and
the logical/flat ratio of the medians (and of the p95s).

Natural language (``--natural``, on by default): each query is also phrased in words (``A and B
but not C``, ``A or B, excluding C``, ...) and timed the way ``logir search`` answers it: the text
read once (:func:`logir.query.read`) and ranked by ``auto``, against ``flat`` on the same words.
Rows ``natural:auto`` / ``natural:flat``.

Usage: python bench/latency.py [--sizes 10000,100000] [--queries 50] [--reps 3]
       [--no-natural] [--out latency.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from logir.index.base import Scorer
from logir.index.dense import DenseScorer
from logir.index.lexical import BM25Scorer
from logir.logic import Composer, get_composer
from logir.query import And, Not, Or, Query, Term, parse, read, terms

DATA = Path("/work/shared/datasets")
SOURCES = ("comlq", "scifact", "negconstraint", "nevir", "excluir")
SEED = 13
NOISE = 0.02  # std of the per-coordinate noise on tiled stand-in embeddings
LOGICAL = ("fuzzy", "sets")
RANK_K = 10

QUERIES = [
    '"brother of Moses" AND "high priest" AND NOT "Egypt"',
    '"ecclesiastical title" AND "monastery" AND NOT "abbess"',
    '"Apache Software Foundation" AND ("open source" OR "web server")',
    '"almond" AND "Mediterranean climate" AND NOT "peach"',
    '"Alfred Hitchcock" AND "MacGuffin" AND NOT "television"',
    '"presidential election" AND "House of Representatives" AND NOT "Senate"',
    '("IEEE standard" OR "ISO standard") AND NOT "wireless"',
    '"Intel 80186" AND "microprocessor" AND NOT "16-bit external data bus"',
    '"Irish mythology" AND "Fenian Cycle" AND NOT "Ulster Cycle"',
    '"calendar" AND "intercalation" AND NOT "Gregorian calendar"',
    '"Stanley Kubrick" AND ("A Clockwork Orange" OR "Malcolm McDowell")',
    '"paper size" AND "A series" AND NOT "aspect ratio"',
    '"stateless address autoconfiguration" AND "IPv6" AND NOT "IPv4"',
    '"architect" AND "museum" AND NOT "interior design"',
    '"Classical Arabic" OR "loan translation" OR "modern concepts"',
    '"indictable offence" AND "England and Wales" AND NOT "felony"',
    '("orchid" OR "APG system") AND NOT "fungus"',
    '"Alexander Graham Bell" AND "Visible Speech" AND "indigenous languages"',
    '"Azerbaijani manat" AND "depreciation" AND NOT "oil"',
    '"heat" AND ("caloric theory" OR "form of energy")',
    '"unsafe abortion" OR "abortion complications" OR "maternal deaths"',
    '"Jesus" AND "eschatology" AND NOT "resurrection"',
    '"Angola" AND "independence movement" AND NOT "Portugal"',
    '"Avicenna" AND "physician" AND "philosopher"',
    '"assistive listening device" AND ("FM radio" OR "induction loop")',
    '"Olympic Movement" AND "marketing revenue" AND NOT "broadcasting"',
    '"Saur Revolution" AND "coup" AND NOT "Soviet Union"',
    '"Lesser Caucasus" AND "natural resources" AND NOT "Armenia"',
    '"algebraically closed field" AND "polynomial" AND NOT "real numbers"',
    '"abscess" AND ("imaging" OR "ultrasound")',
    '"hubris" AND "Ancient Greece" AND NOT "tragedy"',
    '"Iowa State University" AND "Ames" AND "computer"',
    '"Allosaurus" AND "taphonomy" AND NOT "Tyrannosaurus"',
    '"ice skating" OR "slippery ice" OR "pressure melting"',
    '"Afghanistan" AND "Pashtuns" AND NOT "Pakistan"',
    '"biomaterials" AND "inductive properties" AND NOT "bone"',
    '"colorectal cancer" AND "patients" AND NOT "chemotherapy"',
    '"vitamin D" AND ("bone health" OR "fracture risk")',
    '"insulin resistance" AND "obesity" AND NOT "diabetes"',
    '"gene expression" AND "stem cells" AND NOT "mouse"',
    '("T cells" OR "B cells") AND NOT "HIV"',
    '"antibiotic resistance" AND "bacteria" AND NOT "hospital"',
    '"smoking" AND "lung cancer" AND "mortality"',
    '"DNA methylation" OR "histone modification" OR "chromatin"',
    '"Aalborg" AND "municipality" AND NOT "Denmark"',
    '"football club" AND "league" AND NOT "relegation"',
    '"river" AND "dam" AND NOT "hydroelectric"',
    '("novel" OR "short story") AND NOT "film adaptation"',
    '"war" AND "treaty" AND NOT "France"',
    '"album" AND "band" AND NOT "guitar"',
]
assert len(QUERIES) == 50


def real_passages(data: Path) -> list[str]:
    """Title + text of every passage of the source corpora, de-duplicated, in file order."""
    seen: dict[str, None] = {}
    for name in SOURCES:
        with (data / name / "corpus.jsonl").open(encoding="utf-8") as fh:
            for line in fh:
                obj = json.loads(line)
                text = " ".join(p for p in (obj.get("title") or "", obj["text"]) if p).strip()
                if text:
                    seen.setdefault(text, None)
    return list(seen)


def perturb(text: str, rng: random.Random) -> str:
    """Sentences shuffled and about one word in ten dropped (never all of them)."""
    sentences = re.split(r"(?<=[.!?])\s+", text)
    rng.shuffle(sentences)
    words = " ".join(sentences).split()
    kept = [w for w in words if rng.random() >= 0.1]
    return " ".join(kept or words)


def corpus(pool: list[str], n: int, seed: int = SEED) -> list[str]:
    """``n`` documents: the pool in a seeded order, then seeded perturbations of it."""
    order = list(range(len(pool)))
    random.Random(seed).shuffle(order)
    docs = [pool[i] for i in order[:n]]
    rng = random.Random(seed + 1)
    for i in range(len(docs), n):
        docs.append(perturb(pool[order[i % len(pool)]], rng))
    return docs


def stand_in_embeddings(real: np.ndarray, n: int, seed: int = SEED) -> np.ndarray:
    """``n`` unit rows: the real rows first, then tiled copies with small seeded noise."""
    if n <= len(real):
        return np.ascontiguousarray(real[:n])
    rng = np.random.default_rng(seed)
    tiled = real[np.arange(n) % len(real)].copy()
    tiled[len(real) :] += rng.normal(0.0, NOISE, size=(n - len(real), real.shape[1])).astype(
        np.float32
    )
    tiled /= np.linalg.norm(tiled, axis=1, keepdims=True)
    return tiled


def term_texts(query: str) -> list[str]:
    """The term texts of a query, in order."""
    return [t.text for t in terms(parse(query))]


def flat_text(query: str) -> str:
    """The query's term texts joined by spaces."""
    return " ".join(term_texts(query))


def natural_text(query: str) -> str:
    """The logical query phrased in words: ``A and B but not C``, ``A or B, excluding C``,
    ``A with B or C``."""

    def words(q: Query) -> str:
        if isinstance(q, Term):
            return q.text
        if isinstance(q, Or):
            return " or ".join(words(c) for c in q.children)
        if isinstance(q, Not):
            return words(q.child)
        assert isinstance(q, And)
        pos = [c for c in q.children if not isinstance(c, Not)]
        neg = [c for c in q.children if isinstance(c, Not)]
        head = words(pos[0])
        for c in pos[1:]:
            head += (" with " if isinstance(c, Or) else " and ") + words(c)
        if not neg:
            return head
        cue = ", excluding " if any(isinstance(c, Or) for c in pos) else " but not "
        return head + cue + " or ".join(words(c) for c in neg)

    return words(parse(query))


def search_call(scorer: Scorer, spec: str, text: str) -> float:
    """Seconds for what ``logir search`` does with a natural-language text: one reading, then
    the composer's ranking."""
    composer: Composer = get_composer(spec)
    clear_caches(scorer)
    start = time.perf_counter()
    reading = read(text, "auto")
    composer.rank([reading], scorer, RANK_K)
    return time.perf_counter() - start


def measure_natural(scorer: Scorer, queries: list[str], reps: int) -> dict[str, list[float]]:
    """Per-call seconds of the natural-language search path, ``auto`` and ``flat``."""
    texts = [natural_text(q) for q in queries]
    specs = {"natural:flat": "flat", "natural:auto": "auto"}
    for spec in specs.values():
        for t in texts:
            search_call(scorer, spec, t)
    out: dict[str, list[float]] = {name: [] for name in specs}
    for _ in range(reps):
        for t in texts:
            for name, spec in specs.items():
                out[name].append(search_call(scorer, spec, t))
    return out


def clear_caches(scorer: Scorer) -> None:
    """Forget query embeddings, so a call reuses nothing from earlier calls (a text handed to a
    composer is read on every call)."""
    cache = getattr(scorer, "_queries", None)
    if cache is not None:
        cache.clear()


def timed_call(scorer: Scorer, spec: str, query: str) -> float:
    """Seconds for one ``rank([query])`` with a fresh composer and cleared caches."""
    composer: Composer = get_composer(spec)
    clear_caches(scorer)
    start = time.perf_counter()
    composer.rank([query], scorer, RANK_K)
    return time.perf_counter() - start


def measure(scorer: Scorer, queries: list[str], reps: int) -> dict[str, list[float]]:
    """Per-call seconds for flat and each logical composer, interleaved query by query."""
    systems: dict[str, Callable[[str], str]] = {"flat": flat_text}
    systems.update({spec: (lambda q: q) for spec in LOGICAL})
    for spec, text_of in systems.items():  # warm-up: every query once, unmeasured
        for q in queries:
            timed_call(scorer, spec, text_of(q))
    out: dict[str, list[float]] = {spec: [] for spec in systems}
    for _ in range(reps):
        for q in queries:
            for spec, text_of in systems.items():
                out[spec].append(timed_call(scorer, spec, text_of(q)))
    return out


def encode_times(scorer: DenseScorer, queries: list[str], reps: int) -> dict[str, list[float]]:
    """Seconds to embed a flat query (one text) and a logical one (terms + typed text, one call)."""
    out: dict[str, list[float]] = {"flat": [], "logical": []}
    for _ in range(reps):
        for q in queries:
            texts = {"flat": [flat_text(q)], "logical": [*term_texts(q), q]}
            for kind, batch in texts.items():
                clear_caches(scorer)
                start = time.perf_counter()
                scorer.embed(batch)
                out[kind].append(time.perf_counter() - start)
    return out


def summary(seconds: list[float]) -> dict[str, float]:
    """Median and p95 in milliseconds."""
    ms = np.asarray(seconds) * 1e3
    return {"median_ms": float(np.median(ms)), "p95_ms": float(np.percentile(ms, 95))}


def _torch_threads() -> int | None:
    """torch's intra-op thread count, when torch is loaded."""
    torch = sys.modules.get("torch")
    return int(torch.get_num_threads()) if torch is not None else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--sizes", default="10000,100000", help="corpus sizes, comma-separated")
    ap.add_argument("--queries", type=int, default=50, help="number of queries (at most 50)")
    ap.add_argument("--reps", type=int, default=3, help="measured rounds over the queries")
    ap.add_argument("--encode", type=int, default=10000, help="passages encoded for real")
    ap.add_argument("--backends", default="bm25,dense", help="bm25, dense or both")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument(
        "--natural",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time the natural-language search path (read + auto)",
    )
    ap.add_argument("--out", type=Path, help="write the results as JSON here")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    backends = [b for b in args.backends.split(",") if b]
    queries = QUERIES[: args.queries]

    load_before = os.getloadavg()
    pool = real_passages(args.data)
    docs = corpus(pool, max(sizes))
    print(f"{len(pool)} real passages; corpus up to {max(sizes)} documents; {len(queries)} queries")
    real_emb = None
    if "dense" in backends:
        start = time.perf_counter()
        real_emb = DenseScorer.build(docs[: args.encode], show_progress=False).embeddings
        print(
            f"dense: {len(real_emb)} real embeddings ready in {time.perf_counter() - start:.0f} s"
        )

    rows = []
    encoding: dict[str, dict[str, float]] | None = None
    for n in sizes:
        for backend in backends:
            start = time.perf_counter()
            if backend == "bm25":
                scorer: Scorer = BM25Scorer.build(docs[:n])
                note = "real index"
            else:
                assert real_emb is not None
                scorer = DenseScorer(stand_in_embeddings(real_emb, n))
                note = "real" if n <= len(real_emb) else f"{len(real_emb)} real, tiled + noise"
            built = time.perf_counter() - start
            times = measure(scorer, queries, args.reps)
            if args.natural:
                times.update(measure_natural(scorer, queries, args.reps))
            flat = summary(times["flat"])
            for spec, secs in times.items():
                s = summary(secs)
                natural = spec.startswith("natural:")
                s_flat = summary(times["natural:flat"]) if natural else flat
                rows.append(
                    {
                        "docs": n,
                        "backend": backend,
                        "embeddings": note if backend == "dense" else None,
                        "system": spec,
                        **s,
                        "ratio_median": s["median_ms"] / s_flat["median_ms"],
                        "ratio_p95": s["p95_ms"] / s_flat["p95_ms"],
                        "calls": len(secs),
                        "build_s": built,
                    }
                )
            print(f"  {backend} @ {n}: built in {built:.0f} s ({note}), measured", flush=True)
            if isinstance(scorer, DenseScorer) and encoding is None:
                enc = encode_times(scorer, queries, args.reps)
                encoding = {kind: summary(secs) for kind, secs in enc.items()}

    print()
    print("| docs | backend | system | median ms | p95 ms | ratio (median) | ratio (p95) |")
    print("|---:|---|---|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['docs']} | {r['backend']} | {r['system']} | {r['median_ms']:.2f} | "
            f"{r['p95_ms']:.2f} | {r['ratio_median']:.2f} | {r['ratio_p95']:.2f} |"
        )
    if encoding is not None:
        f, lg = encoding["flat"]["median_ms"], encoding["logical"]["median_ms"]
        print(
            f"\ndense query encoding alone (median): flat text {f:.2f} ms, "
            f"3 terms + typed query in one call {lg:.2f} ms ({lg / f:.2f}x)"
        )
    load_after = os.getloadavg()
    print(
        f"load average (1 min) {load_before[0]:.2f} at start, {load_after[0]:.2f} at end; "
        f"torch threads {_torch_threads()}"
    )
    if args.out:
        meta = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "queries": len(queries),
            "reps": args.reps,
            "rank_k": RANK_K,
            "encoded_passages": None if real_emb is None else len(real_emb),
            "noise_std": NOISE,
            "load_average_1min": [load_before[0], load_after[0]],
            "torch_threads": _torch_threads(),
        }
        result = {"meta": meta, "rows": rows, "dense_encoding": encoding}
        args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
