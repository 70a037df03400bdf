"""Every error the API answers is JSON ``{"error": message}`` naming the field and the problem."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from logir.errors import LogirError
from logir.query.syntax import QuerySyntaxError
from logir.serve.worker import Unavailable

log = logging.getLogger("logir.serve")


class TooManyTerms(LogirError):
    """A query whose logical form has more terms than the server allows."""


def error_response(status: int, message: str, **extra: Any) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse({"error": message, **extra}, status_code=status, headers=headers)


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return f"{len(value)} characters" if len(value) > 40 else repr(value)
    if isinstance(value, dict | list):
        return f"a JSON {'object' if isinstance(value, dict) else 'array'}"
    if value is None:
        return "null"
    if isinstance(value, bytes):
        return "a body that is not JSON (send Content-Type: application/json)"
    return f"{type(value).__name__} {value!r}" if isinstance(value, bool | int | float) else "?"


def describe(errors: list[dict[str, Any]]) -> tuple[int, str]:
    """A status and one readable message for pydantic's validation errors."""
    messages: list[str] = []
    status = 422
    for e in errors:
        loc = [str(p) for p in e.get("loc", ()) if p != "body"]
        field = ".".join(loc)
        kind = e.get("type", "")
        if kind == "json_invalid":
            status = 400
            reason = (e.get("ctx") or {}).get("error", "invalid JSON")
            messages.append(f"the body is not valid JSON ({reason})")
        elif kind == "missing" and not field:
            status = 400
            messages.append("the request needs a JSON object body")
        elif kind == "missing":
            messages.append(f"field {field!r} is required")
        elif kind == "extra_forbidden":
            messages.append(f"unknown field {field!r}")
        elif not field:
            messages.append(f"the body must be a JSON object, got {_shown(e.get('input'))}")
        else:
            msg = str(e.get("msg", "invalid value"))
            msg = msg.removeprefix("Value error, ")
            msg = msg[:1].lower() + msg[1:]
            got = "" if ", got " in msg else f" (got {_shown(e.get('input'))})"
            messages.append(f"field {field!r}: {msg}{got}")
    return status, "; ".join(messages) or "invalid request"


def install(app: FastAPI) -> None:
    """Register the handlers that turn every failure into ``{"error": ...}``."""

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        status, message = describe(list(exc.errors()))
        return error_response(status, message)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if exc.status_code == 404:
            detail = f"no such path: {request.url.path}"
        elif exc.status_code == 405:
            detail = f"method {request.method} is not allowed on {request.url.path}"
        elif detail == "There was an error parsing the body":  # FastAPI's words for a bad body
            detail = (
                "the body could not be read as JSON (not UTF-8, nested too deep "
                "or a number too long)"
            )
        response = error_response(exc.status_code, detail)
        for key, value in (exc.headers or {}).items():
            response.headers[key] = value
        return response

    @app.exception_handler(QuerySyntaxError)
    async def _syntax(_: Request, exc: QuerySyntaxError) -> JSONResponse:
        return error_response(400, str(exc), column=exc.column)

    @app.exception_handler(TooManyTerms)
    async def _terms(_: Request, exc: TooManyTerms) -> JSONResponse:
        return error_response(422, str(exc))

    @app.exception_handler(Unavailable)
    async def _unavailable(_: Request, exc: Unavailable) -> JSONResponse:
        response = error_response(503, str(exc))
        response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.exception_handler(RecursionError)
    async def _nested(_: Request, exc: RecursionError) -> JSONResponse:
        # only the input's nesting drives recursion this deep: a bad request, not a crash
        log.warning("a query too deeply nested to read: %s", exc)
        return error_response(400, "field 'query': the query is nested too deeply to read")

    @app.exception_handler(LogirError)
    async def _logir(_: Request, exc: LogirError) -> JSONResponse:
        return error_response(400, str(exc))

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return error_response(500, f"internal server error ({type(exc).__name__})")
