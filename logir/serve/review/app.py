"""The review web app: the page, the next item for an annotator, labels, summary, export.

Every error is JSON ``{"error": message}``. Every request must name an allowed host; every
state-changing one must send JSON from the page's own origin (``guard``). With a token, each
``/api/review`` request must carry it in the ``X-Review-Token`` header or in the cookie that
``POST /api/review/login`` sets; a token in the URL is never accepted. Exports go only under
the export root, by folder name.
"""

from __future__ import annotations

import hmac
import json
import logging
import threading
from collections.abc import Iterable
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
from logir.serve.review import guard
from logir.serve.review.export import ExportExists, clean_leftovers, export_accepted, export_target
from logir.serve.review.items import ReviewFolder
from logir.serve.review.store import ReviewStore, clean_annotator, count_status
from logir.serve.review.vote import majority

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024
LABEL_FIELDS = {"item_id", "annotator", "structure_ok", "evidence_ok", "comment"}
EXPORT_FIELDS = {"name", "overwrite"}
COOKIE = "logir_review"
# answered without a token: the login itself and whether one is needed
OPEN_ROUTES = {"/api/review/login", "/api/review/logout", "/api/review/session"}
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'"
)

INTERNAL = "internal error in the review server (the details are in its log)"

log = logging.getLogger("logir.review")


class ApiError(Exception):
    """An error answered as JSON ``{"error": message}`` with `status`."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _json_body(request: Request) -> dict[str, Any]:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise ApiError(413, f"request body larger than {MAX_BODY} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"request body larger than {MAX_BODY} bytes")
    try:
        data = json.loads(bytes(body) or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
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


def _only(body: dict[str, Any], fields: set[str]) -> None:
    unknown = sorted(set(body) - fields)
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r}")


def default_export_root(db_path: str | Path) -> Path:
    """Where exports go unless ``--export-root`` says otherwise: ``DB-exports`` beside the
    review database (``FOLDER/review-exports`` by default)."""
    db = Path(db_path)
    return db.with_name(db.stem + "-exports")


def create_review_app(
    folder: str | Path,
    db_path: str | Path,
    *,
    annotators_required: int = 3,
    token: str | None = None,
    export_root: str | Path | None = None,
    allowed_hosts: Iterable[str] = (),
) -> FastAPI:
    """The review app for a BEIR `folder`, its progress kept in the SQLite file `db_path`.

    Exports go under `export_root` (default `default_export_root`); besides IP addresses and
    localhost, the Host header may only name one of `allowed_hosts`.
    """
    review = ReviewFolder.load(folder)
    exports = Path(export_root if export_root is not None else default_export_root(db_path))
    exports = exports.expanduser()
    if exports.exists() and not exports.is_dir():
        raise LogirError(f"export root is not a folder: {exports}")
    exports.mkdir(parents=True, exist_ok=True)
    exports = exports.resolve()
    clean_leftovers(exports)
    hosts = guard.host_names("127.0.0.1", allowed_hosts)  # localhost and allowed_hosts
    session = guard.session_value(token) if token else None
    export_lock = threading.Lock()
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
    app.state.export_root = exports

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message)

    @app.exception_handler(ExportExists)
    async def _exists_error(_: Request, exc: ExportExists) -> JSONResponse:
        return _error(409, str(exc))

    @app.exception_handler(LogirError)
    async def _logir_error(_: Request, exc: LogirError) -> JSONResponse:
        return _error(400, str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail), getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(400, f"{where}: {first.get('msg', 'invalid request')}")

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("review: %s %s failed: %s", request.method, request.url.path, type(exc).__name__)
        return _error(500, INTERNAL)

    def refusal(request: Request, path: str) -> JSONResponse | None:
        """The answer to a request that may not go on, or None."""
        headers = request.headers
        if not guard.host_allowed(headers.get("host"), hosts):
            return _error(403, "unknown Host header; start logir review with --allow-host NAME")
        if request.method not in guard.SAFE_METHODS:
            reason = guard.cross_site_reason(headers, request.url.scheme)
            if reason:
                return _error(403, reason)
            if not guard.is_json(headers.get("content-type")):
                return _error(
                    415, "a state-changing request must be Content-Type: application/json"
                )
        guarded = path.startswith("/api/review") and path not in OPEN_ROUTES
        if guarded and not authorised(request):
            if "token" in request.query_params:
                return _error(401, "a token in the URL is not accepted; send X-Review-Token")
            return _error(401, "missing or wrong review token (X-Review-Token header or log in)")
        return None

    def authorised(request: Request) -> bool:
        if not token or not session:
            return True
        given = request.headers.get("x-review-token")
        if given is not None and hmac.compare_digest(given.encode(), token.encode()):
            return True
        cookie = request.cookies.get(COOKIE)
        return cookie is not None and hmac.compare_digest(cookie.encode(), session.encode())

    @app.middleware("http")
    async def _guard(request: Request, call_next):  # type: ignore[no-untyped-def]
        path, prefix = request.url.path, request.scope.get("root_path", "")
        if prefix and path.startswith(prefix):  # mounted inside another app
            path = path[len(prefix) :]
        response = refusal(request, path)
        if response is None:
            try:
                response = await call_next(request)
            except Exception:  # answered here, so the connection stays usable
                log.exception("review: %s %s failed", request.method, path)
                response = _error(500, INTERNAL)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        if path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        elif path == "/review":
            response.headers.setdefault("Content-Security-Policy", PAGE_POLICY)
        return response

    def item_answer(item_id: str | None, annotator: str) -> dict[str, Any]:
        label = store.label_of(item_id, annotator) if item_id else None
        return {
            "item": review.item(item_id) if item_id else None,
            "label": label.as_dict() if label else None,
            "progress": store.progress(annotator).as_dict(),
            "required": store.required,
        }

    @app.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
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
        _only(body, LABEL_FIELDS)
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
        source = review.root.resolve()
        return {
            "folder": source.name,
            "required": store.required,
            "majority": majority(store.required),
            **count_status(tallies.values()),
            "annotators": store.annotators(),
            "export_root": str(exports),
            "default_export": f"{source.name}-reviewed",
            "items": items,
        }

    @app.post("/api/review/export")
    async def export(request: Request) -> dict[str, Any]:
        """Write the accepted items as a BEIR folder ``name`` under the export root; an earlier
        export of that name is replaced only with ``"overwrite": true`` (else 409)."""
        body = await _json_body(request)
        if "out_dir" in body:
            raise ApiError(
                400,
                "field 'out_dir' is not accepted: send 'name', a folder name under the export root",
            )
        _only(body, EXPORT_FIELDS)
        overwrite = body.get("overwrite", False)
        if not isinstance(overwrite, bool):
            raise ApiError(400, "field 'overwrite' must be true or false")
        out = export_target(exports, body.get("name"))

        def run() -> dict[str, Any]:
            with export_lock:
                try:
                    return export_accepted(review, store, out, overwrite=overwrite).as_dict()
                except OSError as exc:
                    log.error("review: export to %s failed: %s", out, exc)
                    raise ApiError(
                        500,
                        f"cannot write export {out.name!r}: {exc.strerror or type(exc).__name__}",
                    ) from None

        return await run_in_threadpool(run)

    @app.get("/api/review/session")
    def session_state(request: Request) -> dict[str, bool]:
        """Whether the API needs a token and whether this browser is logged in."""
        return {"token_required": session is not None, "logged_in": authorised(request)}

    @app.post("/api/review/login")
    async def login(request: Request) -> JSONResponse:
        """Check the token once and set an HttpOnly, SameSite=Strict cookie that stands for it."""
        body = await _json_body(request)
        _only(body, {"token"})
        given = body.get("token")
        if not isinstance(given, str) or not given:
            raise ApiError(400, "field 'token' must be a non-empty string")
        if token is None or session is None:
            return JSONResponse({"token_required": False, "logged_in": True})
        if not hmac.compare_digest(given.encode(), token.encode()):
            raise ApiError(401, "wrong review token")
        response = JSONResponse({"token_required": True, "logged_in": True})
        response.set_cookie(
            COOKIE,
            session,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/",
        )
        return response

    @app.post("/api/review/logout")
    async def logout(request: Request) -> JSONResponse:
        """Forget the login cookie."""
        response = JSONResponse({"logged_in": False})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return response

    return app
