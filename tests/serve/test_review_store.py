"""Majority vote, the SQLite review store and the folder's review items."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from logir.errors import LogirError
from logir.serve.review.items import ReviewFolder
from logir.serve.review.store import ReviewStore, count_status
from logir.serve.review.vote import Vote, majority, tally
from tests.serve.test_review_helpers import ANNOTATORS, MAJORITY, PATTERNS, make_folder

Y, N = Vote(True, True), Vote(False, False)


def test_majority_of_required_annotators():
    assert [majority(r) for r in (1, 2, 3, 4, 5)] == [1, 2, 2, 3, 3]
    for bad in (0, -1, True, 2.5):
        with pytest.raises(LogirError, match="annotators per item"):
            majority(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("votes", "status"),
    [
        ([Y, Y, Y], "accepted"),
        ([Y, Y, N], "accepted"),  # 2 of 3
        ([Y, N, N], "rejected"),
        ([N, N, N], "rejected"),
        ([Y, Y], "accepted"),  # the third vote cannot change it
        ([N, N], "rejected"),  # nor here
        ([Y, N], "pending"),  # a tie with one label missing
        ([Y], "pending"),
        ([N], "pending"),
        ([], "pending"),
    ],
)
def test_two_of_three(votes: list[Vote], status: str):
    t = tally(votes, 3)
    assert t.status == status
    assert t.decided == (status != "pending")
    assert (t.labels, t.yes, t.no) == (len(votes), votes.count(Y), votes.count(N))


def test_yes_needs_both_criteria():
    structure_only, evidence_only = Vote(True, False), Vote(False, True)
    t = tally([structure_only, evidence_only, Y], 3)
    assert t.status == "rejected"
    assert (t.yes, t.structure_yes, t.evidence_yes) == (1, 2, 2)
    assert tally([structure_only, Y, Y], 3).status == "accepted"


def test_other_annotator_counts():
    assert tally([Y], 1).status == "accepted"
    assert tally([N], 1).status == "rejected"
    assert tally([Y, N], 2).status == "rejected"
    assert tally([Y, Y, N], 4).status == "pending"  # 3 of 4 still reachable
    assert tally([Y, N, N], 4).status == "rejected"  # 3 of 4 no longer reachable
    assert tally([Y, Y, N, N], 4).status == "rejected"  # a tie of all four
    assert tally([Y, Y, N, N], 3).status == "rejected"  # an extra annotator, tie: not more yes
    assert tally([Y, Y, Y, N, N], 3).status == "accepted"


@pytest.fixture
def folder(tmp_path: Path) -> ReviewFolder:
    return ReviewFolder.load(make_folder(tmp_path / "gen"))


def open_store(folder: ReviewFolder, path: Path, required: int | None = 3) -> ReviewStore:
    store = ReviewStore(path, required)
    store.sync_items(folder.fingerprints(), folder.fingerprint)
    return store


def test_store_majority_set_and_progress(folder: ReviewFolder, tmp_path: Path):
    with open_store(folder, tmp_path / "r.sqlite") as store:
        assert store.item_ids() == ["q1", "q2", "q3", "q4", "q5"]
        for item, votes in PATTERNS.items():
            for name, (s, e) in zip(ANNOTATORS[:2], votes[:2], strict=True):
                store.submit(item, name, s, e)
        # two labels each: q1, q2 accepted already; q3 (1 yes 1 no) pending
        statuses = {i: t.status for i, t in store.tallies().items()}
        assert statuses == {
            "q1": "accepted",
            "q2": "accepted",
            "q3": "pending",
            "q4": "rejected",
            "q5": "pending",
        }
        assert store.progress("cai").as_dict() == {"annotator": "cai", "done": 0, "total": 5}
        assert store.next_item("cai") == "q1"
        for item, votes in PATTERNS.items():
            s, e = votes[2]
            store.submit(item, "cai", s, e)
        assert set(store.accepted()) == MAJORITY
        assert store.next_item("cai") is None
        assert store.annotators() == {"ann": 5, "bob": 5, "cai": 5}
        assert count_status(store.tallies().values()) == {
            "total": 5,
            "decided": 5,
            "accepted": 3,
            "rejected": 2,
            "pending": 0,
        }


def test_resubmission_updates_the_label(folder: ReviewFolder, tmp_path: Path):
    db = tmp_path / "r.sqlite"
    with open_store(folder, db) as store:
        store.submit("q3", "ann", False, False, "unclear")
        store.submit("q3", " ann ", True, True, "fine after all")  # same annotator, trimmed
        labels = store.labels("q3")
        assert len(labels) == 1
        assert (labels[0].structure_ok, labels[0].evidence_ok) == (True, True)
        assert labels[0].comment == "fine after all"
        assert store.progress("ann").done == 1
        assert store.next_item("ann") == "q1"
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT COUNT(*) FROM labels").fetchone()[0] == 1
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_labels_survive_reopening(folder: ReviewFolder, tmp_path: Path):
    db = tmp_path / "r.sqlite"
    with open_store(folder, db, required=1) as store:
        store.submit("q2", "ann", True, False, "evidence sits in one passage")
    with open_store(folder, db, required=None) as store:
        assert store.required == 1  # kept in the database
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        [label] = store.labels()
        assert (label.item_id, label.annotator, label.comment) == (
            "q2",
            "ann",
            "evidence sits in one passage",
        )
        assert store.tally("q2").status == "rejected"


def test_bad_labels_are_refused(folder: ReviewFolder, tmp_path: Path):
    with open_store(folder, tmp_path / "r.sqlite") as store:
        with pytest.raises(LogirError, match="unknown item 'q9'"):
            store.submit("q9", "ann", True, True)
        for name in ("", "   ", None):
            with pytest.raises(LogirError, match="annotator name is empty"):
                store.submit("q1", name, True, True)  # type: ignore[arg-type]
        with pytest.raises(LogirError, match="longer than"):
            store.submit("q1", "x" * 101, True, True)
        assert store.labels() == []


def test_a_changed_labelled_item_needs_a_new_database(folder: ReviewFolder, tmp_path: Path):
    db = tmp_path / "r.sqlite"
    with open_store(folder, db) as store:
        store.submit("q1", "ann", True, True)
    queries = folder.root / "queries.jsonl"
    rows = [json.loads(line) for line in queries.read_text().splitlines()]
    rows[1]["text"] = "An unlabelled query may change"
    rows.append({"_id": "q6", "text": "A new query"})
    queries.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with (folder.root / "qrels" / "test.tsv").open("a") as fh:
        fh.write("q6\td8\t1\n")
    grown = ReviewFolder.load(folder.root)
    with open_store(grown, db) as store:  # q2 changed but has no label; q6 is new
        assert store.item_ids()[-1] == "q6"
        assert len(store.labels()) == 1
    rows[0]["text"] = "Who is the sister of Moses?"
    queries.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(LogirError, match=r"1 labelled item\(s\) changed.*q1"):
        open_store(ReviewFolder.load(folder.root), db)


def test_review_item_payload(folder: ReviewFolder):
    q2 = folder.item("q2")
    assert (q2["type"], q2["answer"], q2["position"], q2["total"]) == (
        "2in",
        ["Sicario", "Dunkirk"],
        1,
        5,
    )
    assert q2["logical_form"].startswith('("Nolan film"')
    by_id = {p["id"]: p for p in q2["passages"]}
    assert [p["id"] for p in q2["passages"]] == ["d3", "d4", "d2"]  # evidence first
    assert by_id["d3"]["evidence"] and by_id["d4"]["evidence"] and not by_id["d2"]["evidence"]
    assert by_id["d2"]["violating"] and by_id["d2"]["grade"] == 0
    assert by_id["d3"]["snippets"] == ["directed Sicario"]
    assert by_id["d3"]["text"].startswith("Denis Villeneuve")
    # evidence as a list of {doc_id, text}; the violating passage is shown, not evidence
    q3 = {p["id"]: p for p in folder.item("q3")["passages"]}
    assert q3["d5"]["evidence"] and q3["d5"]["snippets"] == ["immune system"]
    assert q3["d6"]["violating"] and not q3["d6"]["evidence"]
    # no evidence named: the relevant passages are the evidence
    q4 = folder.item("q4")
    assert [p["evidence"] for p in q4["passages"]] == [True]
    with pytest.raises(KeyError):
        folder.item("q9")


def test_empty_or_missing_folder_is_a_clear_error(tmp_path: Path):
    with pytest.raises(LogirError, match="folder to review not found"):
        ReviewFolder.load(tmp_path / "nope")
    root = make_folder(tmp_path / "gen")
    (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n")
    with pytest.raises(LogirError, match="nothing to review"):
        ReviewFolder.load(root)
