"""The items of a generated BEIR folder as the review page shows them.

An item is one query with every passage judged for it (qrels, and the violating passages of a
negated condition), its type, logical form and the labels a synthesis pipeline keeps in ``meta``
(answer, triplets, evidence). Evidence passages are the ones ``meta["evidence"]`` names, or else
the relevant ones.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from logir.data.beir import load_beir, require_dir
from logir.data.dataset import Dataset, Topic
from logir.errors import LogirError

SPLIT = "test"
_DOC_KEYS = ("doc_id", "docid", "_id", "id", "doc", "passage_id", "corpus_id")
_TEXT_KEYS = ("text", "sentence", "span", "evidence", "quote")


def _sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def folder_fingerprint(root: Path) -> str:
    """sha256 over the corpus, queries and test qrels files of a BEIR folder."""
    h = hashlib.sha256()
    for rel in ("corpus.jsonl", "queries.jsonl", f"qrels/{SPLIT}.tsv"):
        h.update(rel.encode() + b"\0")
        with (root / rel).open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()


def _evidence(meta: dict[str, Any], known: set[str]) -> tuple[set[str], dict[str, list[str]]]:
    """Evidence doc ids and evidence snippets ("" key: snippets not tied to a passage)."""
    docs: set[str] = set()
    snippets: dict[str, list[str]] = {}
    raw = meta.get("evidence")

    def add_text(doc: str, value: Any) -> None:
        values = value if isinstance(value, list) else [value]
        for v in values:
            if isinstance(v, str) and v.strip():
                snippets.setdefault(doc, []).append(v.strip())

    if isinstance(raw, dict):
        for key, value in raw.items():
            key = str(key)
            if key in known:
                docs.add(key)
                add_text(key, value)
            else:
                add_text("", value)
    elif isinstance(raw, list):
        for entry in raw:
            if isinstance(entry, str | int) and str(entry) in known:
                docs.add(str(entry))
            elif isinstance(entry, str):
                add_text("", entry)
            elif isinstance(entry, dict):
                doc = next((str(entry[k]) for k in _DOC_KEYS if k in entry), "")
                if doc in known:
                    docs.add(doc)
                text = next((entry[k] for k in _TEXT_KEYS if k in entry), None)
                add_text(doc if doc in known else "", text)
    elif isinstance(raw, str):
        add_text("", raw)
    return docs, snippets


@dataclass
class ReviewFolder:
    """A BEIR folder loaded for review: the dataset and each item's page payload."""

    root: Path
    dataset: Dataset
    fingerprint: str

    @classmethod
    def load(cls, folder: str | Path) -> ReviewFolder:
        root = require_dir(folder, "folder to review")
        dataset = load_beir(root, SPLIT)
        if not dataset.queries:
            raise LogirError(f"{root}: no query is judged in qrels/{SPLIT}.tsv; nothing to review")
        return cls(root, dataset, folder_fingerprint(root))

    def __post_init__(self) -> None:
        self._topics = {t.id: t for t in self.dataset.queries}
        self._position = {t.id: i for i, t in enumerate(self.dataset.queries)}

    @property
    def item_ids(self) -> list[str]:
        return [t.id for t in self.dataset.queries]

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._topics

    def item(self, item_id: str) -> dict[str, Any]:
        """The page payload of one item (KeyError when the folder has no such query)."""
        topic = self._topics[item_id]
        ds = self.dataset
        judged = ds.qrels.get(item_id, {})
        violating = ds.violating.get(item_id, [])
        order = list(judged) + [d for d in violating if d not in judged]
        known = set(order)
        named, snippets = _evidence(topic.meta, known)
        evidence = named or {d for d, g in judged.items() if g > 0}
        passages = []
        for doc_id in order:
            row = ds.doc_index.get(doc_id)
            doc = ds.corpus[row] if row is not None else None
            passages.append(
                {
                    "id": doc_id,
                    "title": doc.title if doc else "",
                    "text": doc.text if doc else "",
                    "missing": doc is None,
                    "grade": judged.get(doc_id),
                    "evidence": doc_id in evidence,
                    "violating": doc_id in violating,
                    "snippets": snippets.get(doc_id, []) + snippets.get("", []),
                }
            )
        passages.sort(key=lambda p: (not p["evidence"], p["violating"]))
        meta = dict(topic.meta)
        return {
            "id": topic.id,
            "position": self._position[item_id],
            "total": len(self._topics),
            "text": topic.text,
            "type": topic.type,
            "logical_form": topic.logical_form,
            "conditions": list(topic.conditions),
            "answer": meta.pop("answer", None),
            "triplets": meta.pop("triplets", None),
            "evidence": meta.pop("evidence", None),
            "meta": meta,
            "passages": passages,
        }

    def item_fingerprint(self, item_id: str) -> str:
        """sha256 of what annotators judge: the query row, its judgments and passage texts."""
        topic: Topic = self._topics[item_id]
        payload = self.item(item_id)
        payload.pop("position")
        payload.pop("total")
        payload["facets"] = topic.facets
        return _sha(json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str))

    def fingerprints(self) -> list[tuple[str, str]]:
        """(item id, content fingerprint) of every item, in folder order."""
        return [(i, self.item_fingerprint(i)) for i in self.item_ids]
