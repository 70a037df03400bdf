"""Approximate nearest-neighbour candidates for the dense scorer (FAISS: HNSW or IVF).

An ANN index only proposes documents: the dense scorer scores every proposed document exactly
(the cosine of its stored embedding), so a composer gets the same numbers for a document whether
the scorer behind it searched exactly or approximately; only which documents are proposed may
differ. Chosen at index time by a spec ``KIND[,key=value...]``:

- ``none``: exact search over every embedding.
- ``auto``: ``none`` below :data:`AUTO_THRESHOLD` documents, ``hnsw`` from there on.
- ``hnsw``: a graph (``M`` links per node, ``efConstruction`` at build, ``efSearch`` at query).
- ``ivf``: ``nlist`` k-means cells over a training sample, ``nprobe`` cells searched per query.

Every parameter is bounded (:data:`BOUNDS`) and recorded in the index manifest. faiss-cpu is the
optional ``ann`` extra, imported only when an ANN index is built or loaded.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from logir.errors import LogirError, shorten
from logir.index.integrity import DamagedFile, reading

ANN_FILE = "ann.faiss"
KINDS = ("auto", "none", "hnsw", "ivf")
#: from this many documents on, ``auto`` builds an HNSW graph (below it, exact search)
AUTO_THRESHOLD = 200_000
_MISSING_EXTRA = "an ANN index needs the 'ann' extra (faiss-cpu): pip install 'logir[ann]'"
_SEED = 1234  # k-means seed and training-sample seed: the same corpus gives the same cells

#: each kind's parameters: (smallest, largest) allowed value
BOUNDS: Mapping[str, Mapping[str, tuple[int, int]]] = MappingProxyType(
    {
        "hnsw": MappingProxyType(
            {"M": (4, 128), "efConstruction": (16, 1024), "efSearch": (16, 4096)}
        ),
        "ivf": MappingProxyType({"nlist": (1, 65536), "nprobe": (1, 65536), "train": (1, 1 << 22)}),
        "none": MappingProxyType({}),
        "auto": MappingProxyType({}),
    }
)
_HNSW_DEFAULTS = {"M": 32, "efConstruction": 64, "efSearch": 512}


@dataclass(frozen=True)
class AnnSpec:
    """An ANN choice: its ``kind`` and the parameters given for it (others take defaults)."""

    kind: str
    params: Mapping[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        return ",".join([self.kind, *(f"{k}={v}" for k, v in self.params.items())])


def parse_ann(spec: str) -> AnnSpec:
    """``KIND[,key=value...]`` as an :class:`AnnSpec`; a LogirError names what is wrong."""
    kind, *pairs = [p.strip() for p in str(spec).split(",")]
    if kind not in KINDS:
        known = ", ".join(KINDS)
        raise LogirError(
            f"unknown --ann kind {shorten(kind)!r} in {shorten(str(spec))!r}; known: {known}"
        )
    bounds = BOUNDS[kind]
    params: dict[str, int] = {}
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if key not in bounds:
            known = ", ".join(bounds) or "none"
            raise LogirError(f"--ann {kind}: unknown parameter {shorten(key)!r}; known: {known}")
        if key in params:
            raise LogirError(f"--ann {kind}: {key} is given twice")
        digits = raw.strip()
        if not eq or not (digits.isascii() and digits.isdigit()):  # not "²" nor "١"
            raise LogirError(f"--ann {kind}: {key} needs a whole number, got {shorten(raw)!r}")
        lo, hi = bounds[key]
        digits = digits.lstrip("0") or "0"
        if len(digits) > len(str(hi)) or not lo <= int(digits) <= hi:  # no int of 5000 digits
            raise LogirError(f"--ann {kind}: {key}={shorten(digits)} is outside {lo}..{hi}")
        params[key] = int(digits)
    return AnnSpec(kind, params)


def resolve(spec: AnnSpec, n_docs: int) -> AnnSpec:
    """The spec with ``auto`` decided for a corpus of ``n_docs`` and every default filled in."""
    if spec.kind == "auto":
        spec = AnnSpec("hnsw" if n_docs >= AUTO_THRESHOLD else "none")
    if spec.kind == "hnsw":
        return AnnSpec("hnsw", {**_HNSW_DEFAULTS, **spec.params})
    if spec.kind == "ivf":
        nlist = spec.params.get("nlist", max(1, min(65536, round(4 * math.sqrt(n_docs)))))
        nlist = min(nlist, n_docs)  # k-means needs at least one training point per cell
        nprobe = min(spec.params.get("nprobe", max(1, nlist // 64)), nlist)
        train = min(spec.params.get("train", 64 * nlist), n_docs)
        if train < nlist:
            raise LogirError(f"--ann ivf: train={train} is below nlist={nlist}")
        return AnnSpec("ivf", {"nlist": nlist, "nprobe": nprobe, "train": train})
    return spec


def _faiss() -> Any:
    try:
        import faiss
    except ImportError:
        raise LogirError(_MISSING_EXTRA) from None
    return faiss


class AnnIndex:
    """A FAISS index over a scorer's embeddings (inner product: cosine for unit vectors)."""

    def __init__(self, spec: AnnSpec, index: Any) -> None:
        self.spec = spec
        self._index = index
        self._apply_search_params()

    @classmethod
    def build(cls, embeddings: np.ndarray, spec: AnnSpec) -> AnnIndex | None:
        """The ANN index ``spec`` (resolved for this corpus) over ``embeddings``; None for
        ``none`` (exact search)."""
        emb = np.asarray(embeddings, dtype=np.float32)
        spec = resolve(spec, len(emb))
        if spec.kind == "none":
            return None
        faiss = _faiss()
        dim = emb.shape[1]
        p = spec.params
        if spec.kind == "hnsw":
            index = faiss.IndexHNSWFlat(dim, p["M"], faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = p["efConstruction"]
        else:
            quantizer = faiss.IndexFlatIP(dim)
            index = faiss.IndexIVFFlat(quantizer, dim, p["nlist"], faiss.METRIC_INNER_PRODUCT)
            index.cp.seed = _SEED
            rows = np.random.default_rng(_SEED).choice(len(emb), p["train"], replace=False)
            index.train(np.ascontiguousarray(emb[np.sort(rows)]))
        for start in range(0, len(emb), 65536):  # in slices: a memory-mapped source stays so
            index.add(np.ascontiguousarray(emb[start : start + 65536]))
        return cls(spec, index)

    def _apply_search_params(self) -> None:
        p = self.spec.params
        if self.spec.kind == "hnsw":
            self._index.hnsw.efSearch = p["efSearch"]
        elif self.spec.kind == "ivf":
            self._index.nprobe = p["nprobe"]

    def with_search(self, **params: int) -> AnnIndex:
        """The same index searched with other query-time parameters (``efSearch`` for hnsw,
        ``nprobe`` for ivf), checked against :data:`BOUNDS`."""
        allowed = {"hnsw": ("efSearch",), "ivf": ("nprobe",)}[self.spec.kind]
        given = ",".join(f"{k}={v}" for k, v in params.items())
        checked = parse_ann(f"{self.spec.kind},{given}" if given else self.spec.kind).params
        for key in checked:
            if key not in allowed:
                raise LogirError(f"{key} is fixed when a {self.spec.kind} index is built")
        self.spec = AnnSpec(self.spec.kind, {**self.spec.params, **checked})
        self._apply_search_params()
        return self

    @property
    def n_docs(self) -> int:
        return int(self._index.ntotal)

    def candidates(self, queries: np.ndarray, k: int) -> np.ndarray:
        """The ``k`` documents the index proposes for each query vector ``[m, k]`` (-1 where it
        found fewer). For hnsw the search breadth is at least ``k``."""
        q = np.ascontiguousarray(np.atleast_2d(queries), dtype=np.float32)
        k = max(1, min(int(k), self.n_docs))
        if self.spec.kind == "hnsw":
            self._index.hnsw.efSearch = max(self.spec.params["efSearch"], k)
        _, idx = self._index.search(q, k)
        idx = np.asarray(idx, dtype=np.int64)
        if self.spec.kind == "ivf":
            idx = self._widen(q, k, idx)
        return idx

    def _widen(self, q: np.ndarray, k: int, idx: np.ndarray) -> np.ndarray:
        """IVF rows whose probed cells held fewer than ``k`` documents searched again with twice
        the cells, until full or every cell is probed (a small corpus has small cells: with
        ``nprobe`` 1, a top-10 could come back with 3 documents)."""
        nprobe, nlist = self.spec.params["nprobe"], self.spec.params["nlist"]
        short = np.flatnonzero((idx < 0).any(axis=1))
        while len(short) and nprobe < nlist:
            nprobe = min(nlist, 2 * nprobe)
            params = _faiss().SearchParametersIVF(nprobe=nprobe)
            _, found = self._index.search(np.ascontiguousarray(q[short]), k, params=params)
            idx[short] = found
            short = short[(idx[short] < 0).any(axis=1)]
        return idx

    def describe(self) -> dict[str, Any]:
        """What the index manifest records: the kind, every parameter, the faiss version."""
        return {"kind": self.spec.kind, **self.spec.params, "faiss": _faiss().__version__}

    def save(self, folder: Path) -> None:
        """Write the index as ``ann.faiss`` into ``folder``."""
        _faiss().write_index(self._index, str(Path(folder) / ANN_FILE))

    @classmethod
    def load(cls, folder: Path, recorded: Mapping[str, Any], n_docs: int) -> AnnIndex:
        """Read ``ann.faiss`` from ``folder``; ``recorded`` is what :meth:`describe` gave."""
        path = Path(folder) / ANN_FILE
        if not path.is_file():
            raise DamagedFile(path, "is missing (the dense config names an ANN index)")
        kind = recorded.get("kind")
        if kind not in ("hnsw", "ivf"):
            raise DamagedFile(path.parent / "dense.json", f"names an unknown ANN kind {kind!r}")
        params = {k: int(v) for k, v in recorded.items() if k in BOUNDS[kind]}
        faiss = _faiss()
        with reading(path):
            index = faiss.read_index(str(path))
        if int(index.ntotal) != n_docs:
            raise DamagedFile(path, f"holds {index.ntotal} vectors, the index {n_docs} documents")
        return cls(AnnSpec(kind, params), index)

    def __repr__(self) -> str:
        return f"AnnIndex({self.spec})"
