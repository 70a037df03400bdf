"""The one shape every benchmark adapter produces; metrics never read raw files."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logir.errors import LogirError


@dataclass(frozen=True)
class Document:
    """A passage of the corpus."""

    id: str
    text: str
    title: str = ""

    @property
    def full_text(self) -> str:
        """Title and text joined, as retrievers index it."""
        return f"{self.title}\n{self.text}" if self.title else self.text


@dataclass
class Topic:
    """One query of a benchmark (TREC calls it a topic).

    - ``type``: the benchmark's own query type label (ComLQ "3in_2", NegConstraint "A - a", ...).
    - ``logical_form``: the query in logir syntax when the benchmark provides one.
    - ``conditions``: the separate conditions of a multi-condition query (MultiConIR, QUEST atoms).
    - ``facets``: breakdown keys for reports,
      e.g. {"type": "3in", "evidence": "2", "negations": "1"}.
    - ``meta``: anything else an adapter keeps (NevIR pair id, MultiConIR ladder, ...).
    """

    id: str
    text: str
    type: str | None = None
    logical_form: str | None = None
    conditions: tuple[str, ...] = ()
    facets: dict[str, str] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class Dataset:
    """Corpus, queries, graded qrels and explicit violating documents.

    ``qrels[qid][docid]`` is a graded judgment (> 0 relevant). ``violating[qid]`` lists documents
    that break a constraint of the query (the excluded concept, the negated condition): they are the
    labels behind NegRecall, violation rate and pairwise accuracy.
    """

    name: str
    corpus: list[Document]
    queries: list[Topic]
    qrels: dict[str, dict[str, int]]
    violating: dict[str, list[str]] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._doc_index: dict[str, int] | None = None

    @property
    def doc_ids(self) -> list[str]:
        return [d.id for d in self.corpus]

    @property
    def doc_index(self) -> dict[str, int]:
        """docid -> row in ``corpus`` (built once)."""
        if self._doc_index is None:
            self._doc_index = {d.id: i for i, d in enumerate(self.corpus)}
        return self._doc_index

    def topic(self, qid: str) -> Topic:
        for t in self.queries:
            if t.id == qid:
                return t
        raise KeyError(qid)

    def subset(self, qids: list[str] | set[str]) -> Dataset:
        """The same corpus with only the given queries (and their labels)."""
        keep = set(qids)
        return Dataset(
            name=self.name,
            corpus=self.corpus,
            queries=[t for t in self.queries if t.id in keep],
            qrels={q: r for q, r in self.qrels.items() if q in keep},
            violating={q: v for q, v in self.violating.items() if q in keep},
            meta=dict(self.meta),
        )

    def __repr__(self) -> str:
        return (
            f"Dataset({self.name!r}, docs={len(self.corpus)}, queries={len(self.queries)}, "
            f"qrels={sum(len(r) for r in self.qrels.values())})"
        )


def require_text(docs: list[Document], corpus: str | Path) -> None:
    """Refuse a corpus with no document, or whose documents are all blank, before indexing."""
    corpus = Path(corpus)
    where = corpus / "corpus.jsonl" if corpus.is_dir() else corpus
    if not docs:
        raise LogirError(f"no documents in {where}")
    if not any(d.full_text.strip() for d in docs):
        raise LogirError(f"no document has any text: {where} ({len(docs)} documents)")


def require_words(docs: list[Document], corpus: str | Path) -> None:
    """Refuse a corpus where no document has a word BM25 indexes (all stop words or symbols)."""
    from bm25s.stopwords import STOPWORDS_EN

    from logir.index.lexical import words

    stop = frozenset(STOPWORDS_EN)
    for doc in docs:
        if any(w not in stop for w in words(doc.full_text.lower())):
            return
    corpus = Path(corpus)
    where = corpus / "corpus.jsonl" if corpus.is_dir() else corpus
    raise LogirError(f"no document has a word BM25 can index: {where} (only stop words or symbols)")
