"""Evidence that a passage is about a *kind* of an excluded topic, in words the term never uses.

"Spicy dishes that don't contain meat": chili con carne says "beef", vindaloo "pork", and neither
says "meat"; a dessert with almonds never says "nuts". Neither BM25 nor the passage's cosine with
the term sees it (a whole passage is close to many things). A single word embedded alone lies near
its class: with MiniLM, cos("beef", "meat") is 0.82 and cos("almonds", "nuts") 0.68, against 0.46
for "chickpeas" and 0.48 for "berries" (a related word can be as close: "vegetarian" 0.70 to
"meat"; see BENCHMARKS.md). So the kind evidence of a passage for a term T is

    K_T(d) = min(1, max(0, max_w cos(w, T) - tau) / width)

over the words w the passage *asserts in its lead* and the pairs of adjacent words there (a
topic's name of two words: cos("science fiction", "sci-fi") is 0.82, against 0.62 and 0.57 for
"science" and "fiction" alone; ``pairs``), its first ``LEAD_WORDS`` words with the
title: a passage about beef says so early, while one that names a kind in passing ("it is
vegetarian", "as well as some preventive drugs") tends to do so later, and a mention in a negated
scope ("no meat", "instead of beef") is left out (:mod:`logir.logic.mentions`). The words of T
itself (their evidence is lexical) and those of the query's positive part (a word the query asks
for is no evidence against it) are left out too, the latter with their other forms ("autocratic"
for "autocracies", :func:`variant`: "governance in autocracies (excluding autocracy itself)"). A
form of the term's own word that the analyser does not join to it ("allergy" for "allergic
reactions") counts: it is the term in other words. A passage whose lead defines it by the
term's absence ("Guinness 0.0 is an alcohol-free version of the stout";
``Mentions.opens_negated``) has no kind evidence for that term: the beer it names is the thing
without the alcohol. Each word is embedded alone with the dense scorer's encoder, once per
process (:data:`WORD_CACHE_SIZE`, least recently used out); a passage's words are read with the
lexical scorer's analyser, so stop words are skipped as the index skips them. K depends only on
the passage and the terms, so ``score`` and ``rank`` agree.

A term that names an entity ("Indonesia", "Nevada City", "the role of Set") has no kinds: the
words closest to it are its siblings (a neighbouring country, another god), which a cosine does
not tell from kinds. :func:`names_an_entity` tells the two apart by how the query writes them: a
capitalised word that is not the query's first is a name; "meat", "nuts" and "sci-fi" are not. A
name typed in lower case ("chess world champions besides karpov") is told by how the passages that
match it best write it (:func:`written_as_name`: "Karpov", mid-sentence), and gets no kind
evidence.
"""

from __future__ import annotations

import os
import re
import weakref
from collections.abc import Sequence

import numpy as np

from logir.index.base import DENSE_PART, LEXICAL_PART, Scorer, scorer_parts, scorer_passages
from logir.index.cosine import fixed_dot
from logir.logic.mentions import Analyser, lead_pairs, lead_words, mention_counts, plain_words
from logir.lru import LRU

#: word vectors one dense scorer keeps, least recently used first out (MiniLM: 48 MiB at most)
WORD_CACHE_SIZE = 32_768

#: how far below ``tau`` one word of a pair may come to a term for the pair to be embedded:
#: "science" (0.62 to "sci-fi") and "fiction" (0.57) pass, "director" (0.35) and "French" (0.32)
#: do not
PAIR_MARGIN = 0.1

#: the shortest word read as a kind ("pea" and "ham" are words; "of" and "fi" are not)
MIN_WORD = 3

_WORD = re.compile(r"[^\W\d_]+")

#: a term's words shorter than this say nothing about it being a name ("of", "de")
NAME_WORD = 3

#: the passages, those that match a term best lexically, whose writing of it tells a name
NAME_PASSAGES = 20

_CACHES: weakref.WeakKeyDictionary[object, LRU[str, np.ndarray]] = weakref.WeakKeyDictionary()


def names_an_entity(term: str, query: str = "") -> bool:
    """Whether ``term`` names an entity: one of its words has a capital letter ("Indonesia",
    "iPhone"), other than a capitalised first word of ``query`` met nowhere else in it (a query's
    first word is capitalised whatever it is). Any term written in lower case reads as a common
    noun here, a name typed so ("shakespeare plays but not macbeth") too: :func:`written_as_name`
    tells those apart by the corpus."""
    first = _WORD.search(query)
    opening = first.group(0) if first else ""
    for m in _WORD.finditer(term):
        word = m.group(0)
        if word.islower():
            continue
        if word == opening and word[1:].islower() and query.count(word) == 1:
            continue  # capitalised only because it opens the query
        return True
    return False


def variant(a: str, b: str) -> bool:
    """Whether two lower-case words are forms of one word ("autocracy", "autocratic"; "nut",
    "nuts"): they share all but at most three letters of the shorter, and at least four (a
    word of three letters or less: all of it)."""
    n = min(len(a), len(b))
    return len(os.path.commonprefix([a, b])) >= min(n, max(4, n - 3))


def written_as_name(term: str, texts: Sequence[str]) -> bool:
    """Whether ``texts`` write one of ``term``'s words (of ``NAME_WORD`` letters or more) with a
    capital at least as often as without, counting only mentions inside a sentence (a sentence's
    first word is capitalised whatever it is); False when they never mention it there."""
    words = {w.lower() for w in _WORD.findall(term) if len(w) >= NAME_WORD}
    if not words:
        return False
    upper = dict.fromkeys(words, 0)
    lower = dict.fromkeys(words, 0)
    find = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(words))) + r")\b", re.IGNORECASE)
    for text in texts:
        for m in find.finditer(text):
            word = m.group(0)
            key = _matched_word(word, words)
            if key is None:
                continue
            if word.islower():
                lower[key] += 1
                continue
            head = text[max(0, m.start() - 3) : m.start()].rstrip()
            if head and head[-1] not in '.!?:"\n':  # inside a sentence
                upper[key] += 1
    return any(upper[w] and upper[w] >= lower[w] for w in words)


def _matched_word(found: str, words: set[str]) -> str | None:
    """Which of ``words`` a case-blind match ``found`` spells: its lower case where that is one
    of them, else the one it matches letter for letter ("\u0130mam" lowers to "i\u0307mam", two
    letters for one, yet matches "imam"); None where none does."""
    low = found.lower()
    if low in words:
        return low
    return next((w for w in words if re.fullmatch(re.escape(w), found, re.IGNORECASE)), None)


def readable(scorer: Scorer) -> bool:
    """Whether ``scorer`` can give kind evidence: it has a dense encoder and carries passages."""
    dense = scorer_parts(scorer).get(DENSE_PART, scorer)
    return getattr(dense, "encode_words", None) is not None and scorer_passages(scorer) is not None


def named_in_corpus(scorer: Scorer, terms: Sequence[str]) -> list[bool]:
    """Per term, whether the ``NAME_PASSAGES`` passages that match it best lexically write it as
    a name (:func:`named_in_rows`; all False where the scorer carries no passages)."""
    if scorer_passages(scorer) is None or not terms:
        return [False] * len(terms)
    found, _ = scorer_parts(scorer).get(LEXICAL_PART, scorer).search(list(terms), NAME_PASSAGES)
    return [named_in_rows(scorer, term, found[j]) for j, term in enumerate(terms)]


def named_in_rows(scorer: Scorer, term: str, rows: np.ndarray) -> bool:
    """Whether the passages of ``rows`` (the first ``NAME_PASSAGES``; -1 for none) write
    ``term`` as a name (:func:`written_as_name`); False where the scorer carries no passages."""
    passages = scorer_passages(scorer)
    if passages is None:
        return False
    return written_as_name(term, [passages[int(r)] for r in rows[:NAME_PASSAGES] if r >= 0])


def kind_evidence(
    scorer: Scorer,
    terms: Sequence[str],
    rows: np.ndarray,
    tau: float,
    width: float,
    ignore: str = "",
    named: Sequence[bool] | None = None,
    pairs: bool = True,
) -> np.ndarray | None:
    """``[len(terms), len(rows)]``: each term's kind evidence in each row's passage (module
    docstring: ``tau`` and ``width`` set the ramp), the words of ``ignore`` left out; None where
    the scorer cannot give it (:func:`readable`). A term marked in ``named`` gets none; by
    default those the corpus writes as names (:func:`named_in_corpus`). Like the rest, this does
    not depend on ``rows``, so a row's evidence is the same whatever rows are read with it."""
    if not readable(scorer):
        return None
    dense = scorer_parts(scorer).get(DENSE_PART, scorer)
    passages = scorer_passages(scorer)
    assert passages is not None
    out = np.zeros((len(terms), len(rows)), dtype=np.float32)
    if not len(rows) or not terms or tau >= 1:
        return out
    lexical = scorer_parts(scorer).get(LEXICAL_PART, scorer)
    analyse: Analyser = getattr(lexical, "analyse", None) or plain_words
    skip = {tok for _, tok in analyse(ignore) if tok}
    own = [{tok for _, tok in analyse(t) if tok} for t in terms]
    texts = [passages[int(r)] for r in rows]
    if named is None:
        named = named_in_corpus(scorer, terms)
    if all(named):
        return out
    asked = {w.lower() for w in _WORD.findall(ignore)}
    wanted: dict[str, bool] = {}  # word -> whether it is a form of a wanted word (asked once)

    def unwanted(low: str) -> bool:
        if low not in wanted:
            wanted[low] = any(variant(low, a) for a in asked)
        return not wanted[low]

    # per passage: its lead's units (one token, or two adjacent) -> their words, lower-cased
    by_row: list[dict[tuple[str, ...], str]] = []
    pairs_by_row: list[list[tuple[str, str, str, str]]] = []  # adjacent pairs worth a look
    for text in texts:
        # only a word of the lead can count (``said[tok].lead`` below), so no other is embedded
        lead = {tok for _, tok in lead_words(text, analyse)}
        units: dict[tuple[str, ...], str] = {}
        for word, tok in analyse(text):
            if (tok,) in units or tok not in lead or tok in skip:
                continue
            if len(word) >= MIN_WORD and word.isalpha() and unwanted(word.lower()):
                units[(tok,)] = word.lower()
        by_row.append(units)
        pairs_by_row.append(
            [
                (w, tok, w2, tok2)
                for w, tok, w2, tok2 in (lead_pairs(text, analyse) if pairs else [])
                if tok not in skip and tok2 not in skip and w.isalpha() and w2.isalpha()
                if any(tok not in mine and tok2 not in mine for mine in own)  # a term's own word
                if max(len(w), len(w2)) >= MIN_WORD and unwanted(w) and unwanted(w2)
            ]
        )
    vocab = sorted({w for units in by_row for w in units.values()})
    if not vocab:  # no single word, so no pair either (one of its words must come near)
        return out
    term_vectors = _word_vectors(dense, list(terms))
    cos = fixed_dot(_word_vectors(dense, vocab), term_vectors)  # [words, terms]
    if any(pairs_by_row):  # a pair is embedded only where one of its words comes near a term
        near_word = dict(zip(vocab, cos.max(axis=1), strict=True))
        floor = tau - PAIR_MARGIN
        for units, found in zip(by_row, pairs_by_row, strict=True):
            for w, tok, w2, tok2 in found:
                if max(near_word.get(w, -1.0), near_word.get(w2, -1.0)) >= floor:
                    units.setdefault((tok, tok2), f"{w} {w2}")
        phrases = sorted({p for units in by_row for u, p in units.items() if len(u) == 2})
        if phrases:  # each value is its row's alone (fixed_dot): the singles' rows stand
            cos = np.vstack([cos, fixed_dot(_word_vectors(dense, phrases), term_vectors)])
            vocab = vocab + phrases
    at = {w: i for i, w in enumerate(vocab)}
    near = cos >= tau
    for col, units in enumerate(by_row):
        idx = [at[w] for w in units.values()]
        if not near[idx].any():
            continue
        hits = [unit for unit, w in units.items() if near[at[w]].any()]
        said = mention_counts(
            texts[col], sorted({t for unit in hits for t in unit}.union(*own)), analyse
        )
        for j, mine in enumerate(own):
            if named[j] or any(said[t].opens_negated for t in mine if t in said):
                continue  # a name, or a passage defined by the term's absence ("alcohol-free")
            best = max(
                (
                    float(cos[at[units[unit]], j])
                    for unit in hits
                    if near[at[units[unit]], j]
                    if not any(t in mine for t in unit)
                    if all(t in said and said[t].lead > 0 for t in unit)
                ),
                default=tau,
            )
            out[j, col] = min(1.0, (best - tau) / width)
    return out


def _word_vectors(dense: object, words: list[str]) -> np.ndarray:
    """Unit vectors ``[len(words), dim]`` of words embedded alone, cached per dense scorer."""
    cache = _CACHES.get(dense)
    if cache is None:
        cache = LRU(WORD_CACHE_SIZE)
        _CACHES[dense] = cache
    found = {w: cache.get(w) for w in dict.fromkeys(words)}
    missing = [w for w, v in found.items() if v is None]
    if missing:
        new = np.asarray(dense.encode_words(missing), dtype=np.float32)  # type: ignore[attr-defined]
        for w, v in zip(missing, new, strict=True):
            cache.put(w, v)
            found[w] = v
    return np.stack([found[w] for w in words]).astype(np.float32)
