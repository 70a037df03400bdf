"""The exception type the CLI turns into a one-line message, and how any other failure is told."""

from __future__ import annotations

import json

#: longest error line the CLI prints; longer messages keep their start and end
MAX_MESSAGE_CHARS = 2000


class LogirError(Exception):
    """A user-facing error: bad input, missing file, unknown name.

    The message must say what is wrong and where (file and line, column, field).
    """


class DataFormatError(LogirError):
    """A data file that does not follow its format (names file and line)."""

    def __init__(self, path: object, line: int | None, message: str) -> None:
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {message}")
        self.path = path
        self.line = line


def shorten(text: str, limit: int = 80) -> str:
    """`text` cut to about `limit` characters (start and end kept), for quoting user input."""
    if len(text) <= limit:
        return text
    head = max(limit * 2 // 3, 1)
    tail = max(limit - head - 1, 0)
    return f"{text[:head]}…{text[-tail:] if tail else ''} ({len(text)} characters)"


def one_line(message: str) -> str:
    """`message` on one line: blank lines dropped, the rest joined with " | ", length capped."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    return shorten(" | ".join(lines), MAX_MESSAGE_CHARS) if lines else ""


def _os_message(exc: OSError) -> str:
    reason = (exc.strerror or type(exc).__name__).rstrip(".")
    reason = reason[:1].lower() + reason[1:]
    if exc.filename is not None and exc.filename2 is not None:
        return f"{exc.filename} -> {exc.filename2}: {reason}"
    if exc.filename is not None:
        return f"{exc.filename}: {reason}"
    return reason if exc.strerror else f"{reason}: {exc}"


def describe(exc: BaseException) -> tuple[str, bool]:
    """The message the CLI prints for `exc` and whether the failure is expected (not a bug).

    Known kinds (bad input, files, memory, nesting) name what went wrong; anything else is an
    internal error whose type and message are shown.
    """
    if isinstance(exc, LogirError):
        lines = str(exc).splitlines()
        # a query syntax error draws the query and a caret under its column on its last two
        # lines; the first line already names the column
        if len(lines) >= 3 and set(lines[-1]) <= {" ", "^"} and "^" in lines[-1]:
            lines = lines[:-2]
        return "\n".join(lines), True
    if isinstance(exc, UnicodeDecodeError):
        bad = exc.object[exc.start : exc.start + 1]
        return (
            f"input is not valid {exc.encoding}: byte 0x{bad.hex()} at offset {exc.start} "
            f"({exc.reason})",
            True,
        )
    if isinstance(exc, UnicodeEncodeError):
        bad = exc.object[exc.start : exc.end]
        return (
            f"text cannot be written as {exc.encoding}: {bad!r} at position {exc.start} "
            f"({exc.reason}; was the input valid UTF-8?)",
            True,
        )
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})", True
    if isinstance(exc, RecursionError):
        return "input nested too deeply to process (RecursionError)", True
    if isinstance(exc, MemoryError):
        return "out of memory: the input or a parameter asks for more than this machine has", True
    if isinstance(exc, OSError):
        return _os_message(exc), True
    text = str(exc)
    shown = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return f"internal error: {shown}", False
