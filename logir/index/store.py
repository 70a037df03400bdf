"""The on-disk index directory: a manifest, the documents and one folder per retriever.

    out/
      manifest.json   {"logir_index": 1, "n_docs", "corpus_sha256", "retrievers": {...}, "created"}
      docs.jsonl      one {"id", "title", "text"} per document, in row order
      bm25/           BM25Scorer.save
      dense/          DenseScorer.save
      splade/         SparseScorer.save (only when asked for: ``retrievers=("splade", ...)``)

An index is written into a temporary sibling directory and renamed into place, so a crash never
leaves a half-written index behind.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

from logir.data.dataset import Document
from logir.data.jsonl import field, read_jsonl, write_jsonl
from logir.errors import DataFormatError, LogirError
from logir.index.base import Scorer
from logir.index.dense import corpus_sha256

FORMAT_VERSION = 1
MANIFEST = "manifest.json"
DOCS = "docs.jsonl"
RETRIEVERS = ("bm25", "dense", "splade")

ID_KEYS = ("_id", "id", "doc_id", "docid")
TEXT_KEYS = ("text", "doc", "contents")


def build_index(
    docs: list[Document],
    out: str | Path,
    retrievers: Sequence[str] = ("bm25", "dense"),
    dense_model: str | None = None,
    show_progress: bool = False,
    splade_model: str | None = None,
) -> Path:
    """Index `docs` with the named retrievers into directory `out` (replacing an older index)."""
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
    seen: set[str] = set()
    for d in docs:
        if d.id in seen:
            raise LogirError(f"duplicate document id {d.id!r}")
        seen.add(d.id)
    if out.exists() and not _replaceable(out):
        raise LogirError(f"refusing to overwrite {out}: it exists and is not a logir index")

    texts = corpus_texts(docs)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        params: dict[str, Any] = {}
        if "bm25" in names:
            from logir.index.lexical import BM25Scorer

            bm25 = BM25Scorer.build(texts, show_progress=show_progress)
            bm25.save(tmp / "bm25")
            params["bm25"] = dict(bm25.params)
        if "dense" in names:
            from logir.index.dense import DenseScorer

            dense = DenseScorer.build(texts, model=dense_model, show_progress=show_progress)
            dense.save(tmp / "dense")
            params["dense"] = {"model": dense.model_id, "dim": dense.dim}
        if "splade" in names:
            from logir.index.sparse import SparseScorer

            splade = SparseScorer.build(texts, model=splade_model, show_progress=show_progress)
            splade.save(tmp / "splade")
            params["splade"] = {"model": splade.encoder.model_id, "vocab": splade.dim}
        write_jsonl(tmp / DOCS, ({"id": d.id, "title": d.title, "text": d.text} for d in docs))
        manifest = {
            "logir_index": FORMAT_VERSION,
            "n_docs": len(docs),
            "corpus_sha256": corpus_sha256(texts),
            "retrievers": params,
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        _swap_into_place(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def _replaceable(path: Path) -> bool:
    """An existing path we may replace: an empty directory or an earlier index."""
    if not path.is_dir():
        return False
    return (path / MANIFEST).is_file() or not any(path.iterdir())


def _swap_into_place(tmp: Path, out: Path) -> None:
    """Rename `tmp` to `out`; an older `out` is moved aside first and removed after."""
    if not out.exists():
        tmp.rename(out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    old.rmdir()
    out.rename(old)
    try:
        tmp.rename(out)
    except BaseException:
        old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)


class Index:
    """An index directory opened for reading; scorers load on first use."""

    def __init__(self, path: Path, manifest: dict[str, Any]) -> None:
        self.path = path
        self.manifest = manifest
        self._scorers: dict[str, Scorer] = {}

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
        docs = [
            Document(id=str(o["id"]), text=o.get("text", ""), title=o.get("title", ""))
            for _, o in read_jsonl(path)
        ]
        if len(docs) != self.n_docs:
            raise LogirError(f"{path}: {len(docs)} documents, the manifest says {self.n_docs}")
        return docs

    @property
    def doc_ids(self) -> list[str]:
        return [d.id for d in self.docs]

    def scorer(self, name: str) -> Scorer:
        """The scorer `name` ("bm25", "dense" or "splade"), loaded once."""
        if name in self._scorers:
            return self._scorers[name]
        if name not in self.manifest.get("retrievers", {}):
            available = ", ".join(self.retrievers) or "none"
            raise LogirError(f"index {self.path} has no {name!r} retriever; available: {available}")
        scorer: Scorer
        if name == "bm25":
            from logir.index.lexical import BM25Scorer

            scorer = BM25Scorer.load(self.path / "bm25")
        elif name == "dense":
            from logir.index.dense import DenseScorer

            scorer = DenseScorer.load(self.path / "dense")
        elif name == "splade":
            from logir.index.sparse import SparseScorer

            scorer = SparseScorer.load(self.path / "splade")
        else:
            raise LogirError(f"index {self.path}: unsupported retriever {name!r}")
        if scorer.n_docs != self.n_docs:
            raise LogirError(
                f"index {self.path}: {name} holds {scorer.n_docs} documents, "
                f"the manifest says {self.n_docs}"
            )
        self._scorers[name] = scorer
        return scorer

    def __repr__(self) -> str:
        return f"Index({str(self.path)!r}, n_docs={self.n_docs}, retrievers={self.retrievers})"


def open_index(path: str | Path) -> Index:
    """Open an index directory written by `build_index`."""
    p = Path(path)
    if not p.is_dir():
        raise LogirError(f"index directory not found: {p}")
    mfile = p / MANIFEST
    if not mfile.is_file():
        raise LogirError(f"not a logir index (no {MANIFEST}): {p}")
    try:
        manifest = json.loads(mfile.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataFormatError(mfile, exc.lineno, f"not valid JSON ({exc.msg})") from None
    if not isinstance(manifest, dict) or manifest.get("logir_index") != FORMAT_VERSION:
        raise LogirError(
            f"{mfile}: unsupported index format (expected logir_index {FORMAT_VERSION})"
        )
    for key in ("n_docs", "retrievers"):
        if key not in manifest:
            raise DataFormatError(mfile, None, f"missing field {key!r}")
    return Index(p, manifest)


def load_corpus(path: str | Path) -> list[Document]:
    """Documents from a BEIR folder (its corpus.jsonl) or a JSONL file of passages.

    Each line needs an id (``_id``, ``id``, ``doc_id`` or ``docid``) and a text (``text``, ``doc``
    or ``contents``); ``title`` is optional.
    """
    p = Path(path)
    if p.is_dir():
        p = p / "corpus.jsonl"
        if not p.is_file():
            raise LogirError(f"no corpus.jsonl in directory {p.parent}")
    docs: list[Document] = []
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
        docs.append(Document(id=doc_id, text=text, title=title))
    return docs


def corpus_texts(docs: list[Document]) -> list[str]:
    """What the retrievers index for each document (title and text)."""
    return [d.full_text for d in docs]
