"""The API over an index served from shards (in process, and in Ray actors) answers as without."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from logir.data.dataset import Document  # noqa: E402
from logir.index.sharded import LocalShards, ShardedScorer, sharded  # noqa: E402
from logir.index.store import build_index  # noqa: E402
from logir.serve import Limits, create_app  # noqa: E402
from logir.serve.live import LiveServer  # noqa: E402

PASSAGES = [
    "Vitamin D supports bone health and helps the body absorb calcium.",
    "Vitamin D strengthens the immune system against winter infections.",
    "Low vitamin D is linked to depression and low mood in winter.",
    "Osteoporosis weakens bone health; vitamin D and calcium slow it down.",
    "Sunlight on the skin lets the body make its own vitamin D.",
    "Calcium and vitamin K matter for bone density in older adults.",
    "Nolan's Dunkirk is a war film about the evacuation of 1940.",
]
QUERIES = [
    '"vitamin D" AND NOT "bone health"',
    "vitamin D but not winter",
    '"calcium" OR "sunlight"',
]


def _answers(app: Any) -> list[list[tuple[str, float]]]:
    out = []
    with LiveServer(app) as live, httpx.Client(base_url=live.url, timeout=60) as client:
        for q in QUERIES:
            for composer in ("auto", "fuzzy", "flat"):
                r = client.post("/search", json={"query": q, "composer": composer, "k": 5})
                assert r.status_code == 200, r.text
                out.append([(h["id"], h["score"]) for h in r.json()["hits"]])
    return out


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = [Document(id=f"p{i}", text=t) for i, t in enumerate(PASSAGES)]
    return build_index(docs, tmp_path_factory.mktemp("sharded") / "index", retrievers=("bm25",))


def test_local_shards_answer_as_the_whole_index(index_dir: Path) -> None:
    made: list[Any] = []

    def shard(scorer: Any) -> Any:
        made.append(sharded(scorer, 3, LocalShards))
        return made[-1]

    assert _answers(create_app(index_dir, shard=shard)) == _answers(create_app(index_dir))
    assert len(made) == 1 and isinstance(made[0], ShardedScorer) and made[0].shards == 3


def test_ray_actor_shards_answer_as_the_whole_index(index_dir: Path) -> None:
    ray = pytest.importorskip("ray")
    from logir.index.rayshards import RayShards, connect

    connect(num_cpus=1)
    try:
        # (the answers are compared, not timed: a loaded machine may take the Ray actors longer
        # than the default 20 s per request)
        slow = Limits(request_timeout_s=300.0)
        app = create_app(index_dir, shard=lambda s: sharded(s, 2, RayShards), limits=slow)
        assert _answers(app) == _answers(create_app(index_dir, limits=slow))
    finally:
        ray.shutdown()
