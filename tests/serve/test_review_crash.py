"""Killing `logir review` mid-review loses no label the server had acknowledged."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from logir.serve.review.store import ReviewStore
from tests.ports import free_port
from tests.serve.test_review_helpers import ANNOTATORS, PATTERNS, make_folder, wait_ready


def start_server(folder: Path, db: Path, port: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "logir.cli", "review", str(folder), "--db", str(db)]
    return subprocess.Popen(
        [*cmd, "--port", str(port)],
        env=dict(os.environ, HF_HUB_OFFLINE="1"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def kill(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.stderr is not None
    proc.stderr.close()


def test_sigkill_loses_no_acknowledged_label(tmp_path: Path):
    folder = make_folder(tmp_path / "gen")
    db = tmp_path / "labels.sqlite"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start_server(folder, db, port)
    acknowledged: dict[tuple[str, str], tuple[bool, bool, str]] = {}
    try:
        wait_ready(url, proc)

        def label_all(i: int) -> list[tuple[tuple[str, str], tuple[bool, bool, str]]]:
            name, done = ANNOTATORS[i], []
            with httpx.Client(base_url=url, timeout=10) as c:
                for item, votes in PATTERNS.items():
                    s, e = votes[i]
                    body = {"item_id": item, "annotator": name, "structure_ok": s}
                    body |= {"evidence_ok": e, "comment": f"{name} on {item}"}
                    r = c.post("/api/review/labels", json=body)
                    assert r.status_code == 200, r.text
                    done.append(((item, name), (s, e, f"{name} on {item}")))
            return done

        # three annotators at once, then one changes her mind; kill right after the last answer
        with ThreadPoolExecutor(3) as pool:
            for done in pool.map(label_all, range(3)):
                acknowledged.update(done)
        body = {"item_id": "q4", "annotator": "ann", "structure_ok": True, "evidence_ok": True}
        r = httpx.post(url + "/api/review/labels", json=body | {"comment": "changed"})
        assert r.status_code == 200
        acknowledged[("q4", "ann")] = (True, True, "changed")
    finally:
        kill(proc)
    assert proc.returncode == -signal.SIGKILL
    assert Path(str(db) + "-wal").is_file()  # the labels were still in the write-ahead log

    proc = start_server(folder, db, port)
    try:
        wait_ready(url, proc)
        summary = httpx.get(url + "/api/review/summary").json()
        assert summary["annotators"] == {name: 5 for name in ANNOTATORS}
        q4 = httpx.get(url + "/api/review/items/q4", params={"annotator": "ann"}).json()
        assert q4["label"]["comment"] == "changed"
        assert httpx.get(url + "/api/review/items?annotator=cai").json()["item"] is None
    finally:
        kill(proc)

    with ReviewStore(db) as store:
        stored = {
            (lab.item_id, lab.annotator): (lab.structure_ok, lab.evidence_ok, lab.comment)
            for lab in store.labels()
        }
    assert stored == acknowledged
    assert len(stored) == len(PATTERNS) * len(ANNOTATORS)
