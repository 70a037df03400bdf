"""Random access to the lines of a large file: each line's byte offset, found once, and a
read-only memory map, so reading line ``i`` touches only the pages that hold it.

An index's ``docs.jsonl`` at a million passages is about a gigabyte; a composer that reads a few
hundred passages per query (exclusion evidence) should not load all of them first.
"""

from __future__ import annotations

import mmap
import threading
from pathlib import Path

import numpy as np

_CHUNK = 1 << 24  # bytes scanned for line ends at a time


class LineFile:
    """The lines of ``path`` by number (without their line end), read on demand."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._map: mmap.mmap | None = None
        self._starts: np.ndarray | None = None
        self._lock = threading.Lock()

    def _open(self) -> tuple[mmap.mmap, np.ndarray]:
        with self._lock:
            if self._map is None or self._starts is None:
                with self.path.open("rb") as fh:
                    size = self.path.stat().st_size
                    self._map = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) if size else None
                    ends = [np.zeros(0, dtype=np.int64)]
                    at = 0
                    while chunk := fh.read(_CHUNK):
                        found = np.flatnonzero(np.frombuffer(chunk, dtype=np.uint8) == 10)
                        ends.append(found.astype(np.int64) + at + 1)
                        at += len(chunk)
                    stops = np.concatenate(ends)
                    if at and (not len(stops) or stops[-1] != at):  # a last line without "\n"
                        stops = np.append(stops, at)
                    self._starts = np.concatenate([[0], stops]).astype(np.int64)
            assert self._starts is not None
            return self._map, self._starts  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self._open()[1]) - 1

    def line(self, i: int) -> bytes:
        """Line ``i`` (from 0), without its line end."""
        mm, starts = self._open()
        if not 0 <= i < len(starts) - 1 or mm is None:
            raise IndexError(f"line {i} of {self.path}: out of range")
        return mm[int(starts[i]) : int(starts[i + 1])].rstrip(b"\r\n")
