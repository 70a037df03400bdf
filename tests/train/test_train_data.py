"""Training data: triplet files, NevIR-layout train folders, BEIR folders with violating labels,
the refusal of test splits, and the grouped held-out split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from logir.errors import DataFormatError, LogirError
from logir.train.data import load_examples, load_source, read_triplets, split_heldout


def _jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _nevir_folder(root: Path, qrels_split: str) -> Path:
    queries, docs = [], []
    for pair in ("1-2", "1-3", "2-2"):
        for side, other in (("1", "2"), ("2", "1")):
            queries.append(
                {
                    "query_id": f"nevir_q_{pair}_{side}",
                    "query": f"query {pair} side {side}",
                    "constraint_satisfying_doc_ids": [f"nevir_doc_{pair}_{side}"],
                    "constraint_violating_doc_ids": [f"nevir_doc_{pair}_{other}"],
                }
            )
            docs.append({"_id": f"nevir_doc_{pair}_{side}", "text": f"doc {pair} {side}"})
    _jsonl(root / "queries.jsonl", queries)
    _jsonl(root / "corpus.jsonl", docs)
    (root / "qrels").mkdir()
    (root / "qrels" / f"{qrels_split}.tsv").write_text("query-id\tcorpus-id\tscore\n")
    return root


def test_triplets_read_with_either_negative_field(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path / "t.jsonl",
        [
            {"query": "q1", "positive": "p1", "negative": "n1"},
            {"query": "q2", "positive": "p2", "hard_negative": "n2"},
        ],
    )
    examples = read_triplets(path)
    assert [(e.query, e.positive, e.negative) for e in examples] == [
        ("q1", "p1", "n1"),
        ("q2", "p2", "n2"),
    ]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"query": "q", "positive": "p"}, "line 2: missing field 'negative' or 'hard_negative'"),
        ({"query": "q", "positive": 3, "negative": "n"}, "line 2: field 'positive' must be"),
        ({"query": "q", "positive": "p", "negative": "p"}, "line 2: the negative passage is"),
    ],
)
def test_broken_triplet_names_file_and_line(tmp_path: Path, row: dict, message: str) -> None:
    path = _jsonl(tmp_path / "t.jsonl", [{"query": "a", "positive": "b", "negative": "c"}, row])
    with pytest.raises(DataFormatError) as info:
        read_triplets(path)
    assert str(info.value).startswith(f"{path}:2:")
    assert message.split(": ", 1)[1] in str(info.value)


def test_nevir_train_folder_groups_pairs_that_share_a_document(tmp_path: Path) -> None:
    examples = load_source(_nevir_folder(tmp_path / "nevir-train", "train"))
    assert len(examples) == 6
    first = examples[0]
    assert (first.query, first.positive, first.negative) == (
        "query 1-2 side 1",
        "doc 1-2 1",
        "doc 1-2 2",
    )
    assert {e.group for e in examples} == {"pair:1", "pair:2"}


def test_labelled_test_split_and_test_split_name_are_refused(tmp_path: Path) -> None:
    folder = _nevir_folder(tmp_path / "nevir", "test")
    with pytest.raises(LogirError, match="no qrels/train.tsv.*never trains on a test split"):
        load_source(folder)
    with pytest.raises(LogirError, match="never trains on a test split"):
        load_examples([folder], split="test")


def test_beir_folder_violating_documents_are_hard_negatives(tmp_path: Path) -> None:
    root = tmp_path / "beir"
    _jsonl(root / "corpus.jsonl", [{"_id": d, "text": f"text {d}"} for d in ("a", "b", "c")])
    _jsonl(
        root / "queries.jsonl",
        [{"_id": "q1", "text": "one", "violating": ["b"]}, {"_id": "q2", "text": "two"}],
    )
    (root / "qrels").mkdir()
    (root / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\nq1\ta\t1\nq2\tc\t1\n")
    examples = load_source(root)
    assert [(e.query, e.positive, e.negative) for e in examples] == [
        ("one", "text a", "text b"),
        ("two", "text c", None),
    ]


def test_heldout_split_keeps_groups_whole_and_is_repeatable(tmp_path: Path) -> None:
    examples = load_source(_nevir_folder(tmp_path / "nevir-train", "train")) * 1
    rows = [{"query": f"q{i}", "positive": f"p{i}", "negative": f"n{i}"} for i in range(200)]
    examples += read_triplets(_jsonl(tmp_path / "t.jsonl", rows))
    train, held = split_heldout(examples, 0.3, 1000, seed=1)
    assert 20 < len(held) < 100
    assert not {e.group for e in train} & {e.group for e in held}
    assert split_heldout(examples, 0.3, 1000, seed=1) == (train, held)
    assert len(split_heldout(examples, 0.3, 10, seed=1)[1]) <= 12


def test_a_bound_heldout_samples_every_source(tmp_path: Path) -> None:
    examples = []
    for name in ("first", "second"):
        rows = [{"query": f"{name} q{i}", "positive": "p", "negative": "n"} for i in range(300)]
        examples += read_triplets(_jsonl(tmp_path / f"{name}.jsonl", rows))
    _, held = split_heldout(examples, 0.3, 20, seed=0)
    assert len(held) == 20
    assert {e.query.split()[0] for e in held} == {"first", "second"}
