"""Document vectors kept on disk chunk by chunk while a corpus is encoded, so that a build cut
short (killed, out of memory, a laptop closed) resumes at the first chunk it had not written.

The chunks live in a folder beside the cache file they become (``FILE.parts-N``: chunks of N
texts, numbered from 0); each is written atomically, so a chunk file is whole or absent. The
folder's name carries the cache file's (model, model version, corpus hash), so a chunk of
another corpus or model is never read; a chunk whose row count is wrong or that cannot be read
is encoded again. Once every chunk is there the caller writes the cache file and calls
:meth:`ChunkStore.clear`.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, Generic, TypeVar

from logir.index.cache import save_atomic

log = logging.getLogger(__name__)

T = TypeVar("T")


class ChunkStore(Generic[T]):
    """The chunk files of one cache file ``final`` (see the module)."""

    def __init__(
        self,
        final: Path,
        size: int,
        suffix: str,
        write: Callable[[BinaryIO, T], None],
        read: Callable[[Path], T],
        rows: Callable[[T], int],
    ) -> None:
        if size < 1:
            raise ValueError(f"chunk size must be at least 1, got {size}")
        self.size = size
        self.folder = final.with_name(f"{final.name}.parts-{size}")
        self._suffix = suffix
        self._write = write
        self._read = read
        self._rows = rows
        self._told = False

    def path(self, index: int) -> Path:
        """The file of chunk ``index``."""
        return self.folder / f"{index:07d}{self._suffix}"

    def get(self, index: int, n: int) -> T | None:
        """Chunk ``index`` as written before, if it is on disk whole with ``n`` rows."""
        path = self.path(index)
        if not path.is_file():
            return None
        try:
            value = self._read(path)
        except (OSError, ValueError, EOFError) as exc:
            log.warning("encoding again chunk %s, which cannot be read (%s)", path, exc)
            return None
        if self._rows(value) != n:
            log.warning("encoding again chunk %s: %d rows, not %d", path, self._rows(value), n)
            return None
        if not self._told:
            self._told = True
            log.info("resuming from the chunks already encoded in %s", self.folder)
        return value

    def put(self, index: int, value: T) -> None:
        """Write chunk ``index`` (atomically)."""
        save_atomic(self.path(index), lambda fh: self._write(fh, value))

    def clear(self) -> None:
        """Remove the chunk folder (after the whole cache file is written)."""
        shutil.rmtree(self.folder, ignore_errors=True)


def encoded_in_chunks(
    texts: list[str],
    size: int,
    encode: Callable[[list[str]], T],
    skipped: Callable[[int], object],
    parts: ChunkStore[T] | None = None,
) -> Iterator[tuple[int, T]]:
    """``(start, block)`` for each chunk of ``size`` texts in order, ``block`` being
    ``encode(chunk)``, or the chunk as ``parts`` kept it from an earlier run (then
    ``skipped(len(chunk))`` stands for the encoding's progress); each block encoded is kept in
    ``parts`` at once."""
    if parts is not None and parts.size != size:
        raise ValueError(f"chunks of {size} texts, but the store keeps chunks of {parts.size}")
    for number, start in enumerate(range(0, len(texts), size)):
        chunk = texts[start : start + size]
        block = parts.get(number, len(chunk)) if parts is not None else None
        if block is None:
            block = encode(chunk)
            if parts is not None:
                parts.put(number, block)
        else:
            skipped(len(chunk))
        yield start, block
