"""Export the items the majority accepted as a BEIR folder that ``logir eval beir`` reads.

An export is written to a temporary folder beside its target and renamed into place, so a
killed process leaves either the earlier export or the new one, never half of one. The review
server exports only under its export root, by a plain folder name (``export_target``).
"""

from __future__ import annotations

import json
import re
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

from logir.data.beir import write_beir
from logir.errors import LogirError
from logir.serve.review.items import SPLIT, ReviewFolder
from logir.serve.review.store import ReviewStore, count_status
from logir.serve.review.vote import majority

REPORT = "review.json"
# what an earlier export leaves in its folder (it may be replaced by the next one)
_EXPORT_FILES = {"corpus.jsonl", "queries.jsonl", "qrels", REPORT}
MAX_NAME = 100
_NAME = re.compile(r"[\w.-]+")
# leftovers of an interrupted export: ".NAME.tmp-HEX" (new, unfinished), ".NAME.old-HEX" (replaced)
_LEFTOVER = re.compile(r"\.(?P<name>.+)\.(?P<kind>tmp|old)-[0-9a-f]{8}")


class ExportExists(LogirError):
    """The export target holds an earlier export and replacing it was not asked for."""


@dataclass(frozen=True)
class ExportResult:
    """Where the accepted set went and how the review stands."""

    out_dir: Path
    accepted: list[str]
    counts: dict[str, int]

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.out_dir.name,
            "out_dir": str(self.out_dir),
            **self.counts,
            "accepted_ids": self.accepted,
        }


def check_export_name(name: object) -> str:
    """`name` if it is a plain folder name; otherwise a `LogirError` saying what is wrong."""
    if not isinstance(name, str) or not name:
        raise LogirError("export name must be a non-empty string")
    if len(name) > MAX_NAME:
        raise LogirError(f"export name is longer than {MAX_NAME} characters")
    shown = repr(name[:40])
    if name.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", name):
        raise LogirError(f"export name must be a folder name, not an absolute path: {shown}")
    if name.startswith("~"):
        raise LogirError(f"export name must be a folder name, not a home path: {shown}")
    if "\\" in name or "/" in name:
        raise LogirError(f"export name must be one folder name, without '/' or '\\': {shown}")
    if name in (".", "..") or ".." in name:
        raise LogirError(f"export name must not hold '..': {shown}")
    if name.startswith("."):
        raise LogirError(f"export name must not start with '.': {shown}")
    if not _NAME.fullmatch(name):
        raise LogirError(f"export name may hold only letters, digits, '_', '-' and '.': {shown}")
    return name


def export_target(root: Path, name: object) -> Path:
    """The folder ``root/name`` for a checked `name`, refused unless it stays inside `root`
    (a symbolic link leading out of it is refused too)."""
    clean = check_export_name(name)
    base = root.resolve()
    target = base / clean
    if target.is_symlink():
        raise LogirError(f"export target {clean!r} is a symbolic link")
    resolved = target.resolve()
    if resolved.parent != base:
        raise LogirError(f"export target {clean!r} is outside the export root")
    return target


def clean_leftovers(parent: Path, name: str | None = None) -> None:
    """Remove what interrupted exports left in `parent` (only those of `name` when given); a
    replaced export whose successor never arrived is put back."""
    if not parent.is_dir():
        return
    for path in sorted(parent.iterdir(), key=lambda p: p.name):
        m = _LEFTOVER.fullmatch(path.name)
        if not m or (name is not None and m["name"] != name) or path.is_symlink():
            continue
        target = parent / m["name"]
        if m["kind"] == "old" and not target.exists() and not target.is_symlink():
            path.rename(target)
        elif path.is_dir():
            shutil.rmtree(path, ignore_errors=True)


def _check_out_dir(out: Path, source: Path, overwrite: bool) -> None:
    if out.is_symlink():
        raise LogirError(f"export target is a symbolic link: {out}")
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
        if not overwrite:
            raise ExportExists(
                f"export {out.name!r} exists already; choose another name or replace it"
            )


def _publish(tmp: Path, out: Path) -> None:
    """Move the finished folder `tmp` to `out`, replacing an earlier export there."""
    if not out.exists():
        tmp.rename(out)
        return
    old = out.parent / f".{out.name}.old-{secrets.token_hex(4)}"
    out.rename(old)
    try:
        tmp.rename(out)
    except BaseException:
        old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def export_accepted(
    folder: ReviewFolder, store: ReviewStore, out_dir: str | Path, *, overwrite: bool = True
) -> ExportResult:
    """Write the original corpus with only the accepted queries (their qrels and violating
    documents) to `out_dir`, plus ``review.json`` with every item's votes.

    An earlier export in `out_dir` is replaced when `overwrite`, else refused (`ExportExists`).
    """
    out = Path(out_dir)
    clean_leftovers(out.parent, out.name)
    _check_out_dir(out, folder.root, overwrite)
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
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.tmp-{secrets.token_hex(4)}"
    try:
        write_beir(subset, tmp, SPLIT)
        text = json.dumps(report, indent=2, ensure_ascii=False) + "\n"
        (tmp / REPORT).write_text(text, encoding="utf-8")
        _publish(tmp, out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return ExportResult(out, accepted, counts)
