"""The logir HTTP app: ``POST /search``, ``POST /parse``, ``GET /healthz``, ``GET /info``, the
search explorer at ``/`` and the OpenAPI page at ``/docs``.

The index is opened once; the default scorer loads at start, others on first use, and all are
kept. Reading and composing queries is CPU work on scorers that are not thread-safe, so it runs on
one worker thread (:mod:`logir.serve.worker`), never on the event loop: ``/healthz`` and ``/info``
answer while a search runs. Each request gets an answer within ``Limits.request_timeout_s``
seconds, a 503 when the work is not done by then or too many requests wait. (No ``from
__future__ import annotations`` here: FastAPI reads the endpoints' body types at runtime.)
"""

import threading
import weakref
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from logir.errors import LogirError
from logir.index.base import Scorer
from logir.index.store import Index, open_index
from logir.llm.client import ChatClient
from logir.logic import Composer, composers, get_composer
from logir.logic.registry import additive_composers, uses_llm
from logir.query import Not, Query, Reading, Term, negated_terms, read, terms, to_dict
from logir.rerank.settings import RerankSettings
from logir.searcher import Searcher
from logir.serve import errors
from logir.serve.auth import BearerAuth
from logir.serve.limits import BodyLimit, Limits
from logir.serve.schemas import (
    ErrorBody,
    Health,
    Info,
    ParseResponse,
    SearchResponse,
    request_models,
)
from logir.serve.worker import Worker

STATIC = Path(__file__).parent / "static"
T = TypeVar("T")

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "Malformed body, bad query syntax or composer spec"},
    401: {"model": ErrorBody, "description": "Missing or wrong bearer token"},
    408: {"model": ErrorBody, "description": "The body did not arrive in time"},
    413: {"model": ErrorBody, "description": "Body over the size limit"},
    422: {"model": ErrorBody, "description": "A field of the wrong type or out of its limits"},
    503: {"model": ErrorBody, "description": "Server busy, or the answer took past the deadline"},
}


def n_terms(q: Query) -> int:
    """How many term leaves the logical form has (a repeated term counts each time)."""
    found, todo = 0, [q]
    while todo:  # no recursion: a form nested deep is counted like a flat one
        node = todo.pop()
        if isinstance(node, Term):
            found += 1
        elif isinstance(node, Not):
            todo.append(node.child)
        else:
            todo.extend(node.children)
    return found


class Engine:
    """The opened index (a :class:`~logir.searcher.Searcher`), the lock that guards its scorers
    and the worker that runs the requests' work (``run``)."""

    def __init__(
        self,
        index: Index,
        limits: Limits,
        rerank: RerankSettings | None = None,
        llm: ChatClient | None = None,
        spelling: bool = True,
    ) -> None:
        # the reader, if any, loads here once; ``llm`` writes the logical forms of mode "llm"
        self.searcher = Searcher(index, rerank=rerank, llm=llm, spelling=spelling)
        self.llm = llm
        self.rerank = rerank
        self.index = index
        self.limits = limits
        self.lock = threading.Lock()
        self.default_retriever = self.searcher.default_retriever
        self.retrievers = self.searcher.retrievers
        # find where each document's line starts and load the natural-language reader now (the
        # default scorer is loaded by the Searcher), so that no request pays for them; a hit's
        # document is read when it is returned, never the whole corpus
        index.document(0)
        read("warm up the reader", "natural")
        self.worker = Worker("logir-search", max_waiting=limits.max_waiting)
        weakref.finalize(self, self.worker.close)  # the thread ends with the engine

    async def run(self, job: Callable[[], T]) -> T:
        """``job()`` on the worker thread, within the request deadline (else Unavailable)."""
        return await self.worker.run(job, self.limits.request_timeout_s)

    def check_mode(self, mode: str) -> None:
        """Refuse mode "llm" on a server without an LLM endpoint (before queueing)."""
        if mode == "llm" and self.llm is None:
            raise LogirError(
                "field 'mode': 'llm' asks an LLM for the logical form, and this server has no "
                "LLM endpoint (start it with logir serve --llm-base-url URL)"
            )

    def read(self, text: str, mode: str) -> Reading:
        """``text`` read once; a logical form with more than ``max_terms`` terms is refused."""
        reading = self.searcher.read(text, mode, self.llm)
        found = n_terms(reading.query)
        if found > self.limits.max_terms:
            raise errors.TooManyTerms(
                f"field 'query': its logical form has {found} terms; "
                f"at most {self.limits.max_terms} are allowed"
            )
        return reading

    def parse(self, text: str, mode: str) -> dict[str, Any]:
        with self.lock:
            reading = self.read(text, mode)
        return _reading(reading)

    def rerank_for(
        self, wanted: bool | None, depth: int | None, weight: float | None
    ) -> RerankSettings | None:
        """The second stage one request asks for: the server's reader with the request's depth
        and weight, or None (no reader, or ``rerank: false``); a reranking field sent to a
        server without a reader is refused."""
        if self.rerank is None:
            if wanted or depth is not None or weight is not None:
                raise LogirError(
                    "fields 'rerank', 'rerank_depth', 'rerank_weight': this server has no "
                    "reader (start it with logir serve --rerank DIR)"
                )
            return None
        if wanted is False:
            return None
        return replace(
            self.rerank,
            depth=self.rerank.depth if depth is None else depth,
            weight=self.rerank.weight if weight is None else weight,
        )

    def search(
        self,
        text: str,
        mode: str,
        spec: str,
        k: int,
        retriever: str | None,
        composer: Composer,
        rerank: RerankSettings | None = None,
    ) -> dict[str, Any]:
        """One search with ``composer``, the one ``spec`` names (built before queueing), its
        top hits reread by the reader when ``rerank`` says how."""
        with self.lock:
            found = self.searcher.search(
                self.read(text, mode),
                k=k,
                composer=composer,
                retriever=retriever,
                rerank=rerank if rerank is not None else False,
            )
        return {
            **_reading(found.reading),
            "composer": spec,
            "retriever": found.retriever,
            "k": k,
            "composer_input": text,
            "composer_logical_form": found.logical_form,
            **found.applied.to_dict(),
            "evidence_is_additive": found.additive,
            "explanation": found.explanation,
            "corrections": found.corrections,
            "rerank": _settings(rerank),
            "hits": [h.to_dict() for h in found.hits],
        }


def _settings(rerank: RerankSettings | None) -> dict[str, Any] | None:
    if rerank is None:
        return None
    return rerank.to_dict()


def _json(model: type[BaseModel], content: dict[str, Any]) -> Response:
    """``content`` checked and written as ``model`` (what FastAPI does with a response model),
    here so that it happens on the worker: a thousand hits take a while to write."""
    body = model.model_validate(content).model_dump_json()
    return Response(body, media_type="application/json")


def _reading(r: Reading) -> dict[str, Any]:
    return {
        "query": r.text,
        "mode_used": r.mode_used,
        "fallback": r.fallback,
        "logical_form": str(r.query),
        "tree": to_dict(r.query),
        "terms": [t.text for t in terms(r.query)],
        "negated": [t.text for t in negated_terms(r.query)],
        "spans": {t: list(s) for t, s in r.spans.items()},
        "notes": list(r.notes),
    }


def create_app(
    index_dir: str | Path,
    *,
    token: str | None = None,
    limits: Limits | None = None,
    rerank: RerankSettings | None = None,
    llm: ChatClient | None = None,
    shard: Callable[[Scorer], Scorer] | None = None,
    spelling: bool = True,
) -> FastAPI:
    """The app serving the index at ``index_dir`` (opened once; LogirError when it is not one).

    With ``llm`` a request may ask for ``mode: "llm"`` (the LLM writes the logical form; the
    rules read the query when its form is not used, and the answer's ``fallback`` says why).

    With ``rerank`` a trained reader (loaded now, once) rereads every search's top hits; a
    request may change the depth and weight or turn it off. With ``token`` every route but
    ``/healthz``, the pages, their assets and the API docs needs ``Authorization: Bearer TOKEN``.
    With ``shard`` each scorer is served from shards (``logir serve --ray``: Ray actors).
    ``spelling`` False keeps misspelt query words as typed (:mod:`logir.index.spelling`).
    """
    limits = limits or Limits()
    index = open_index(index_dir)
    index.shard = shard
    engine = Engine(index, limits, rerank, llm, spelling)
    ParseRequest, SearchRequest = request_models(limits)
    app = FastAPI(
        title="logir",
        summary="Retrieval that obeys the logic of a query.",
        description="Search an index with AND / OR / NOT queries; every hit carries the "
        'evidence of each part of the query. Errors are JSON {"error": message}.',
        version="0.1.0",
        docs_url=None,  # FastAPI's page loads Swagger UI from a CDN: ours is served from here
        redoc_url=None,
    )
    app.state.engine = engine
    errors.install(app)
    if token:
        app.add_middleware(BearerAuth, token=token)  # inner: runs after the body cap
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes, timeout_s=limits.body_timeout_s)

    health = {"status": "ok", "n_docs": engine.index.n_docs, "retrievers": engine.retrievers}
    # the LLM rewriters need an endpoint, which a server does not have: only what can run
    offered = sorted(name for name, cls in composers().items() if not cls.uses_llm)

    @app.get("/healthz", response_model=Health, tags=["service"])
    async def healthz() -> dict[str, Any]:
        """Liveness: answered on the event loop, without the scorers or their lock, even while
        a search runs."""
        return health

    @app.get("/info", response_model=Info, responses=_ERRORS, tags=["service"])
    async def info() -> dict[str, Any]:
        """What this server offers: retrievers, the composers it can run (not the LLM
        rewriters: it has no LLM endpoint) and the request limits."""
        return {
            "n_docs": engine.index.n_docs,
            "retrievers": engine.retrievers,
            "default_retriever": engine.default_retriever,
            "composers": offered,
            "additive_composers": [n for n in additive_composers() if n in offered],
            "limits": asdict(limits),
            "auth": bool(token),
            "rerank": _settings(rerank),
            "llm": llm is not None,
        }

    @app.post("/parse", response_model=ParseResponse, responses=_ERRORS, tags=["query"])
    async def parse(body: ParseRequest) -> Response:  # type: ignore[valid-type]
        """Read a query into its logical form (tree, terms, where each came from)."""
        b: Any = body
        engine.check_mode(b.mode)
        return await engine.run(lambda: _json(ParseResponse, engine.parse(b.query, b.mode)))

    @app.post("/search", response_model=SearchResponse, responses=_ERRORS, tags=["query"])
    async def search(body: SearchRequest) -> Response:  # type: ignore[valid-type]
        """Rank the documents for a query; each hit carries the evidence of each part. On a
        server started with a reader (logir serve --rerank DIR) the top hits are reread by it
        and each hit's evidence holds the first-stage and reader parts of its final score."""
        b: Any = body
        if uses_llm(b.composer):
            raise LogirError(
                f"field 'composer': {b.composer.partition(',')[0].strip()!r} rewrites queries "
                f"with an LLM, and this server has no LLM endpoint; it offers: {', '.join(offered)}"
            )
        engine.check_mode(b.mode)
        composer = get_composer(b.composer)  # a bad spec is answered at once, without queueing
        second = engine.rerank_for(b.rerank, b.rerank_depth, b.rerank_weight)

        def work() -> Response:
            found = engine.search(b.query, b.mode, b.composer, b.k, b.retriever, composer, second)
            return _json(SearchResponse, found)

        return await engine.run(work)

    @app.get("/", include_in_schema=False)
    def explorer() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/docs", include_in_schema=False)
    def docs() -> FileResponse:
        """The API page, built in the browser from /openapi.json (nothing from outside)."""
        return FileResponse(STATIC / "docs.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
