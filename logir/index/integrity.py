"""The files of an index directory: sizes and SHA-256 recorded at build, checked when read.

``record_files`` lists every file of a freshly written index; the manifest keeps that list.
``check_files`` compares a part of the index (one retriever's folder, or ``docs.jsonl``) with it
before the part is loaded: the size always (a ``stat``), the SHA-256 once per process and file
(the file is about to be read in full anyway; hashing runs at about 1.2 GB/s, a tenth of the
time loading takes). A file of 64 MB or more, which is memory-mapped rather than read, has its
SHA-256 remembered in the user's cache once checked, keyed by its inode, size and times, so a
later process opening the same unchanged index does not hash it again. ``reading`` turns any
failure while parsing a file into a `DamagedFile` that names it, for indexes whose manifest
records nothing and for damage the records miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from logir.errors import DataFormatError, LogirError
from logir.index.cache import cache_root

_CHUNK = 1 << 20
_DIGESTS: dict[tuple[str, int, int, int, int, int], str] = {}  # (path, stat fields) -> sha256
_LOCK = threading.Lock()


class DamagedFile(LogirError):
    """A file of an index that is missing or cannot be read as written."""

    def __init__(self, path: str | Path, problem: str) -> None:
        super().__init__(f"{path} {problem}")
        self.path = Path(path)
        self.problem = problem


def sha256_file(path: Path) -> str:
    """The file's SHA-256, computed once per process while the file stays the same (same inode,
    size, modification and change times); for a large file (``REMEMBER_BYTES``), once for every
    process of the user (see `_remembered`)."""
    st = path.stat()
    key = (str(path.resolve()), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    with _LOCK:
        known = _DIGESTS.get(key)
    if known is not None:
        return known
    stamp = _stamp(key) if st.st_size >= REMEMBER_BYTES else None
    known = _remembered(stamp)
    if known is not None:
        with _LOCK:
            _DIGESTS[key] = known
        return known
    h = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
    digest = h.hexdigest()
    with _LOCK:
        _DIGESTS[key] = digest
    if stamp is not None and time.time() - st.st_ctime_ns / 1e9 > SETTLED_S:
        _remember(stamp, digest)
    return digest


#: a file at least this large (a memory-mapped posting array, a big docs.jsonl) has its SHA-256
#: remembered on disk, so that opening an index does not read gigabytes every time
REMEMBER_BYTES = 64 << 20
#: a file's change time must be this far in the past before its SHA-256 is remembered
SETTLED_S = 2.0


def _stamp(key: tuple[str, int, int, int, int, int]) -> Path:
    """Where the SHA-256 of the file version ``key`` is remembered (the user's logir cache)."""
    name = hashlib.sha256(repr(key).encode("utf-8")).hexdigest()[:40]
    return cache_root() / "verified" / name


def _remembered(stamp: Path | None) -> str | None:
    """The SHA-256 remembered at ``stamp``.

    A stamp is named by the file's path, inode, size, modification and change times, and written
    only once the change time is ``SETTLED_S`` old: any write to the file afterwards sets its
    change time to a later instant, so a changed file never finds the stamp of its old content.
    """
    if stamp is None:
        return None
    try:
        text = stamp.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if len(text) == 64 and all(c in "0123456789abcdef" for c in text) else None


def _remember(stamp: Path, digest: str) -> None:
    with contextlib.suppress(OSError):
        stamp.parent.mkdir(parents=True, exist_ok=True)
        tmp = stamp.with_name(f"{stamp.name}.{os.getpid()}.tmp")
        tmp.write_text(digest, encoding="ascii")
        os.replace(tmp, stamp)


def record_files(root: Path, skip: tuple[str, ...] = ()) -> dict[str, dict[str, Any]]:
    """``{relative path: {"bytes", "sha256"}}`` of every file under `root` but `skip`, sorted."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        if rel not in skip:
            out[rel] = {"bytes": path.stat().st_size, "sha256": sha256_file(path)}
    return out


def check_files(root: Path, records: Mapping[str, Any], under: str, digest: bool = True) -> None:
    """Check the recorded files named `under` (a file, a folder ending in ``/``, or ``""`` for
    all) against `root`: each present, of its size and (when `digest`) of its SHA-256. A
    `DamagedFile` for the first that is not."""
    for rel, rec in records.items():
        if under and not (rel == under or (under.endswith("/") and rel.startswith(under))):
            continue
        path = root / rel
        want = rec.get("bytes") if isinstance(rec, dict) else None
        try:
            have = path.stat().st_size if path.is_file() else None
        except OSError:
            have = None
        if have is None:
            raise DamagedFile(rel, "is missing")
        if isinstance(want, int) and have != want:
            raise DamagedFile(rel, f"has {have} bytes, the manifest says {want}")
        sha = rec.get("sha256") if isinstance(rec, dict) else None
        if digest and isinstance(sha, str):
            try:
                ok = sha256_file(path) == sha
            except OSError as exc:
                raise DamagedFile(rel, f"cannot be read ({exc.strerror or exc})") from None
            if not ok:
                raise DamagedFile(rel, "does not match its SHA-256 in the manifest")


def problem(exc: BaseException) -> str:
    """What went wrong reading a file, as the end of "FILE ..." (one line)."""
    if isinstance(exc, FileNotFoundError):
        return "is missing"
    if isinstance(exc, DamagedFile):
        return exc.problem
    if isinstance(exc, DataFormatError):
        where = f"line {exc.line}: " if exc.line is not None else ""
        text = str(exc).removeprefix(f"{exc.path}").removeprefix(f":{exc.line}").lstrip(": ")
        return f"cannot be read ({where}{text})"
    if isinstance(exc, json.JSONDecodeError):
        return f"is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
    if isinstance(exc, UnicodeDecodeError):
        return f"is not valid UTF-8 (at byte {exc.start})"
    if isinstance(exc, OSError):
        return f"cannot be read ({exc.strerror or exc})"
    if isinstance(exc, MemoryError):
        return "cannot be read (it declares more data than fits in memory)"
    text = " ".join(str(exc).split())[:200]
    return f"cannot be read ({type(exc).__name__}{': ' + text if text else ''})"


@contextmanager
def reading(path: Path) -> Iterator[None]:
    """Run the block that parses `path`; any failure in it becomes a `DamagedFile` naming the
    file. A LogirError that is not about the file (a missing extra, say) passes unchanged."""
    try:
        yield
    except DamagedFile:
        raise
    except LogirError as exc:
        if isinstance(exc, DataFormatError):
            raise DamagedFile(path, problem(exc)) from None
        raise
    except Exception as exc:
        if not path.exists():
            raise DamagedFile(path, "is missing") from None
        if path.is_file() and path.stat().st_size == 0:
            raise DamagedFile(path, "is empty") from None
        raise DamagedFile(path, problem(exc)) from None


def read_json(path: Path) -> Any:
    """A JSON file's value; a `DamagedFile` when it is missing or not JSON."""
    with reading(path):
        return json.loads(path.read_bytes().decode("utf-8"))


def read_json_object(path: Path) -> dict[str, Any]:
    """A JSON file holding an object; a `DamagedFile` otherwise."""
    value = read_json(path)
    if not isinstance(value, dict):
        raise DamagedFile(path, f"holds {type(value).__name__}, not a JSON object")
    return value


def first_unreadable(paths: list[Path]) -> DamagedFile | None:
    """The first of `paths` that is missing or does not parse (JSON, .npy, .npz), as a
    `DamagedFile`; None when each of them reads. Used to name the culprit after a library
    failed to load a folder of them."""
    for path in paths:
        try:
            with reading(path):
                if path.suffix == ".json":
                    json.loads(path.read_bytes().decode("utf-8"))
                elif path.suffix == ".npy":
                    np.load(path, mmap_mode="r", allow_pickle=False)
                elif path.suffix == ".npz":
                    with np.load(path, allow_pickle=False) as z:
                        for name in z.files:
                            z[name]
                elif not path.is_file():
                    raise FileNotFoundError(path)
        except DamagedFile as exc:
            return exc
    return None
