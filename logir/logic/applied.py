"""What a composer applies to one reading: the text as is, the exclusion formula, or the logic.

``auto`` may rank a query flat even though its logical form has a NOT (the negation states a
property of the answer, not a topic to exclude); :func:`applied` says so, with the reason, for
every front end (``logir search --json``, ``logir parse``, the HTTP API) from one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, get_args

from logir.logic.auto import Exclusion

if TYPE_CHECKING:
    from logir.logic.contract import Composer
    from logir.query.reading import Reading

__all__ = ["APPLIED_KINDS", "Applied", "AppliedKind", "applied"]

AppliedKind = Literal["flat", "exclude", "logic", "rewrite"]
"""``flat``: the text ranked as is; ``exclude``: positive part minus excluded evidence (auto,
exclusion); ``logic``: term scores composed by the logical form (fuzzy, sets, vectors);
``rewrite``: the text rewritten by an LLM (hyde, lamer, inter, agr)."""

APPLIED_KINDS: tuple[str, ...] = get_args(AppliedKind)


@dataclass(frozen=True)
class Applied:
    """How a composer ranks one reading (``kind``, one of :data:`APPLIED_KINDS`) and why."""

    kind: AppliedKind
    reason: str

    def to_dict(self) -> dict[str, str]:
        """``{"applied": kind, "applied_reason": reason}``, as the JSON outputs carry it."""
        return {"applied": self.kind, "applied_reason": self.reason}


def applied(composer: Composer, reading: Reading) -> Applied:
    """What ``composer`` applies to ``reading``, and why (auto's plan for auto and exclusion)."""
    if isinstance(composer, Exclusion):
        plan = composer.plan(reading)
        kind: AppliedKind = "exclude" if plan.kind == "exclude" else "flat"
        return Applied(kind, plan.why)
    if composer.uses_llm:
        return Applied(
            "rewrite",
            f"{composer.name} ranks the text expanded by an LLM (flat when the endpoint fails)",
        )
    if not composer.reads_logical_form:
        return Applied("flat", f"{composer.name} ranks the text as is")
    return Applied("logic", f"{composer.name} composes the term scores by the logical form")
