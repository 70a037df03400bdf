"""logir behind HTTP: the search API, the search explorer and the review page.

``create_app`` is imported lazily so that ``import logir.serve`` (and the ``logir`` command) work
without the ``serve`` extra installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from logir.serve.app import create_app
    from logir.serve.limits import Limits

__all__ = ["Limits", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from logir.serve.app import create_app

        return create_app
    if name == "Limits":
        from logir.serve.limits import Limits

        return Limits
    raise AttributeError(f"module 'logir.serve' has no attribute {name!r}")
