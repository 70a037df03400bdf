"""The first-hour example (examples/first-hour) under the search a user gets by default.

    python bench/first_hour.py [--index DIR] [--data examples/first-hour] [--composer SPEC]

Indexes the folder as `logir index` does by default (bm25 + dense; an existing --index is reused),
then ranks every query twice over the index's default retriever (hybrid): with the default
composer (auto, as `logir search` ranks; ``--composer`` another spec) and with flat. Printed
per query: nDCG@10 of both, and for a query that excludes a topic whether one of the 10 hits
`logir search` shows by default is a violating passage ranked above a relevant (grade 2) one,
with the first such pair, and how many such pairs the whole ranking holds. Last, the means and
the counts.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from logir import Searcher
from logir.data.benchmarks.first_hour import EXAMPLE_DIR, load_first_hour
from logir.eval.metrics import outranking_violations, standard
from logir.index.store import build_index, load_corpus

SHOWN = 10  # the hits `logir search` prints by default


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=EXAMPLE_DIR)
    ap.add_argument("--index", type=Path, help="index folder (built there when missing)")
    ap.add_argument("--composer", default="auto", help="the composer set against flat")
    args = ap.parse_args()
    composers = (args.composer, "flat")
    ds = load_first_hour(args.data)
    with tempfile.TemporaryDirectory() as tmp:
        index = args.index or Path(tmp) / "index"
        if not index.exists():
            build_index(load_corpus(args.data), index, retrievers=("bm25", "dense"))
        searcher = Searcher(index)
        k = len(ds.corpus)
        ranked: dict[str, dict[str, list[str]]] = {c: {} for c in composers}
        for topic in ds.queries:
            reading = searcher.read(topic.text)
            for c in composers:
                result = searcher.search(reading, k=k, composer=c)
                ranked[c][topic.id] = [h.id for h in result.hits]
    print(f"retriever {searcher.default_retriever}; {len(ds.queries)} queries, {k} passages")
    print(f"{'query':<6}{'nDCG@10 auto':>13}{'flat':>7}  violating above relevant (auto | flat)")
    print(f"{'':<26}shown in the top {SHOWN} (first pair), pairs in the whole ranking")
    ndcg = {}
    for c in composers:
        run = {q: {d: float(-i) for i, d in enumerate(ids)} for q, ids in ranked[c].items()}
        ndcg[c] = standard(ds.qrels, run, ["nDCG@10"])
    failing = {c: 0 for c in composers}
    failing_all = {c: 0 for c in composers}
    for topic in ds.queries:
        bad = set(ds.violating.get(topic.id, ()))
        good = {d for d, g in ds.qrels[topic.id].items() if g == 2}
        cells = []
        for c in composers:
            if not bad:
                cells.append("-")
                continue
            ids = ranked[c][topic.id]
            pairs = outranking_violations(ids, good, bad, k=SHOWN)
            every = outranking_violations(ids, good, bad)
            failing[c] += bool(pairs)
            failing_all[c] += bool(every)
            if pairs:
                v, r = pairs[0]
                where = f"{ids.index(r) + 1}" if r in ids else "not ranked"
                cells.append(f"yes {v}@{ids.index(v) + 1} > {r}@{where}, {len(every)}")
            else:
                cells.append(f"no, {len(every)}")
        a, f = (ndcg[c][1][topic.id]["nDCG@10"] for c in composers)
        print(f"{topic.id:<6}{a:>13.3f}{f:>7.3f}  {' | '.join(cells)}   {topic.text}")
    excluding = sum(1 for t in ds.queries if ds.violating.get(t.id))
    for c in composers:
        print(
            f"{c}: nDCG@10 {ndcg[c][0]['nDCG@10']:.3f}; of {excluding} queries that exclude a "
            f"topic, {failing[c]} show a violating passage above a relevant one in the top "
            f"{SHOWN}, {failing_all[c]} have one anywhere in the ranking"
        )


if __name__ == "__main__":
    main()
