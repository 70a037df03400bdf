"""A BM25 index of a corpus of any size: streamed, built in shards, resumable after a crash.

``logir index CORPUS --out OUT -r bm25`` builds this way. The corpus is read twice as a stream and
never held whole:

1. each line is checked (as :func:`~logir.index.store.load_corpus` checks it) and written to the
   index's ``docs.jsonl``, while the corpus hash is taken;
2. the documents are tokenised a shard at a time (``shard_size`` documents) and each shard's
   token counts written (:mod:`logir.index.bm25shards`); then one merge with global statistics
   (document frequencies, average length, number of documents) writes the posting arrays.

The shards live in a work folder beside OUT, ``.NAME.shards``, with a ``plan.json`` saying which
corpus (hash and size) and parameters they belong to. A build killed at any point (kill -9
included) leaves its finished shards there; the same command again finds them, tokenises only the
shards still missing, and writes the same files as a build that never stopped. A plan that
differs (another corpus, shard size or parameter) starts the shards afresh. The work folder is
removed once the index is in place; while a build runs it holds a lock, so a second build of the
same OUT stops with a message instead of sharing it.

The index written is an ordinary logir index: ``bm25/`` holds bm25s's files, byte for byte what
``BM25Scorer.build`` writes for the same documents, so every reader of an index reads it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from logir.data.dataset import Document
from logir.errors import LogirError
from logir.index import bm25compact, bm25shards
from logir.index.bm25compact import DEFAULT_POSTINGS, POSTINGS
from logir.index.cache import CorpusHash
from logir.index.lexical import PARAMS_FILE, TOKENIZER, analyzer, words
from logir.index.reuse import carried_parts, link_part
from logir.index.store import (
    DOCS,
    MANIFEST,
    corpus_file,
    iter_corpus,
    owner_tag,
    publish,
    remove_stale,
    replaceable,
)
from logir.index.tasks import TaskMap, bm25_counts
from logir.limits import shard_size_problem

#: documents per shard unless told otherwise (about 100 MB of text and token lists at a time)
SHARD_SIZE = 100_000
PLAN = "plan.json"
SHARDS = "shards"
LOCK = "lock"
_READ = "corpus read (kB)"
_CHUNK = 5_000  # documents tokenised between two progress updates
_STOPWORDS_EN: frozenset[str] | None = None

#: ``progress(task, done, total)``, as :meth:`logir.progress.Bars.update`
Progress = Callable[[str, int, int], None]


def work_folder(out: Path) -> Path:
    """Where a build of ``out`` keeps its shards until the index is in place."""
    return out.parent / f".{out.name}.shards"


def build_bm25_index(
    corpus: str | Path,
    out: str | Path,
    shard_size: int = SHARD_SIZE,
    bm25: Mapping[str, float] | None = None,
    keep: bool = True,
    progress: Progress | None = None,
    note: Callable[[str], None] | None = None,
    tasks: TaskMap | None = None,
    postings: str = DEFAULT_POSTINGS,
) -> tuple[Path, int]:
    """Index the corpus at ``corpus`` (a JSONL file or a BEIR folder) with BM25 into ``out``,
    streaming and in shards (see module); returns the index path and its number of documents.

    ``bm25`` sets ``k1`` and ``b``; with ``keep``, an index of the same documents at ``out``
    keeps its other retrievers and one of other documents is refused (as ``build_index``).
    ``progress`` hears how far each stage is; ``note`` gets a line per stage (how many
    documents, and how many shards a resumed build found). With ``tasks`` (e.g. Ray tasks,
    :mod:`logir.index.tasks`) the shards are tokenised as tasks, a few at a time, and written
    here as they come back: the same files. ``postings`` is ``"compact"`` (the default: the
    posting lists in logir's compact format, :mod:`logir.index.bm25compact`) or ``"plain"``
    (bm25s's files)."""
    out = Path(out)
    bad_shard = shard_size_problem(shard_size)
    if bad_shard:
        raise LogirError(bad_shard)
    params: dict[str, Any] = {
        "k1": 1.5,
        "b": 0.75,
        "method": bm25shards.METHOD,
        "stemmer": "english",
        "stopwords": "en",
        "tokenizer": TOKENIZER,
    }
    params.update(bm25 or {})
    if postings not in POSTINGS:
        raise LogirError(f"unknown BM25 postings {postings!r}; choose from {', '.join(POSTINGS)}")
    if postings == "compact":  # a plain index's manifest says nothing, as before compact was
        params["postings"] = postings
    if out.exists() and not replaceable(out):
        raise LogirError(f"refusing to overwrite {out}: it exists and is not a logir index")
    out.parent.mkdir(parents=True, exist_ok=True)
    remove_stale(out)
    work = work_folder(out)
    work.mkdir(exist_ok=True)
    with _locked(work / LOCK, out):
        try:
            ids, sha = _write_docs(corpus, work / (DOCS + ".part"), progress)
            kept = carried_parts(out, MANIFEST, DOCS, ids, sha, ["bm25"]) if keep else {}
        except (LogirError, OSError):  # a bad corpus, or one missing or unreadable
            if not any((work / SHARDS).glob("*")):  # nothing worth keeping for a next run
                shutil.rmtree(work, ignore_errors=True)
            raise
        if note:
            note(f"bm25: building over {len(ids)} documents")
        plan = {
            "logir_shards": 1,
            "corpus_sha256": sha,
            "n_docs": len(ids),
            "shard_size": shard_size,
            "bm25": params,
        }
        shards = work / SHARDS
        if _read_plan(work / PLAN) != plan:
            shutil.rmtree(shards, ignore_errors=True)
            (work / PLAN).write_text(json.dumps(plan, indent=2), encoding="utf-8")
        shards.mkdir(exist_ok=True)
        docs = work / (DOCS + ".part")
        if tasks is None:
            folders = _tokenise(docs, shards, len(ids), shard_size, params, progress, note)
        else:
            folders = _tokenise_tasks(docs, shards, len(ids), shard_size, params, tasks, progress)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-{owner_tag()}-", dir=out.parent))
        try:
            merged = (lambda d, t: progress("bm25 merge (shards)", d, t)) if progress else None
            if postings == "compact":
                bm25compact.write_compact(
                    folders, tmp / "bm25", float(params["k1"]), float(params["b"]), merged
                )
            else:
                bm25shards.merge_shards(
                    folders,
                    tmp / "bm25",
                    k1=float(params["k1"]),
                    b=float(params["b"]),
                    method=str(params["method"]),
                    progress=merged,
                )
            saved = {**params, "n_docs": len(ids)}
            (tmp / "bm25" / PARAMS_FILE).write_text(json.dumps(saved, indent=2), encoding="utf-8")
            for name in kept:
                link_part(out / name, tmp / name)
            os.replace(work / (DOCS + ".part"), tmp / DOCS)
            publish(tmp, out, len(ids), sha, {"bm25": dict(params), **kept}, corpus)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    shutil.rmtree(work, ignore_errors=True)
    return out, len(ids)


def _write_docs(corpus: str | Path, dest: Path, progress: Progress | None) -> tuple[list[str], str]:
    """Check every document and write it to ``dest`` as the index keeps it; returns the ids in
    order and the corpus hash. Refuses a corpus without documents, text or a word BM25 indexes
    (as ``logir index`` does for any build)."""
    path = corpus_file(corpus)
    size = path.stat().st_size
    total = max(size >> 10, 1)
    ids: list[str] = []
    digest = CorpusHash()
    has_text = has_word = False
    written = 0  # characters written: about the bytes read, for the progress bar
    with dest.open("w", encoding="utf-8") as fh:
        for i, (_, doc) in enumerate(iter_corpus(path)):
            ids.append(doc.id)
            text = doc.full_text
            digest.update(text)
            has_text = has_text or bool(text.strip())
            has_word = has_word or _has_word(text)
            row = {"id": doc.id, "title": doc.title, "text": doc.text}
            written += fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            if progress and i % _CHUNK == 0:
                progress(_READ, min(written, size) >> 10, total)
    if progress:
        progress(_READ, total, total)
    if not ids:
        raise LogirError(f"no documents in {path}")
    if not has_text:
        raise LogirError(f"no document has any text: {path} ({len(ids)} documents)")
    if not has_word:
        raise LogirError(
            f"no document has a word BM25 can index: {path} (only stop words or symbols)"
        )
    return ids, digest.hexdigest()


def _has_word(text: str) -> bool:
    """Whether ``text`` has a word that is not an English stop word (``require_words``)."""
    global _STOPWORDS_EN
    if _STOPWORDS_EN is None:
        from bm25s.stopwords import STOPWORDS_EN

        _STOPWORDS_EN = frozenset(STOPWORDS_EN)
    return any(w not in _STOPWORDS_EN for w in words(text.lower()))


def _tokenise(
    docs: Path,
    shards: Path,
    n_docs: int,
    shard_size: int,
    params: Mapping[str, Any],
    progress: Progress | None,
    note: Callable[[str], None] | None,
) -> list[Path]:
    """Write every shard still missing under ``shards``; returns all shard folders in order."""
    count = -(-n_docs // shard_size)
    folders = [shards / f"{k:05d}" for k in range(count)]
    done = sum(f.is_dir() for f in folders)
    if done and note:
        note(f"bm25: resuming: {done} of {count} shards already built in {shards.parent}")
    tokenize = analyzer(params["stemmer"], params["stopwords"], params["tokenizer"])
    task = "bm25 tokenised (documents)"
    with docs.open(encoding="utf-8") as fh:
        for k, folder in enumerate(folders):
            first = k * shard_size
            size = min(shard_size, n_docs - first)
            if folder.is_dir():
                _skip(fh, size)
                if progress:
                    progress(task, first + size, n_docs)
                continue
            tokens: list[list[str]] = []
            while len(tokens) < size:
                texts = _texts(fh, min(_CHUNK, size - len(tokens)))
                tokens.extend(tokenize(texts))
                if progress:
                    progress(task, first + len(tokens), n_docs)
            bm25shards.write_shard(folder, bm25shards.count_shard(tokens))
    return folders


def _tokenise_tasks(
    docs: Path,
    shards: Path,
    n_docs: int,
    shard_size: int,
    params: Mapping[str, Any],
    tasks: TaskMap,
    progress: Progress | None,
) -> list[Path]:
    """``_tokenise`` with each missing shard's counts made by a task of ``tasks``."""
    count = -(-n_docs // shard_size)
    folders = [shards / f"{k:05d}" for k in range(count)]
    missing = [k for k, f in enumerate(folders) if not f.is_dir()]

    def jobs() -> Iterator[tuple[list[str], dict[str, Any]]]:
        with docs.open(encoding="utf-8") as fh:
            at = 0
            for k in missing:
                first = k * shard_size
                _skip(fh, first - at)
                size = min(shard_size, n_docs - first)
                at = first + size
                yield _texts(fh, size), dict(params)

    done = n_docs - sum(min(shard_size, n_docs - k * shard_size) for k in missing)
    task = "bm25 tokenised (documents)"
    for k, counts in zip(missing, tasks.map(bm25_counts, jobs()), strict=True):
        bm25shards.write_shard(folders[k], counts)
        done += min(shard_size, n_docs - k * shard_size)
        if progress:
            progress(task, done, n_docs)
    return folders


def _texts(fh: IO[str], count: int) -> list[str]:
    """The next ``count`` documents' indexed texts (title and text) from an index docs file."""
    out = []
    for _ in range(count):
        row = json.loads(fh.readline())
        out.append(Document(id=row["id"], text=row["text"], title=row["title"]).full_text)
    return out


def _skip(fh: IO[str], count: int) -> None:
    for _ in range(count):
        fh.readline()


def _read_plan(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


@contextlib.contextmanager
def _locked(path: Path, out: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (POSIX), so two builds never share a work folder."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here: builds are not guarded
        yield
        return
    with path.open("a") as fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise LogirError(
                f"another `logir index` is building {out} (its work folder {path.parent} is "
                "locked); wait for it to finish"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
