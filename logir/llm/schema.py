"""Small builders for the JSON schemas tasks send with their requests (``response_format``).

Only what llama.cpp's grammar conversion and OpenAI's structured outputs both take: objects with
required properties and no others, strings, booleans, integers, enums and arrays with bounds.
"""

from __future__ import annotations

from typing import Any

__all__ = ["array", "boolean", "enum", "integer", "obj", "string"]

Schema = dict[str, Any]


def string(min_length: int | None = None, max_length: int | None = None) -> Schema:
    """A string, optionally of bounded length."""
    return _bounded({"type": "string"}, minLength=min_length, maxLength=max_length)


def boolean() -> Schema:
    """true or false."""
    return {"type": "boolean"}


def integer(minimum: int | None = None, maximum: int | None = None) -> Schema:
    """An integer, optionally bounded."""
    return _bounded({"type": "integer"}, minimum=minimum, maximum=maximum)


def enum(*values: str) -> Schema:
    """One of ``values``."""
    return {"type": "string", "enum": list(values)}


def array(items: Schema, min_items: int | None = None, max_items: int | None = None) -> Schema:
    """A list of ``items``, optionally of bounded length."""
    return _bounded({"type": "array", "items": items}, minItems=min_items, maxItems=max_items)


def obj(title: str | None = None, **properties: Schema) -> Schema:
    """An object with exactly ``properties``, all required (``title`` names the schema)."""
    out: Schema = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    if title:
        out = {"title": title, **out}
    return out


def _bounded(schema: Schema, **bounds: int | None) -> Schema:
    """``schema`` with each bound that is given (not None) added under its JSON Schema name."""
    schema.update({k: v for k, v in bounds.items() if v is not None})
    return schema
