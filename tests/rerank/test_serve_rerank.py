"""`logir serve --rerank`: the reader loads once, POST /search gets the reranked hits, and a
request's reranking fields are checked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from logir.rerank import RerankSettings  # noqa: E402
from logir.serve import create_app  # noqa: E402
from logir.serve.live import LiveServer  # noqa: E402
from tests.clirun import logir  # noqa: E402


@pytest.fixture(scope="module")
def urls(index_dir: Path, reader_dir: Path) -> Iterator[tuple[str, str]]:
    settings = RerankSettings(reader_dir, depth=8, weight=1.0)
    with (
        LiveServer(create_app(index_dir, rerank=settings)) as with_reader,
        LiveServer(create_app(index_dir)) as without,
    ):
        yield with_reader.url, without.url


def _post(url: str, **body: Any) -> httpx.Response:
    with httpx.Client(base_url=url, timeout=60) as client:
        return client.post("/search", json={"query": "vitamin d", "composer": "flat", **body})


def test_search_gets_reranked_hits_with_both_parts(urls: tuple[str, str]) -> None:
    reranked, plain = urls
    found = _post(reranked, k=8).json()
    first = _post(plain, k=8).json()
    assert found["rerank"]["depth"] == 8 and found["rerank"]["weight"] == 1.0
    assert first["rerank"] is None
    assert [h["id"] for h in found["hits"]] != [h["id"] for h in first["hits"]]
    assert sorted(h["id"] for h in found["hits"]) == sorted(h["id"] for h in first["hits"])
    assert found["evidence_is_additive"]
    for hit in found["hits"]:
        assert set(hit["evidence"]) == {"first stage", "reader", "below the reranked top N"}
        assert sum(hit["evidence"].values()) == pytest.approx(hit["score"], abs=1e-5)
    off = _post(reranked, k=8, rerank=False).json()
    assert [h["id"] for h in off["hits"]] == [h["id"] for h in first["hits"]]
    weightless = _post(reranked, k=8, rerank_weight=0).json()
    assert [h["id"] for h in weightless["hits"]] == [h["id"] for h in first["hits"]]
    shallow = _post(reranked, k=8, rerank_depth=1).json()
    assert [h["id"] for h in shallow["hits"]] == [h["id"] for h in first["hits"]]


@pytest.mark.parametrize(
    "body",
    [
        {"rerank_depth": 0},
        {"rerank_depth": 1001},
        {"rerank_depth": "3"},
        {"rerank_weight": 1.5},
        {"rerank_weight": -0.1},
        {"rerank": "yes"},
    ],
)
def test_bad_reranking_fields_are_422(urls: tuple[str, str], body: dict[str, Any]) -> None:
    r = _post(urls[0], **body)
    assert r.status_code == 422, r.text
    assert "rerank" in r.json()["error"]


def test_a_server_without_a_reader_refuses_reranking_fields(urls: tuple[str, str]) -> None:
    for body in ({"rerank": True}, {"rerank_depth": 5}, {"rerank_weight": 0.5}):
        r = _post(urls[1], **body)
        assert r.status_code == 400 and "no reader" in r.json()["error"], r.text


def test_info_and_openapi_say_so(urls: tuple[str, str]) -> None:
    with httpx.Client(base_url=urls[0], timeout=60) as client:
        info = client.get("/info").json()
        schema = client.get("/openapi.json").json()
    assert info["rerank"]["depth"] == 8
    request = schema["components"]["schemas"]["SearchRequest"]["properties"]
    assert {"rerank", "rerank_depth", "rerank_weight"} <= set(request)
    response = schema["components"]["schemas"]["SearchResponse"]["properties"]
    assert "reader" in response["rerank"]["description"]


def test_serve_with_a_bad_reader_folder_stops_with_one_error(
    tmp_path: Path, index_dir: Path
) -> None:
    proc = logir("serve", str(index_dir), "--port", "0", "--rerank", str(tmp_path / "none"))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and str(tmp_path / "none") in lines[0]
