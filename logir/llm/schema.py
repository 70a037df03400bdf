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
    out: Schema = {"type": "string"}
    if min_length is not None:
        out["minLength"] = min_length
    if max_length is not None:
        out["maxLength"] = max_length
    return out


def boolean() -> Schema:
    """true or false."""
    return {"type": "boolean"}


def integer(minimum: int | None = None, maximum: int | None = None) -> Schema:
    """An integer, optionally bounded."""
    out: Schema = {"type": "integer"}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    return out


def enum(*values: str) -> Schema:
    """One of ``values``."""
    return {"type": "string", "enum": list(values)}


def array(items: Schema, min_items: int | None = None, max_items: int | None = None) -> Schema:
    """A list of ``items``, optionally of bounded length."""
    out: Schema = {"type": "array", "items": items}
    if min_items is not None:
        out["minItems"] = min_items
    if max_items is not None:
        out["maxItems"] = max_items
    return out


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
