"""JSON Lines reading and writing with errors that name the file and line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from logir.errors import DataFormatError, LogirError


def require_file(path: str | Path, what: str = "file") -> Path:
    """Return `path` as a Path, or raise a LogirError if it is not an existing file."""
    p = Path(path)
    if not p.is_file():
        raise LogirError(f"{what} not found: {p}")
    return p


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for every non-blank line; a bad line raises DataFormatError."""
    p = require_file(path, "JSONL file")
    with p.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataFormatError(p, lineno, f"not valid JSON ({exc.msg})") from None
            if not isinstance(obj, dict):
                raise DataFormatError(p, lineno, "expected a JSON object")
            yield lineno, obj


def field(obj: dict[str, Any], names: str | tuple[str, ...], path: Path, line: int) -> Any:
    """The first present key of `names` in `obj`; a DataFormatError naming the key if none is."""
    keys = (names,) if isinstance(names, str) else names
    for key in keys:
        if key in obj:
            return obj[key]
    raise DataFormatError(path, line, f"missing field {' or '.join(repr(k) for k in keys)}")


def write_jsonl(path: str | Path, rows: Iterable[dict[str, Any]]) -> None:
    """Write rows as JSON Lines (atomically: a temp file renamed into place)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(p.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    tmp.replace(p)
