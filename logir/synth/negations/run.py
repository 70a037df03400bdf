"""One run of `logir synth negations`: read the corpus, find neighbours, generate, write.

The run is a pure function of (corpus, seed, options): passages are visited in an order drawn
from the seed, each generator's choices at a passage come from a random source keyed by (seed,
generator, passage id), and the split is a hash of each item's passages. No LLM, no network.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from logir.data.dataset import Document
from logir.errors import LogirError
from logir.synth.negations import disjunction, swap, title
from logir.synth.negations.analysis import Analysis
from logir.synth.negations.choose import Limits
from logir.synth.negations.context import Context
from logir.synth.negations.item import Item
from logir.synth.negations.neighbours import neighbours
from logir.synth.negations.output import write

#: the generators by name, in the order each passage is offered to them
GENERATORS: dict[str, Callable[[Any, Context], list[Item]]] = {
    title.KIND: title.make,
    swap.KIND: swap.make,
    disjunction.KIND: disjunction.make,
}
#: neighbours kept per passage
NEIGHBOURS = 10

Progress = Callable[[str, int, int], None]


def generate(
    docs: list[Document],
    seed: int = 0,
    max_items: int | None = None,
    kinds: tuple[str, ...] = tuple(GENERATORS),
    limits: Limits | None = None,
    progress: Progress | None = None,
) -> tuple[list[Item], Analysis]:
    """The items of a corpus (at most `max_items` queries), and the corpus as read."""
    unknown = [k for k in kinds if k not in GENERATORS]
    if unknown or not kinds:
        raise LogirError(
            f"unknown negation generator(s) {', '.join(unknown) or '(none given)'}; "
            f"known: {', '.join(GENERATORS)}"
        )
    if max_items is not None and max_items < 1:
        raise LogirError(f"--max-items must be >= 1, got {max_items}")
    if len(docs) < 2:
        raise LogirError(f"negations need at least 2 passages, the corpus has {len(docs)}")
    analysis = Analysis(docs)
    near = neighbours(
        analysis, NEIGHBOURS, (lambda d, t: progress("neighbours", d, t)) if progress else None
    )
    ctx = Context(analysis, near, seed, limits or Limits())
    order = list(range(len(docs)))
    random.Random(seed).shuffle(order)
    items: list[Item] = []
    seen: set[tuple[str, int]] = set()
    for done, i in enumerate(order, start=1):
        p = analysis.passages[i]
        for kind in kinds:
            for item in GENERATORS[kind](p, ctx):
                if (item.query, item.positive) not in seen:
                    seen.add((item.query, item.positive))
                    items.append(item)
        if progress:
            progress("negations", done, len(order))
        if max_items is not None and len(items) >= max_items:
            if progress:
                progress("negations", len(order), len(order))
            break
    return items[:max_items] if max_items is not None else items, analysis


def synthesize(
    docs: list[Document],
    out: str | Path,
    seed: int = 0,
    max_items: int | None = None,
    test_share: float = 0.05,
    kinds: tuple[str, ...] = tuple(GENERATORS),
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Generate the items of `docs` and write them into `out`; returns the summary."""
    if not 0 <= test_share < 1:
        raise LogirError(f"--test-share must be in [0, 1), got {test_share}")
    start = time.perf_counter()
    items, analysis = generate(docs, seed, max_items, kinds, progress=progress)
    if not items:
        raise LogirError(
            f"no exclusion query could be made from these {len(docs)} passages: no two of them "
            "share a phrase while each mentions something the other does not"
        )
    settings = {
        "kind": "negations",
        "seed": seed,
        "max_items": max_items,
        "test_share": test_share,
        "generators": list(kinds),
        "documents": len(docs),
    }
    summary = write(items, analysis, Path(out), seed, test_share, settings)
    summary["seconds"] = round(time.perf_counter() - start, 1)
    return summary
