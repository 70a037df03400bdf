"""A content-addressed on-disk cache of LLM answers: sha256 of the request -> one JSON file."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["ResponseCache", "request_key"]


def request_key(fields: dict[str, Any]) -> str:
    """The sha256 hex digest of ``fields`` serialised canonically (sorted keys, no spaces)."""
    blob = json.dumps(fields, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    """Answers stored as ``DIR/ab/abcdef....json``; safe to share between threads and processes.

    Writes go to a temporary file in the same folder and are moved into place with
    :func:`os.replace`, so a reader sees either no file or a whole one. An unreadable file counts
    as a miss.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def path(self, key: str) -> Path:
        """Where the record for ``key`` lives."""
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored record, or None when absent or unreadable."""
        try:
            record = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return record if isinstance(record, dict) else None

    def put(self, key: str, record: dict[str, Any]) -> None:
        """Store ``record`` under ``key`` atomically (temp file + os.replace)."""
        target = self.path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(record, fh, ensure_ascii=False)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def delete(self, key: str) -> None:
        """Forget ``key`` (no error when it is not there)."""
        with contextlib.suppress(FileNotFoundError):
            self.path(key).unlink()
