"""The review server against other sites and bad input: forged form posts, foreign Host
headers, exports that try to leave their root, tokens in URLs, unexpected errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from logir.errors import LogirError
from logir.serve.review import guard
from logir.serve.review.app import create_review_app
from logir.serve.review.export import check_export_name, clean_leftovers
from tests.ports import free_port
from tests.serve.test_review_api import assert_error, label, review_all
from tests.serve.test_review_helpers import live_server, make_folder

EVIL = "https://evil.example"
FORM = {"content-type": "application/x-www-form-urlencoded"}
TEXT = {"content-type": "text/plain"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A live review server and its export root (``tmp_path/exports``)."""
    folder = make_folder(tmp_path / "gen")
    app = create_review_app(folder, tmp_path / "review.sqlite", export_root=tmp_path / "exports")
    with live_server(app) as url:
        yield url, tmp_path / "exports"


@pytest.fixture
def client(server: tuple[str, Path]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server[0], timeout=10) as c:
        yield c


def labels_of(client: httpx.Client) -> dict[str, int]:
    return client.get("/api/review/summary").json()["annotators"]


def test_a_cross_site_form_post_changes_no_label(client: httpx.Client):
    body = "item_id=q1&annotator=mallory&structure_ok=true&evidence_ok=true"
    as_json = '{"item_id": "q1", "annotator": "mallory", "structure_ok": true, "evidence_ok": true}'
    forged = [
        (body, FORM | {"origin": EVIL}),
        (as_json, TEXT | {"origin": EVIL}),
        (as_json, TEXT | {"origin": "null"}),
        (as_json, {"content-type": "application/json", "origin": EVIL}),
        (as_json, TEXT | {"sec-fetch-site": "cross-site"}),
        (as_json, TEXT | {"sec-fetch-site": "same-site"}),
        (as_json, TEXT | {"referer": EVIL + "/page.html"}),
    ]
    for content, headers in forged:
        r = client.post("/api/review/labels", content=content, headers=headers)
        assert_error(r, 403, "refused")
    assert labels_of(client) == {}


def test_state_changes_need_a_json_content_type(client: httpx.Client):
    as_json = '{"item_id": "q1", "annotator": "ann", "structure_ok": true, "evidence_ok": true}'
    for headers in (TEXT, FORM, {"content-type": "multipart/form-data; boundary=x"}, {}):
        r = client.post("/api/review/labels", content=as_json, headers=headers)
        assert_error(r, 415, "application/json")
    r = client.post("/api/review/export", content='{"name": "x"}', headers=TEXT)
    assert_error(r, 415, "application/json")
    assert labels_of(client) == {}
    # the same body as JSON, from the page itself or from no browser, is stored
    own = str(client.base_url).rstrip("/")
    json_ct = {"content-type": "application/json; charset=utf-8"}
    for extra in ({}, {"origin": own}, {"sec-fetch-site": "same-origin"}, {"referer": own + "/"}):
        r = client.post("/api/review/labels", content=as_json, headers=json_ct | extra)
        assert r.status_code == 200, (extra, r.text)
    assert labels_of(client) == {"ann": 1}


def test_a_cross_site_form_post_exports_nothing(client: httpx.Client, server: tuple[str, Path]):
    review_all(client)
    root = server[1]
    for content, headers in [
        ("name=stolen", FORM | {"origin": EVIL}),
        ('{"name": "stolen"}', TEXT | {"origin": EVIL}),
        ('{"name": "stolen"}', {"content-type": "application/json", "origin": EVIL}),
    ]:
        assert_error(client.post("/api/review/export", content=content, headers=headers), 403, "")
    assert list(root.iterdir()) == []


def test_a_foreign_host_is_refused(server: tuple[str, Path], tmp_path: Path):
    url, _ = server
    port = url.rsplit(":", 1)[1]
    for host in ("evil.example", f"evil.example:{port}", "rebind.attacker.test:80", "", "a b"):
        r = httpx.get(url + "/api/review/summary", headers={"host": host})
        assert_error(r, 403, "Host")
        r = httpx.post(url + "/api/review/labels", json=label("q1", "x"), headers={"host": host})
        assert r.status_code == 403
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", "LOCALHOST"):
        assert httpx.get(url + "/api/review/summary", headers={"host": host}).status_code == 200
    # a name given with allowed_hosts (--allow-host) is let in
    folder = make_folder(tmp_path / "other")
    app = create_review_app(folder, tmp_path / "o.sqlite", allowed_hosts=["review.lab.test"])
    with live_server(app) as other:
        r = httpx.get(other + "/api/review/summary", headers={"host": "review.lab.test:8001"})
        assert r.status_code == 200
        r = httpx.get(other + "/api/review/summary", headers={"host": "evil.example"})
        assert r.status_code == 403


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("/tmp/escaped", "absolute path"),
        ("C:\\escaped", "absolute path"),
        ("C:escaped", "absolute path"),
        ("\\\\server\\share", "absolute path"),
        ("~/escaped", "home path"),
        ("..", "'..'"),
        ("../escaped", "one folder name"),
        ("sub/../../escaped", "one folder name"),
        ("a\\..\\..\\escaped", "one folder name"),
        (".hidden", "start with '.'"),
        ("a..b", "'..'"),
        ("bad name", "only letters"),
        ("nul\x00byte", "only letters"),
        ("x" * 101, "longer than"),
        ("", "non-empty string"),
        (5, "non-empty string"),
        (None, "non-empty string"),
    ],
)
def test_export_names_that_could_leave_the_root(
    client: httpx.Client, server: tuple[str, Path], tmp_path: Path, name: object, needle: str
):
    review_all(client)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert_error(client.post("/api/review/export", json={"name": name}), 400, needle)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert list(server[1].iterdir()) == []


def test_a_symlink_cannot_lead_an_export_out(
    client: httpx.Client, server: tuple[str, Path], tmp_path: Path
):
    review_all(client)
    outside = tmp_path / "outside"
    outside.mkdir()
    (server[1] / "link").symlink_to(outside, target_is_directory=True)
    (server[1] / "dangling").symlink_to(tmp_path / "nowhere")
    for name in ("link", "dangling"):
        for overwrite in (False, True):
            r = client.post("/api/review/export", json={"name": name, "overwrite": overwrite})
            assert_error(r, 400, "symbolic link")
    assert list(outside.iterdir()) == [] and not (tmp_path / "nowhere").exists()
    # exporting into the root's own place is fine
    assert client.post("/api/review/export", json={"name": "fine"}).status_code == 200
    assert (server[1] / "fine" / "review.json").is_file()


def test_an_export_root_that_is_a_file_is_refused(tmp_path: Path):
    (tmp_path / "exports").write_text("")
    with pytest.raises(LogirError, match="export root is not a folder"):
        create_review_app(
            make_folder(tmp_path / "gen"), tmp_path / "r.sqlite", export_root=tmp_path / "exports"
        )


def test_leftovers_of_a_killed_export_are_cleaned(tmp_path: Path):
    root = tmp_path / "exports"
    (root / ".kept.old-0123abcd").mkdir(parents=True)  # replaced, successor never arrived
    (root / ".kept.old-0123abcd" / "review.json").write_text("{}")
    (root / "done").mkdir()
    (root / ".done.old-89abcdef").mkdir()  # replaced and the successor is there
    (root / ".half.tmp-00ff00ff").mkdir()  # unfinished
    (root / ".unrelated").mkdir()
    create_review_app(make_folder(tmp_path / "gen"), tmp_path / "r.sqlite", export_root=root)
    assert sorted(p.name for p in root.iterdir()) == [".unrelated", "done", "kept"]
    assert (root / "kept" / "review.json").is_file()
    clean_leftovers(tmp_path / "missing")  # nothing to do


def test_a_failed_export_leaves_the_earlier_one(
    client: httpx.Client, server: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
):
    import logir.serve.review.export as export_module

    review_all(client)
    assert client.post("/api/review/export", json={"name": "acc"}).status_code == 200
    before = (server[1] / "acc" / "review.json").read_text()

    def half(dataset: object, path: Path, split: str) -> None:
        (Path(path) / "corpus.jsonl").parent.mkdir(parents=True)
        (Path(path) / "corpus.jsonl").write_text("half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export_module, "write_beir", half)
    r = client.post("/api/review/export", json={"name": "acc", "overwrite": True})
    assert_error(r, 500, "No space left on device")
    assert (server[1] / "acc" / "review.json").read_text() == before
    assert sorted(p.name for p in server[1].iterdir()) == ["acc"]


def test_errors_are_json_without_internals(
    client: httpx.Client, server: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
):
    import logir.serve.review.app as app_module

    review_all(client)

    def broken(*_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied", "/secret/place")

    monkeypatch.setattr(app_module, "export_accepted", broken)
    r = client.post("/api/review/export", json={"name": "x"})
    assert_error(r, 500, "cannot write export 'x': Permission denied")
    assert "/secret" not in r.text

    def crash(*_: object, **__: object) -> None:
        raise ZeroDivisionError("internal detail")

    monkeypatch.setattr(app_module, "majority", crash)
    r = client.get("/api/review/summary")
    assert_error(r, 500, "internal error")
    assert "internal detail" not in r.text and "ZeroDivision" not in r.text
    assert_error(client.put("/api/review/labels", json={}), 405, "Method Not Allowed")
    assert_error(client.get("/nothing/here"), 404, "Not Found")


def test_responses_carry_protective_headers(client: httpx.Client):
    page = client.get("/review")
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    api = client.get("/api/review/summary")
    assert api.headers["cache-control"] == "no-store"
    assert api.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    ("url", "scheme", "host", "same"),
    [
        ("http://127.0.0.1:8001", "http", "127.0.0.1:8001", True),
        ("http://LOCALHOST:8001/review", "http", "localhost:8001", True),
        ("http://example.org", "http", "example.org:80", True),
        ("https://example.org", "https", "example.org", True),
        ("http://127.0.0.1:8002", "http", "127.0.0.1:8001", False),
        ("https://127.0.0.1:8001", "http", "127.0.0.1:8001", False),
        ("http://evil.example:8001", "http", "127.0.0.1:8001", False),
        ("null", "http", "127.0.0.1:8001", False),
        ("http://[::1]:8001", "http", "[::1]:8001", True),
        ("http://127.0.0.1:99999", "http", "127.0.0.1:8001", False),
        ("http://127.0.0.1:8001", "http", None, False),
    ],
)
def test_same_origin(url: str, scheme: str, host: str | None, same: bool):
    assert guard.same_origin(url, scheme, host) is same


def test_host_names_and_checks():
    names = guard.host_names("127.0.0.1", ["Review.Lab.Test."])
    assert {"localhost", "review.lab.test"} <= names
    assert guard.host_names("box.lab", ()) >= {"box.lab", "localhost"}
    assert guard.host_allowed("review.lab.test:8001", names)
    assert guard.host_allowed("10.1.2.3:8001", names) and guard.host_allowed("[::1]", names)
    assert guard.host_allowed(None, names)
    for host in ("evil.example", "", ":8001", "[bad", "localhost.evil.example"):
        assert not guard.host_allowed(host, names), host
    assert guard.is_json("Application/JSON ; charset=utf-8")
    assert not guard.is_json("application/json-patch+json") and not guard.is_json(None)
    assert guard.session_value("a") != guard.session_value("b")
    assert "a" * 8 not in guard.session_value("a" * 8)


def test_check_export_name_keeps_plain_names():
    for name in ("accepted", "comlq-reviewed", "round_2.v1", "prüfung"):
        assert check_export_name(name) == name


def test_the_cli_puts_no_token_in_a_url(tmp_path: Path):
    folder = make_folder(tmp_path / "gen")
    port = free_port()
    cmd = [sys.executable, "-m", "logir.cli", "review", str(folder), "--port", str(port)]
    cmd += ["--export-root", str(tmp_path / "out")]
    env = dict(os.environ, HF_HUB_OFFLINE="1", LOGIR_REVIEW_TOKEN="tok-SECRET-123")
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            try:
                session = httpx.get(url + "/api/review/session", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "server did not start"
                time.sleep(0.05)
        assert session.json() == {"token_required": True, "logged_in": False}
        assert httpx.get(url + "/api/review/summary?token=tok-SECRET-123").status_code == 401
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert "tok-SECRET-123" not in err and "token=" not in err
    assert f"http://127.0.0.1:{port}/review" in err
    assert f"exports under {(tmp_path / 'out').resolve()}" in err
    assert "$LOGIR_REVIEW_TOKEN" in err
