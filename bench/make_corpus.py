"""A deterministic corpus of N passages for scale benchmarks, plus logical queries over it.

Every passage is made from real sentences: the shared corpora's passages (ComLQ, SciFact,
NegConstraint, NevIR, ExcluIR, BoolQuestions, in that order, title + text) are cut into
sentences; passage ``i`` takes a real passage as its template (its title and its number of
sentences) and fills it with that many sentences drawn at random from the whole pool. Vocabulary,
sentence lengths and passage lengths stay those of the real corpora; the combinations are new,
so the corpus grows to any size without repeating passages. The same ``--n`` and ``--seed`` give
the same bytes, and a smaller ``--n`` is a prefix of a larger one.

Queries (``queries.jsonl``, BEIR style ``{"_id", "text"}`` with the text in logir syntax): three
terms each, mixing AND, OR and NOT; two of the terms are content words of one real sentence (so
they co-occur), the third another word of the same frequency band (one to several per cent of
sentences hold it), the band real search terms fall in.

Usage: python bench/make_corpus.py --out /tmp/corpus-1m [--n 1000000] [--seed 7] [--queries 200]
Writes OUT/corpus.jsonl and OUT/queries.jsonl (a BEIR-style folder ``logir index`` reads).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np

SOURCES = ("comlq", "scifact", "negconstraint", "nevir", "excluir", "boolquestions-not")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_WORD = re.compile(r"[a-z]{4,}")
_BLOCK = 10_000  # passages drawn per numpy call
#: words too common or too empty to make a search term of
_DULL_WORDS = """that this with from were which have been their they there these those other also
into about more than such when where while after before between over under only most some many
each both used using well however being would could should will shall within through during
among including based first second three years year time include known called found made make
part number type study studies results result shown show significant significantly data patients
case cases group groups high higher level levels what whether does done then them himself
herself itself"""
_DULL = frozenset(_DULL_WORDS.split())
TEMPLATES = (
    '"{a}" AND "{b}" AND NOT "{c}"',
    '"{a}" AND ("{b}" OR "{c}")',
    '("{a}" OR "{b}") AND NOT "{c}"',
    '"{a}" AND "{b}" AND "{c}"',
    '"{a}" OR "{b}" OR "{c}"',
)


def shared_datasets() -> Path:
    """$LOGIR_SHARED_DATASETS, else ../shared/datasets beside the repository."""
    env = os.environ.get("LOGIR_SHARED_DATASETS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1].parent / "shared" / "datasets"


def read_pool(datasets: Path) -> tuple[list[str], list[tuple[str, int]]]:
    """Every sentence of the source corpora (in file order, duplicates dropped) and, per real
    passage, its title and number of sentences (the templates)."""
    sentences: list[str] = []
    index: dict[str, int] = {}
    templates: list[tuple[str, int]] = []
    found = 0
    for name in SOURCES:
        path = datasets / name / "corpus.jsonl"
        if not path.is_file():
            continue
        found += 1
        with path.open(encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                obj = json.loads(line)
                text = " ".join(str(obj.get("text", "")).split())
                parts = [s for s in _SENTENCE_END.split(text) if len(s) > 1]
                for s in parts:
                    if s not in index:
                        index[s] = len(sentences)
                        sentences.append(s)
                if parts:
                    templates.append((" ".join(str(obj.get("title") or "").split()), len(parts)))
    if not found:
        raise SystemExit(f"error: none of {', '.join(SOURCES)} under {datasets}")
    return sentences, templates


def passages(
    sentences: list[str], templates: list[tuple[str, int]], n: int, seed: int
) -> Iterator[dict[str, str]]:
    """``n`` passages ``{"_id", "title", "text"}``, drawn in blocks from one seeded stream."""
    rng = np.random.Generator(np.random.PCG64(seed))
    counts = np.array([c for _, c in templates], dtype=np.int64)
    done = 0
    while done < n:
        size = min(_BLOCK, n - done)  # whole blocks are drawn, so each size is a prefix
        picks = rng.integers(0, len(templates), size=_BLOCK)
        lengths = counts[picks]
        drawn = rng.integers(0, len(sentences), size=int(lengths.sum()))
        at = 0
        for j in range(size):
            m = int(lengths[j])
            text = " ".join(sentences[s] for s in drawn[at : at + m])
            at += m
            yield {"_id": f"p{done + j:07d}", "title": templates[picks[j]][0], "text": text}
        done += size


def queries(sentences: list[str], count: int, seed: int) -> list[dict[str, str]]:
    """``count`` three-term logical queries (see module)."""
    df: Counter[str] = Counter()
    for s in sentences:
        df.update(set(_WORD.findall(s.lower())))
    total = len(sentences)
    lo = max(1, total // 1000)
    hi = max(lo + 1, total // 25)
    band = sorted(w for w, c in df.items() if lo <= c <= hi and w not in _DULL)
    if len(band) < 3:
        raise SystemExit("error: too few sentences to pick query terms from")
    in_band = set(band)
    rnd = random.Random(seed)
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    tries = 0
    while len(out) < count and tries < count * 1000:
        tries += 1
        words = [w for w in dict.fromkeys(_WORD.findall(rnd.choice(sentences).lower()))]
        pair = [w for w in words if w in in_band]
        if len(pair) < 2:
            continue
        a, b = rnd.sample(pair, 2)
        c = rnd.choice(band)
        if c in (a, b):
            continue
        text = TEMPLATES[len(out) % len(TEMPLATES)].format(a=a, b=b, c=c)
        if text in seen:
            continue
        seen.add(text)
        out.append({"_id": f"q{len(out) + 1:04d}", "text": text})
    return out


def write(out: Path, n: int, seed: int, n_queries: int, datasets: Path) -> tuple[int, int]:
    """Write ``out/corpus.jsonl`` and ``out/queries.jsonl``; returns (passages, queries)."""
    sentences, templates = read_pool(datasets)
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / "corpus.jsonl.part"
    with tmp.open("w", encoding="utf-8") as f:
        for doc in passages(sentences, templates, n, seed):
            f.write(json.dumps(doc, ensure_ascii=False) + "\n")
    tmp.replace(out / "corpus.jsonl")
    qs = queries(sentences, n_queries, seed)
    with (out / "queries.jsonl").open("w", encoding="utf-8") as f:
        for q in qs:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")
    return n, len(qs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder to write")
    ap.add_argument("--n", type=int, default=1_000_000, help="passages (default 1,000,000)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--queries", type=int, default=200, help="logical queries to write")
    ap.add_argument("--datasets", type=Path, default=None, help="the shared datasets folder")
    args = ap.parse_args(argv)
    if args.n < 1 or args.queries < 0:
        ap.error("--n must be at least 1 and --queries at least 0")
    started = time.perf_counter()
    n, q = write(args.out, args.n, args.seed, args.queries, args.datasets or shared_datasets())
    took = time.perf_counter() - started
    print(f"{n} passages, {q} queries -> {args.out} in {took:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
