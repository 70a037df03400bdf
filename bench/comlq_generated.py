"""Where ComLQ's ranking errors come from: the LLM-written passages in its corpus.

    python bench/comlq_generated.py [--split logir-test] [-s hybrid -s hybrid:auto ...] \
        [--every N] [--out F.json]

ComLQ's corpus (11,251 passages) holds 3,276 passages that the benchmark authors' scripts wrote
with an LLM (HyDE-style answers to the queries; ids 17975-21250, see the dataset's
PROVENANCE.txt). None of them is relevant to any query. For each system this prints, on the
chosen split:

- nDCG@10 overall, on the negation types (2in 3in inp pin pni) and on the others;
- how often the system's rank-1 passage is an LLM-written one, and what share of its top 10 is;
- the same nDCG@10 when those passages are removed from the corpus (the gold and the sampled
  Wikipedia distractors stay), i.e. the ranking the system would give without them, and that
  figure per query type.

It measures the benchmark, not a method: nothing here is used by any composer. ``--every N``
keeps every Nth query of the split (a deterministic sample of every type: the queries are stored
type by type), for systems too slow for the whole split (a reader's rerank).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np

from logir.data.benchmarks import load_benchmark
from logir.data.benchmarks.comlq import COMLQ_TYPES, NEGATION_TYPES
from logir.data.dataset import Dataset
from logir.data.splits import select_split
from logir.data.trec import read_run
from logir.eval.runner import evaluate
from logir.eval.systems import ScorerPool

DATA = Path(os.environ.get("LOGIR_SHARED_DATASETS", "../shared/datasets"))
#: the id range of the LLM-written passages (PROVENANCE.txt of the ComLQ folder)
GENERATED = range(17975, 21251)
DEFAULT_SYSTEMS = ["hybrid", "bm25", "dense", "hybrid:auto", "hybrid:hybrid", "bm25:fuzzy"]


def is_generated(doc_id: str) -> bool:
    return doc_id.isdigit() and int(doc_id) in GENERATED


def without_generated(ds: Dataset) -> Dataset:
    """The same queries and labels over the corpus minus the LLM-written passages."""
    return Dataset(
        name=ds.name,
        corpus=[d for d in ds.corpus if not is_generated(d.id)],
        queries=ds.queries,
        qrels=ds.qrels,
        violating=ds.violating,
        meta=dict(ds.meta),
    )


def ndcg_parts(ds: Dataset, per_query: dict[str, dict[str, float]]) -> dict[str, float]:
    neg = [t.id for t in ds.queries if t.facets.get("type") in NEGATION_TYPES]
    pos = [t.id for t in ds.queries if t.facets.get("type") not in NEGATION_TYPES]

    def mean(ids: list[str]) -> float:
        return float(np.mean([per_query[q]["nDCG@10"] for q in ids if q in per_query]))

    return {"all": mean(neg + pos), "negation": mean(neg), "other": mean(pos)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default="logir-test")
    ap.add_argument("-s", "--system", action="append", dest="systems")
    ap.add_argument("--data", type=Path, default=DATA / "comlq")
    ap.add_argument("--runs-dir", type=Path, default=Path("results/comlq_generated"))
    ap.add_argument("--out", type=Path)
    ap.add_argument("--every", type=int, default=1, help="keep every Nth query of the split")
    args = ap.parse_args()
    if args.every < 1:
        ap.error(f"--every must be at least 1, got {args.every}")
    systems = args.systems or DEFAULT_SYSTEMS

    full = select_split(load_benchmark("comlq", args.data), args.split)
    if args.every > 1:
        full = full.subset({t.id for t in full.queries[:: args.every]})
    n_generated = sum(is_generated(d.id) for d in full.corpus)
    relevant_generated = sum(is_generated(d) for r in full.qrels.values() for d in r)
    print(
        f"ComLQ {args.split}: {len(full.queries)} queries, {len(full.corpus)} passages, "
        f"{n_generated} LLM-written ({relevant_generated} of them relevant to a query)"
    )
    gold = without_generated(full)
    rows = []
    res_full = evaluate(full, systems, pool=ScorerPool(full.corpus), runs_dir=args.runs_dir)
    res_gold = evaluate(gold, systems, pool=ScorerPool(gold.corpus))
    for s_full, s_gold in zip(res_full.systems, res_gold.systems, strict=True):
        top1 = top10 = 0
        ranked = read_run(s_full.run_file)
        for run in ranked.values():
            docs = sorted(run, key=lambda d: (-run[d], d))[:10]
            top1 += is_generated(docs[0])
            top10 += sum(is_generated(d) for d in docs)
        n = len(ranked)
        row = {
            "system": s_full.name,
            "with": ndcg_parts(full, s_full.per_query),
            "without": ndcg_parts(gold, s_gold.per_query),
            "rank1_generated": top1 / n,
            "top10_generated": top10 / (10 * n),
            "types_with": {t: v["nDCG@10"] for t, v in s_full.breakdown["type"].items()},
            "types_without": {t: v["nDCG@10"] for t, v in s_gold.breakdown["type"].items()},
        }
        rows.append(row)
    print()
    print(
        "| system | nDCG@10 all / negation / other | rank 1 LLM-written | top 10 LLM-written "
        "| without them: all / negation / other |"
    )
    print("|---|---|---|---|---|")
    for r in rows:
        w, wo = r["with"], r["without"]
        print(
            f"| {r['system']} | {100 * w['all']:.1f} / {100 * w['negation']:.1f} / "
            f"{100 * w['other']:.1f} | {100 * r['rank1_generated']:.1f} % | "
            f"{100 * r['top10_generated']:.1f} % | {100 * wo['all']:.1f} / "
            f"{100 * wo['negation']:.1f} / {100 * wo['other']:.1f} |"
        )
    for key, title in [("types_with", "With"), ("types_without", "Without")]:
        print()
        print(f"{title} the LLM-written passages, by type (nDCG@10):")
        print()
        print("| system | " + " | ".join(COMLQ_TYPES) + " |")
        print("|---|" + "---|" * len(COMLQ_TYPES))
        for r in rows:
            cells = " | ".join(f"{100 * r[key][t]:.1f}" for t in COMLQ_TYPES)
            print(f"| {r['system']} | {cells} |")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(rows, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
