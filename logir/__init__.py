"""logir: retrieval that obeys the logic of a query."""

from logir.errors import LogirError

__version__ = "0.1.0"
__all__ = ["LogirError", "__version__"]
