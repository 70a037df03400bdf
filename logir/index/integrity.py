"""The files of an index directory: sizes and SHA-256 recorded at build, checked when read.

``record_files`` lists every file of a freshly written index; the manifest keeps that list.
``check_files`` compares a part of the index (one retriever's folder, or ``docs.jsonl``) with it
before the part is loaded: the size always (a ``stat``), the SHA-256 once per process and file
(the file is about to be read in full anyway; hashing runs at about 1.2 GB/s, a tenth of the
time loading takes). A file of 16 MB or more (a memory-mapped posting array is not read) has its
SHA-256 remembered in the user's cache once checked, keyed by its inode, size and times, so a
later process opening the same unchanged index does not hash it again. A build remembers the
digests it records the same way (`remember_built`, once the index is in place), so the first
open after a build hashes nothing large either. Several files are hashed on ``HASH_THREADS``
threads (hashlib releases the GIL while it digests a large block). ``reading`` turns any
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
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from logir.errors import DataFormatError, LogirError
from logir.index.cache import cache_root

_CHUNK = 1 << 20
_DIGESTS: dict[tuple[str, int, int, int, int, int], str] = {}  # (path, stat fields) -> sha256
_LOCK = threading.Lock()


#: a file at least this large (a memory-mapped posting array, a big docs.jsonl) has its SHA-256
#: remembered on disk, so that opening an index does not read gigabytes every time (a smaller
#: one takes at most about 15 ms to hash; at 100k passages bm25s's two arrays are 35 MB each)
REMEMBER_BYTES = 16 << 20
#: a file's change time must be this far in the past when hashing starts before its SHA-256 is
#: remembered (a file found in an index that someone may still be writing)
SETTLED_S = 2.0
#: the same for a file the build itself has just written and closed, on a file system whose
#: times are finer than a millisecond: longer than a tick of the kernel's coarse clock (1 to
#: 10 ms), so that any later write gives the file a later change time than the one remembered
BUILT_SETTLED_S = 0.025
#: how many files are hashed at once (`check_files`, `record_files`)
HASH_THREADS = 2
#: files to hash together smaller than this are hashed one after the other (no thread)
THREADED_BYTES = 16 << 20

#: (device, inode, size, modification ns, change ns) of a file
Version = tuple[int, int, int, int, int]


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
    return _hash(path)[0]


def _hash(path: Path, remember: bool = True) -> tuple[str, Version | None]:
    """`sha256_file`, and the file's version as it was when the bytes were read from the file
    (None when they came from a digest known already); `remember` False writes no stamp (a
    file about to be moved: `record_files`)."""
    st = path.stat()
    version = _version(st)
    key = (str(path.resolve()), *version)
    with _LOCK:
        known = _DIGESTS.get(key)
    if known is not None:
        return known, None
    stamp = _stamp(key) if st.st_size >= REMEMBER_BYTES else None
    known = _remembered(stamp)
    if known is not None:
        with _LOCK:
            _DIGESTS[key] = known
        return known, None
    settled = time.time_ns() - st.st_ctime_ns > SETTLED_S * 1e9  # before the first byte is read
    digest = _digest_file(path)
    with _LOCK:
        _DIGESTS[key] = digest
    if stamp is not None and settled and remember:
        _remember(stamp, digest)
    return digest, version


def _digest_file(path: Path) -> str:
    """The SHA-256 of the bytes of `path`, read now."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def _version(st: os.stat_result) -> Version:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _fine_times(st: os.stat_result) -> bool:
    """Whether the file system keeps times finer than a millisecond (a time that is not a whole
    number of milliseconds); on a coarser one (FAT, old ext) a build's file must be as settled
    as any other (``SETTLED_S``) before its SHA-256 is remembered."""
    return st.st_mtime_ns % 1_000_000 != 0 or st.st_ctime_ns % 1_000_000 != 0


def _stamp(key: tuple[str, int, int, int, int, int]) -> Path:
    """Where the SHA-256 of the file version ``key`` is remembered (the user's logir cache)."""
    name = hashlib.sha256(repr(key).encode("utf-8")).hexdigest()[:40]
    return cache_root() / "verified" / name


def _remembered(stamp: Path | None) -> str | None:
    """The SHA-256 remembered at ``stamp``.

    A stamp is named by the file's path, inode, size, modification and change times, and written
    only for bytes read once the change time was ``SETTLED_S`` old (``BUILT_SETTLED_S`` for the
    files a build wrote): any write to the file afterwards sets its change time to a later
    instant, so a changed file never finds the stamp of its old content.
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


@dataclass(frozen=True)
class Hashed:
    """A large file a build hashed: its path under the index, its version when hashing began
    (settled: any later write changes it) and its SHA-256."""

    rel: str
    version: Version
    sha256: str


def record_files(
    root: Path, skip: tuple[str, ...] = (), hashed: list[Hashed] | None = None
) -> dict[str, dict[str, Any]]:
    """``{relative path: {"bytes", "sha256"}}`` of every file under `root` but `skip`, sorted.

    With `hashed`, the files are ones this process has just written and closed: each large one
    (``REMEMBER_BYTES``) is hashed only once its change time is settled (waiting up to
    ``BUILT_SETTLED_S`` for it) and appended to `hashed`, for `remember_built`."""
    paths = {
        path.relative_to(root).as_posix(): path
        for path in sorted(p for p in root.rglob("*") if p.is_file())
    }
    paths = {rel: path for rel, path in paths.items() if rel not in skip}

    def one(rel: str) -> tuple[str, Version | None]:
        path = paths[rel]
        if hashed is None:
            return _hash(path)
        st = path.stat()
        if st.st_size >= REMEMBER_BYTES and _fine_times(st):
            wait = BUILT_SETTLED_S - (time.time_ns() - st.st_ctime_ns) / 1e9
            if 0 < wait <= BUILT_SETTLED_S:
                time.sleep(wait)
        st = path.stat()
        margin = BUILT_SETTLED_S if _fine_times(st) else SETTLED_S
        settled = time.time_ns() - st.st_ctime_ns > margin * 1e9
        digest, version = _hash(path, remember=False)
        return digest, version if settled and version == _version(st) else None

    sizes = {rel: path.stat().st_size for rel, path in paths.items()}
    done = _hash_all(list(paths), sizes, one)
    out: dict[str, dict[str, Any]] = {}
    for rel in paths:
        digest, version = done[rel].result()
        out[rel] = {"bytes": sizes[rel], "sha256": digest}
        if hashed is not None and version is not None and sizes[rel] >= REMEMBER_BYTES:
            hashed.append(Hashed(rel, version, digest))
    return out


def remember_built(root: Path, hashed: list[Hashed]) -> int:
    """Remember the digests of `hashed` (from `record_files`) for the files now at `root`, the
    index's final place, as a check at open would have: each file that is still the version
    that was hashed (same device, inode, size and times: a rename of the folder keeps them, any
    write or rename of the file changes its change time). Returns how many were remembered."""
    count = 0
    for item in hashed:
        path = root / item.rel
        try:
            st = path.stat()
        except OSError:
            continue
        if _version(st) != item.version:
            continue
        key = (str(path.resolve()), *item.version)
        with _LOCK:
            _DIGESTS[key] = item.sha256
        _remember(_stamp(key), item.sha256)
        count += 1
    return count


def _hash_all(
    rels: list[str], sizes: Mapping[str, int], one: Callable[[str], tuple[str, Version | None]]
) -> dict[str, Future[tuple[str, Version | None]]]:
    """``one(rel)`` for each of `rels`, on ``HASH_THREADS`` threads (largest first) when there is
    enough to hash; the futures by name (a failure is raised by ``result()``)."""
    done: dict[str, Future[tuple[str, Version | None]]] = {}
    if HASH_THREADS < 2 or len(rels) < 2 or sum(sizes[r] for r in rels) < THREADED_BYTES:
        for rel in rels:
            fut: Future[tuple[str, Version | None]] = Future()
            try:
                fut.set_result(one(rel))
            except Exception as exc:  # noqa: BLE001 - raised again by result()
                fut.set_exception(exc)
            done[rel] = fut
        return done
    with ThreadPoolExecutor(HASH_THREADS, thread_name_prefix="logir-sha256") as pool:
        for rel in sorted(rels, key=lambda r: -sizes[r]):
            done[rel] = pool.submit(one, rel)
    return done


def check_files(root: Path, records: Mapping[str, Any], under: str, digest: bool = True) -> None:
    """Check the recorded files named `under` (a file, a folder ending in ``/``, or ``""`` for
    all) against `root`: each present, of its size and (when `digest`) of its SHA-256. A
    `DamagedFile` for the first that is not, in the records' order (the files before it are
    hashed on ``HASH_THREADS`` threads)."""
    todo: list[tuple[str, str | None]] = []  # (rel, expected sha256) up to the first bad size
    wrong: DamagedFile | None = None
    sizes: dict[str, int] = {}
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
            wrong = DamagedFile(rel, "is missing")
            break
        if isinstance(want, int) and have != want:
            wrong = DamagedFile(rel, f"has {have} bytes, the manifest says {want}")
            break
        sha = rec.get("sha256") if isinstance(rec, dict) else None
        todo.append((rel, sha if digest and isinstance(sha, str) else None))
        sizes[rel] = have
    hashing = [rel for rel, sha in todo if sha is not None]
    done = _hash_all(hashing, sizes, lambda rel: _hash(root / rel))
    for rel, sha in todo:
        if sha is None:
            continue
        try:
            ok = done[rel].result()[0] == sha
        except OSError as exc:
            raise DamagedFile(rel, f"cannot be read ({exc.strerror or exc})") from None
        if not ok:
            raise DamagedFile(rel, "does not match its SHA-256 in the manifest")
    if wrong is not None:
        raise wrong


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
