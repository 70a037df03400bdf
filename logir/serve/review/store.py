"""Review progress in SQLite: the items of a folder and every annotator's label of them.

WAL journal with ``synchronous=FULL`` and one transaction per submitted label: once ``submit``
returns, the label is on disk and survives a killed server or a crashed machine.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from logir.errors import LogirError
from logir.serve.review.vote import Tally, Vote, check_required, tally

MAX_NAME = 100
MAX_COMMENT = 5000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS items (
    item_id TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    folder_fingerprint TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS labels (
    item_id TEXT NOT NULL REFERENCES items(item_id),
    annotator TEXT NOT NULL,
    structure_ok INTEGER NOT NULL CHECK (structure_ok IN (0, 1)),
    evidence_ok INTEGER NOT NULL CHECK (evidence_ok IN (0, 1)),
    comment TEXT NOT NULL DEFAULT '',
    ts TEXT NOT NULL,
    UNIQUE (item_id, annotator)
);
"""


@dataclass(frozen=True)
class Label:
    """One annotator's judgement of one item."""

    item_id: str
    annotator: str
    structure_ok: bool
    evidence_ok: bool
    comment: str
    ts: str

    @property
    def vote(self) -> Vote:
        return Vote(self.structure_ok, self.evidence_ok)

    def as_dict(self) -> dict[str, object]:
        return {
            "item_id": self.item_id,
            "annotator": self.annotator,
            "structure_ok": self.structure_ok,
            "evidence_ok": self.evidence_ok,
            "comment": self.comment,
            "ts": self.ts,
        }


@dataclass(frozen=True)
class Progress:
    """How many of the items one annotator has labelled."""

    annotator: str
    done: int
    total: int

    def as_dict(self) -> dict[str, object]:
        return {"annotator": self.annotator, "done": self.done, "total": self.total}


def clean_annotator(name: object) -> str:
    """The annotator name trimmed; LogirError when it is not a non-empty short string."""
    if not isinstance(name, str) or not name.strip():
        raise LogirError("the annotator name is empty")
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise LogirError(f"the annotator name is longer than {MAX_NAME} characters")
    return name


class ReviewStore:
    """The SQLite file behind a review: items (with content fingerprints) and labels.

    Thread-safe (one connection behind a lock); every write is its own durable transaction.
    """

    def __init__(self, path: str | Path, required: int | None = None) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise LogirError(f"review database is a folder, not a file: {self.path}")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise LogirError(f"cannot open review database {self.path}: {exc}") from None
        stored = self._meta("required")
        if required is not None:
            self.required = check_required(required)
            if stored != str(self.required):
                self._set_meta("required", str(self.required))
        else:
            self.required = int(stored) if stored else 3

    # -- meta ---------------------------------------------------------------------------------

    def _meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def _set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # -- items --------------------------------------------------------------------------------

    def sync_items(self, items: Sequence[tuple[str, str]], folder_fingerprint: str) -> None:
        """Register the folder's items as (item id, content fingerprint), in folder order.

        New items are added; an item whose content changed since it was labelled is an error
        (its labels would judge other text), so the review of a regenerated folder needs a new
        database. Items no longer in the folder keep their labels but are not shown.
        """
        ids = [i for i, _ in items]
        if len(set(ids)) != len(ids):
            dup = next(i for i in ids if ids.count(i) > 1)
            raise LogirError(f"item id {dup!r} appears twice in the folder")
        with self._lock:
            known = dict(self._db.execute("SELECT item_id, fingerprint FROM items").fetchall())
            labelled = {r[0] for r in self._db.execute("SELECT DISTINCT item_id FROM labels")}
        changed = [i for i, fp in items if i in labelled and known.get(i, fp) != fp]
        if changed:
            shown = ", ".join(changed[:5]) + (" ..." if len(changed) > 5 else "")
            raise LogirError(
                f"{self.path}: {len(changed)} labelled item(s) changed since they were labelled "
                f"({shown}); review the new folder with another --db"
            )
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("UPDATE items SET position = -1")
                self._db.executemany(
                    "INSERT INTO items (item_id, position, fingerprint, folder_fingerprint) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT(item_id) DO UPDATE SET "
                    "position = excluded.position, fingerprint = excluded.fingerprint, "
                    "folder_fingerprint = excluded.folder_fingerprint",
                    [(i, pos, fp, folder_fingerprint) for pos, (i, fp) in enumerate(items)],
                )
                self._db.execute(
                    "INSERT INTO meta (key, value) VALUES ('folder_fingerprint', ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (folder_fingerprint,),
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def item_ids(self) -> list[str]:
        """The ids of the current folder's items, in folder order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT item_id FROM items WHERE position >= 0 ORDER BY position"
            ).fetchall()
        return [r[0] for r in rows]

    def has_item(self, item_id: str) -> bool:
        with self._lock:
            row = self._db.execute(
                "SELECT 1 FROM items WHERE item_id = ? AND position >= 0", (item_id,)
            ).fetchone()
        return row is not None

    # -- labels -------------------------------------------------------------------------------

    def submit(
        self,
        item_id: str,
        annotator: str,
        structure_ok: bool,
        evidence_ok: bool,
        comment: str = "",
    ) -> Label:
        """Store (or replace) `annotator`'s label of `item_id`; durable when this returns."""
        annotator = clean_annotator(annotator)
        if not self.has_item(item_id):
            raise LogirError(f"unknown item {item_id!r}")
        if len(comment) > MAX_COMMENT:
            raise LogirError(f"the comment is longer than {MAX_COMMENT} characters")
        ts = datetime.now(UTC).isoformat(timespec="milliseconds")
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO labels (item_id, annotator, structure_ok, evidence_ok, comment, "
                    "ts) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(item_id, annotator) DO UPDATE SET "
                    "structure_ok = excluded.structure_ok, evidence_ok = excluded.evidence_ok, "
                    "comment = excluded.comment, ts = excluded.ts",
                    (item_id, annotator, int(structure_ok), int(evidence_ok), comment, ts),
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return Label(item_id, annotator, bool(structure_ok), bool(evidence_ok), comment, ts)

    def labels(self, item_id: str | None = None) -> list[Label]:
        """All labels of the current items (or of one item), by item order then annotator."""
        sql = (
            "SELECT l.item_id, l.annotator, l.structure_ok, l.evidence_ok, l.comment, l.ts "
            "FROM labels l JOIN items i ON i.item_id = l.item_id WHERE i.position >= 0"
        )
        args: tuple[str, ...] = ()
        if item_id is not None:
            sql += " AND l.item_id = ?"
            args = (item_id,)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY i.position, l.annotator", args).fetchall()
        return [Label(r[0], r[1], bool(r[2]), bool(r[3]), r[4], r[5]) for r in rows]

    def label_of(self, item_id: str, annotator: str) -> Label | None:
        """`annotator`'s label of `item_id`, if any."""
        annotator = clean_annotator(annotator)
        for label in self.labels(item_id):
            if label.annotator == annotator:
                return label
        return None

    def next_item(self, annotator: str) -> str | None:
        """The first item in folder order that `annotator` has not labelled yet."""
        annotator = clean_annotator(annotator)
        with self._lock:
            row = self._db.execute(
                "SELECT item_id FROM items WHERE position >= 0 AND item_id NOT IN "
                "(SELECT item_id FROM labels WHERE annotator = ?) ORDER BY position LIMIT 1",
                (annotator,),
            ).fetchone()
        return None if row is None else row[0]

    def progress(self, annotator: str) -> Progress:
        """How many of the current items `annotator` has labelled."""
        annotator = clean_annotator(annotator)
        with self._lock:
            total = self._db.execute("SELECT COUNT(*) FROM items WHERE position >= 0").fetchone()
            done = self._db.execute(
                "SELECT COUNT(*) FROM labels l JOIN items i ON i.item_id = l.item_id "
                "WHERE i.position >= 0 AND l.annotator = ?",
                (annotator,),
            ).fetchone()
        return Progress(annotator, done[0], total[0])

    def annotators(self) -> dict[str, int]:
        """Every annotator with the number of current items they labelled."""
        with self._lock:
            rows = self._db.execute(
                "SELECT l.annotator, COUNT(*) FROM labels l JOIN items i ON i.item_id = l.item_id "
                "WHERE i.position >= 0 GROUP BY l.annotator ORDER BY l.annotator"
            ).fetchall()
        return {r[0]: r[1] for r in rows}

    # -- decisions ----------------------------------------------------------------------------

    def tallies(self) -> dict[str, Tally]:
        """The majority-vote tally of every current item, in folder order."""
        by_item: dict[str, list[Vote]] = {i: [] for i in self.item_ids()}
        for label in self.labels():
            by_item[label.item_id].append(label.vote)
        return {i: tally(v, self.required) for i, v in by_item.items()}

    def tally(self, item_id: str) -> Tally:
        return tally((lab.vote for lab in self.labels(item_id)), self.required)

    def accepted(self) -> list[str]:
        """Ids of the items the majority accepted, in folder order."""
        return [i for i, t in self.tallies().items() if t.status == "accepted"]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> ReviewStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def count_status(tallies: Iterable[Tally]) -> dict[str, int]:
    """Items per status, plus the total and the decided count."""
    counts = {"total": 0, "decided": 0, "accepted": 0, "rejected": 0, "pending": 0}
    for t in tallies:
        counts["total"] += 1
        counts[t.status] += 1
        counts["decided"] += t.decided
    return counts
