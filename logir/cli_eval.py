"""What `logir eval`'s options mean once checked: the split asked for and the run depth.

``--split``: ``all`` (default), logir's own ``logir-tune`` / ``logir-test`` split of the queries
(:mod:`logir.data.splits`), or, for a benchmark read from a BEIR folder (beir, scifact, comlq),
the name of a qrels file (``test`` -> ``qrels/test.tsv``, ``dev``, ``train``), as BEIR tools
read it. ``tune`` and ``test`` were the names of logir's own split: ``tune`` still means
``logir-tune``, and so does ``test`` where no qrels file can be chosen, each with a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from logir.data.benchmarks import QRELS_SPLITS
from logir.data.splits import OLD_NAMES, SPLITS, TEST
from logir.errors import LogirError, shorten
from logir.eval.metrics import measure_cutoff
from logir.limits import MAX_K

#: run length when neither -k nor a measure's cutoff asks for another
DEFAULT_HITS = 100


@dataclass(frozen=True)
class SplitChoice:
    """Which qrels file to read (None: the benchmark's default) and which part of its queries."""

    qrels: str | None
    part: str
    notes: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """``the logir-test split``, ``qrels/dev.tsv`` ... for messages."""
        where = [f"qrels/{self.qrels}.tsv"] if self.qrels else []
        if self.part != "all":
            where.append(f"the {self.part} split")
        return ", ".join(where) or "all queries"


def resolve_split(dataset: str, split: str) -> SplitChoice:
    """The meaning of ``--split split`` for benchmark ``dataset`` (see the module docstring)."""
    beir = dataset.strip().lower() in QRELS_SPLITS
    if split in SPLITS:
        return SplitChoice(None, split)
    if split == "test" and beir:
        note = (
            "--split test now reads the BEIR qrels file qrels/test.tsv, as BEIR tools do; "
            f"logir's own deterministic test split (what it meant before) is --split {TEST}"
        )
        return SplitChoice("test", "all", [note])
    if split in OLD_NAMES:
        new = OLD_NAMES[split]
        return SplitChoice(None, new, [f"--split {split} is now --split {new} (same queries)"])
    if beir:
        return SplitChoice(split, "all")
    qrels_note = f"; a qrels file name (test, dev, train) for {', '.join(QRELS_SPLITS)}"
    raise LogirError(
        f"unknown --split {shorten(split)!r} for dataset {dataset}; known: {', '.join(SPLITS)}"
        + qrels_note
    )


def run_depth(
    k: int | None, measures: Sequence[str], defaults: Sequence[str] = ()
) -> tuple[int, str | None]:
    """Hits to rank per query, and a note when a measure's cutoff raised it.

    Without ``k`` the run is DEFAULT_HITS long, or as long as the largest cutoff asked for
    (``R@1000`` ranks 1000); a ``k`` given that is shorter than a cutoff is refused, since that
    measure would silently count only the first ``k`` hits. With no measure asked for, the
    ``defaults`` are used: one whose cutoff passes ``k`` is only noted (``-k 10`` alone works).
    """
    if not measures and k is not None:
        short = [m for m in defaults if (measure_cutoff(m) or 0) > k]
        if short:
            return k, f"{', '.join(short)} counts only the {k} hits ranked per query (-k {k})"
        return k, None
    cutoffs = {m: c for m in measures if (c := measure_cutoff(m)) is not None}
    if not cutoffs:
        return k or DEFAULT_HITS, None
    name, deepest = max(cutoffs.items(), key=lambda item: item[1])
    if deepest > MAX_K:
        raise LogirError(f"-m {name} needs {deepest} hits per query; at most {MAX_K} are ranked")
    if k is not None:
        if k < deepest:
            raise LogirError(
                f"-m {name} needs {deepest} hits per query but -k is {k}: "
                f"raise -k to {deepest} or ask for a smaller cutoff"
            )
        return k, None
    if deepest > DEFAULT_HITS:
        return deepest, f"ranking {deepest} hits per query (not {DEFAULT_HITS}) for -m {name}"
    return DEFAULT_HITS, None
