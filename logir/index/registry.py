"""The retrievers logir knows: each one's name, and how it is built, saved and loaded.

A *stored* retriever (bm25, dense, splade) has a folder of its own in an index (:mod:`store`);
a *composite* one (hybrid) is made of stored ones and is built from them when asked for, never
written. ``logir index``, ``logir eval``'s systems and searches all name retrievers from here.
The scorer modules are imported only when a retriever is built or loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logir.errors import LogirError
from logir.index.base import Scorer

#: how a composite retriever gets the scorer of one of its parts, by name
PartGetter = Callable[[str], Scorer]


@dataclass(frozen=True)
class BuildOptions:
    """What a build may be told: the encoder ``model`` of dense or splade (their default when
    None), the ``cache_dir`` of their document vectors, ``show_progress`` (None keeps each
    scorer's own default), the ``alpha`` of a hybrid, ``bm25``, BM25's ``k1`` and ``b``
    where they differ from its defaults (fixed at index time: bm25s stores scores, not counts),
    and ``ann``, dense's approximate search (:func:`logir.index.ann.parse_ann`: auto, none, hnsw
    or ivf with parameters), ``tasks``, where dense encodes its slices of the corpus
    (a :class:`logir.index.tasks.TaskMap`, e.g. Ray tasks; None: here, in one go), and
    ``postings``, how BM25 stores its posting lists (:data:`logir.index.bm25compact.POSTINGS`;
    ``build_index`` passes its own, compact by default; a scorer built for a run in memory, as
    ``logir eval`` builds one, keeps bm25s's arrays: nothing is written, nothing decoded)."""

    model: str | None = None
    cache_dir: str | Path | None = None
    show_progress: bool | None = None
    alpha: float = 0.5
    bm25: Mapping[str, float] = field(default_factory=dict)
    ann: str = "auto"
    tasks: Any = None
    postings: str = "plain"

    def progress(self) -> dict[str, Any]:
        return {} if self.show_progress is None else {"show_progress": self.show_progress}


@dataclass(frozen=True)
class Retriever:
    """One retriever: its name, what it is, and how it is made.

    A stored retriever has ``build`` (texts -> scorer), ``save`` (scorer, folder -> what the
    manifest records), ``load`` (folder -> scorer) and ``main_file``, its file that says how many
    documents it holds. A composite one has ``parts`` and ``combine`` (their scorers -> one).
    """

    name: str
    summary: str
    build: Callable[[list[str], BuildOptions], Scorer] | None = None
    save: Callable[[Any, Path], dict[str, Any]] | None = None
    load: Callable[[Path], Scorer] | None = None
    main_file: str = ""
    parts: tuple[str, ...] = ()
    combine: Callable[[list[Scorer], BuildOptions], Scorer] | None = None

    @property
    def stored(self) -> bool:
        """Whether it has a folder of its own in an index (a composite one has not)."""
        return not self.parts


# -- the retrievers ---------------------------------------------------------------------------


def _build_bm25(texts: list[str], opts: BuildOptions) -> Scorer:
    if opts.postings == "compact":
        from logir.index.bm25memory import build_compact

        return build_compact(texts, **opts.bm25)
    from logir.index.lexical import BM25Scorer

    return BM25Scorer.build(texts, **opts.bm25, **opts.progress())


def _save_bm25(scorer: Any, folder: Path) -> dict[str, Any]:
    scorer.save(folder)
    return dict(scorer.params)


def _load_bm25(folder: Path) -> Scorer:
    from logir.index.lexical import BM25Scorer

    return BM25Scorer.load(folder, mmap=True)  # memory-mapped: opening reads no posting list


def _build_dense(texts: list[str], opts: BuildOptions) -> Scorer:
    from logir.index.ann import parse_ann
    from logir.index.dense import DenseScorer

    spec = parse_ann(opts.ann)  # checked before any encoding
    if opts.tasks is not None:
        import numpy as np

        from logir.index.tasks import dense_embeddings

        step = max(256, -(-len(texts) // 64))
        cache = None if opts.cache_dir is None else str(opts.cache_dir)
        slices = ((texts[i : i + step], opts.model, cache) for i in range(0, len(texts), step))
        emb = np.concatenate(list(opts.tasks.map(dense_embeddings, slices)))
        return DenseScorer(emb, opts.model).with_ann(spec)
    built = DenseScorer.build(texts, model=opts.model, cache_dir=opts.cache_dir, **opts.progress())
    return built.with_ann(spec)


def _save_dense(scorer: Any, folder: Path) -> dict[str, Any]:
    scorer.save(folder)
    ann = scorer.ann.describe() if scorer.ann is not None else {"kind": "none"}
    return {"model": scorer.model_id, "dim": scorer.dim, "ann": ann}


def _load_dense(folder: Path) -> Scorer:
    from logir.index.dense import DenseScorer

    return DenseScorer.load(folder)


def _build_splade(texts: list[str], opts: BuildOptions) -> Scorer:
    from logir.index.sparse import SparseScorer

    return SparseScorer.build(
        texts, encoder="splade", model=opts.model, cache_dir=opts.cache_dir, **opts.progress()
    )


def _save_splade(scorer: Any, folder: Path) -> dict[str, Any]:
    scorer.save(folder)
    return {"model": scorer.encoder.model_id, "vocab": scorer.dim}


def _load_splade(folder: Path) -> Scorer:
    from logir.index.sparse import SparseScorer

    return SparseScorer.load(folder)


def _combine_hybrid(parts: list[Scorer], opts: BuildOptions) -> Scorer:
    from logir.index.hybrid import HybridScorer

    lexical, dense = parts
    return HybridScorer(lexical, dense, alpha=opts.alpha)


_RETRIEVERS = (
    Retriever(
        "bm25",
        "exact BM25 (bm25s), stemmed, stop words removed",
        _build_bm25,
        _save_bm25,
        _load_bm25,
        main_file="params.index.json",
    ),
    Retriever(
        "dense",
        "cosine of sentence-transformers embeddings",
        _build_dense,
        _save_dense,
        _load_dense,
        main_file="embeddings.npy",
    ),
    Retriever(
        "hybrid",
        "alpha * cosine + (1 - alpha) * BM25 / best BM25, over bm25 and dense",
        parts=("bm25", "dense"),
        combine=_combine_hybrid,
    ),
    Retriever(
        "splade",
        "dot product of SPLADE term weights",
        _build_splade,
        _save_splade,
        _load_splade,
        main_file="doc_vectors.npz",
    ),
)
_BY_NAME = {r.name: r for r in _RETRIEVERS}

#: every retriever a system or a search can name
RETRIEVERS: tuple[str, ...] = tuple(r.name for r in _RETRIEVERS)
#: the retrievers an index stores, each in its own folder
STORED: tuple[str, ...] = tuple(r.name for r in _RETRIEVERS if r.stored)


# -- naming, building, saving, loading ----------------------------------------------------------


def retriever(name: str, known: tuple[str, ...] = RETRIEVERS) -> Retriever:
    """The retriever ``name`` among ``known`` (a LogirError listing them otherwise)."""
    if name not in known:
        raise LogirError(f"unknown retriever {name!r}; known: {', '.join(known)}")
    return _BY_NAME[name]


def main_file(name: str) -> str:
    """The file of stored retriever ``name``, relative to the index, that says how many
    documents it holds."""
    return f"{name}/{retriever(name, STORED).main_file}"


def build(
    name: str,
    texts: list[str],
    options: BuildOptions | None = None,
    part: PartGetter | None = None,
) -> Scorer:
    """Build retriever ``name`` over ``texts`` (one per document, in row order); a composite
    one from the scorers ``part`` gives for its parts."""
    spec = retriever(name)
    opts = options or BuildOptions()
    if spec.build is not None:
        return spec.build(list(texts), opts)
    if part is None:
        raise LogirError(f"retriever {name!r} is built from {', '.join(spec.parts)}")
    return combine(name, part, opts)


def combine(name: str, part: PartGetter, options: BuildOptions | None = None) -> Scorer:
    """The composite retriever ``name`` over the scorers ``part`` gives for its parts."""
    spec = retriever(name)
    if spec.combine is None:
        raise LogirError(f"retriever {name!r} is not made of other retrievers")
    return spec.combine([part(p) for p in spec.parts], options or BuildOptions())


def save(name: str, scorer: Scorer, folder: Path) -> dict[str, Any]:
    """Write stored retriever ``name``'s scorer into ``folder``; returns what the index
    manifest records about it."""
    spec = retriever(name, STORED)
    assert spec.save is not None
    return spec.save(scorer, folder)


def load(name: str, folder: Path) -> Scorer:
    """Load stored retriever ``name``'s scorer from the ``folder`` that ``save`` wrote."""
    spec = retriever(name, STORED)
    assert spec.load is not None
    return spec.load(folder)


def available(stored: list[str]) -> list[str]:
    """The retrievers a search over an index that stores ``stored`` can use: each composite one
    whose parts are all there first, then the stored ones in their order."""
    have = set(stored)
    composite = [r.name for r in _RETRIEVERS if r.parts and set(r.parts) <= have]
    return composite + list(stored)
