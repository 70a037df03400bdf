"""What a composer applies to one reading: flat, exclude, logic or rewrite, and why."""

from __future__ import annotations

import pytest

from logir.logic import get_composer
from logir.logic.applied import APPLIED_KINDS, applied
from logir.query.reading import read


@pytest.mark.parametrize(
    ("spec", "text", "mode", "kind", "reason"),
    [
        ("auto", '"a" AND NOT "b"', "syntax", "exclude", "logir syntax"),
        ("auto", "an actor who never won an Oscar", "natural", "flat", "no exclusion cue"),
        ("auto", "vitamin D other than bone health", "natural", "exclude", "excludes a topic"),
        ("auto", "vitamin D", "natural", "flat", "nothing is negated"),
        ("exclusion", "an actor who never won an Oscar", "natural", "exclude", "natural"),
        ("flat", '"a" AND NOT "b"', "syntax", "flat", "as is"),
        ("fuzzy", '"a" AND NOT "b"', "syntax", "logic", "logical form"),
        ("sets", '"a" OR "b"', "syntax", "logic", "logical form"),
    ],
)
def test_applied(spec: str, text: str, mode: str, kind: str, reason: str) -> None:
    found = applied(get_composer(spec), read(text, mode))
    assert found.kind == kind and found.kind in APPLIED_KINDS
    assert reason in found.reason
    assert found.to_dict() == {"applied": kind, "applied_reason": found.reason}
