"""Batch retrieval: every topic of a topics file ranked over an index, into a TREC run file.

The run grows in ``RUN.partial`` a batch at a time (each batch flushed to disk) and is renamed
to ``RUN`` once every topic is ranked, so ``RUN`` is never half written. The settings of the run
(index, topics file and its SHA-256, retriever, composer, mode, k, tag) are kept beside it in
``RUN.partial.json``: the same command run again after an interruption keeps the topics already
written and ranks the rest (the last topic in the file is ranked again, in case it was cut
short); other settings are refused rather than mixed into one run.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from logir.data.topics import TopicLine, read_topics
from logir.errors import LogirError
from logir.limits import k_problem
from logir.query.reading import MODES, Reading

if TYPE_CHECKING:
    from logir.rerank import RerankSettings

#: topics ranked together (and written to disk together)
DEFAULT_BATCH = 64


@dataclass(frozen=True)
class RetrieveSummary:
    """What a batch retrieval did: topics in the file, topics kept from an interrupted run,
    lines written, and where the run is."""

    topics: int
    resumed: int
    lines: int
    run: Path


def partial_paths(run: Path) -> tuple[Path, Path]:
    """``RUN.partial`` (the lines so far) and ``RUN.partial.json`` (the run's settings)."""
    return run.with_name(run.name + ".partial"), run.with_name(run.name + ".partial.json")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _resume(partial: Path) -> set[str]:
    """The topics whose lines ``partial`` holds whole; it is cut back to them (a torn last
    line, and the last topic, are dropped)."""
    data = partial.read_bytes()
    end = data.rfind(b"\n") + 1  # a torn last line goes
    starts: dict[str, int] = {}
    offset = 0
    for raw in data[:end].split(b"\n")[:-1]:
        qid = raw.split(b" ", 1)[0].decode("utf-8", "replace")
        starts.setdefault(qid, offset)
        offset += len(raw) + 1
    if starts:
        last = next(reversed(starts))
        end = starts.pop(last)
    with partial.open("r+b") as fh:
        fh.truncate(end)
    return set(starts)


def _read_all(topics: list[TopicLine], path: Path, mode: str) -> list[Reading]:
    from logir.query.reading import read

    readings = []
    for t in topics:
        try:
            readings.append(read(t.text, mode))
        except LogirError as exc:
            raise LogirError(f"{path}:{t.line}: query {t.id!r}: {exc}") from None
    return readings


def retrieve(
    index: str | Path,
    topics_path: str | Path,
    run: str | Path,
    *,
    k: int = 1000,
    retriever: str | None = None,
    composer: str = "auto",
    mode: str = "auto",
    tag: str = "logir",
    batch: int = DEFAULT_BATCH,
    progress: Callable[[int, int], None] | None = None,
    rerank: RerankSettings | None = None,
    spelling: bool = True,
) -> RetrieveSummary:
    """Rank every topic of ``topics_path`` over ``index`` and write the TREC run ``run``
    (``qid Q0 docid rank score tag``, at most ``k`` lines a topic); resumable (see the module).
    ``progress(done, total)`` follows the topics; ``rerank`` rereads each topic's top hits with
    a trained reader; ``spelling`` False keeps misspelt words as typed (BM25)."""
    from logir.logic import get_composer
    from logir.searcher import Searcher

    problem = k_problem(k)
    if problem:
        raise LogirError(problem)
    if mode not in MODES:
        raise LogirError(f"unknown mode {mode!r}; known: {', '.join(MODES)}")
    if not tag or any(ch.isspace() for ch in tag):
        raise LogirError(f"run tag {tag!r} must be non-empty, without whitespace")
    topics_file, run_path = Path(topics_path), Path(run)
    topics = read_topics(topics_file)
    if not topics:
        raise LogirError(f"topics file {topics_file} holds no topic")
    comp = get_composer(composer)
    all_readings = _read_all(topics, topics_file, mode)  # a bad query stops before any file
    searcher = Searcher(index, retriever, rerank=rerank, spelling=spelling)
    comp = searcher.second_stage(comp)
    name, scorer = searcher.scorer()
    settings: dict[str, Any] = {
        "index": str(searcher.index.path.resolve()),
        "topics": str(topics_file.resolve()),
        "topics_sha256": _sha256(topics_file),
        "retriever": name,
        "composer": composer,
        "mode": mode,
        "k": k,
        "tag": tag,
        "spelling": spelling,
    }
    if rerank is not None:
        settings["rerank"] = rerank.spec
    partial, meta = partial_paths(run_path)
    done: set[str] = set()
    if partial.exists():
        try:
            before = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            before = None
        if before != settings:
            old = before if isinstance(before, dict) else {}
            changed = sorted(key for key, value in settings.items() if old.get(key) != value)
            raise LogirError(
                f"{partial} holds part of a run with other settings ({', '.join(changed)}); "
                "run the same command as before to finish it, or delete it to start over"
            )
        done = _resume(partial)
    else:
        run_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = meta.with_name(meta.name + ".tmp")
        tmp.write_text(json.dumps(settings, indent=1), encoding="utf-8")
        tmp.replace(meta)
        partial.write_bytes(b"")
    todo = [t for t in topics if t.id not in done]
    readings = [r for t, r in zip(topics, all_readings, strict=True) if t.id not in done]
    resumed = len(topics) - len(todo)
    doc_ids = searcher.index.doc_ids
    lines = 0
    if progress:
        progress(resumed, len(topics))
    with partial.open("a", encoding="utf-8") as fh:
        for start in range(0, len(todo), batch):
            chunk = todo[start : start + batch]
            rankings = comp.rank(readings[start : start + batch], scorer, k)
            rows = []
            for topic, ranking in zip(chunk, rankings, strict=True):
                r = ranking.valid()
                order = sorted(range(len(r.scores)), key=lambda i: -float(r.scores[i]))
                for rank, i in enumerate(order, start=1):
                    score = float(r.scores[i])
                    rows.append(f"{topic.id} Q0 {doc_ids[r.doc_idx[i]]} {rank} {score!r} {tag}\n")
            fh.write("".join(rows))
            fh.flush()
            os.fsync(fh.fileno())
            lines += len(rows)
            if progress:
                progress(resumed + start + len(chunk), len(topics))
    partial.replace(run_path)
    meta.unlink(missing_ok=True)
    return RetrieveSummary(len(topics), resumed, lines, run_path)
