"""Export the items the majority accepted as a BEIR folder that ``logir eval beir`` reads."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from logir.data.beir import write_beir
from logir.errors import LogirError
from logir.serve.review.items import SPLIT, ReviewFolder
from logir.serve.review.store import ReviewStore, count_status
from logir.serve.review.vote import majority

REPORT = "review.json"
# what an earlier export leaves in its folder (it may be overwritten by the next one)
_EXPORT_FILES = {"corpus.jsonl", "queries.jsonl", "qrels", REPORT}


@dataclass(frozen=True)
class ExportResult:
    """Where the accepted set went and how the review stands."""

    out_dir: Path
    accepted: list[str]
    counts: dict[str, int]

    def as_dict(self) -> dict[str, object]:
        return {"out_dir": str(self.out_dir), **self.counts, "accepted_ids": self.accepted}


def _check_out_dir(out: Path, source: Path) -> None:
    if out.exists() and not out.is_dir():
        raise LogirError(f"export target is a file, not a folder: {out}")
    if out.resolve() == source.resolve():
        raise LogirError(f"export target is the folder under review: {out}")
    if out.is_dir():
        extra = sorted(p.name for p in out.iterdir() if p.name not in _EXPORT_FILES)
        if extra:
            raise LogirError(
                f"export target {out} is not empty and not an earlier export "
                f"(it holds {', '.join(extra[:3])}); choose a new folder"
            )


def export_accepted(folder: ReviewFolder, store: ReviewStore, out_dir: str | Path) -> ExportResult:
    """Write the original corpus with only the accepted queries (their qrels and violating
    documents) to `out_dir`, plus ``review.json`` with every item's votes."""
    out = Path(out_dir)
    _check_out_dir(out, folder.root)
    tallies = store.tallies()
    counts = count_status(tallies.values())
    accepted = [i for i, t in tallies.items() if t.status == "accepted" and i in folder]
    if not accepted:
        raise LogirError(
            f"no item is accepted yet ({counts['pending']} pending, {counts['rejected']} "
            f"rejected of {counts['total']}); nothing to export"
        )
    subset = folder.dataset.subset(accepted)
    subset.name = out.name
    write_beir(subset, out, SPLIT)
    labels: dict[str, list[dict[str, object]]] = {}
    for label in store.labels():
        row = label.as_dict()
        row.pop("item_id")
        labels.setdefault(label.item_id, []).append(row)
    report = {
        "source": str(folder.root),
        "source_fingerprint": folder.fingerprint,
        "required": store.required,
        "majority": majority(store.required),
        **counts,
        "items": [
            {"id": i, **t.as_dict(), "labels": labels.get(i, [])} for i, t in tallies.items()
        ],
    }
    tmp = out / (REPORT + ".tmp")
    tmp.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(out / REPORT)
    return ExportResult(out, accepted, counts)
