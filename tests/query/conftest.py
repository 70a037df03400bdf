"""Fixtures of the query tests."""

from __future__ import annotations

import pytest

from logir.query.natural import nlp


@pytest.fixture
def no_spacy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force the regex-only path, as on an install without the nlp extra."""
    monkeypatch.setattr(nlp, "load_nlp", lambda: None)
