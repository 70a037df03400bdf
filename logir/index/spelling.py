"""Query-side spelling correction for BM25: a word that neither the index nor English knows.

People misspell ("tuberculossis", "exept", "goverment"); an exact-match scorer then finds
nothing for that word, while a dense model half-recovers it from word pieces. A
:class:`Speller` reads such a word as an English word one edit away (a letter inserted,
swapped with its neighbour, substituted or deleted, the first letter kept) whose stem the
index holds, the likeliest by English frequency and the kind of edit (``EDITS``). It leaves
alone every word the index holds, every word an English dictionary knows (a rare real word is
not a typo of a common one: "remit", "strep"), every contraction typed without its apostrophe
("arent", "theyre"), words under five letters, words with digits or other scripts. The choice
depends on the word and the index's vocabulary only, so every shard of an index corrects alike.

The English word list is pyspellchecker's (frequencies from subtitles and Wikipedia), loaded
once per process on the first word that needs it; without the package nothing is corrected.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Callable, Mapping
from typing import Any

from logir.index.tokens import joined

MIN_LETTERS = 5  #: shorter words are never corrected
MAX_LETTERS = 24  #: nor longer ones (no English word to reach; bounds the work per word)
_LETTERS = frozenset(string.ascii_lowercase)
_KEPT = 4096  # words whose verdict a speller keeps
_SENTENCE_END = frozenset(".!?:;\n(")  # a capital after one of these may start a sentence;
# not after a quotation mark: a capital there more often opens a title ('"Burnin' Out"')


@functools.cache
def english() -> Mapping[str, int] | None:
    """English word frequencies (lower case, apostrophes kept: "aren't"), or None when
    pyspellchecker is not installed."""
    try:
        from spellchecker import SpellChecker
    except ImportError:
        return None
    words: Any = SpellChecker(language="en", distance=1).word_frequency.dictionary
    return words


#: the kinds of edit, each with the weight its candidates' English frequencies are multiplied
#: by: people drop a letter ("movment" is "movement", not the far commoner "moment") or swap two
#: more often than they mistype one, and that more often than they add one ("burried")
EDITS = (("insert", 1.0), ("swap", 1.0), ("substitute", 0.2), ("delete", 0.01))


def one_edit(word: str) -> dict[str, float]:
    """Every string one edit of a letter a-z away from ``word`` that keeps its first letter
    (a swap of the first two aside), each with its kind's weight in ``EDITS``. A word of five
    letters gets insertions and swaps only: shorter words are more often abbreviations
    ("govts", "vocab") than typos."""
    out: dict[str, float] = {}
    n = len(word)
    short = n <= MIN_LETTERS
    for (_, weight), made in zip(
        EDITS,
        (
            (word[:i] + c + word[i:] for i in range(1, n + 1) for c in string.ascii_lowercase),
            (word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(n - 1)),
            ()
            if short
            else (
                word[:i] + c + word[i + 1 :] for i in range(1, n) for c in string.ascii_lowercase
            ),
            () if short else (word[:i] + word[i + 1 :] for i in range(1, n)),
        ),
        strict=True,
    ):
        for w in made:
            if w != word:
                out.setdefault(w, weight)
    return out


def names(text: str) -> set[str]:
    """The words of ``text`` (lower-cased) written as names: with a capital letter past a
    sentence's first word ("Bateman", "Stannis"), or in capitals ("NICE"). A name the index
    lacks is not corrected: it is a name the corpus does not hold, not a typo."""
    out: set[str] = set()
    start = True  # at a sentence's first word
    word: list[str] = []
    for ch in text + " ":
        if ch.isalnum() or ch in "'\u2019":
            word.append(ch)
            continue
        if word:
            w = "".join(word)
            if not start and any(c.isupper() for c in w) or sum(c.isupper() for c in w) > 1:
                out.add(joined(w.lower()))
            start = False
            word = []
        if ch in _SENTENCE_END:
            start = True
    return out


def is_contraction(word: str, words: Mapping[str, int]) -> bool:
    """Whether an apostrophe put somewhere inside ``word`` makes an English word ("arent" ->
    "aren't", "whove" -> "who've"): the tokenizer drops apostrophes, people often skip them."""
    return any(word[:i] + "'" + word[i:] in words for i in range(1, len(word)))


class Speller:
    """Corrects the words an index's ``vocab`` lacks; ``stem`` maps words to index tokens."""

    def __init__(self, vocab: Mapping[str, int], stem: Callable[[list[str]], list[str]]) -> None:
        self._vocab = vocab
        self._stem = stem
        self._kept: dict[str, str | None] = {}

    def correct(self, word: str) -> str | None:
        """The English word ``word`` (lower case, a word the index lacks) is read as, or None
        to leave it as it is."""
        if word in self._kept:
            return self._kept[word]
        found = self._correct(word)
        if len(self._kept) >= _KEPT:
            self._kept.clear()
        self._kept[word] = found
        return found

    def _correct(self, word: str) -> str | None:
        if not MIN_LETTERS <= len(word) <= MAX_LETTERS or not set(word) <= _LETTERS:
            return None
        words = english()
        if words is None or word in words or is_contraction(word, words):
            return None
        edits = one_edit(word)
        near = sorted((w for w in edits if w in words), key=lambda w: (-edits[w] * words[w], w))
        if not near:
            return None
        for w, tok in zip(near, self._stem(near), strict=True):
            if tok in self._vocab:
                return w
        return None


def spellers(scorer: Any) -> list[Any]:
    """The scorers inside ``scorer`` (itself, its declared ``parts``, theirs) that correct
    spelling: those with a ``spelling`` switch and ``corrections``."""
    out, todo, seen = [], [scorer], set()
    while todo:
        s = todo.pop()
        if id(s) in seen:
            continue
        seen.add(id(s))
        if hasattr(s, "spelling") and hasattr(s, "corrections"):
            out.append(s)
        todo.extend(getattr(s, "parts", {}).values())
    return out


def set_spelling(scorer: Any, on: bool) -> None:
    """Turn spelling correction on or off in every scorer inside ``scorer``."""
    for s in spellers(scorer):
        s.spelling = on


def corrections(scorer: Any, text: str) -> dict[str, str]:
    """The words of ``text`` that ``scorer`` (or a part of it) reads as another word."""
    out: dict[str, str] = {}
    for s in spellers(scorer):
        out.update(s.corrections(text))
    return out
