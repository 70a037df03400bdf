"""Dense dot products whose every value depends only on its two vectors.

A BLAS product ``q @ docs.T`` in float32 rounds a value differently depending on which rows
are multiplied together (blocking, edge kernels, threads), so a document scored with the whole
corpus, with a shard's rows or with a few candidates could get scores 1 ulp apart, and two
documents that tie in one call need not tie in another. Every dense score logir returns comes
from :func:`fixed_dot`, which sums each value over the dimensions in one fixed order (numpy's
einsum loop, not BLAS): the same bits whichever rows are asked, in whatever order or company
(on machines whose numpy runs the same SIMD loop; a Ray worker on another CPU may not).

Whole-corpus top-k search keeps BLAS's speed: :func:`fixed_top` picks candidates from the BLAS
product with a margin of four times the rounding-error bound (:func:`error_bound`; each product
is within it of the exact value), so every document of the fixed top k is among them, and ranks
them by :func:`fixed_dot`.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np

_BLOCK = 2048  # document rows per einsum call: a block stays in cache across the query rows
_NORM_BLOCK = 8192  # rows read at a time for the largest norm (25 MB of float64 at 384-d)
_UNIT = 2.0**-24  # float32 unit roundoff


def fixed_dot(q: np.ndarray, docs: np.ndarray) -> np.ndarray:
    """``q @ docs.T`` as float32 ``[len(q), len(docs)]``, each value a function of its query
    row and document row alone (see the module docstring)."""
    q = np.ascontiguousarray(np.atleast_2d(q), dtype=np.float32)
    out = np.empty((len(q), len(docs)), dtype=np.float32)
    for start in range(0, len(docs), _BLOCK):
        block = np.ascontiguousarray(docs[start : start + _BLOCK], dtype=np.float32)
        np.einsum("md,cd->mc", q, block, optimize=False, out=out[:, start : start + len(block)])
    return out


def blas_product(q: np.ndarray, docs: np.ndarray) -> np.ndarray:
    """``q @ docs.T`` as float32, fast but rounded by the rows multiplied together; in torch
    when torch is loaded. Only for choosing candidates (:func:`fixed_top`), never returned.

    Queries are embedded in torch's OpenMP thread pool. A numpy (OpenBLAS) product right after
    it runs its own threads while torch's still spin, and each pool slows the other: on 2 cores a
    3-term query's embedding plus product over 100k documents took 2.1x as long as in one pool.
    A single row is computed as two: torch's matrix-vector kernel measured 2.6x slower here than
    its matrix kernel on the same row twice.
    """
    torch = sys.modules.get("torch")
    q = np.ascontiguousarray(q, dtype=np.float32)
    if torch is None or len(q) == 0 or len(docs) == 0:
        return np.asarray(q @ np.asarray(docs).T, dtype=np.float32)
    rows = np.repeat(q, 2, axis=0) if len(q) == 1 else q
    with warnings.catch_warnings():
        # a read-only (memory-mapped) index: the tensor is only read
        warnings.filterwarnings("ignore", message=".*not writable.*")
        tdocs = torch.from_numpy(np.asarray(docs, dtype=np.float32))
    with torch.inference_mode():
        out = (tdocs @ torch.from_numpy(rows).T).T.numpy()
    return np.ascontiguousarray(out[: len(q)])


def error_bound(dim: int) -> float:
    """``gamma_dim``: a float32 dot product of length ``dim``, summed in any order, is within
    ``gamma_dim * sum |q_i x_i|`` (at most ``gamma_dim * |q| * |x|``) of the exact value."""
    return dim * _UNIT / (1.0 - dim * _UNIT)


def max_row_norm(docs: np.ndarray) -> float:
    """The largest Euclidean norm of a row of ``docs`` (read in blocks: it may be mapped)."""
    best = 0.0
    for start in range(0, len(docs), _NORM_BLOCK):
        block = np.asarray(docs[start : start + _NORM_BLOCK], dtype=np.float64)
        if len(block):
            best = max(best, float(np.sqrt(np.einsum("cd,cd->c", block, block).max())))
    return best


def fixed_top(
    q: np.ndarray, docs: np.ndarray, k: int, doc_norm: float
) -> tuple[np.ndarray, np.ndarray]:
    """Top ``k`` rows of ``docs`` by :func:`fixed_dot` for each query row, best first, ties by
    lower row, padded with -1 / -inf: the same as ``topk(fixed_dot(q, docs), k)``.

    ``doc_norm`` bounds every row's norm (:func:`max_row_norm`). Both products are within
    ``g = gamma_dim * |q| * doc_norm`` of the exact one, so a document of the fixed top k scores
    at least the BLAS k-th score less ``4 g`` in BLAS: those candidates alone are rescored.
    """
    q = np.ascontiguousarray(np.atleast_2d(q), dtype=np.float32)
    m, n = len(q), len(docs)
    idx = np.full((m, max(k, 0)), -1, dtype=np.int64)
    val = np.full((m, max(k, 0)), -np.inf, dtype=np.float32)
    if m == 0 or k <= 0 or n == 0:
        return idx, val
    rough = blas_product(q, docs)
    kth = np.partition(rough, n - min(k, n), axis=1)[:, n - min(k, n)]
    q_norm = np.sqrt(np.einsum("md,md->m", q.astype(np.float64), q.astype(np.float64)))
    # the bound itself, computed in float64, gets a relative slack far above its own rounding
    margin = 4.0 * error_bound(q.shape[1]) * q_norm * doc_norm * (1.0 + 1e-6)
    for i in range(m):
        rows = np.flatnonzero(rough[i] >= kth[i] - margin[i])
        scores = fixed_dot(q[i : i + 1], docs[rows])[0]
        order = np.lexsort((rows, -scores))[:k]
        idx[i, : len(order)] = rows[order]
        val[i, : len(order)] = scores[order]
    return idx, val
