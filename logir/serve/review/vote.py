"""Majority vote over the annotators' labels of one item (the ComLQ expert check).

An annotator says yes to an item when it conforms to its intended structure *and* its evidence is
distributed as claimed. With ``required`` annotators, ``required // 2 + 1`` yes votes accept it;
once enough no votes make that impossible it is rejected; otherwise it is pending.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from logir.errors import LogirError

Status = Literal["accepted", "rejected", "pending"]


@dataclass(frozen=True)
class Vote:
    """One annotator's label of one item."""

    structure_ok: bool
    evidence_ok: bool

    @property
    def yes(self) -> bool:
        return self.structure_ok and self.evidence_ok


@dataclass(frozen=True)
class Tally:
    """The votes on one item and the decision they lead to."""

    labels: int
    yes: int
    structure_yes: int
    evidence_yes: int
    required: int
    status: Status

    @property
    def no(self) -> int:
        return self.labels - self.yes

    @property
    def decided(self) -> bool:
        return self.status != "pending"

    def as_dict(self) -> dict[str, object]:
        return {
            "labels": self.labels,
            "yes": self.yes,
            "no": self.no,
            "structure_yes": self.structure_yes,
            "evidence_yes": self.evidence_yes,
            "required": self.required,
            "status": self.status,
        }


def check_required(required: int) -> int:
    """`required` as a validated annotator count (at least 1)."""
    if isinstance(required, bool) or not isinstance(required, int) or required < 1:
        raise LogirError(f"the number of annotators per item must be >= 1, not {required!r}")
    return required


def majority(required: int) -> int:
    """Yes votes needed to accept an item reviewed by `required` annotators (2 of 3)."""
    return check_required(required) // 2 + 1


def tally(votes: Iterable[Vote], required: int = 3) -> Tally:
    """Count the votes and decide: accepted, rejected, or still pending.

    Accepted: at least ``majority(required)`` yes votes and more yes than no. Rejected: not accepted
    and either every required annotator has voted or the remaining ones can no longer reach the
    majority. Extra annotators beyond ``required`` are counted like the others.
    """
    need = majority(required)
    votes = list(votes)
    n = len(votes)
    yes = sum(v.yes for v in votes)
    no = n - yes
    if yes >= need and yes > no:
        status: Status = "accepted"
    elif n >= required or no > required - need:
        status = "rejected"
    else:
        status = "pending"
    return Tally(
        labels=n,
        yes=yes,
        structure_yes=sum(v.structure_ok for v in votes),
        evidence_yes=sum(v.evidence_ok for v in votes),
        required=required,
        status=status,
    )
