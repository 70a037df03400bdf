"""The on-disk index directory: a manifest, the documents and one folder per retriever.

    out/
      manifest.json   {"logir_index": 1, "n_docs", "corpus_sha256", "retrievers": {...},
                       "files": {path: {"bytes", "sha256"}}, "corpus", "created"}
      docs.jsonl      one {"id", "title", "text"} per document, in row order
      bm25/           BM25Scorer.save
      dense/          DenseScorer.save
      splade/         SparseScorer.save (only when asked for: ``retrievers=("splade", ...)``)

``files`` records every other file of the index; a part is checked against it when it is first
read (see :mod:`logir.index.integrity`), so a damaged dense folder does not stop a BM25 search.
Any file that is missing, of the wrong size or checksum, or unreadable raises a LogirError naming
it and the command that rebuilds the index. ``corpus`` is where the documents came from, when the
caller gives it (``build_index(source=...)``). Indexes written before ``files`` existed still
open: their files are checked as they are parsed.

An index is written into a temporary sibling directory ``.NAME.tmp-PID@HOST-XXXXXXXX`` and
swapped into place, so a crash never leaves a half-written index behind. Where the system can
swap two directories atomically (Linux), NAME always holds a whole index; elsewhere the old one is
moved aside to ``.NAME.old-PID@HOST-XXXXXXXX`` for the moment of the swap. A build first removes
the temporary folders that killed builds of the same NAME left (those whose process is gone).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import json
import os
import re
import shlex
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any, overload

from logir.data.dataset import Document
from logir.data.jsonl import field, read_jsonl, write_jsonl
from logir.errors import DataFormatError, LogirError
from logir.index import registry
from logir.index.ann import parse_ann
from logir.index.base import Scorer, attach_passages
from logir.index.cache import corpus_sha256
from logir.index.dense import DEFAULT_MODEL
from logir.index.integrity import (
    DamagedFile,
    Hashed,
    check_files,
    read_json,
    reading,
    record_files,
    remember_built,
)
from logir.index.lines import LineFile
from logir.index.reuse import carried_parts, link_part
from logir.index.spelling import set_spelling

FORMAT_VERSION = 1
MANIFEST = "manifest.json"
DOCS = "docs.jsonl"
#: the retrievers an index can store (:mod:`logir.index.registry`)
RETRIEVERS = registry.STORED

ID_KEYS = ("_id", "id", "doc_id", "docid")
TEXT_KEYS = ("text", "doc", "contents")
#: the file of each retriever that says how many documents it holds
MAIN_FILE = {name: registry.main_file(name) for name in RETRIEVERS}
LEGACY_STALE_S = 24 * 3600  # a temporary folder without an owner is stale after a day


def build_index(
    docs: list[Document],
    out: str | Path,
    retrievers: Sequence[str] = ("bm25", "dense"),
    dense_model: str | None = None,
    show_progress: bool = False,
    splade_model: str | None = None,
    source: str | Path | None = None,
    keep: bool = False,
    bm25: Mapping[str, float] | None = None,
    on_retriever: Callable[[str, float | None], None] | None = None,
    ann: str = "auto",
    tasks: Any = None,
    postings: str = "compact",
) -> Path:
    """Index `docs` with the named retrievers into directory `out` (replacing an older index).

    `source`, the corpus file or folder the documents came from, is recorded so that an error
    about a damaged index can give the command that rebuilds it. With `keep`, an index already
    at `out` is not replaced but extended: when it holds the same documents, its retrievers not
    named are kept (see :mod:`logir.index.reuse`); when it holds others, a LogirError. `bm25`
    sets BM25's ``k1`` and ``b``; `ann` dense's approximate search (:mod:`logir.index.ann`);
    `tasks` where dense encodes its slices (:mod:`logir.index.tasks`: Ray tasks, say);
    `postings` how BM25 stores its lists (compact, the default: logir's, a fifth of the size,
    :mod:`logir.index.bm25compact`; plain: bm25s's files).
    `on_retriever(name, None)` is called before each retriever is built and
    `on_retriever(name, seconds)` after."""
    out = Path(out)
    names = list(dict.fromkeys(retrievers))
    unknown = [r for r in names if r not in RETRIEVERS]
    if unknown or not names:
        raise LogirError(
            f"unknown retriever(s) {', '.join(unknown) or '(none given)'}; "
            f"available: {', '.join(RETRIEVERS)}"
        )
    if not docs:
        raise LogirError("cannot index an empty corpus")
    parse_ann(ann)
    from logir.index.bm25compact import POSTINGS

    if postings not in POSTINGS:
        raise LogirError(f"unknown BM25 postings {postings!r}; choose from {', '.join(POSTINGS)}")
    seen: set[str] = set()
    for d in docs:
        if d.id in seen:
            raise LogirError(f"duplicate document id {d.id!r}")
        seen.add(d.id)
    if out.exists() and not replaceable(out):
        raise LogirError(f"refusing to overwrite {out}: it exists and is not a logir index")

    texts = corpus_texts(docs)
    sha = corpus_sha256(texts)
    out.parent.mkdir(parents=True, exist_ok=True)
    remove_stale(out)
    kept: dict[str, Any] = {}
    if keep and out.is_dir():
        kept = carried_parts(out, MANIFEST, DOCS, [d.id for d in docs], sha, names)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-{owner_tag()}-", dir=out.parent))
    try:
        params: dict[str, Any] = {}
        models = {"dense": dense_model, "splade": splade_model}
        for name in (r for r in RETRIEVERS if r in names or r in kept):
            if name in kept:
                link_part(out / name, tmp / name)
                params[name] = kept[name]
                continue
            opts = registry.BuildOptions(
                model=models.get(name),
                show_progress=show_progress,
                bm25=dict(bm25 or {}),
                ann=ann,
                tasks=tasks,
                postings=postings,
            )
            if on_retriever:
                on_retriever(name, None)
            started = time.perf_counter()
            params[name] = registry.save(name, registry.build(name, texts, opts), tmp / name)
            if on_retriever:
                on_retriever(name, time.perf_counter() - started)
        write_jsonl(tmp / DOCS, ({"id": d.id, "title": d.title, "text": d.text} for d in docs))
        publish(tmp, out, len(docs), sha, params, source)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def replaceable(path: Path) -> bool:
    """An existing path we may replace: an empty directory, an earlier index, or what is left
    of a damaged one (nothing but an index's own names in it)."""
    if not path.is_dir():
        return False
    if (path / MANIFEST).is_file():
        return True
    return all(p.name in (MANIFEST, DOCS, *RETRIEVERS) for p in path.iterdir())


def publish(
    tmp: Path,
    out: Path,
    n_docs: int,
    sha: str,
    retrievers: dict[str, Any],
    corpus: str | Path | None,
) -> None:
    """Write the manifest of the index built in ``tmp`` (its retrievers in ``RETRIEVERS``
    order, the checksums of its files), swap it into place at ``out``, and remember the
    checksums of its large files there (:func:`logir.index.integrity.remember_built`)."""
    order = {name: i for i, name in enumerate(RETRIEVERS)}
    manifest: dict[str, Any] = {
        "logir_index": FORMAT_VERSION,
        "n_docs": n_docs,
        "corpus_sha256": sha,
        "retrievers": {
            r: retrievers[r] for r in sorted(retrievers, key=lambda r: order.get(r, len(order)))
        },
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    if corpus is not None:
        manifest["corpus"] = str(Path(corpus).resolve())
    hashed: list[Hashed] = []
    manifest["files"] = record_files(tmp, skip=(MANIFEST,), hashed=hashed)
    (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    swap_into_place(tmp, out)
    remember_built(out, hashed)  # the first open need not hash the large files again


def swap_into_place(tmp: Path, out: Path) -> None:
    """Put `tmp` at `out`. An older `out` is swapped with it atomically where the system can
    (then removed from `tmp`), else moved aside to ``.NAME.old-*`` for the moment of the swap."""
    if not out.exists():
        tmp.rename(out)
        return
    if _exchange(tmp, out):
        _remove(tmp)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-{owner_tag()}-", dir=out.parent))
    old.rmdir()
    out.rename(old)
    try:
        tmp.rename(out)
    except BaseException:
        old.rename(out)
        raise
    _remove(old)


def _remove(path: Path) -> None:
    """Delete a folder (or a link in its place) as far as possible."""
    if path.is_symlink():
        with contextlib.suppress(OSError):
            path.unlink()
        return
    shutil.rmtree(path, ignore_errors=True)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directories in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False where the
    system or the file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
    renameat2.argtypes += [ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(a), None, str(b))


def _host_tag() -> str:
    return hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]


def owner_tag() -> str:
    """``PID@HOST``: whose temporary folder it is (HOST a short hash of the host name)."""
    return f"{os.getpid()}@{_host_tag()}"


_MKDTEMP = r"[a-z0-9_]{8}"
_OWNED = re.compile(rf"(?P<pid>\d+)@(?P<host>[0-9a-f]{{8}})-{_MKDTEMP}")
_LEGACY = re.compile(_MKDTEMP)


def _alive(pid: int) -> bool:
    """Whether process `pid` exists on this machine (unknown counts as alive)."""
    if pid == os.getpid():
        return True
    if os.name != "posix":
        return True  # no harmless existence probe here: never take another build's folder
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def stale_folders(out: Path) -> list[Path]:
    """The temporary folders beside `out` that killed builds of it left: ``.NAME.tmp-*`` and
    ``.NAME.old-*`` of a process of this host that is gone, or (folders named before owners
    were recorded) untouched for a day. A running build's folders are never among them."""
    found: list[Path] = []
    try:
        siblings = list(out.parent.iterdir())
    except OSError:
        return found
    for path in siblings:
        for kind in ("tmp", "old"):
            prefix = f".{out.name}.{kind}-"
            if not path.name.startswith(prefix) or not (path.is_dir() or path.is_symlink()):
                continue
            rest = path.name[len(prefix) :]
            owned = _OWNED.fullmatch(rest)
            if owned:
                if owned["host"] == _host_tag() and not _alive(int(owned["pid"])):
                    found.append(path)
            elif _LEGACY.fullmatch(rest):
                try:
                    age = time.time() - path.lstat().st_mtime
                except OSError:
                    continue
                if age > LEGACY_STALE_S:
                    found.append(path)
    return sorted(found)


def remove_stale(out: Path) -> list[Path]:
    """Remove the `stale_folders` of `out`; returns them. When `out` itself is missing, the
    newest whole index among the ``.NAME.old-*`` ones (a build killed in the middle of its swap,
    where the swap is not atomic) is first put back at `out`."""
    stale = stale_folders(out)
    if not out.exists():
        olds = [p for p in stale if ".old-" in p.name and _whole(p)]
        if olds:
            back = max(olds, key=lambda p: (p / MANIFEST).stat().st_mtime)
            try:
                back.rename(out)
                stale.remove(back)
            except OSError:
                pass
    for path in stale:
        _remove(path)
    return stale


def _whole(path: Path) -> bool:
    """Whether `path` holds an index with every file its manifest records, of its size."""
    try:
        manifest = read_json(path / MANIFEST)
        records = manifest.get("files") if isinstance(manifest, dict) else None
        if not isinstance(records, dict):
            return (path / MANIFEST).is_file() and (path / DOCS).is_file()
        check_files(path, records, "", digest=False)
    except DamagedFile:
        return False
    return True


#: BM25's parameters as logir builds it unless told otherwise (BM25Scorer.build)
BM25_DEFAULTS = {"k1": 1.5, "b": 0.75}


def rebuild_command(path: Path, manifest: dict[str, Any] | None) -> str:
    """The ``logir index`` command that rebuilds the index at `path` as its manifest describes
    it (``CORPUS`` where the manifest does not say where the documents came from)."""
    m = manifest if isinstance(manifest, dict) else {}
    corpus = m.get("corpus")
    args = ["logir", "index", corpus if isinstance(corpus, str) and corpus else "CORPUS"]
    args += ["--out", str(path)]
    retrievers = m.get("retrievers")
    params: dict[str, Any] = retrievers if isinstance(retrievers, dict) else {}
    if params and list(params) != ["bm25", "dense"]:
        for name in params:
            args += ["-r", str(name)]
    dense = params.get("dense")
    if isinstance(dense, dict) and dense.get("model") not in (None, DEFAULT_MODEL):
        args += ["--model", str(dense["model"])]
    ann = dense.get("ann") if isinstance(dense, dict) else None
    if isinstance(ann, dict) and ann.get("kind") in ("hnsw", "ivf"):
        kept = [f"{k}={v}" for k, v in ann.items() if k not in ("kind", "faiss")]
        args += ["--ann", ",".join([str(ann["kind"]), *kept])]
    bm25 = params.get("bm25")
    for key, default in BM25_DEFAULTS.items():
        value = bm25.get(key) if isinstance(bm25, dict) else None
        if isinstance(value, int | float) and value != default:
            args += [f"--bm25-{key}", str(value)]
    if isinstance(bm25, dict) and bm25.get("postings") != "compact":  # compact: the default
        args += ["--postings", "plain"]
    splade = params.get("splade")
    if isinstance(splade, dict) and not str(splade.get("model", "")).startswith("splade-tiny"):
        args += ["--splade-model", str(splade["model"])]
    return shlex.join(args)


def damaged(path: Path, manifest: dict[str, Any] | None, exc: DamagedFile) -> LogirError:
    """The error for a damaged file of the index at `path`: which file, what is wrong with it,
    and the command that rebuilds the index."""
    where = exc.path
    with contextlib.suppress(ValueError):
        where = where.relative_to(path)
    return LogirError(
        f"index {path} is damaged: {where.as_posix()} {exc.problem}; "
        f"rebuild it with: {rebuild_command(path, manifest)}"
    )


class Index:
    """An index directory opened for reading; scorers load on first use."""

    def __init__(self, path: Path, manifest: dict[str, Any]) -> None:
        self.path = path
        self.manifest = manifest
        self._scorers: dict[str, Scorer] = {}
        self._lines: LineFile | None = None  # docs.jsonl by line, for `document`
        #: what each stored retriever's scorer becomes once loaded (e.g. shards in Ray actors,
        #: :mod:`logir.index.sharded`); set it before the first search
        self.shard: Callable[[Scorer], Scorer] | None = None
        #: whether BM25 corrects misspelt query words (:mod:`logir.index.spelling`), set on each
        #: scorer as it loads, before it is sharded; change it with ``use_spelling``
        self.spelling = True

    @property
    def retrievers(self) -> list[str]:
        return list(self.manifest.get("retrievers", {}))

    @property
    def n_docs(self) -> int:
        return int(self.manifest["n_docs"])

    @cached_property
    def docs(self) -> list[Document]:
        """The documents in row order."""
        path = self.path / DOCS
        try:
            self.check(DOCS)
            if not path.is_file():
                raise DamagedFile(DOCS, "is missing")
            with reading(path):
                docs = [
                    Document(id=str(o["id"]), text=o.get("text", ""), title=o.get("title", ""))
                    for _, o in read_jsonl(path)
                ]
            if len(docs) != self.n_docs:
                raise self._count_mismatch(DOCS, len(docs))
        except DamagedFile as exc:
            raise damaged(self.path, self.manifest, exc) from None
        return docs

    def document(self, row: int) -> Document:
        """Document ``row``: from the loaded documents when `docs` was read, else its own line
        of ``docs.jsonl`` (memory-mapped: one read, not the corpus)."""
        n = self.n_docs
        if not -n <= row < n:
            raise IndexError(f"document row {row} out of range 0..{n - 1}")
        row = int(row) % n
        if "docs" in self.__dict__:
            return self.docs[row]
        path = self.path / DOCS
        try:
            with reading(path):
                if self._lines is None:
                    lines = LineFile(path)
                    if len(lines) != n:  # blank lines or damage: read it the usual way
                        return self.docs[row]
                    self._lines = lines
                obj = json.loads(self._lines.line(row))
                doc = Document(
                    id=str(obj["id"]), text=obj.get("text", ""), title=obj.get("title", "")
                )
        except DamagedFile as exc:
            raise damaged(self.path, self.manifest, exc) from None
        return doc

    def _count_mismatch(self, part: str, count: int) -> DamagedFile:
        """A part holds `count` documents, not the manifest's n_docs: when the part matched its
        checksum, the manifest is the one that changed."""
        if isinstance(self.manifest.get("files"), dict):
            return DamagedFile(MANIFEST, f"says {self.n_docs} documents, {part} holds {count}")
        return DamagedFile(part, f"holds {count} documents, the manifest says {self.n_docs}")

    def check(self, under: str, digest: bool = True) -> None:
        """Check the files named `under` (a file, or a folder ending in ``/``) against the
        manifest's records: sizes, and checksums when `digest` (a `DamagedFile` if one differs).
        Indexes written before the manifest recorded files pass unchecked."""
        records = self.manifest.get("files")
        if isinstance(records, dict):
            check_files(self.path, records, under, digest)

    @cached_property
    def passages(self) -> Sequence[str]:
        """What the retrievers indexed for each document, read from the documents on first use."""
        return IndexPassages(self)

    @property
    def doc_ids(self) -> list[str]:
        return [d.id for d in self.docs]

    def scorer(self, name: str) -> Scorer:
        """The scorer `name`, loaded once: a retriever the index stores ("bm25", "dense",
        "splade"), or a composite one ("hybrid") built from the stored ones it needs."""
        if name in self._scorers:
            return self._scorers[name]
        parts = registry.retriever(name).parts if name in registry.RETRIEVERS else ()
        if parts:
            if not set(parts) <= set(self.retrievers):
                have = ", ".join(self.retrievers) or "none"
                raise LogirError(
                    f"retriever {name!r} needs {' and '.join(parts)} in index {self.path}; "
                    f"it has: {have}"
                )
            self._scorers[name] = registry.combine(name, self.scorer)
            attach_passages(self._scorers[name], self.passages)
            return self._scorers[name]
        if name not in self.manifest.get("retrievers", {}):
            available = ", ".join(self.retrievers) or "none"
            raise LogirError(f"index {self.path} has no {name!r} retriever; available: {available}")
        try:
            self.check(f"{name}/")
            scorer = self._load(name)
            if scorer.n_docs != self.n_docs:
                raise self._count_mismatch(MAIN_FILE.get(name, name), scorer.n_docs)
        except DamagedFile as exc:
            raise damaged(self.path, self.manifest, exc) from None
        set_spelling(scorer, self.spelling)
        if self.shard is not None:
            scorer = self.shard(scorer)
        attach_passages(scorer, self.passages)
        self._scorers[name] = scorer
        return scorer

    def use_spelling(self, on: bool) -> None:
        """Turn BM25's spelling correction on or off, in the scorers loaded and those to come
        (a scorer already served from shards keeps the setting it was sharded with)."""
        self.spelling = on
        for scorer in self._scorers.values():
            set_spelling(scorer, on)

    def _load(self, name: str) -> Scorer:
        if name not in RETRIEVERS:
            raise LogirError(f"index {self.path}: unsupported retriever {name!r}")
        return registry.load(name, self.path / name)

    def __repr__(self) -> str:
        return f"Index({str(self.path)!r}, n_docs={self.n_docs}, retrievers={self.retrievers})"


def open_index(path: str | Path) -> Index:
    """Open an index directory written by `build_index`.

    The manifest is read and ``docs.jsonl``, which every search reads, checked against its
    records here; each retriever's files are checked when its scorer is first loaded
    (`Index.scorer`), so a damaged retriever stops only the searches that use it."""
    p = Path(path)
    if not p.is_dir():
        hint = ""
        olds = [f for f in stale_folders(p) if ".old-" in f.name and _whole(f)]
        if olds:
            hint = (
                f" (a build was killed while replacing it: the previous index is in {olds[-1]}; "
                f"the next `logir index --out {p}` puts it back first, or rename it yourself)"
            )
        raise LogirError(f"index directory not found: {p}{hint}")
    mfile = p / MANIFEST
    try:
        if not mfile.is_file():
            if any((p / part).exists() for part in (DOCS, *RETRIEVERS)):
                raise DamagedFile(MANIFEST, "is missing")
            raise LogirError(f"not a logir index (no {MANIFEST}): {p}")
        manifest = read_json(mfile)
        if not isinstance(manifest, dict) or "logir_index" not in manifest:
            raise DamagedFile(MANIFEST, "is not a logir index manifest (no logir_index field)")
    except DamagedFile as exc:
        raise damaged(p, None, exc) from None
    if manifest.get("logir_index") != FORMAT_VERSION:
        raise LogirError(
            f"{mfile}: unsupported index format (expected logir_index {FORMAT_VERSION})"
        )
    index = Index(p, manifest)
    try:
        n = manifest.get("n_docs")
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise DamagedFile(MANIFEST, f"has no valid n_docs (n_docs: {n!r})")
        for key in ("retrievers", "files"):
            if key in manifest and not isinstance(manifest[key], dict):
                raise DamagedFile(MANIFEST, f"has no valid {key!r} (not a JSON object)")
        if "retrievers" not in manifest:
            raise DamagedFile(MANIFEST, "has no 'retrievers' field")
        if not (p / DOCS).is_file():
            raise DamagedFile(DOCS, "is missing")
        index.check(DOCS)  # every search reads it: its checksum now, before any work
    except DamagedFile as exc:
        raise damaged(p, manifest, exc) from None
    return index


def load_corpus(path: str | Path) -> list[Document]:
    """Documents from a BEIR folder (its corpus.jsonl) or a JSONL file of passages.

    Each line needs an id (``_id``, ``id``, ``doc_id`` or ``docid``) and a text (``text``, ``doc``
    or ``contents``); ``title`` is optional.
    """
    return [doc for _, doc in iter_corpus(path)]


def corpus_file(path: str | Path) -> Path:
    """The JSONL file of a corpus: ``path`` itself, or a BEIR folder's corpus.jsonl."""
    p = Path(path)
    if p.is_dir():
        p = p / "corpus.jsonl"
        if not p.is_file():
            raise LogirError(f"no corpus.jsonl in directory {p.parent}")
    return p


def iter_corpus(path: str | Path) -> Iterator[tuple[int, Document]]:
    """``(line, document)`` of each document of a corpus as `load_corpus` reads it, one at a
    time (the ids seen so far are kept, to refuse a duplicate)."""
    p = corpus_file(path)
    first_line: dict[str, int] = {}
    for line, obj in read_jsonl(p):
        doc_id = field(obj, ID_KEYS, p, line)
        text = field(obj, TEXT_KEYS, p, line)
        title = obj.get("title") or ""
        if not isinstance(doc_id, str | int) or isinstance(doc_id, bool) or doc_id == "":
            raise DataFormatError(p, line, f"document id must be a non-empty string: {doc_id!r}")
        if not isinstance(text, str):
            kind = type(text).__name__
            raise DataFormatError(p, line, f"document text must be a string, got {kind}")
        if not isinstance(title, str):
            raise DataFormatError(p, line, "document title must be a string")
        doc_id = str(doc_id)
        if doc_id in first_line:
            raise DataFormatError(
                p, line, f"duplicate document id {doc_id!r} (first on line {first_line[doc_id]})"
            )
        first_line[doc_id] = line
        yield line, Document(id=doc_id, text=text, title=title)


class IndexPassages(Sequence[str]):
    """An index's passages by row (title and text, as indexed), read when first asked for: all
    of them when the index's documents are already loaded, else one line of ``docs.jsonl`` at a
    time (memory-mapped), so a few passages of a large index cost a few reads, not the corpus."""

    def __init__(self, index: Index) -> None:
        self._index = index
        self._texts: list[str] | None = None

    def _all(self) -> list[str]:
        if self._texts is None:
            self._texts = corpus_texts(self._index.docs)
        return self._texts

    def _one(self, i: int) -> str:
        if self._texts is None and "docs" in self._index.__dict__:  # loaded meanwhile
            self._all()
        if self._texts is not None:
            return self._texts[i]
        return self._index.document(i).full_text

    def __len__(self) -> int:
        return self._index.n_docs

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...

    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        if isinstance(i, slice):
            return self._all()[i]
        n = self._index.n_docs
        if not -n <= i < n:
            raise IndexError(f"passage {i} out of range 0..{n - 1}")
        return self._one(int(i) % n)


def corpus_texts(docs: list[Document]) -> list[str]:
    """What the retrievers index for each document (title and text)."""
    return [d.full_text for d in docs]
