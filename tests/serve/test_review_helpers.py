"""Shared pieces of the review tests: a small generated BEIR folder and a live server.

(Named test_review_* to sit with the review tests; it holds no tests itself.)
"""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from logir.data.beir import write_beir
from logir.data.dataset import Dataset, Document, Topic
from tests.clirun import logir  # noqa: F401  (re-exported for the review tests)
from tests.ports import free_port

ANNOTATORS = ("ann", "bob", "cai")

# item -> each annotator's (structure_ok, evidence_ok); yes means both
PATTERNS: dict[str, tuple[tuple[bool, bool], ...]] = {
    "q1": ((True, True), (True, True), (True, True)),  # 3 yes: accepted
    "q2": ((True, True), (True, True), (False, True)),  # 2 of 3: accepted
    "q3": ((True, True), (True, False), (False, True)),  # 1 of 3: rejected
    "q4": ((False, False), (False, True), (True, True)),  # 1 of 3: rejected
    "q5": ((True, True), (True, False), (True, True)),  # 2 of 3: accepted
}
MAJORITY = {"q1", "q2", "q5"}


def make_folder(root: Path) -> Path:
    """A generated-looking BEIR folder: 5 queries with type, logical form, answer, triplets,
    evidence (in the several shapes pipelines write) and violating passages."""
    corpus = [
        Document(f"d{i}", text, title)
        for i, (title, text) in enumerate(
            [
                ("Moses", "Moses led the Israelites out of Egypt. His brother was Aaron."),
                ("Aaron", "Aaron was the elder brother of Moses and the first high priest."),
                ("Nolan", "Christopher Nolan directed Inception, a science fiction film."),
                ("Villeneuve", "Denis Villeneuve directed Sicario, a crime thriller."),
                ("Dunkirk", "Dunkirk is a war film directed by Christopher Nolan."),
                ("Vitamin D", "Vitamin D supports the immune system and muscle function."),
                ("Bones", "Vitamin D is essential for bone health and calcium uptake."),
                ("Ethanol", "Ethanol is the main alcohol in alcoholic beverages."),
                ("Distractor", "The Danube flows through ten countries."),
            ]
        )
    ]
    queries = [
        Topic(
            "q1",
            "Who is the brother of Moses?",
            type="1p",
            logical_form='"brother of Moses"',
            meta={
                "answer": "Aaron",
                "triplets": [["Moses", "brother", "Aaron"]],
                "evidence": ["d0"],
            },
        ),
        Topic(
            "q2",
            "Which films did Nolan or Villeneuve direct that are not science fiction?",
            type="2in",
            logical_form='("Nolan film" OR "Villeneuve film") AND NOT "science fiction"',
            meta={
                "answer": ["Sicario", "Dunkirk"],
                "triplets": [
                    ["Nolan", "directed", "Dunkirk"],
                    ["Villeneuve", "directed", "Sicario"],
                ],
                "evidence": {
                    "d3": "directed Sicario",
                    "d4": "war film directed by Christopher Nolan",
                },
            },
        ),
        Topic(
            "q3",
            "Benefits of vitamin D other than bone health",
            type="2in_2",
            logical_form='"vitamin D benefits" AND NOT "bone health"',
            meta={"evidence": [{"doc_id": "d5", "text": "immune system"}]},
        ),
        Topic("q4", "What is the main alcohol in beer?", type="1p", meta={"answer": "Ethanol"}),
        Topic("q5", "Who directed Inception?", type="1p", meta={"triplets": "Inception by Nolan"}),
    ]
    qrels = {
        "q1": {"d0": 2, "d1": 1},
        "q2": {"d3": 2, "d4": 2, "d2": 0},
        "q3": {"d5": 2, "d6": 0},
        "q4": {"d7": 2},
        "q5": {"d2": 2},
    }
    violating = {"q2": ["d2"], "q3": ["d6"]}
    return write_beir(Dataset("gen", corpus, queries, qrels, violating), root)


@contextmanager
def live_server(app: object) -> Iterator[str]:
    """Serve an ASGI app with uvicorn in a background thread; yields its base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)




def wait_ready(url: str, proc: subprocess.Popen[bytes] | None = None, timeout: float = 30) -> None:
    """Poll the review summary until the server answers (fails early if `proc` died)."""
    deadline = time.monotonic() + timeout
    while True:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with code {proc.returncode}")
        try:
            if httpx.get(url + "/api/review/summary", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"server at {url} not ready after {timeout}s")
        time.sleep(0.05)
