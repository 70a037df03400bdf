"""The one exception type the CLI turns into a one-line message and a non-zero exit."""


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
