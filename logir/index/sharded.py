"""One scorer over shards: a corpus split by rows, each part scored where it lives.

A stored scorer (bm25, dense) is cut into contiguous row ranges (:func:`shard_sources`). A
shard keeps the whole corpus's statistics: a BM25 shard holds the columns of the global
posting matrix for its rows (each value the unsharded index's BM25 contribution: global IDF and
average length), a dense shard the embeddings of its rows. :class:`ShardedScorer` is a Scorer
over them: ``search`` merges the shards' top k by (score, row), ``score`` asks each shard for its
own rows, so every number equals the unsharded scorer's (dense too: a cosine depends only on
its two vectors, :mod:`logir.index.cosine`) and a composer cannot tell the difference: it also
carries what composers read besides scores (``analyse``, ``params``, the passages).

Where the shards live is a :class:`ShardBackend`: :class:`LocalShards` in this process (tests,
one machine), or Ray actors (:mod:`logir.index.rayshards`). Dense query texts are embedded once,
here, and the shards get vectors.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Protocol

import numpy as np

from logir.errors import LogirError
from logir.index.ann import parse_ann
from logir.index.base import NO_PARTS, Scorer

#: the stored retrievers that can be cut into shards
SHARDABLE = ("bm25", "dense")
_FOUND_CACHE = 4096  # texts whose top list a sharded scorer keeps
_SCORED_CACHE = 16384  # (text, rows) score rows fetched ahead that a sharded scorer keeps


def shard_bounds(n_docs: int, shards: int) -> np.ndarray:
    """``shards + 1`` row bounds cutting ``n_docs`` rows into near-equal contiguous ranges."""
    if shards < 1:
        raise LogirError(f"the number of shards must be at least 1, got {shards}")
    shards = min(shards, n_docs)
    return np.linspace(0, n_docs, shards + 1).round().astype(np.int64)


@dataclass(frozen=True)
class ShardSource:
    """Plain data a shard is built from, wherever it runs: the retriever ``kind``, its first
    row ``lo``, its row count ``n``, and the arrays and parameters of its rows (``payload``)."""

    kind: str
    lo: int
    n: int
    payload: dict[str, Any]

    def build(self) -> Scorer:
        """The scorer of this shard's rows (built in the process that serves it)."""
        if self.kind == "bm25":
            from logir.index.lexical import BM25Scorer

            p = self.payload
            scores = {"data": p["data"], "indices": p["indices"], "indptr": p["indptr"]}
            retriever = SimpleNamespace(
                scores={**scores, "num_docs": self.n},
                vocab_dict=p["vocab"],
                nonoccurrence_array=p["nonocc"],
            )
            return BM25Scorer(retriever, p["params"])
        if self.kind == "dense":
            import contextlib

            from logir.index.dense import DenseScorer

            with contextlib.suppress(ImportError):
                import torch  # noqa: F401  (the product the unsharded scorer runs)
            scorer = DenseScorer(self.payload["embeddings"], self.payload["model"])
            return scorer.with_ann(parse_ann(self.payload["ann"]))
        raise LogirError(f"retriever {self.kind!r} cannot be sharded; shardable: bm25, dense")


def shard_sources(scorer: Scorer, bounds: np.ndarray) -> list[ShardSource]:
    """``scorer`` (bm25 or dense) cut at ``bounds`` into shard sources."""
    kind = getattr(scorer, "name", "")
    if kind not in SHARDABLE:
        raise LogirError(f"retriever {kind!r} cannot be sharded; shardable: {', '.join(SHARDABLE)}")
    out = []
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        if kind == "bm25":
            part = scorer.postings[:, lo:hi].tocsr()  # type: ignore[attr-defined]
            nonocc = getattr(scorer, "_nonocc", None)
            payload = {
                "data": part.data,
                "indices": part.indices,
                "indptr": part.indptr,
                "vocab": {t: i for i, t in enumerate(scorer.vocabulary) if t},  # type: ignore[attr-defined]
                "nonocc": None if nonocc is None else np.asarray(nonocc[lo:hi]),
                # its spelling switch too: each shard corrects the query words as the whole would
                "params": {**scorer.params, "spelling": getattr(scorer, "spelling", True)},  # type: ignore[attr-defined]
            }
        else:
            emb = scorer.embeddings  # type: ignore[attr-defined]
            model = scorer.model_id  # type: ignore[attr-defined]
            ann = getattr(scorer, "ann", None)  # each shard its own ANN index of the same kind
            payload = {
                "embeddings": np.ascontiguousarray(emb[lo:hi]),
                "model": model,
                "ann": "none" if ann is None else str(ann.spec),
            }
        out.append(ShardSource(kind, lo, hi - lo, payload))
    return out


class ShardServer:
    """Serves one shard: its top k with global rows, and scores of its own rows."""

    def __init__(self, source: ShardSource) -> None:
        self.lo = source.lo
        self.kind = source.kind
        self.scorer = source.build()

    def search(self, queries: Any, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top ``k`` of texts (bm25) or query vectors (dense), rows counted in the whole corpus."""
        if self.kind == "dense":
            idx, val = self.scorer.search_vectors(queries, k)  # type: ignore[attr-defined]
        else:
            idx, val = self.scorer.search(queries, k)
        return np.where(idx >= 0, idx + self.lo, -1), val

    def dot(self, vectors: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Dense: ``DenseScorer.dot`` of query vectors with this shard's ``rows``."""
        return self.scorer.dot(vectors, rows)  # type: ignore[attr-defined]

    def score(self, queries: Any, rows: np.ndarray | None) -> np.ndarray:
        """Scores of this shard's ``rows`` (counted from its first row; None: all of them)."""
        if self.kind == "dense":
            return self.scorer.score_vectors(queries, rows)  # type: ignore[attr-defined]
        return self.scorer.score(queries, rows)

    def batch(
        self, search: tuple[Any, int] | None, groups: Sequence[tuple[Any, np.ndarray] | None]
    ) -> tuple[tuple[np.ndarray, np.ndarray] | None, list[np.ndarray | None]]:
        """``search(*search)`` (None: no search) and ``score(*group)`` for each group, in one
        request: what a block of queries asks, without a round trip per question."""
        found = None if search is None else self.search(*search)
        return found, [None if g is None else self.score(*g) for g in groups]


class ShardBackend(Protocol):
    """Where shards live: ``call(method, args)`` runs ``ShardServer.method(*args[i])`` on every
    shard ``i`` whose ``args[i]`` is not None (at once where it can) and returns the results in
    shard order (None for a shard not asked)."""

    def call(self, method: str, args: Sequence[tuple[Any, ...] | None]) -> list[Any]: ...


class LocalShards:
    """Shards served in this process, one after another."""

    def __init__(self, sources: Sequence[ShardSource]) -> None:
        self.servers = [ShardServer(s) for s in sources]

    def call(self, method: str, args: Sequence[tuple[Any, ...] | None]) -> list[Any]:
        return [
            None if a is None else getattr(s, method)(*a)
            for s, a in zip(self.servers, args, strict=True)
        ]


def merge_topk(
    parts: Sequence[tuple[np.ndarray, np.ndarray]], k: int
) -> tuple[np.ndarray, np.ndarray]:
    """The top ``k`` of the shards' top lists: best score first, ties by lower row (as an
    unsharded search breaks them); padded with -1 / -inf."""
    idx = np.concatenate([p[0] for p in parts], axis=1)
    val = np.concatenate([np.asarray(p[1], dtype=np.float32) for p in parts], axis=1)
    tie = np.where(idx >= 0, idx, np.iinfo(np.int64).max)
    order = np.lexsort((tie, -val), axis=-1)[:, :k]
    top_i = np.take_along_axis(idx, order, axis=1)
    top_v = np.take_along_axis(val, order, axis=1)
    if top_i.shape[1] < k:
        pad = k - top_i.shape[1]
        top_i = np.pad(top_i, ((0, 0), (0, pad)), constant_values=-1)
        top_v = np.pad(top_v, ((0, 0), (0, pad)), constant_values=-np.inf)
    return top_i, top_v


class ShardedScorer:
    """A Scorer over shards (see the module docstring); ``embed`` turns texts into what the
    shards take (query vectors for dense; None: the texts themselves).

    Each call is a round trip to every shard, so a composer may ask ahead (:meth:`ahead`) for
    everything a block of queries will score: one round trip, whose answers the calls that
    follow read. ``nested``: a text's top k is the start of its top K for any K >= k (exact
    search), so a top list already fetched at a larger k answers a smaller one."""

    parts = NO_PARTS

    def __init__(
        self,
        name: str,
        bounds: np.ndarray,
        backend: ShardBackend,
        score_range: str,
        embed: Callable[[list[str]], np.ndarray] | None = None,
        analyse: Callable[[str], list[tuple[str, str]]] | None = None,
        params: dict[str, Any] | None = None,
        nested: bool = True,
    ) -> None:
        self.name = name
        self.bounds = np.asarray(bounds, dtype=np.int64)
        self.backend = backend
        self.score_range = score_range
        self._embed = embed
        self.nested = nested
        self._found: OrderedDict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._deepest: OrderedDict[str, int] = OrderedDict()  # each text's largest k kept
        self._scored: OrderedDict[tuple[str, bytes], np.ndarray] = OrderedDict()
        if analyse is not None:
            self.analyse = analyse
        if params is not None:  # what the scorer was built with (BM25's k1 and b, ...)
            self.params = dict(params)

    @property
    def n_docs(self) -> int:
        return int(self.bounds[-1])

    @property
    def shards(self) -> int:
        return len(self.bounds) - 1

    def _queries(self, texts: list[str]) -> Any:
        return self._embed(list(texts)) if self._embed is not None else list(texts)

    def search(self, texts: list[str], k: int) -> tuple[np.ndarray, np.ndarray]:
        """The merged top ``k`` of every shard. A text searched recently at the same ``k`` (or,
        ``nested``, at a larger one) is answered from memory (composers often ask for a text's
        best score more than once; each ask is a round trip to every shard)."""
        shape = (len(texts), max(k, 0))
        idx = np.full(shape, -1, dtype=np.int64)
        val = np.full(shape, -np.inf, dtype=np.float32)
        if not texts or k <= 0:
            return idx, val
        todo = list(dict.fromkeys(t for t in texts if self._known(t, k) is None))
        if todo:
            q = self._queries(todo)
            self._keep(todo, k, self.backend.call("search", [(q, k)] * self.shards))
        for row, t in enumerate(texts):
            key = self._known(t, k)
            assert key is not None
            found_i, found_v = self._found[key]
            idx[row], val[row] = found_i[:k], found_v[:k]
            self._found.move_to_end(key)
        return idx, val

    def _known(self, text: str, k: int) -> tuple[str, int] | None:
        """The key of a kept top list of ``text`` that answers a top ``k``, if any."""
        if (text, k) in self._found:
            return text, k
        deepest = self._deepest.get(text, 0)
        if self.nested and deepest > k and (text, deepest) in self._found:
            return text, deepest
        return None

    def _keep(self, texts: list[str], k: int, parts: list[Any]) -> None:
        """The shards' top lists of ``texts`` merged and kept (the oldest ones dropped)."""
        top_i, top_v = merge_topk(parts, k)
        for t, i, v in zip(texts, top_i, top_v, strict=True):
            self._found[(t, k)] = (i, v)
            if k > self._deepest.get(t, 0):
                self._deepest[t] = k
            self._deepest.move_to_end(t)
        while len(self._found) > _FOUND_CACHE:
            self._found.popitem(last=False)
        while len(self._deepest) > _FOUND_CACHE:
            self._deepest.popitem(last=False)

    def score(self, texts: list[str], doc_idx: np.ndarray | None = None) -> np.ndarray:
        """Scores ``[len(texts), n]``, or of the rows ``doc_idx`` in their order (the texts
        fetched ahead for exactly these rows read from memory)."""
        if doc_idx is None or not self._scored:
            return self._by_rows("score", self._queries(texts), len(texts), doc_idx)
        rows = np.asarray(doc_idx, dtype=np.int64).ravel()
        key = rows.tobytes()
        out = np.empty((len(texts), len(rows)), dtype=np.float32)
        todo = [i for i, t in enumerate(texts) if (t, key) not in self._scored]
        for i, t in enumerate(texts):
            if (t, key) in self._scored:
                out[i] = self._scored[(t, key)]
        if todo:
            ask = [texts[i] for i in todo]
            out[todo] = self._by_rows("score", self._queries(ask), len(ask), rows)
        return out

    def ahead(
        self, requests: Sequence[tuple[Sequence[str], np.ndarray]], best: Sequence[str] = ()
    ) -> None:
        """Fetch in one round trip to every shard the scores of each request's texts on its
        rows, and the top 1 of each ``best`` text; the ``score`` and ``search`` calls that ask
        for them next read the answers (the same numbers: a shard scores a text on a row the
        same whatever else it is asked)."""
        best = list(dict.fromkeys(t for t in best if self._known(t, 1) is None))
        asks: dict[bytes, tuple[np.ndarray, dict[str, None]]] = {}
        for texts, doc_idx in requests:
            rows = np.asarray(doc_idx, dtype=np.int64).ravel()
            if not len(rows):
                continue
            if rows.min() < 0 or rows.max() >= self.n_docs:
                raise LogirError(f"document rows out of range 0..{self.n_docs - 1}")
            key = rows.tobytes()
            todo = asks.setdefault(key, (rows, {}))[1]
            todo.update((t, None) for t in texts if (t, key) not in self._scored)
        groups = [(key, rows, list(todo)) for key, (rows, todo) in asks.items() if todo]
        if not best and not groups:
            return
        everything = list(dict.fromkeys([*best, *(t for _, _, ts in groups for t in ts)]))
        embedded = self._queries(everything)
        at = {t: i for i, t in enumerate(everything)}

        def vectors(texts: list[str]) -> Any:  # what the shards take for these texts
            return list(texts) if self._embed is None else embedded[[at[t] for t in texts]]

        search = (vectors(best), 1) if best else None
        cols: list[list[np.ndarray]] = []
        args: list[tuple[Any, ...] | None] = []
        for s in range(self.shards):
            lo, hi = int(self.bounds[s]), int(self.bounds[s + 1])
            shard_groups: list[tuple[Any, np.ndarray] | None] = []
            shard_cols = []
            for _, rows, ts in groups:
                c = np.flatnonzero((rows >= lo) & (rows < hi))
                shard_cols.append(c)
                shard_groups.append((vectors(ts), rows[c] - lo) if len(c) else None)
            cols.append(shard_cols)
            wanted = search is not None or any(g is not None for g in shard_groups)
            args.append((search, shard_groups) if wanted else None)
        answers = self.backend.call("batch", args)
        if best:
            self._keep(best, 1, [a[0] for a in answers])
        for g, (key, rows, ts) in enumerate(groups):
            out = np.zeros((len(ts), len(rows)), dtype=np.float32)
            for s, answer in enumerate(answers):
                part = None if answer is None else answer[1][g]
                if part is not None:
                    out[:, cols[s][g]] = part
            for t, values in zip(ts, out, strict=True):
                self._scored[(t, key)] = values
        while len(self._scored) > _SCORED_CACHE:
            self._scored.popitem(last=False)

    def _by_rows(self, method: str, q: Any, m: int, doc_idx: np.ndarray | None) -> np.ndarray:
        """``method`` asked of every shard for its part of ``doc_idx`` (None: all its rows),
        the answers put back in the order asked."""
        if doc_idx is None:
            parts = self.backend.call(method, [(q, None)] * self.shards)
            return np.concatenate(parts, axis=1).astype(np.float32, copy=False)
        rows = np.asarray(doc_idx, dtype=np.int64).ravel()
        if len(rows) and (rows.min() < 0 or rows.max() >= self.n_docs):
            raise LogirError(f"document rows out of range 0..{self.n_docs - 1}")
        shard = np.searchsorted(self.bounds, rows, side="right") - 1
        out = np.zeros((m, len(rows)), dtype=np.float32)
        asked = [np.flatnonzero(shard == s) for s in range(self.shards)]
        # a shard none of whose rows is asked for is not called
        args = [(q, rows[a] - self.bounds[s]) if len(a) else None for s, a in enumerate(asked)]
        for cols, part in zip(asked, self.backend.call(method, args), strict=True):
            if part is not None:
                out[:, cols] = part
        return out

    def __repr__(self) -> str:
        return f"ShardedScorer({self.name!r}, n_docs={self.n_docs}, shards={self.shards})"


class ShardedVectors(ShardedScorer):
    """A sharded dense scorer that is also a VectorScorer (for the ``vectors`` composer)."""

    lexical = False

    def __init__(
        self,
        *args: Any,
        dim: int,
        encode_words: Callable[[list[str]], np.ndarray] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self._dim = dim
        if encode_words is not None:  # single words embedded alone (logic.kinds), as unsharded
            self.encode_words = encode_words

    @property
    def dim(self) -> int:
        return self._dim

    def warm(self, texts: list[str]) -> None:
        """Embed ``texts`` now, in one call (the embedding scorer keeps them for later calls)."""
        self._queries(texts)

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self._queries(texts), dtype=np.float32)

    def dot(self, vectors: np.ndarray, doc_idx: np.ndarray) -> np.ndarray:
        q = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        return self._by_rows("dot", q, len(q), doc_idx)

    def search_vectors(self, vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        q = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
        return merge_topk(self.backend.call("search", [(q, k)] * self.shards), k)


Serve = Callable[[list[ShardSource]], ShardBackend]


def sharded(scorer: Scorer, shards: int, serve: Serve) -> Scorer:
    """``scorer`` (bm25 or dense) cut into ``shards`` row ranges that ``serve`` places (e.g.
    :class:`LocalShards`, or Ray actors), as one :class:`ShardedScorer`."""
    bounds = shard_bounds(scorer.n_docs, shards)
    backend = serve(shard_sources(scorer, bounds))
    analyse = getattr(scorer, "analyse", None)
    params = getattr(scorer, "params", None)
    if scorer.name == "dense":
        embed = scorer.embed  # type: ignore[attr-defined]
        dim = int(scorer.dim)  # type: ignore[attr-defined]
        exact = getattr(scorer, "ann", None) is None  # an ANN's top k need not start its top K
        words = getattr(scorer, "encode_words", None)
        return ShardedVectors(
            scorer.name,
            bounds,
            backend,
            scorer.score_range,
            embed,
            dim=dim,
            nested=exact,
            encode_words=words,
        )
    return ShardedScorer(scorer.name, bounds, backend, scorer.score_range, None, analyse, params)
