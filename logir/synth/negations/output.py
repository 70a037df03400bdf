"""What `logir synth negations` writes: training triplets and a BEIR folder of the same items.

``OUT/`` holds:

- ``triplets.jsonl``: one row per (train query, hard negative): ``query``, ``positive``,
  ``negative`` (passage texts, title first), as ``logir train --data`` reads them, plus ids,
  the generator (``kind``) and the wording;
- ``corpus.jsonl``, ``queries.jsonl``: the passages the items use and every query, with its
  logical form, its generator as ``type`` and its hard negatives as ``violating``;
- ``qrels/train.tsv``: the train queries' positives; ``qrels/test.tsv``: the held-out ones
  (``logir eval beir --data OUT`` reads it; ``logir train --data OUT`` reads train.tsv only).
  A query is held out with its group (the queries over the same passages); a query that uses
  any passage of a held-out query is set aside (written nowhere), so no held-out passage is
  ever trained on;
- ``summary.json``: the settings and counts of the run.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from logir.data.beir import write_beir
from logir.data.dataset import Dataset, Topic
from logir.data.jsonl import write_jsonl
from logir.data.trec import write_qrels
from logir.synth.negations.analysis import Analysis
from logir.synth.negations.item import Item

TRIPLETS, SUMMARY = "triplets.jsonl", "summary.json"


def held_out(group: str, seed: int, share: float) -> bool:
    """Whether a group of items goes to the test split (a hash, so it never depends on order)."""
    digest = hashlib.sha256(f"{seed}\x00{group}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < share


def query_ids(items: list[Item]) -> list[str]:
    """``title-1``, ``swap-1``, ``swap-2`` ...: numbered per generator in order."""
    counts: dict[str, int] = {}
    out = []
    for item in items:
        counts[item.kind] = counts.get(item.kind, 0) + 1
        out.append(f"{item.kind}-{counts[item.kind]}")
    return out


def write(
    items: list[Item],
    analysis: Analysis,
    out: Path,
    seed: int,
    test_share: float,
    settings: dict[str, Any],
) -> dict[str, Any]:
    """Write every file of OUT (see the module docstring); returns the summary written."""
    passages = analysis.passages
    test = [held_out(item.group, seed, test_share) for item in items]
    held_passages = {
        i
        for item, t in zip(items, test, strict=True)
        if t
        for i in (item.positive, *item.negatives)
    }
    keep = [
        t or not ({item.positive, *item.negatives} & held_passages)
        for item, t in zip(items, test, strict=True)
    ]
    set_aside = len(items) - sum(keep)
    items = [item for item, k in zip(items, keep, strict=True) if k]
    test = [t for t, k in zip(test, keep, strict=True) if k]
    ids = query_ids(items)
    rows = []
    for qid, item, is_test in zip(ids, items, test, strict=True):
        if is_test:
            continue
        for n in item.negatives:
            rows.append(
                {
                    "query": item.query,
                    "positive": passages[item.positive].doc.full_text,
                    "negative": passages[n].doc.full_text,
                    "query_id": qid,
                    "positive_id": passages[item.positive].doc.id,
                    "negative_id": passages[n].doc.id,
                    "kind": item.kind,
                    "wording": item.wording,
                }
            )
    out.mkdir(parents=True, exist_ok=True)
    write_jsonl(out / TRIPLETS, rows)

    used = sorted({i for item in items for i in (item.positive, *item.negatives)})
    topics = [
        Topic(
            id=qid,
            text=item.query,
            type=item.kind,
            logical_form=str(item.logical_form()),
            meta={
                "wording": item.wording,
                "topic": item.topic,
                "excluded": list(item.excluded),
                "split": "test" if is_test else "train",
            },
        )
        for qid, item, is_test in zip(ids, items, test, strict=True)
    ]
    qrels = {
        split: {
            qid: {passages[item.positive].doc.id: 1}
            for qid, item, is_test in zip(ids, items, test, strict=True)
            if is_test == (split == "test")
        }
        for split in ("train", "test")
    }
    dataset = Dataset(
        name=out.name,
        corpus=[passages[i].doc for i in used],
        queries=topics,
        qrels=qrels["train"],
        violating={
            qid: [passages[n].doc.id for n in item.negatives]
            for qid, item in zip(ids, items, strict=True)
        },
    )
    write_beir(dataset, out, split="train")
    test_qrels = out / "qrels" / "test.tsv"
    if qrels["test"]:
        write_qrels(test_qrels, qrels["test"], format="beir")
    elif test_qrels.exists():
        test_qrels.unlink()  # left by an earlier run into the same folder

    kinds: dict[str, int] = {}
    for item in items:
        kinds[item.kind] = kinds.get(item.kind, 0) + 1
    summary = {
        **settings,
        "queries": len(items),
        "by_kind": kinds,
        "train_queries": len(qrels["train"]),
        "test_queries": len(qrels["test"]),
        "set_aside": set_aside,
        "triplets": len(rows),
        "passages": len(used),
    }
    tmp = out / (SUMMARY + ".tmp")
    tmp.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(out / SUMMARY)
    return summary
