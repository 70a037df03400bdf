"""How an endpoint takes a JSON schema for its answer (``response_format``), learnt once.

Modes, tried in this order until the endpoint accepts one:

- ``json_schema``: OpenAI's ``{"type": "json_schema", "json_schema": {"name", "schema"}}``
  (llama.cpp's server turns it into a grammar);
- ``json_object_schema``: ``{"type": "json_object", "schema": ...}`` (llama-cpp-python's form);
- ``json_object``: JSON of any shape;
- ``none``: no ``response_format`` at all.

A mode is given up when the endpoint answers 400 or 422 with a message about the response
format (or, as llama-cpp-python's server does, 500 with a validation error of that field).
What is learnt is kept for the process and in ``CACHE_DIR/endpoints.json``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import threading
from pathlib import Path
from typing import Any

__all__ = ["MODES", "FormatMemory", "response_format", "rejects_format"]

MODES = ("json_schema", "json_object_schema", "json_object", "none")

_FORMAT_WORDS = re.compile(r"response_format|json_schema|json_object|\bschema\b", re.IGNORECASE)


def response_format(mode: str, schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """The ``response_format`` field for ``mode`` (None: send none)."""
    if mode == "none":
        return None
    if schema is None or mode == "json_object":
        return {"type": "json_object"}
    if mode == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    name = re.sub(r"[^A-Za-z0-9_-]", "_", str(schema.get("title") or "answer"))[:64]
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}


def rejects_format(status: int, message: str) -> bool:
    """Whether an HTTP error says the endpoint does not take the response format sent: a 400
    or 422 about it, or (llama-cpp-python's server) a 500 carrying a validation error of the
    ``response_format`` field."""
    if status in (400, 422):
        return _FORMAT_WORDS.search(message) is not None
    return status == 500 and "response_format" in message and "validation error" in message


class FormatMemory:
    """The first mode each endpoint accepts, for the process and (when given) on disk."""

    _process: dict[str, str] = {}
    _lock = threading.Lock()

    def __init__(self, directory: Path | None) -> None:
        self.file = Path(directory) / "endpoints.json" if directory is not None else None

    def _disk(self) -> dict[str, Any]:
        if self.file is None:
            return {}
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def mode(self, endpoint: str) -> str:
        """The mode to try first for ``endpoint``."""
        with self._lock:
            known = self._process.get(endpoint)
            if known is None:
                entry = self._disk().get(endpoint)
                stored = entry.get("response_format") if isinstance(entry, dict) else None
                known = stored if stored in MODES else MODES[0]
                self._process[endpoint] = known
            return known

    def give_up(self, endpoint: str, mode: str) -> str | None:
        """Record that ``endpoint`` refused ``mode``; the next mode to try (None after the last)."""
        i = MODES.index(mode)
        following = MODES[i + 1] if i + 1 < len(MODES) else None
        with self._lock:
            current = self._process.get(endpoint, MODES[0])
            if MODES.index(current) > i:  # another thread already moved on
                return current
            self._process[endpoint] = following or MODES[-1]
            self._store(endpoint, following or MODES[-1])
        return following

    def _store(self, endpoint: str, mode: str) -> None:
        if self.file is None:
            return
        data = self._disk()
        data[endpoint] = {"response_format": mode}
        with contextlib.suppress(OSError):
            self.file.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.file.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    json.dump(data, fh, indent=1, sort_keys=True)
                os.replace(tmp, self.file)
            except OSError:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise

    @classmethod
    def forget_process(cls) -> None:
        """Drop what this process learnt (tests)."""
        with cls._lock:
            cls._process.clear()
