"""Hand-written query sets (bench/handwritten): the loader's checks, the shipped sets' labels."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from logir.data.benchmarks import handwritten
from logir.data.benchmarks.handwritten import (
    HANDWRITTEN_DIR,
    SET_CORPORA,
    join_corpus,
    load_handwritten,
    read_handwritten,
)
from logir.data.dataset import Document
from logir.errors import LogirError
from logir.query import negated_terms, parse

DOCS = ["d1", "d2", "d3", "d4"]


def _query(**over: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": "q1",
        "text": "films by Nolan, not sci-fi",
        "form": '"Nolan films" AND NOT "science fiction"',
        "negation": "exclude",
        "relevant": {"d1": 2, "d2": 2, "d3": 1},
        "violating": ["d4"],
    }
    row.update(over)
    return row


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def data_root(tmp_path: Path) -> Path:
    """A shared-datasets folder holding a four-passage corpus under comlq/."""
    corpus = tmp_path / "data" / "comlq" / "corpus.jsonl"
    corpus.parent.mkdir(parents=True)
    _write(corpus, [json.dumps({"_id": d, "text": f"passage {d}"}) for d in DOCS])
    return tmp_path / "data"


def test_a_good_set_joins_its_corpus(tmp_path: Path, data_root: Path) -> None:
    sets = tmp_path / "sets"
    sets.mkdir()
    _write(sets / "comlq.jsonl", [json.dumps(_query()), json.dumps(_query(id="q2", violating=[]))])
    ds = load_handwritten("comlq", data_root, sets_dir=sets)
    assert ds.doc_ids == DOCS
    assert [t.id for t in ds.queries] == ["q1", "q2"]
    topic = ds.queries[0]
    assert topic.logical_form == '"Nolan films" AND NOT "science fiction"'
    assert topic.facets == {"negation": "exclude"}
    assert ds.qrels["q1"] == {"d1": 2, "d2": 2, "d3": 1}
    assert ds.violating == {"q1": ["d4"], "q2": []}


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("{not json", "not valid JSON"),
        (json.dumps(_query(negation="maybe")), "negation must be one of"),
        (json.dumps(_query(relevant={"d1": 3})), "grade of 'd1' must be 1 or 2"),
        (json.dumps(_query(violating=["d1"])), "both relevant and violating: d1"),
        (json.dumps({k: v for k, v in _query().items() if k != "form"}), "missing field 'form'"),
        (json.dumps(_query(id="q0")), "duplicate query id 'q0'"),
    ],
)
def test_a_broken_line_names_the_file_and_line(tmp_path: Path, line: str, problem: str) -> None:
    path = _write(tmp_path / "set.jsonl", [json.dumps(_query(id="q0")), line])
    with pytest.raises(LogirError, match=problem) as err:
        read_handwritten(path)
    assert f"{path}:2:" in str(err.value)


def test_an_unknown_doc_id_is_named(tmp_path: Path, data_root: Path) -> None:
    sets = tmp_path / "sets"
    sets.mkdir()
    row = _query(relevant={"d1": 2, "d9": 2})
    _write(sets / "comlq.jsonl", [json.dumps(_query(id="q0")), json.dumps(row)])
    with pytest.raises(LogirError, match="doc id 'd9', which the corpus lacks") as err:
        load_handwritten("comlq", data_root, sets_dir=sets)
    assert "comlq.jsonl:2:" in str(err.value)


def test_unknown_set_and_missing_corpus_are_clear(tmp_path: Path) -> None:
    with pytest.raises(LogirError, match="unknown hand-written set 'nope'"):
        handwritten.set_path("nope")
    with pytest.raises(LogirError, match="LOGIR_SHARED_DATASETS or --data-root"):
        load_handwritten("comlq", tmp_path)


SHIPPED = sorted(p.stem for p in HANDWRITTEN_DIR.glob("*.jsonl"))


def test_every_shipped_set_is_known() -> None:
    assert {"comlq", "negconstraint", "scifact"} <= set(SHIPPED)
    assert set(SHIPPED) <= set(SET_CORPORA)
    assert SET_CORPORA["scifact"] == "scifact"


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_set_is_well_formed(name: str) -> None:
    queries = read_handwritten(HANDWRITTEN_DIR / f"{name}.jsonl")
    # (the later sets over a corpus whose topics are nearly used up keep fewer queries rather than
    # repeat an earlier set's questions: nevir29 kept 14)
    assert len(queries) >= 12
    for q in queries:
        assert sum(1 for g in q.relevant.values() if g == 2) >= 2, q.id
        assert not set(q.relevant) & set(q.violating), q.id
        form = parse(q.form)
        assert bool(negated_terms(form)) == (q.negation != "none"), q.id
        if q.violating:
            assert q.negation != "none", q.id


_CORPORA: dict[Path, list[Document]] = {}


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_set_names_only_passages_of_its_corpus(name: str, datasets_dir: Path) -> None:
    corpus_path = datasets_dir / SET_CORPORA[name] / "corpus.jsonl"
    if not corpus_path.is_file():
        pytest.skip(f"the {name} corpus is not in {datasets_dir}")
    source = HANDWRITTEN_DIR / f"{name}.jsonl"
    if name == SET_CORPORA[name] or corpus_path not in _CORPORA:
        # the first set of each corpus through the loader itself, reading the corpus
        ds = load_handwritten(name, datasets_dir)  # raises on an id the corpus lacks
        _CORPORA[corpus_path] = ds.corpus
    else:  # the others over the corpus read once (the same check: join_corpus)
        ds = join_corpus(name, read_handwritten(source), _CORPORA[corpus_path], source)
    assert len(ds.queries) == len(read_handwritten(source))
