"""Small pieces shared by the synthesis pipelines: option checks, unit keys, passages in prompts,
and validators for the JSON answers of the LLM (each raises ValueError so chat_json repairs)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

from logir.errors import LogirError

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_KEY_IDS_MAX = 60


# -- options ---------------------------------------------------------------------------------


def int_option(pipeline: str, name: str, value: Any, low: int) -> int:
    """``value`` as an int >= ``low`` (a numeric string from the command line is accepted)."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise LogirError(f"{pipeline} option {name} must be an integer >= {low}, got {value!r}")
    return value


def bool_option(pipeline: str, name: str, value: Any) -> bool:
    """``value`` as a bool (true/false, yes/no, 1/0 strings are accepted)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off"):
        return False
    raise LogirError(f"{pipeline} option {name} must be true or false, got {value!r}")


def list_option(
    pipeline: str, name: str, value: str | Sequence[str], allowed: Sequence[str]
) -> tuple[str, ...]:
    """A comma-separated string (or a list) of names from ``allowed``, duplicates dropped."""
    items = value.split(",") if isinstance(value, str) else list(value)
    names = [str(v).strip().lower() for v in items if str(v).strip()]
    lowered = {a.lower(): a for a in allowed}
    unknown = [n for n in names if n not in lowered]
    if unknown or not names:
        what = f"unknown {', '.join(unknown)}" if unknown else "empty"
        raise LogirError(f"{pipeline} option {name}: {what}; choose from {', '.join(allowed)}")
    return tuple(dict.fromkeys(lowered[n] for n in names))


# -- keys and prompts ------------------------------------------------------------------------


def ids_part(ids: Sequence[str]) -> str:
    """Document ids as a short, filesystem- and JSON-safe piece of a unit key."""
    joined = "+".join(_UNSAFE.sub("_", i) for i in ids)
    if len(joined) <= _KEY_IDS_MAX:
        return joined
    digest = hashlib.sha256("\x00".join(ids).encode("utf-8")).hexdigest()[:10]
    return f"{joined[:_KEY_IDS_MAX]}~{digest}"


def passage_block(doc_id: str, text: str, title: str = "", label: str = "passage id") -> str:
    """One passage as it appears in a prompt: ``[passage id: ID] (title) text``."""
    head = f"[{label}: {doc_id}]"
    return f"{head} ({title}) {text}" if title else f"{head} {text}"


# -- validators ------------------------------------------------------------------------------


def need_object(obj: Any, keys: Sequence[str]) -> dict[str, Any]:
    """``obj`` if it is a JSON object holding every key in ``keys``."""
    if not isinstance(obj, dict):
        raise ValueError(f"expected one JSON object with keys {', '.join(keys)}")
    missing = [k for k in keys if k not in obj]
    if missing:
        raise ValueError(f"the JSON object lacks the key(s) {', '.join(missing)}")
    return obj


def need_text(obj: dict[str, Any], key: str) -> str:
    """``obj[key]`` as a non-empty string with whitespace collapsed."""
    value = obj.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f'"{key}" must be a non-empty string')
    return " ".join(value.split())


def need_yes_no(obj: dict[str, Any], key: str) -> bool:
    """``obj[key]`` read as a verdict: "yes"/"no" (or true/false)."""
    value = obj.get(key)
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower().rstrip(".")
    if text in ("yes", "true"):
        return True
    if text in ("no", "false"):
        return False
    raise ValueError(f'"{key}" must be "yes" or "no", got {value!r}')
