"""Batch retrieval into a TREC run: the same hits as a search, atomic, resumable."""

from __future__ import annotations

from pathlib import Path

import pytest

from logir.data.dataset import Document
from logir.data.trec import read_run
from logir.errors import LogirError
from logir.index.store import build_index
from logir.retrieve import partial_paths, retrieve
from logir.searcher import Searcher

DOCS = [
    Document(f"d{i}", text)
    for i, text in enumerate(
        [
            "vitamin D helps bones and mood",
            "bone health and calcium",
            "vitamin D and the immune system",
            "films by Nolan about time",
            "films by Villeneuve in the desert",
            "science fiction films of the decade",
            "strep throat is a bacterial infection",
            "sore throat remedies at home",
        ]
    )
]
QUERIES = [
    "vitamin D other than bone health",
    "films by Nolan or Villeneuve but not sci-fi",
    "strep throat",
    '"vitamin D" AND NOT bone',
    "films",
    "throat infection",
    "calcium",
]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_index(DOCS, tmp_path_factory.mktemp("idx") / "idx", retrievers=("bm25",))


@pytest.fixture
def topics(tmp_path: Path) -> Path:
    path = tmp_path / "topics.tsv"
    path.write_text("".join(f"t{i}\t{q}\n" for i, q in enumerate(QUERIES)))
    return path


def test_the_run_holds_the_hits_a_search_gives(index: Path, topics: Path, tmp_path: Path) -> None:
    run = tmp_path / "out.trec"
    summary = retrieve(index, topics, run, k=5, tag="mine", batch=3)
    assert (summary.topics, summary.resumed) == (len(QUERIES), 0)
    assert not any(p.exists() for p in partial_paths(run))
    got = read_run(run)
    searcher = Searcher(index)
    for i, q in enumerate(QUERIES):
        hits = searcher.search(q, k=5).hits
        assert list(got.get(f"t{i}", {})) == [h.id for h in hits]
        assert [got[f"t{i}"][h.id] for h in hits] == pytest.approx([h.score for h in hits])
    lines = run.read_text().splitlines()
    assert len(lines) == summary.lines and all(line.endswith(" mine") for line in lines)
    assert [line.split()[3] for line in lines if line.startswith("t0 ")][:3] == ["1", "2", "3"]


class Stop(Exception):
    pass


def test_an_interrupted_run_continues_where_it_stopped(
    index: Path, topics: Path, tmp_path: Path
) -> None:
    whole = tmp_path / "whole.trec"
    retrieve(index, topics, whole, k=4, batch=2)
    run = tmp_path / "run.trec"

    def stop_after_two_batches(done: int, total: int) -> None:
        if done >= 4:
            raise Stop

    with pytest.raises(Stop):
        retrieve(index, topics, run, k=4, batch=2, progress=stop_after_two_batches)
    partial, meta = partial_paths(run)
    assert not run.exists() and partial.exists() and meta.exists()
    with partial.open("a") as fh:
        fh.write("t3 Q0 d1 5 0.1")  # a line cut short by the interruption
    with pytest.raises(LogirError, match=r"other settings \(k\)"):
        retrieve(index, topics, run, k=5, batch=2)
    summary = retrieve(index, topics, run, k=4, batch=2)
    assert summary.resumed == 3  # t0..t2 kept; t3, the last written, ranked again
    assert run.read_text() == whole.read_text()
    assert not partial.exists() and not meta.exists()


def test_bad_settings_are_refused_before_anything_is_written(
    index: Path, topics: Path, tmp_path: Path
) -> None:
    run = tmp_path / "r.trec"
    for kwargs, needle in [
        ({"k": 0}, "k \\(hits per query\\)"),
        ({"tag": "two words"}, "run tag"),
        ({"mode": "fancy"}, "unknown mode"),
        ({"composer": "nope"}, "nope"),
    ]:
        with pytest.raises(LogirError, match=needle):
            retrieve(index, topics, run, **kwargs)  # type: ignore[arg-type]
    assert list(tmp_path.glob("r.trec*")) == []
    bad = tmp_path / "bad.tsv"
    bad.write_text('q1\t"unclosed AND\n')
    with pytest.raises(LogirError, match="bad.tsv:1: query 'q1'"):
        retrieve(index, bad, run, mode="syntax")
    assert list(tmp_path.glob("r.trec*")) == []
