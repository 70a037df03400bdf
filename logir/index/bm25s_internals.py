"""The one place logir reads a private part of bm25s.

``bm25s.tokenize`` resolves its ``stopwords`` argument (a language name such as ``"en"``, a
list, or None) with the private ``bm25s.tokenization._infer_stopwords``. BM25Scorer tokenises
queries itself, without ``bm25s.tokenize``'s per-call set-up, and must drop exactly the same
stop words; a bm25s release that moves or changes that function fails here, by name, and in
``tests/index/test_lexical.py``.
"""

from __future__ import annotations

from logir.errors import LogirError


def stopword_set(stopwords: str | list[str] | None) -> frozenset[str]:
    """The stop words ``bm25s.tokenize(..., stopwords=stopwords)`` removes."""
    try:
        from bm25s.tokenization import _infer_stopwords
    except ImportError as exc:
        raise LogirError(
            "this bm25s release has no bm25s.tokenization._infer_stopwords, which logir uses to "
            f"drop the stop words bm25s drops ({exc}); logir is tested with bm25s 0.2.10 to 0.3.x"
        ) from None
    return frozenset(_infer_stopwords(stopwords) or ())
