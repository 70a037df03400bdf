"""Topic clusters of passages: embeddings -> truncated SVD -> agglomerative clustering.

As in BoolQuestions (passage clustering): passages of one cluster discuss related topics, so
questions combined from them stay coherent. Embeddings come from logir's dense scorer (a
bi-encoder) or, as a cheap offline stand-in, from TF-IDF.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from logir.errors import LogirError

EMBEDDINGS = ("dense", "tfidf")


def embed(texts: list[str], kind: str = "dense", model: str | None = None) -> Any:
    """A matrix with one row per text: dense float32 (``dense``) or sparse TF-IDF (``tfidf``)."""
    if kind == "dense":
        from logir.index.dense import DenseScorer

        return DenseScorer.build(texts, model=model, show_progress=False).embeddings
    if kind == "tfidf":
        from sklearn.feature_extraction.text import TfidfVectorizer

        try:
            return TfidfVectorizer(sublinear_tf=True, stop_words="english").fit_transform(texts)
        except ValueError:  # only stop words or empty texts: no vocabulary
            raise LogirError("cannot cluster the corpus: its passages have no words") from None
    raise LogirError(f"unknown embedding {kind!r}; choose from {', '.join(EMBEDDINGS)}")


def cluster(matrix: Any, n_clusters: int, dim: int, seed: int) -> list[list[int]]:
    """Rows of ``matrix`` grouped into ``n_clusters`` clusters, after reducing them to ``dim``
    dimensions with truncated SVD. Each cluster is a sorted list of row numbers; clusters are
    ordered by their first row, so the result does not depend on the clusterer's labels."""
    from sklearn.cluster import AgglomerativeClustering
    from sklearn.decomposition import TruncatedSVD

    rows = matrix.shape[0]
    if rows == 0:
        return []
    if rows == 1 or n_clusters <= 1:
        return [list(range(rows))]
    n_clusters = min(n_clusters, rows)
    k = min(dim, matrix.shape[1] - 1, rows - 1)
    if k >= 1:
        reduced = TruncatedSVD(n_components=k, random_state=seed).fit_transform(matrix)
    else:
        reduced = matrix.toarray() if hasattr(matrix, "toarray") else np.asarray(matrix)
    reduced = np.asarray(reduced, dtype=np.float64)
    norms = np.linalg.norm(reduced, axis=1, keepdims=True)
    reduced = reduced / np.where(norms > 0, norms, 1.0)
    labels = AgglomerativeClustering(n_clusters=n_clusters, linkage="ward").fit_predict(reduced)
    groups: dict[int, list[int]] = {}
    for row, label in enumerate(labels):
        groups.setdefault(int(label), []).append(row)
    return sorted(groups.values(), key=lambda g: g[0])
