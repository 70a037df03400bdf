"""Dense search at scale: ANN recall@100 against exact search, and logical-query latency.

Vectors (made without the encoder: encoding a million passages on this CPU takes hours). The
source passages are the shared corpora that ``bench/make_corpus.py`` recombines (ComLQ, SciFact,
NegConstraint, NevIR, ExcluIR, BoolQuestions; title + text), with their real all-MiniLM-L6-v2
embeddings (``DenseScorer.build``: the on-disk cache, else encoded once). A synthetic passage
takes a source passage drawn at random as its template; ``s`` is the template's number of
sentences. Its vector is the mean of the embeddings of its sources, plus Gaussian noise of
standard deviation ``--noise`` per coordinate, normalised to unit length. The sources
(``--recipe``):

- ``related`` (default): the template and, when ``s`` > 1, up to two more (``min(s, 3)`` in
  all), each drawn among the template's 8 nearest source passages by cosine: a passage that
  recombines sentences of passages on one topic, as real passages are.
- ``mixture``: ``s`` source passages, each the passage of a sentence drawn uniformly from every
  sentence of the sources, as ``bench/make_corpus.py`` fills its passages: sentences on
  unrelated topics, so every vector sits near the mean of all and far from any query: nearly
  as hard for any ANN method as uniform noise (the bench prints the mean top-1 and top-100
  cosines of the exact search).

Seeded: the same ``--n``, ``--recipe``, ``--noise`` and ``--seed`` give the same vectors.

Queries: the 50 hand-written 3-term logical queries of ``bench/latency.py``, encoded for real
by MiniLM on every call.

Measured:

- **recall@100**: for every term text and flat text of the queries, the ANN top 100 (each
  proposed document scored exactly, as the dense scorer returns them) against the exact top 100,
  for each ``--ef`` (HNSW efSearch) or ``--nprobe`` (IVF).
- **latency**: one query per call, ``rank([query], scorer, k=10)``, as ``bench/latency.py``
  times it (warm-up, then ``--reps`` interleaved rounds, query-embedding cache cleared before
  each call): flat, fuzzy and sets over the ANN scorer, and over the exact scorer.
- build seconds of the ANN index and peak RSS of the process.
- **where a query's time goes** (ANN scorer): one more round of every system with the encoder
  wrapped, counting its calls and their seconds per query (``encoder calls``, ``encoder ms``).

Systems: ``flat`` (the term texts joined by spaces), ``fuzzy``, ``sets``, and ``fuzzy (terms
first)``: fuzzy as it embedded texts before a query's texts were embedded at once (the terms in
one call, the typed text in a second one only where the terms' top K do not settle the ranking;
the same rankings), kept to show what the one call costs or saves.

Usage: python bench/dense_scale.py [--n 1000000] [--ann hnsw] [--recipe related]
       [--ef 128,256,512,1024] [--reps 3] [--out dense_scale.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import latency  # noqa: E402  (bench/latency.py: the queries and the timing method)

import logir.index.dense as dense_module  # noqa: E402
from logir.index.ann import AnnIndex, parse_ann, resolve  # noqa: E402
from logir.index.dense import DenseScorer  # noqa: E402
from logir.index.store import corpus_texts, load_corpus  # noqa: E402
from logir.logic import Composer, get_composer  # noqa: E402
from logir.logic.fuzzy import Fuzzy  # noqa: E402
from logir.query import terms  # noqa: E402
from logir.query.reading import Reading  # noqa: E402

SOURCES = ("comlq", "scifact", "negconstraint", "nevir", "excluir", "boolquestions-not")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_BLOCK = 50_000
RELATED_POOL = 8  # a related passage draws its other sources among the template's 8 nearest
RELATED_MAX = 3  # sources per related passage, at most


def sources(data: Path) -> tuple[np.ndarray, np.ndarray]:
    """The source passages' real embeddings and each one's number of sentences."""
    vectors, counts = [], []
    for name in SOURCES:
        folder = data / name
        if not (folder / "corpus.jsonl").is_file():
            continue
        texts = corpus_texts(load_corpus(folder))
        vectors.append(DenseScorer.build(texts, show_progress=False).embeddings)
        counts.extend(max(1, len(_SENTENCE_END.split(t.strip()))) for t in texts)
    return np.concatenate(vectors), np.asarray(counts, dtype=np.int64)


def neighbours(real: np.ndarray, k: int) -> np.ndarray:
    """Each source passage's ``k`` nearest other source passages (exact cosine)."""
    import faiss

    flat = faiss.IndexFlatIP(real.shape[1])
    flat.add(np.ascontiguousarray(real))
    _, idx = flat.search(np.ascontiguousarray(real), k + 1)
    return idx[:, 1:]


def related(real: np.ndarray, counts: np.ndarray, n: int, noise: float, seed: int) -> np.ndarray:
    """``n`` unit vectors by the ``related`` recipe of the module docstring."""
    rng = np.random.default_rng(seed)
    near = neighbours(real, RELATED_POOL)
    out = np.empty((n, real.shape[1]), dtype=np.float32)
    for start in range(0, n, _BLOCK):
        m = min(_BLOCK, n - start)
        template = rng.integers(0, len(real), m)
        s = np.minimum(counts[template], RELATED_MAX)
        block = real[template].astype(np.float32)
        for j in range(1, RELATED_MAX):
            more = s > j
            pick = near[template[more], rng.integers(0, RELATED_POOL, int(more.sum()))]
            block[more] += real[pick]
        block /= s[:, None]
        block += rng.normal(0.0, noise, size=block.shape)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        out[start : start + m] = block
    return out


def mixture(real: np.ndarray, counts: np.ndarray, n: int, noise: float, seed: int) -> np.ndarray:
    """``n`` unit vectors by the ``mixture`` recipe of the module docstring."""
    rng = np.random.default_rng(seed)
    # a sentence drawn uniformly from all sentences comes from passage p with chance counts[p]
    weights = counts / counts.sum()
    out = np.empty((n, real.shape[1]), dtype=np.float32)
    for start in range(0, n, _BLOCK):
        m = min(_BLOCK, n - start)
        s = counts[rng.integers(0, len(counts), m)]
        src = rng.choice(len(real), size=int(s.sum()), p=weights)
        bounds = np.concatenate([[0], np.cumsum(s)[:-1]])
        block = np.add.reduceat(real[src], bounds, axis=0) / s[:, None]
        block += rng.normal(0.0, noise, size=block.shape)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        out[start : start + m] = block
    return out


RECIPES = {"related": related, "mixture": mixture}


def recall(approx: np.ndarray, exact: np.ndarray) -> float:
    """Mean share of each exact top-k row found in the approximate one."""
    k = exact.shape[1]
    return float(np.mean([len(set(a) & set(e)) / k for a, e in zip(approx, exact, strict=True)]))


def percentiles(seconds: list[float]) -> dict[str, float]:
    ms = np.asarray(seconds) * 1e3
    return {f"p{p}_ms": round(float(np.percentile(ms, p)), 2) for p in (50, 95, 99)}


class TermsFirst(Fuzzy):
    """fuzzy embedding the terms first, the typed text later where needed (see the docstring)."""

    def query_texts(self, reading: Reading) -> list[str]:
        return [t.text for t in terms(reading.query)]


SYSTEMS: dict[str, tuple[Callable[[], Composer], Callable[[str], str]]] = {
    "flat": (lambda: get_composer("flat"), latency.flat_text),
    "fuzzy": (lambda: get_composer("fuzzy"), lambda q: q),
    "fuzzy (terms first)": (TermsFirst, lambda q: q),
    "sets": (lambda: get_composer("sets"), lambda q: q),
}


def timed(scorer: DenseScorer, system: str, query: str) -> float:
    """Seconds for one ``rank([query])``, a fresh composer, the query embeddings forgotten."""
    make, text_of = SYSTEMS[system]
    composer = make()
    latency.clear_caches(scorer)
    start = time.perf_counter()
    composer.rank([text_of(query)], scorer, latency.RANK_K)
    return time.perf_counter() - start


def measure(scorer: DenseScorer, queries: list[str], reps: int) -> dict[str, list[float]]:
    """Per-call seconds of every system, as ``latency.measure`` times them (a warm-up round,
    then ``reps`` rounds, interleaved query by query)."""
    for system in SYSTEMS:
        for q in queries:
            timed(scorer, system, q)
    out: dict[str, list[float]] = {system: [] for system in SYSTEMS}
    for _ in range(reps):
        for q in queries:
            for system in SYSTEMS:
                out[system].append(timed(scorer, system, q))
    return out


def encoder_share(scorer: DenseScorer, queries: list[str]) -> dict[str, dict[str, float]]:
    """Per system: encoder calls and encoder milliseconds per query, over one round."""
    wrapped = dense_module._encode_queries
    calls: list[float] = []

    def counted(model: Any, texts: list[str]) -> np.ndarray:
        start = time.perf_counter()
        try:
            return wrapped(model, texts)
        finally:
            calls.append(time.perf_counter() - start)

    out = {}
    dense_module._encode_queries = counted
    try:
        for system in SYSTEMS:
            calls.clear()
            total = sum(timed(scorer, system, q) for q in queries)
            out[system] = {
                "encoder_calls": round(len(calls) / len(queries), 2),
                "encoder_ms": round(1e3 * sum(calls) / len(queries), 2),
                "total_ms": round(1e3 * total / len(queries), 2),
            }
    finally:
        dense_module._encode_queries = wrapped
    return out


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="passages")
    ap.add_argument("--ann", default="hnsw", help="the ANN spec built (default: its defaults)")
    ap.add_argument("--ef", default="128,256,512,1024", help="efSearch (hnsw) or nprobe (ivf)")
    ap.add_argument("--recipe", choices=sorted(RECIPES), default="related")
    ap.add_argument("--noise", type=float, default=0.01, help="noise std per coordinate")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--exact-reps", type=int, default=1, help="rounds over the exact scorer")
    ap.add_argument("--data", type=Path, default=latency.DATA)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()

    t0 = time.perf_counter()
    real, counts = sources(args.data)
    emb = RECIPES[args.recipe](real, counts, args.n, args.noise, args.seed)
    made_s = time.perf_counter() - t0
    print(f"{args.n} vectors from {len(real)} source passages in {made_s:.1f} s", file=sys.stderr)

    spec = resolve(parse_ann(args.ann), args.n)
    t0 = time.perf_counter()
    ann = AnnIndex.build(emb, spec)
    build_s = time.perf_counter() - t0
    assert ann is not None, "--ann none builds nothing to measure"
    print(f"built {spec} in {build_s:.1f} s", file=sys.stderr)
    exact = DenseScorer(emb)
    approx = DenseScorer(emb, ann=ann)

    queries = latency.QUERIES[: args.queries]
    texts = list(dict.fromkeys(t for q in queries for t in (*latency.term_texts(q), q)))
    q_vecs = exact.embed(texts)
    e_idx, _ = exact.search_vectors(q_vecs, 100)
    knob = "efSearch" if spec.kind == "hnsw" else "nprobe"
    sweep = []
    for value in [int(v) for v in args.ef.split(",") if v]:
        approx.ann.with_search(**{knob: value})
        t0 = time.perf_counter()
        a_idx, _ = approx.search_vectors(q_vecs, 100)
        per_text_ms = (time.perf_counter() - t0) * 1e3 / len(texts)
        sweep.append(
            {knob: value, "recall@100": round(recall(a_idx, e_idx), 4), "ms_per_text": per_text_ms}
        )
        print(json.dumps(sweep[-1]), file=sys.stderr)
    approx.ann.with_search(**{knob: spec.params[knob]})

    latencies = {}
    for label, scorer, reps in (("ann", approx, args.reps), ("exact", exact, args.exact_reps)):
        times = measure(scorer, queries, reps)
        latencies[label] = {system: percentiles(s) for system, s in times.items()}
        print(label, json.dumps(latencies[label]), file=sys.stderr)
    encoder = encoder_share(approx, queries)
    print("encoder", json.dumps(encoder), file=sys.stderr)

    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_version()}",
        "n": args.n,
        "source_passages": len(real),
        "recipe": args.recipe,
        "noise": args.noise,
        "seed": args.seed,
        "ann": ann.describe(),
        "build_s": round(build_s, 1),
        "peak_rss_mb": round(peak_rss_mb()),
        "queries": len(queries),
        "texts": len(texts),
        "sweep": sweep,
        "latency": latencies,
        "encoder": encoder,
        "torch_threads": latency._torch_threads(),
    }
    if args.out:
        args.out.write_text(json.dumps(result, indent=2), encoding="utf-8")
    print(markdown(result))
    return 0


def markdown(r: dict) -> str:
    knob = "efSearch" if r["ann"]["kind"] == "hnsw" else "nprobe"
    lines = [
        f"{r['n']} passages, synthetic 384-d vectors (recipe {r['recipe']}, noise {r['noise']}: "
        "see bench/dense_scale.py), "
        f"ANN {r['ann']}: built in {r['build_s']} s, peak RSS {r['peak_rss_mb']} MB",
        "",
        f"| {knob} | recall@100 vs exact | ms per text (search + exact rescoring) |",
        "|---|---|---|",
    ]
    lines += [f"| {s[knob]} | {s['recall@100']} | {s['ms_per_text']:.2f} |" for s in r["sweep"]]
    lines += ["", "| scorer | system | p50 ms | p95 ms | p99 ms |", "|---|---|---|---|---|"]
    for label, systems in r["latency"].items():
        for system, p in systems.items():
            lines.append(f"| {label} | {system} | {p['p50_ms']} | {p['p95_ms']} | {p['p99_ms']} |")
    lines += ["", f"One more round over the ann scorer (torch threads {r['torch_threads']}):", ""]
    lines += ["| system | encoder calls per query | encoder ms per query | ms per query |"]
    lines += ["|---|---|---|---|"]
    for system, e in r["encoder"].items():
        lines.append(f"| {system} | {e['encoder_calls']} | {e['encoder_ms']} | {e['total_ms']} |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
