"""LLM-driven benchmark construction: resumable, checkpointed pipelines that write BEIR folders.

A pipeline (:class:`logir.synth.base.Pipeline`) is named in :data:`PIPELINES` and imported only
when asked for; :func:`logir.synth.runner.run_synthesis` runs one.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from logir.errors import LogirError
from logir.synth.base import ItemFailed, Pipeline, Unit

__all__ = ["PIPELINES", "ItemFailed", "Pipeline", "Unit", "get_pipeline", "pipeline_class"]

PIPELINES: dict[str, str] = {
    "comlq": "logir.synth.comlq:ComLQPipeline",
    "boolquestions": "logir.synth.boolquestions:BoolQuestionsPipeline",
    "multiconir": "logir.synth.multiconir:MultiConIRPipeline",
    "itlr": "logir.synth.itlr:ITLRPipeline",
}


def pipeline_class(kind: str) -> type:
    """The class registered as `kind` (imported now)."""
    target = PIPELINES.get(kind.strip().lower())
    if target is None:
        raise LogirError(f"unknown synth kind {kind!r}; known: {', '.join(PIPELINES)}")
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise LogirError(f"synth kind {kind!r} is not available ({module_name} missing)") from None
    return getattr(module, attr)


def pipeline_options(kind: str) -> dict[str, Any]:
    """A pipeline's keyword options and defaults (``inspect.Parameter.empty`` if none)."""
    params = inspect.signature(pipeline_class(kind)).parameters
    return {
        name: p.default
        for name, p in params.items()
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    }


def get_pipeline(kind: str, **options: Any) -> Pipeline:
    """An instance of the pipeline `kind` built with `options`; a LogirError names a bad option."""
    cls = pipeline_class(kind)
    known = pipeline_options(kind)
    unknown = sorted(set(options) - set(known))
    if unknown:
        listed = ", ".join(known) or "none"
        raise LogirError(
            f"unknown option(s) for synth {kind}: {', '.join(unknown)}; known: {listed}"
        )
    return cls(**options)
