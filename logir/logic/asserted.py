"""How much of a passage's match with a term is asserted rather than negated.

The exclusion composer penalises a passage by its evidence for an excluded term. A passage that
names the term only to deny it ("no coffee in it", "instead of espresso", "unlike triptans") is
not about it, so its evidence is scaled by the *asserted share* of its mentions (see
:mod:`logir.logic.mentions` for what counts as negated):

    share(d) = sum_k c_k(d) * r_k(d) / sum_k c_k(d),   r_k = sat(tf_k - neg_k) / sat(tf_k)

over the term's index tokens k, where c_k(d) is token k's BM25 contribution to d (its weight: a
rare word of the term counts more than a common one; 1 per token mentioned where the scorer has
no lexical part), tf_k its occurrences in d, neg_k those in a negated scope, and
sat(x) = x / (x + k1) BM25's saturation of a term frequency: one asserted mention among three
keeps most of the evidence, as it would in BM25. A passage that does not spell the term, or a
scorer that carries no passages, keeps its evidence whole (share 1). A passage whose first
mention of a token is negated by an affix in its lead ("Non-alcoholic IPA ...", "Guinness 0.0 is
an alcohol-free version ...") is about the thing's absence: none of its mentions of that token
count ("... the alcohol removed by cold filtration"). The share depends only on
the passage and the term, so ``score`` and ``rank`` agree.
"""

from __future__ import annotations

import numpy as np

from logir.index.base import LEXICAL_PART, Scorer, scorer_parts, scorer_passages
from logir.logic.mentions import Analyser, Mentions, mention_counts, plain_words

#: BM25's k1 where the lexical scorer does not say its own
DEFAULT_K1 = 1.2


def asserted_share(
    scorer: Scorer, terms: list[str], rows: np.ndarray, passing: float = 1.0
) -> np.ndarray:
    """``[len(terms), len(rows)]``: each term's asserted share in each row's passage (1 where
    the passage is not at hand or does not spell the term)."""
    out = np.ones((len(terms), len(rows)), dtype=np.float32)
    passages = scorer_passages(scorer)
    if passages is None or not len(rows) or not terms:
        return out
    lexical = scorer_parts(scorer).get(LEXICAL_PART, scorer)
    analyse: Analyser = getattr(lexical, "analyse", None) or plain_words
    weighed = analyse is not plain_words
    k1 = float(getattr(lexical, "params", {}).get("k1", DEFAULT_K1))
    words = [_token_words(analyse, t) for t in terms]  # token -> a word of the term giving it
    every = {tok for w in words for tok in w}
    if not every:
        return out
    read: dict[int, dict[str, Mentions]] = {}  # column -> its passage's mentions, read once

    def mentions(col: int) -> dict[str, Mentions]:
        if col not in read:
            read[col] = mention_counts(passages[int(rows[col])], every, analyse)
        return read[col]

    for j, by_token in enumerate(words):
        if not by_token:
            continue
        tokens = list(by_token)
        if weighed:  # a passage without any token of the term has no evidence to scale
            c = lexical.score([by_token[t] for t in tokens], rows).astype(np.float64)
            cols = np.flatnonzero(c.sum(axis=0) > 0)
        else:
            spelled = [any(t in passages[int(r)].lower() for t in tokens) for r in rows]
            cols = np.flatnonzero(spelled)
            c = np.zeros((len(tokens), len(rows)))
            for col in cols:
                c[:, col] = [1.0 if t in mentions(col) else 0.0 for t in tokens]
        r = np.ones_like(c)
        for col in cols:
            cnt = mentions(int(col))
            for i, t in enumerate(tokens):
                m = cnt.get(t)
                if m is None:
                    continue
                kept = 0.0 if m.opens_negated else float(m.asserted)
                if m.asserted == 1 and not m.lead:  # one mention, outside the lead: in passing
                    kept *= passing
                if kept < m.total:
                    r[i, col] = _sat(kept, k1) / _sat(m.total, k1)
        total = c.sum(axis=0)
        share = np.divide((c * r).sum(axis=0), total, out=np.ones(len(rows)), where=total > 0)
        out[j] = share
    return out


def asserted_in_lead(scorer: Scorer, terms: list[str], rows: np.ndarray) -> np.ndarray:
    """``[len(terms), len(rows)]``: whether each row's passage asserts every index token of the
    term within its lead (``Mentions.lead``), none of them defining the passage by its absence
    ("Guinness 0.0 is an alcohol-free stout ..."); False where the passage is not at hand."""
    out = np.zeros((len(terms), len(rows)), dtype=bool)
    passages = scorer_passages(scorer)
    if passages is None or not len(rows) or not terms:
        return out
    lexical = scorer_parts(scorer).get(LEXICAL_PART, scorer)
    analyse: Analyser = getattr(lexical, "analyse", None) or plain_words
    tokens = [list(_token_words(analyse, t)) for t in terms]
    every = {tok for toks in tokens for tok in toks}
    if not every:
        return out
    for col, r in enumerate(rows):
        said = mention_counts(passages[int(r)], every, analyse)
        for j, toks in enumerate(tokens):
            out[j, col] = bool(toks) and all(
                t in said and said[t].lead > 0 and not said[t].opens_negated for t in toks
            )
    return out


def asserted_texts(scorer: Scorer, terms: list[str]) -> list[str]:
    """The texts :func:`asserted_share` scores with ``scorer``'s lexical part for ``terms`` (a
    word of the term per index token), to ask for ahead; none where it scores nothing."""
    if scorer_passages(scorer) is None:
        return []
    lexical = scorer_parts(scorer).get(LEXICAL_PART, scorer)
    analyse: Analyser | None = getattr(lexical, "analyse", None)
    if analyse is None:
        return []
    return [w for t in terms for w in _token_words(analyse, t).values()]


def _token_words(analyse: Analyser, term: str) -> dict[str, str]:
    """The term's index tokens, each with the first word of the term that gives it."""
    out: dict[str, str] = {}
    for word, token in analyse(term):
        if token and token not in out:
            out[token] = word
    return out


def _sat(tf: float, k1: float) -> float:
    return tf / (tf + k1)
