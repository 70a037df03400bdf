"""JSON Lines reading and writing with errors that name the file and line."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from logir.errors import DataFormatError, LogirError

# a \uD800-\uDFFF escape: JSON may spell half of a surrogate pair, which no UTF-8 text can hold
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def require_file(path: str | Path, what: str = "file") -> Path:
    """Return `path` as a Path, or raise a LogirError if it is not an existing file."""
    p = Path(path)
    if not p.is_file():
        if p.is_dir():
            raise LogirError(f"{what} expected, found a folder: {p}")
        if p.exists():
            raise LogirError(f"{what} is not a regular file: {p}")
        raise LogirError(f"{what} not found: {p}")
    return p


def require_writable(path: str | Path, what: str, folder: bool = False) -> Path:
    """`path` as a Path, or a LogirError when it cannot be written (checked before any work).

    Refused: a file where a folder is expected or the reverse, a missing path whose nearest
    existing parent is not a folder, and a place without write permission.
    """
    p = Path(path)
    if p.exists():
        if folder and not p.is_dir():
            raise LogirError(f"{what} must be a folder, found a file: {p}")
        if not folder and p.is_dir():
            raise LogirError(f"{what} must be a file, found a folder: {p}")
        if not os.access(p, os.W_OK):
            raise LogirError(f"{what} is not writable: {p}")
        return p
    parent = p.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise LogirError(f"{what} cannot be created: {parent} is not a folder ({p})")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise LogirError(f"{what} cannot be created: {parent} is not writable ({p})")
    return p


def text_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of each line of a UTF-8 file; a leading byte order mark is dropped.

    Bytes that are not UTF-8 raise a DataFormatError naming the line and the byte offset, and a
    file that cannot be opened a LogirError naming it.
    """
    try:
        fh = path.open("rb")
    except OSError as exc:
        raise LogirError(f"cannot read {path}: {exc.strerror or exc}") from None
    with fh:
        offset = 0
        for lineno, raw in enumerate(fh, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise DataFormatError(
                    path,
                    lineno,
                    f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at byte offset "
                    f"{offset + exc.start} of the file)",
                ) from None
            if lineno == 1 and line.startswith("\ufeff"):
                line = line[1:]
            offset += len(raw)
            yield lineno, line


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for every non-blank line; a bad line raises DataFormatError."""
    p = require_file(path, "JSONL file")
    for lineno, line in text_lines(p):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problem = exc.msg.removesuffix(" at")  # "Unterminated string starting at"
            raise DataFormatError(
                p, lineno, f"not valid JSON ({problem} at column {exc.colno})"
            ) from None
        except RecursionError:
            raise DataFormatError(p, lineno, "JSON nested too deeply") from None
        except ValueError as exc:  # e.g. an integer with more digits than Python converts
            problem = str(exc).partition(";")[0]
            raise DataFormatError(p, lineno, f"not valid JSON ({problem})") from None
        if not isinstance(obj, dict):
            kind = "a list" if isinstance(obj, list) else type(obj).__name__
            raise DataFormatError(p, lineno, f"expected a JSON object, got {kind}")
        if _SURROGATE_ESCAPE.search(line):
            try:
                json.dumps(obj, ensure_ascii=False).encode("utf-8")
            except UnicodeEncodeError:
                raise DataFormatError(
                    p, lineno, "a \\u escape names half of a surrogate pair (not valid text)"
                ) from None
        yield lineno, obj


def field(obj: dict[str, Any], names: str | tuple[str, ...], path: Path, line: int) -> Any:
    """The first present key of `names` in `obj`; a DataFormatError naming the key if none is."""
    keys = (names,) if isinstance(names, str) else names
    for key in keys:
        if key in obj:
            return obj[key]
    raise DataFormatError(path, line, f"missing field {' or '.join(repr(k) for k in keys)}")


def check_new_id(seen: dict[str, int], value: str, path: Path, line: int, what: str) -> None:
    """Remember that `value` is on `line`; a DataFormatError when an earlier line has it."""
    first = seen.setdefault(value, line)
    if first != line:
        raise DataFormatError(path, line, f"duplicate {what} {value!r} (first on line {first})")


def write_jsonl(path: str | Path, rows: Iterable[dict[str, Any]]) -> None:
    """Write rows as JSON Lines (atomically: a temp file renamed into place)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(p.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    tmp.replace(p)
