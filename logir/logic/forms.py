"""Other forms of an excluded word that the index keeps apart: "Buddhist" for "Buddhism".

A stemmer joins inflections ("vaccine", "vaccines", "vaccination") but not every derived word:
"Buddhism" and "Buddhist", "relativity" and "relativistic", "Italy" and "Italian", "Dada" and
"Dadaist" are different tokens to Snowball. A passage on "the Buddhist chronicle of Sri Lanka" is
about what "Ashoka's reign without the Buddhism part" leaves out, yet BM25 gives it no evidence
for "Buddhism". So the lexical evidence for an excluded word also reads its derived forms: the
word's root (the word less a final "s" and at most two endings of :data:`ENDINGS`, each leaving
at least :data:`MIN_ROOT` letters) with each ending of :data:`FORMS`, kept where the index holds
the form under a token of its own. Each form is read on its own unit scale, and the term's
evidence is the best of them and of the term's own (a form added to the term's text would raise
the corpus's best score and lower every passage that says the word itself). The root alone
counts as a form only when it is longer (:data:`MIN_BARE_ROOT`: "Japan" for "Japanese", not
"chin" for "Chinese" or "part" for "party"). Only a term of one content word is read so: in
"invasion of Italy" the other words say which passages on Italy are meant, and "Italian" alone
would not.
"""

from __future__ import annotations

from collections.abc import Callable

from logir.index.base import Scorer

#: endings a root is found under, longest first
ENDINGS = (
    "istically",
    "ically",
    "istic",
    "ical",
    "ism",
    "ist",
    "ian",
    "ean",
    "ese",
    "ity",
    "ic",
    "y",
)

#: endings a root takes in the forms tried
FORMS = ("ism", "ist", "ian", "ean", "ese", "ic", "ical", "istic", "ity", "y")

#: the fewest letters a root keeps ("music" keeps its "ic": "mus" is no root)
MIN_ROOT = 4

#: the fewest letters of a root that counts as a form by itself ("japan", not "chin")
MIN_BARE_ROOT = 5

#: a word's index token, None where the index does not hold it
Token = Callable[[str], "str | None"]


def root(word: str) -> str:
    """``word`` lower-cased, less a final "s" and at most two of :data:`ENDINGS`, each leaving
    :data:`MIN_ROOT` letters or more ("buddhists" -> "buddh", "catholicism" -> "cathol")."""
    w = word.lower()
    if len(w) > MIN_ROOT + 1 and w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    for _ in range(2):
        end = next((e for e in ENDINGS if w.endswith(e) and len(w) - len(e) >= MIN_ROOT), "")
        if not end:
            break
        w = w[: -len(end)]
    return w


def derived_forms(word: str, token: Token) -> list[str]:
    """The derived forms of ``word`` that the index holds, each under a token neither ``word``
    nor an earlier form has; none for a word that is not all letters."""
    if not word.isalpha():
        return []
    w = word.lower()
    base = root(w)
    tried = [base + end for end in FORMS]
    if base != w and len(base) >= MIN_BARE_ROOT:
        tried.insert(0, base)
    seen = {token(w)}
    out = []
    for form in tried:
        tok = token(form)
        if form != w and tok is not None and tok not in seen:
            seen.add(tok)
            out.append(form)
    return out


def index_token(lexical: Scorer) -> Token | None:
    """A word's token in ``lexical``'s index (its ``analyse`` and ``token_ids``), None where
    the index lacks it; None for a scorer that cannot say."""
    analyse = getattr(lexical, "analyse", None)
    token_ids = getattr(lexical, "token_ids", None)
    if analyse is None or token_ids is None:
        return None

    def token(word: str) -> str | None:
        toks = [tok for _, tok in analyse(word) if tok]
        if len(toks) != 1 or not len(token_ids([word])[0]):
            return None
        return str(toks[0])

    return token


def derived_forms_of(term: str, lexical: Scorer) -> list[str]:
    """The derived forms of ``term``'s one content word in ``lexical``'s index
    (:func:`derived_forms`); none where the term has more content words or none, or where
    ``lexical`` has no index to ask."""
    token = index_token(lexical)
    if token is None:
        return []
    content = [w for w, tok in lexical.analyse(term) if tok]  # type: ignore[attr-defined]
    return derived_forms(content[0], token) if len(content) == 1 else []
