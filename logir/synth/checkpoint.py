"""The append-only checkpoint of a synthesis run: one JSON line per finished unit.

Each line is ``{"key", "status": "ok", "item"}`` or ``{"key", "status": "failed", "reason"}``,
written with a single ``os.write`` and fsynced, so a killed run leaves at most one torn last line.
That line is ignored (and cut off before the next append). A later line for the same key wins,
which is how a failed unit retried on a later run becomes ok.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from logir.errors import DataFormatError

OK, FAILED = "ok", "failed"


@contextlib.contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold SIGINT / SIGTERM until the block ends (main thread only; elsewhere a no-op)."""
    block = {signal.SIGINT, signal.SIGTERM}
    main = threading.current_thread() is threading.main_thread()
    if not main or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, block)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class Checkpoint:
    """``OUT/checkpoint.jsonl``: read what a previous run finished, append what this one does."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.records: dict[str, dict[str, Any]] = {}
        self.torn = False  # whether a torn last line was found (and dropped) on load
        self._fd: int | None = None
        self._lock = threading.Lock()
        self._load()

    # -- reading ---------------------------------------------------------------------------
    def _load(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1  # everything after the last newline is a torn write
        self.torn = end < len(data)
        for number, raw in enumerate(data[:end].splitlines(), start=1):
            if not raw.strip():
                continue
            try:
                rec = json.loads(raw)
            except ValueError:
                raise DataFormatError(self.path, number, "not a JSON object") from None
            if (
                not isinstance(rec, dict)
                or not isinstance(rec.get("key"), str)
                or rec.get("status") not in (OK, FAILED)
            ):
                raise DataFormatError(self.path, number, 'needs "key" and "status" ok|failed')
            self.records[rec["key"]] = rec
        if self.torn:
            with self.path.open("r+b") as fh:
                fh.truncate(end)

    def status(self, key: str) -> str | None:
        rec = self.records.get(key)
        return None if rec is None else rec["status"]

    def done(self) -> set[str]:
        """Keys whose latest record is ok (skipped on resume; failed ones are retried)."""
        return {k for k, r in self.records.items() if r["status"] == OK}

    def item(self, key: str) -> dict[str, Any] | None:
        rec = self.records.get(key)
        return rec["item"] if rec is not None and rec["status"] == OK else None

    # -- writing ---------------------------------------------------------------------------
    def append(self, record: dict[str, Any]) -> None:
        """Write one record as one line, flushed to disk before returning."""
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        with self._lock, deferred_signals():
            if self._fd is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            view = memoryview(line)
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            os.fsync(self._fd)
            self.records[record["key"]] = record

    def ok(self, key: str, item: dict[str, Any]) -> None:
        self.append({"key": key, "status": OK, "item": item})

    def failed(self, key: str, reason: str) -> None:
        self.append({"key": key, "status": FAILED, "reason": reason})

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
