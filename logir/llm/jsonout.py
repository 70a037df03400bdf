"""Pull one JSON value out of a model's answer: bare, in a ``` fence, or amid prose."""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["JSONExtractError", "extract_json"]

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\r?\n?(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


class JSONExtractError(ValueError):
    """The answer holds no usable JSON; the message says why, in words a model can act on."""


def _snippet(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _loads(text: str) -> Any:
    """json.loads, retried once with trailing commas removed."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as first:
        fixed = _TRAILING_COMMA.sub(r"\1", text)
        if fixed != text:
            try:
                return json.loads(fixed)
            except json.JSONDecodeError:
                pass
        raise first


def _scan(text: str) -> tuple[Any, json.JSONDecodeError | None]:
    """The first object or array that decodes, scanning from each '{' or '['."""
    decoder = json.JSONDecoder()
    first_error: json.JSONDecodeError | None = None
    for match in re.finditer(r"[\[{]", text):
        start = match.start()
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError as exc:
            end = text.rfind("}" if text[start] == "{" else "]")
            if end > start:
                try:
                    return _loads(text[start : end + 1]), None
                except json.JSONDecodeError:
                    pass
            if first_error is None:
                first_error = exc
            continue
        return value, None
    return None, first_error


def extract_json(answer: str) -> Any:
    """The JSON value in ``answer``.

    Accepts a bare value, the first ```json (or plain ```) fenced block, or the first object or
    array embedded in surrounding text; tolerates trailing commas and ``<think>`` blocks. Raises
    :class:`JSONExtractError` naming what was wrong.
    """
    if not isinstance(answer, str):
        raise JSONExtractError(f"expected text, got {type(answer).__name__}")
    text = _THINK.sub("", answer).strip()
    if not text:
        raise JSONExtractError("the answer is empty; expected a JSON object")
    try:
        return _loads(text)
    except json.JSONDecodeError as exc:
        whole_error: json.JSONDecodeError = exc
    fence_error: json.JSONDecodeError | None = None
    for match in _FENCE.finditer(text):
        body = match.group(2).strip()
        if not body:
            continue
        try:
            return _loads(body)
        except json.JSONDecodeError as exc:
            fence_error = fence_error or exc
    value, scan_error = _scan(text)
    if scan_error is None and value is not None:
        return value
    error = fence_error or scan_error
    if error is None:
        if text[0] not in "{[":
            raise JSONExtractError(
                f"no JSON object or array found in the answer (it starts {_snippet(text)!r})"
            )
        error = whole_error
    raise JSONExtractError(
        f"invalid JSON: {error.msg} at line {error.lineno} column {error.colno} "
        f"(near {_snippet(error.doc[max(0, error.pos - 30) : error.pos + 30])!r})"
    )
