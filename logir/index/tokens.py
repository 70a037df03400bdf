"""How the ``words`` tokenizer (:func:`logir.index.lexical.words`) writes a word with
apostrophes; the spelling corrector (:mod:`logir.index.spelling`) reads words the same way."""

from __future__ import annotations


def joined(tok: str) -> str:
    """A run of word characters as the ``words`` tokenizer keeps it: a final "'s" dropped, the
    other apostrophes joined ("Nolan's" -> "Nolan", "don't" -> "dont")."""
    if tok[-2:] in ("'s", "\u2019s"):
        tok = tok[:-2]
    return tok.replace("'", "").replace("\u2019", "")
