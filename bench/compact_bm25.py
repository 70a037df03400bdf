"""logir's compact BM25 postings against bm25s's files: same hits and scores, size, latency.

    python bench/compact_bm25.py indexes PLAIN_INDEX COMPACT_INDEX QUERIES_JSONL
    python bench/compact_bm25.py dataset NAME --work FOLDER

``indexes`` compares two built indexes of one corpus (a ``bench/make_corpus.py`` queries file:
each logical query's terms, joined, as a flat text): top-10 ids and scores for every query, the
full score rows of the first 30, every query word's match set, and the p50 / p99 of one flat
search and one match set per call. ``dataset`` builds both formats of a shared dataset's corpus
(``LOGIR_SHARED_DATASETS``) and compares every query's top 1000 (ids and scores).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import time
from pathlib import Path

import numpy as np

from logir.index.store import open_index
from logir.index.streambuild import build_bm25_index

OPS = {"AND", "OR", "NOT"}


def _size(index: Path) -> int:
    return sum(f.stat().st_size for f in (index / "bm25").iterdir())


def compare_indexes(plain: Path, compact: Path, queries: Path) -> None:
    a, b = open_index(plain).scorer("bm25"), open_index(compact).scorer("bm25")
    rows = [json.loads(line) for line in queries.open(encoding="utf-8")]
    texts = [" ".join(w for w in re.findall(r"\w+", r["text"]) if w not in OPS) for r in rows]
    words = sorted({w for t in texts for w in t.split()})
    ia, va = a.search(texts, 10)
    ib, vb = b.search(texts, 10)
    print("top-10 ids and scores identical:", np.array_equal(ia, ib) and np.array_equal(va, vb))
    print(
        "score rows identical (30 queries):",
        np.array_equal(a.score(texts[:30]), b.score(texts[:30])),
    )
    same = all(np.array_equal(a.match_set(w), b.match_set(w)) for w in words)
    print(f"match sets identical ({len(words)} words):", same)
    print("bm25/ bytes: plain", _size(plain), "compact", _size(compact))
    for name, s in (("bm25s", a), ("compact", b)):
        flat, sets = [], []
        for _ in range(3):
            for q in texts:
                t0 = time.perf_counter()
                s.search([q], 10)
                flat.append(time.perf_counter() - t0)
        for w in words:
            t0 = time.perf_counter()
            s.match_set(w)
            sets.append(time.perf_counter() - t0)
        f50, f99, m50 = (1e3 * np.percentile(x, p) for x, p in ((flat, 50), (flat, 99), (sets, 50)))
        print(f"{name}: flat search p50 {f50:.3f} ms p99 {f99:.3f} ms; match set p50 {m50:.3f} ms")


def compare_dataset(name: str, work: Path) -> None:
    folder = Path(os.environ.get("LOGIR_SHARED_DATASETS", "../shared/datasets")) / name
    plain, _ = build_bm25_index(folder / "corpus.jsonl", work / name / "bm25s")
    compact, _ = build_bm25_index(
        folder / "corpus.jsonl", work / name / "compact", postings="compact"
    )
    rows = [json.loads(line) for line in (folder / "queries.jsonl").open(encoding="utf-8")]
    texts = [r.get("text") or r["query"] for r in rows]
    a, b = open_index(plain).scorer("bm25"), open_index(compact).scorer("bm25")
    ia, va = a.search(texts, 1000)
    ib, vb = b.search(texts, 1000)
    same = np.array_equal(ia, ib) and np.array_equal(va, vb)
    print(
        f"{name}: {len(texts)} queries, top-1000 ids and scores identical: {same}; "
        f"bm25/ bytes: plain {_size(plain)}, compact {_size(compact)}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    ix = sub.add_parser("indexes")
    ix.add_argument("plain", type=Path)
    ix.add_argument("compact", type=Path)
    ix.add_argument("queries", type=Path)
    ds = sub.add_parser("dataset")
    ds.add_argument("name")
    ds.add_argument("--work", type=Path, required=True)
    args = ap.parse_args()
    if args.mode == "indexes":
        compare_indexes(args.plain, args.compact, args.queries)
    else:
        compare_dataset(args.name, args.work)


if __name__ == "__main__":
    main()
