"""The review web app: the page, the next item for an annotator, labels, summary, export.

Every 4xx answer is JSON ``{"error": message}``. With a token, each ``/api/review`` request must
carry it (header ``X-Review-Token`` or ``?token=``); the page reads it from its own URL.
"""

from __future__ import annotations

import hmac
import json
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from logir.errors import LogirError
from logir.serve.review.export import export_accepted
from logir.serve.review.items import ReviewFolder
from logir.serve.review.store import ReviewStore, clean_annotator, count_status
from logir.serve.review.vote import majority

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024
LABEL_FIELDS = {"item_id", "annotator", "structure_ok", "evidence_ok", "comment"}


class ApiError(Exception):
    """An error answered as JSON ``{"error": message}`` with `status`."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _json_body(request: Request) -> dict[str, Any]:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ApiError(413, f"request body larger than {MAX_BODY} bytes")
    try:
        data = json.loads(body or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ApiError(400, "request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "request body must be a JSON object")
    return data


def _annotator(value: object) -> str:
    try:
        return clean_annotator(value)
    except LogirError as exc:
        raise ApiError(400, str(exc)) from None


def _flag(body: dict[str, Any], name: str) -> bool:
    if name not in body:
        raise ApiError(400, f"field {name!r} is required")
    value = body[name]
    if not isinstance(value, bool):
        raise ApiError(400, f"field {name!r} must be true or false")
    return value


def create_review_app(
    folder: str | Path,
    db_path: str | Path,
    *,
    annotators_required: int = 3,
    token: str | None = None,
) -> FastAPI:
    """The review app for a BEIR `folder`, its progress kept in the SQLite file `db_path`."""
    review = ReviewFolder.load(folder)
    store = ReviewStore(db_path, annotators_required)
    try:
        store.sync_items(review.fingerprints(), review.fingerprint)
    except BaseException:
        store.close()
        raise

    @asynccontextmanager
    async def lifespan(_: FastAPI):  # type: ignore[no-untyped-def]
        yield
        store.close()

    app = FastAPI(
        title="logir review", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    app.state.review_folder = review
    app.state.review_store = store

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message)

    @app.exception_handler(LogirError)
    async def _logir_error(_: Request, exc: LogirError) -> JSONResponse:
        return _error(400, str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(400, f"{where}: {first.get('msg', 'invalid request')}")

    @app.middleware("http")
    async def _check_token(request: Request, call_next):  # type: ignore[no-untyped-def]
        path, prefix = request.url.path, request.scope.get("root_path", "")
        if prefix and path.startswith(prefix):  # mounted inside another app
            path = path[len(prefix) :]
        if token and path.startswith("/api/review"):
            given = request.headers.get("x-review-token") or request.query_params.get("token")
            if not given or not hmac.compare_digest(given.encode(), token.encode()):
                return _error(401, "missing or wrong review token (X-Review-Token header)")
        return await call_next(request)

    def item_answer(item_id: str | None, annotator: str) -> dict[str, Any]:
        label = store.label_of(item_id, annotator) if item_id else None
        return {
            "item": review.item(item_id) if item_id else None,
            "label": label.as_dict() if label else None,
            "progress": store.progress(annotator).as_dict(),
            "required": store.required,
        }

    @app.get("/", include_in_schema=False)
    def root() -> RedirectResponse:
        return RedirectResponse("review")

    @app.get("/review", response_class=HTMLResponse, include_in_schema=False)
    def page() -> HTMLResponse:
        return HTMLResponse((STATIC / "review.html").read_text(encoding="utf-8"))

    app.mount("/review/static", StaticFiles(directory=STATIC), name="review-static")

    @app.get("/api/review/items")
    def next_item(annotator: str = "") -> dict[str, Any]:
        """The first item `annotator` has not labelled (null when done) and their progress."""
        name = _annotator(annotator)
        return item_answer(store.next_item(name), name)

    @app.get("/api/review/items/{item_id}")
    def one_item(item_id: str, annotator: str = "") -> dict[str, Any]:
        """One item with `annotator`'s label of it, to look at or relabel."""
        name = _annotator(annotator)
        if item_id not in review:
            raise ApiError(404, f"unknown item {item_id!r}")
        return item_answer(item_id, name)

    @app.post("/api/review/labels")
    async def submit(request: Request) -> dict[str, Any]:
        """Store one label (a resubmission replaces it); answered once it is on disk."""
        body = await _json_body(request)
        unknown = sorted(set(body) - LABEL_FIELDS)
        if unknown:
            raise ApiError(400, f"unknown field {unknown[0]!r}")
        item_id = body.get("item_id")
        if not isinstance(item_id, str) or not item_id:
            raise ApiError(400, "field 'item_id' must be a non-empty string")
        name = _annotator(body.get("annotator"))
        structure_ok = _flag(body, "structure_ok")
        evidence_ok = _flag(body, "evidence_ok")
        comment = body.get("comment") or ""
        if not isinstance(comment, str):
            raise ApiError(400, "field 'comment' must be a string")
        if item_id not in review:
            raise ApiError(404, f"unknown item {item_id!r}")
        label = await run_in_threadpool(
            store.submit, item_id, name, structure_ok, evidence_ok, comment.strip()
        )
        return {"label": label.as_dict(), "progress": store.progress(name).as_dict()}

    @app.get("/api/review/summary")
    def summary() -> dict[str, Any]:
        """Votes and status per item, counts, and each annotator's progress."""
        tallies = store.tallies()
        labels: dict[str, list[dict[str, object]]] = {}
        for label in store.labels():
            labels.setdefault(label.item_id, []).append(
                {"annotator": label.annotator, "yes": label.vote.yes, "comment": label.comment}
            )
        items = []
        for item_id, t in tallies.items():
            topic = review.dataset.topic(item_id)
            items.append(
                {
                    "id": item_id,
                    "text": topic.text,
                    "type": topic.type,
                    **t.as_dict(),
                    "votes": labels.get(item_id, []),
                }
            )
        root = review.root.resolve()
        return {
            "folder": root.name,
            "required": store.required,
            "majority": majority(store.required),
            **count_status(tallies.values()),
            "annotators": store.annotators(),
            "default_export": str(root.parent / f"{root.name}-reviewed"),
            "items": items,
        }

    @app.post("/api/review/export")
    async def export(request: Request) -> dict[str, Any]:
        """Write the accepted items as a BEIR folder at the absolute path ``out_dir``."""
        body = await _json_body(request)
        out_dir = body.get("out_dir")
        if not isinstance(out_dir, str) or not out_dir.strip():
            raise ApiError(400, "field 'out_dir' must be a non-empty string")
        out = Path(out_dir.strip()).expanduser()
        if not out.is_absolute():
            raise ApiError(400, f"out_dir must be an absolute path, not {out_dir!r}")
        result = await run_in_threadpool(export_accepted, review, store, out)
        return result.as_dict()

    return app
