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
    as_json = {"content-type": "application/json"}
    assert_error(
        client.post("/api/review/labels", content=b"{not json", headers=as_json),
        400,
        "not valid JSON",
    )
    assert_error(client.get("/api/review/items"), 400, "annotator name is empty")
    assert_error(client.get("/api/review/items/q9?annotator=ann"), 404, "unknown item 'q9'")
    assert_error(client.get("/api/review/nothing"), 404, "Not Found")
    big = client.post("/api/review/labels", content=b"x" * 70_000, headers=as_json)
    assert_error(big, 413, "larger than")
    assert_error(client.get("/review/static/nothing.js"), 404, "Not Found")
    assert_error(client.delete("/api/review/summary", headers=as_json), 405, "Not Allowed")
    assert_error(client.get("/api/review/items?annotator=" + "x" * 200), 400, "longer than")


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
    root = tmp_path / "review-exports"  # the default: beside the database
    out = root / "accepted"
    assert_error(client.post("/api/review/export", json={"name": "accepted"}), 400, "no item")
    review_all(client)
    assert client.get("/api/review/summary").json()["export_root"] == str(root.resolve())
    r = client.post("/api/review/export", json={"name": "accepted"})
    assert r.status_code == 200, r.text
    assert sorted(r.json()["accepted_ids"]) == sorted(MAJORITY)
    assert r.json()["accepted"] == 3
    assert (r.json()["name"], r.json()["out_dir"]) == ("accepted", str(out.resolve()))
    ds, source = load_beir(out), load_beir(folder)
    assert {t.id for t in ds.queries} == MAJORITY
    assert ds.doc_ids == source.doc_ids  # the original corpus
    assert ds.qrels == {q: source.qrels[q] for q in MAJORITY}
    assert ds.violating == {"q2": ["d2"]}
    assert ds.topic("q2").meta == source.topic("q2").meta
    report = json.loads((out / "review.json").read_text())
    assert (report["accepted"], report["required"]) == (3, 3)
    assert len(next(i for i in report["items"] if i["id"] == "q4")["labels"]) == 3
    # an earlier export is replaced only when asked to; nothing temporary is left behind
    (out / "review.json").write_text("{}")
    again = client.post("/api/review/export", json={"name": "accepted"})
    assert_error(again, 409, "exists already")
    assert (out / "review.json").read_text() == "{}"
    again = client.post("/api/review/export", json={"name": "accepted", "overwrite": True})
    assert again.status_code == 200, again.text
    assert json.loads((out / "review.json").read_text())["accepted"] == 3
    assert sorted(p.name for p in root.iterdir()) == ["accepted"]


def test_export_refuses_unsafe_targets(client: httpx.Client, folder: Path, tmp_path: Path):
    review_all(client)
    root = tmp_path / "review-exports"
    assert_error(client.post("/api/review/export", json={}), 400, "non-empty string")
    assert_error(
        client.post("/api/review/export", json={"out_dir": str(tmp_path / "x")}), 400, "'name'"
    )
    assert_error(
        client.post("/api/review/export", json={"name": "x", "overwrite": "yes"}),
        400,
        "'overwrite' must be true or false",
    )
    busy = root / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    for overwrite in (False, True):
        r = client.post("/api/review/export", json={"name": "busy", "overwrite": overwrite})
        assert_error(r, 400, "not empty")
    assert [p.name for p in busy.iterdir()] == ["notes.txt"]
    (root / "file").write_text("")
    assert_error(client.post("/api/review/export", json={"name": "file"}), 400, "is a file")
    assert not (tmp_path / "x").exists()


def test_token_guards_the_api(folder: Path, tmp_path: Path):
    app = create_review_app(folder, tmp_path / "t.sqlite", token="s3cret")
    with live_server(app) as url:
        assert httpx.get(url + "/review").status_code == 200  # the page itself is public
        assert_error(httpx.get(url + "/api/review/summary"), 401, "token")
        bad = httpx.get(url + "/api/review/summary", headers={"X-Review-Token": "nope"})
        assert bad.status_code == 401
        ok = httpx.get(url + "/api/review/summary", headers={"X-Review-Token": "s3cret"})
        assert ok.status_code == 200
        # never in the URL
        in_url = httpx.get(url + "/api/review/summary?token=s3cret")
        assert_error(in_url, 401, "not accepted")
        in_url = httpx.get(url + "/api/review/items?annotator=ann&token=s3cret")
        assert_error(in_url, 401, "not accepted")


def test_login_sets_a_cookie_that_stands_for_the_token(folder: Path, tmp_path: Path):
    app = create_review_app(folder, tmp_path / "t.sqlite", token="s3cret")
    with live_server(app) as url, httpx.Client(base_url=url, timeout=10) as c:
        assert c.get("/api/review/session").json() == {
            "token_required": True,
            "logged_in": False,
        }
        assert_error(c.post("/api/review/login", json={"token": "nope"}), 401, "wrong")
        assert_error(c.post("/api/review/login", json={}), 400, "'token'")
        assert not c.cookies
        assert c.get("/api/review/summary").status_code == 401
        r = c.post("/api/review/login", json={"token": "s3cret"})
        assert r.status_code == 200, r.text
        cookie = r.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
        assert "s3cret" not in cookie
        assert c.get("/api/review/session").json()["logged_in"] is True
        assert c.get("/api/review/summary").status_code == 200
        r = c.post("/api/review/labels", json=label("q1", "ann"))
        assert r.status_code == 200, r.text
        # a forged cookie does not pass; logging out forgets the real one
        forged = httpx.get(url + "/api/review/summary", cookies={"logir_review": "s3cret"})
        assert forged.status_code == 401
        assert c.post("/api/review/logout", json={}).status_code == 200
        assert c.get("/api/review/summary").status_code == 401


def test_without_a_token_login_is_a_no_op(client: httpx.Client):
    assert client.get("/api/review/session").json() == {
        "token_required": False,
        "logged_in": True,
    }
    r = client.post("/api/review/login", json={"token": "anything"})
    assert r.status_code == 200 and "set-cookie" not in r.headers


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
