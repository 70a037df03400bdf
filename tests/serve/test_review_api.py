"""The review HTTP API on a live uvicorn server; export; the `logir review-export` command."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from logir.data.beir import load_beir
from logir.serve.review.app import create_review_app
from tests.serve.test_review_helpers import (
    ANNOTATORS,
    MAJORITY,
    PATTERNS,
    live_server,
    logir,
    make_folder,
)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return make_folder(tmp_path / "gen")


@pytest.fixture
def client(folder: Path, tmp_path: Path) -> Iterator[httpx.Client]:
    app = create_review_app(folder, tmp_path / "review.sqlite")
    with live_server(app) as url, httpx.Client(base_url=url, timeout=10) as c:
        yield c


@pytest.fixture(scope="module")
def shared_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """One server for the tests that only send requests the server must refuse."""
    root = tmp_path_factory.mktemp("refusals")
    app = create_review_app(make_folder(root / "gen"), root / "review.sqlite")
    with live_server(app) as url, httpx.Client(base_url=url, timeout=10) as c:
        yield c


def label(item: str, annotator: str, s: bool = True, e: bool = True, **extra: object) -> dict:
    return {"item_id": item, "annotator": annotator, "structure_ok": s, "evidence_ok": e, **extra}


def review_all(client: httpx.Client) -> None:
    for item, votes in PATTERNS.items():
        for name, (s, e) in zip(ANNOTATORS, votes, strict=True):
            r = client.post("/api/review/labels", json=label(item, name, s, e))
            assert r.status_code == 200, r.text


def assert_error(r: httpx.Response, status: int, needle: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"}
    assert needle in body["error"], body


def test_page_and_static_files(client: httpx.Client):
    page = client.get("/review")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert 'src="review/static/review.js"' in page.text and 'id="summary-view"' in page.text
    for name in ("review.js", "review.css"):
        assert client.get(f"/review/static/{name}").status_code == 200
    assert client.get("/", follow_redirects=False).headers["location"] == "review"


def test_next_item_label_and_progress(client: httpx.Client):
    first = client.get("/api/review/items", params={"annotator": "ann"}).json()
    assert first["item"]["id"] == "q1" and first["label"] is None and first["required"] == 3
    assert first["progress"] == {"annotator": "ann", "done": 0, "total": 5}
    assert [p["id"] for p in first["item"]["passages"]] == ["d0", "d1"]
    r = client.post("/api/review/labels", json=label("q1", "ann", True, False, comment=" one "))
    assert r.status_code == 200
    assert r.json()["label"]["comment"] == "one"
    assert r.json()["progress"]["done"] == 1
    nxt = client.get("/api/review/items", params={"annotator": "ann"}).json()
    assert nxt["item"]["id"] == "q2" and nxt["progress"]["done"] == 1
    # another annotator starts from the beginning; resubmitting updates, not duplicates
    assert client.get("/api/review/items?annotator=bob").json()["item"]["id"] == "q1"
    client.post("/api/review/labels", json=label("q1", "ann", True, True))
    again = client.get("/api/review/items/q1", params={"annotator": "ann"}).json()
    assert again["label"]["evidence_ok"] is True and again["progress"]["done"] == 1


@pytest.mark.parametrize(
    ("body", "status", "needle"),
    [
        (label("q9", "ann"), 404, "unknown item 'q9'"),
        (label("q1", ""), 400, "annotator name is empty"),
        (label("q1", "   "), 400, "annotator name is empty"),
        ({"item_id": "q1", "annotator": "ann", "evidence_ok": True}, 400, "'structure_ok'"),
        (label("q1", "ann", s="yes"), 400, "'structure_ok' must be true or false"),  # type: ignore[arg-type]
        (label("q1", "ann", e=1), 400, "'evidence_ok' must be true or false"),  # type: ignore[arg-type]
        (label("q1", "ann", comment=5), 400, "'comment' must be a string"),
        (label("q1", "ann", verdict="ok"), 400, "unknown field 'verdict'"),
        ({"annotator": "ann", "structure_ok": True, "evidence_ok": True}, 400, "'item_id'"),
        ([label("q1", "ann")], 400, "must be a JSON object"),
        (label("q1", 42), 400, "annotator name is empty"),
    ],
)
def test_bad_label_bodies(shared_client: httpx.Client, body: object, status: int, needle: str):
    assert_error(shared_client.post("/api/review/labels", json=body), status, needle)
    assert shared_client.get("/api/review/summary").json()["annotators"] == {}


def test_other_bad_requests(shared_client: httpx.Client):
    client = shared_client
    assert_error(
        client.post("/api/review/labels", content=b"{not json", headers={"content-type": "x"}),
        400,
        "not valid JSON",
    )
    assert_error(client.get("/api/review/items"), 400, "annotator name is empty")
    assert_error(client.get("/api/review/items/q9?annotator=ann"), 404, "unknown item 'q9'")
    assert_error(client.get("/api/review/nothing"), 404, "Not Found")
    assert_error(client.post("/api/review/labels", content=b"x" * 70_000), 413, "larger than")


def test_summary_counts_votes(client: httpx.Client):
    review_all(client)
    s = client.get("/api/review/summary").json()
    assert (s["total"], s["decided"], s["accepted"], s["rejected"], s["pending"]) == (5, 5, 3, 2, 0)
    assert (s["required"], s["majority"], s["folder"]) == (3, 2, "gen")
    assert s["annotators"] == {"ann": 5, "bob": 5, "cai": 5}
    q3 = next(i for i in s["items"] if i["id"] == "q3")
    assert (q3["labels"], q3["yes"], q3["structure_yes"], q3["evidence_yes"]) == (3, 1, 2, 2)
    assert {i["id"] for i in s["items"] if i["status"] == "accepted"} == MAJORITY


def test_export_writes_the_majority_set(client: httpx.Client, folder: Path, tmp_path: Path):
    out = tmp_path / "accepted"
    assert_error(client.post("/api/review/export", json={"out_dir": str(out)}), 400, "no item")
    review_all(client)
    r = client.post("/api/review/export", json={"out_dir": str(out)})
    assert r.status_code == 200, r.text
    assert sorted(r.json()["accepted_ids"]) == sorted(MAJORITY)
    assert r.json()["accepted"] == 3
    ds, source = load_beir(out), load_beir(folder)
    assert {t.id for t in ds.queries} == MAJORITY
    assert ds.doc_ids == source.doc_ids  # the original corpus
    assert ds.qrels == {q: source.qrels[q] for q in MAJORITY}
    assert ds.violating == {"q2": ["d2"]}
    assert ds.topic("q2").meta == source.topic("q2").meta
    report = json.loads((out / "review.json").read_text())
    assert (report["accepted"], report["required"]) == (3, 3)
    assert len(next(i for i in report["items"] if i["id"] == "q4")["labels"]) == 3
    # exporting again into the same folder replaces the earlier export
    assert client.post("/api/review/export", json={"out_dir": str(out)}).status_code == 200


def test_export_refuses_unsafe_targets(client: httpx.Client, folder: Path, tmp_path: Path):
    review_all(client)
    assert_error(client.post("/api/review/export", json={"out_dir": "rel/dir"}), 400, "absolute")
    assert_error(client.post("/api/review/export", json={}), 400, "'out_dir'")
    assert_error(
        client.post("/api/review/export", json={"out_dir": str(folder)}), 400, "under review"
    )
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    assert_error(client.post("/api/review/export", json={"out_dir": str(busy)}), 400, "not empty")
    assert (busy / "notes.txt").read_text() == "mine"


def test_token_guards_the_api(folder: Path, tmp_path: Path):
    app = create_review_app(folder, tmp_path / "t.sqlite", token="s3cret")
    with live_server(app) as url:
        assert httpx.get(url + "/review").status_code == 200  # the page itself is public
        assert_error(httpx.get(url + "/api/review/summary"), 401, "token")
        bad = httpx.get(url + "/api/review/summary", headers={"X-Review-Token": "nope"})
        assert bad.status_code == 401
        ok = httpx.get(url + "/api/review/summary", headers={"X-Review-Token": "s3cret"})
        assert ok.status_code == 200
        assert httpx.get(url + "/api/review/summary?token=s3cret").status_code == 200


def test_cli_export_then_eval(folder: Path, tmp_path: Path):
    db = tmp_path / "labels.sqlite"
    app = create_review_app(folder, db)
    with live_server(app) as url, httpx.Client(base_url=url) as c:
        review_all(c)
    out = tmp_path / "accepted"
    proc = logir("review-export", str(folder), "--db", str(db), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "3 of 5 items accepted" in proc.stderr
    assert {t.id for t in load_beir(out).queries} == MAJORITY
    proc = logir("eval", "beir", "--data", str(out), "-s", "bm25", "--markdown")
    assert proc.returncode == 0, proc.stderr
    assert "bm25" in proc.stdout and "nDCG@10" in proc.stdout


def test_cli_errors_are_one_line(folder: Path, tmp_path: Path):
    proc = logir("review-export", str(folder), "--out", str(tmp_path / "o"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error: review database not found")
    proc = logir("review", str(tmp_path / "missing"))
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: folder to review not found")
