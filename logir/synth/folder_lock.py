"""One synthesis run at a time per output folder: an OS lock on ``OUT/.synth.lock``.

Two runs writing the same folder would both make every unit and append to one checkpoint. The
first run takes an exclusive ``fcntl.flock`` on the lock file and writes who it is (pid, host,
start time, command) into it; a second run finds the lock taken and stops at once, naming the
folder and the holder. The kernel drops the lock when the holding process ends, however it ends
(kill -9 included), so a stale file never blocks: the next run takes the lock and rewrites it.
The file is left in place (removing it would let a third run lock a fresh file while the second
still holds the old one).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from logir.errors import LogirError

__all__ = ["LOCK_NAME", "FolderBusy", "folder_lock"]

LOCK_NAME = ".synth.lock"


class FolderBusy(LogirError):
    """Another run holds the folder's lock."""


def _holder(fd: int) -> str:
    """Who holds the lock, as its file says (best effort)."""
    try:
        raw = os.pread(fd, 4096, 0).decode("utf-8", "replace")
        info = json.loads(raw)
    except (OSError, ValueError):
        return "another process (it has not written its name yet)"
    if not isinstance(info, dict):
        return "another process"
    argv = info.get("command")
    command = " ".join(str(a) for a in argv)[:200] if isinstance(argv, list) else ""
    return (
        f"pid {info.get('pid', '?')} on {info.get('host', '?')}, started {info.get('started', '?')}"
        + (f": {command}" if command else "")
    )


@contextmanager
def folder_lock(folder: Path) -> Iterator[Path]:
    """Hold ``folder``'s synthesis lock while the block runs (the folder is created if needed);
    FolderBusy, at once, when another run holds it. Yields the lock file's path."""
    import fcntl  # POSIX: logir's synthesis runs on Linux and macOS

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise LogirError(f"cannot create the lock file {path}: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise FolderBusy(
                f"{folder} is being written by another synthesis run ({_holder(fd)}); wait for "
                f"it to end or choose another --out (the lock is {path})"
            ) from None
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "command": sys.argv,
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info, ensure_ascii=False).encode("utf-8"), 0)
        yield path
    finally:
        os.close(fd)  # closing the last descriptor releases the lock
