"""The synthesis contract: a pipeline turns a corpus into units, each unit into one item.

The runner (``logir.synth.runner``) owns checkpointing, resume, concurrency and output; a
pipeline only says what the units are (deterministically), how one unit becomes an item with
the LLM, and how the finished items become a BEIR dataset.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from logir.data.dataset import Dataset, Document
from logir.errors import LogirError

if TYPE_CHECKING:
    from logir.llm import ChatClient


@dataclass(frozen=True)
class Unit:
    """One piece of work: ``key`` is deterministic, unique and JSON/filesystem safe;
    ``payload`` is the JSON-serialisable input of ``Pipeline.make``."""

    key: str
    payload: dict[str, Any]


class ItemFailed(LogirError):
    """A unit that cannot become an item (a failed structure or consistency check).

    The message is the reason recorded in the checkpoint; it is not retried in the same run.
    """


@runtime_checkable
class Pipeline(Protocol):
    """A benchmark construction recipe driven by the runner."""

    name: str

    def units(self, corpus: list[Document], seed: int) -> Iterator[Unit]:
        """The units, the same keys in the same order for the same (corpus, seed)."""
        ...

    def make(self, unit: Unit, client: ChatClient) -> dict[str, Any]:
        """One JSON-serialisable item; raise ItemFailed for a content failure and let
        LLMError / LLMOutputError propagate."""
        ...

    def assemble(self, items: list[dict[str, Any]], corpus: list[Document]) -> Dataset:
        """The dataset built from all ok items (in unit order); may add generated documents."""
        ...
