"""logir: retrieval that obeys the logic of a query.

``logir.Searcher("my-index").search("vitamin D other than bone health")`` searches an index built
by ``logir index`` (see :mod:`logir.searcher`).
"""

from typing import TYPE_CHECKING, Any

from logir.errors import LogirError

if TYPE_CHECKING:
    from logir.searcher import Searcher

__version__ = "0.1.0"
__all__ = ["LogirError", "Searcher", "__version__"]


def __getattr__(name: str) -> Any:
    if name == "Searcher":  # imported on first use: `import logir` stays light for the CLI
        from logir.searcher import Searcher

        return Searcher
    raise AttributeError(f"module 'logir' has no attribute {name!r}")
