"""Whether a text is a claim: a declarative sentence with a subject and a finite main verb.

A claim asserts something ("Vitamin D deficiency is unrelated to birth weight."); a negation in it
is part of what it asserts, and the passages that support or refute it discuss the negated thing.
A search request is a noun phrase, a question or an instruction ("benefits of vitamin D other than
bone health", "how to treat migraines without medication"), whose negation can exclude a topic.
The test needs spaCy's parse and a final full stop (a parser reads "python tutorials -django" as
a sentence); without spaCy no text counts as a claim.
"""

from __future__ import annotations

import re

from logir.query.natural import nlp
from logir.query.natural.lexicon import AFTER_ITEM, DASH, POSTPOSED, SPACED_DASH

_ITEM_LEFT_OUT = re.compile(
    rf"(?:[,;(\[]|{DASH})[^,;]{{1,60}}?\s+(?:{AFTER_ITEM}|{POSTPOSED})\s*[)\]]?\s*\.\s*$",
    re.I,
)
"""A request that ends by leaving an item out ("..., Ulysses S. Grant excluded.", "... (Würzburg
and Bamberg excepted)."): its last verb is the cue's participle, which a parser reads as the
sentence's finite verb."""

_SET_ASIDE = re.compile(
    rf"(?:[,;]|{DASH})\s*(?:(?:setting|leaving|putting)\s+(?:aside\b|to\s+one\s+side\b"
    r"|(?:[^,;.]{1,60}?\s+)?(?:aside|to\s+one\s+side)\s*[.,;])"
    # "Treaties concluded between states, excluding any agreements made with ..."
    r"|excluding\b|with\s+the\s+exception\s+of\b"
    # "Work performed in laboratories on living organisms, other than experiments in orbit."
    r"|other\s+than\b|(?:apart|aside)\s+from\b"
    # "Companies AOL bought over the years - anything except the Huffington Post deal."
    r"|(?:anything|everything|all)\s+(?:except|but|bar|save|other\s+than|apart\s+from)\b)"
    # "..., Nothing British please": a claim asks for nothing
    r"|\b(?:please|pls|plz)\b",
    re.I,
)
"""A request that sets a part aside ("Treaties concluded among the powers, setting aside those
in which Napoleon had a hand."), or says please: a claim does not ask for anything."""

_AFTER = re.compile(
    r"\b(?:is|are|am|['\u2019]s|['\u2019]m|['\u2019]re)\s+(?:after|looking\s+for|searching\s+for"
    r"|hunting\s+for|trying\s+to\s+find)\b",
    re.I,
)
"""A sentence that says somebody is looking for something ("A reader is after books that only
came out after their author had died"): a request passed on, whatever its verb."""

SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
"""Dependency labels of a clause's subject."""

REQUESTERS = frozenset({"i", "we", "you"})
"""Subjects that make a sentence a request ("I want ...", "you should ..."), not a claim."""

REQUEST_VERBS = frozenset({"want", "wants", "wanted", "wish", "wishes", "seek", "seeks", "asks"})
"""Verbs that report a request when they open a sentence ("A patron wants to know where
alabaster is quarried"): whoever the subject is, it asks for something and claims nothing."""

REQUEST_WINDOW = 5
"""How many of the first sentence's opening words may hold a ``REQUEST_VERBS`` verb."""


def is_claim(text: str) -> bool:
    """True when ``text`` is a declarative sentence: it ends with a full stop, and its first
    sentence's root is a finite verb (not an imperative) after a noun or pronoun subject, no
    clause has "I", "we" or "you" as its subject (those make a request), it does not open by
    reporting a request or with a wh-word ("What his sons said about him."), and no sentence in it
    is an instruction."""
    stripped = text.strip()
    if not stripped.endswith("."):  # typed requests rarely end in a full stop; statements do
        return False
    if _ITEM_LEFT_OUT.search(stripped) or _SET_ASIDE.search(stripped) or "?" in stripped:
        return False  # a request that leaves an item out, or one with a question in it
    doc = nlp.parse_whole(stripped)
    if doc is None:
        return False
    if doc[0].tag_.startswith("W"):
        return False  # a topic: "What the sons of famous people said about them."
    if any(sent[0].tag_ == "VB" for sent in doc.sents):
        return False  # an instruction: "Find ...", or "... . Leave aside royal heirs."
    if _headed(doc):  # "Ambergris for a lesson on fixatives: what it is and how it forms, ..."
        return False
    if any(t.dep_ in SUBJECTS and t.lower_ in REQUESTERS for t in doc):
        return False  # "..., though I'd prefer to keep X out of it": somebody asks
    first = next(iter(doc.sents))
    root = first.root
    if root.pos_ not in ("VERB", "AUX") or root.tag_ in ("VB", "VBG", "VBN", "TO"):
        return False
    if any(t.lower_ in REQUEST_VERBS for t in first[:REQUEST_WINDOW]):
        return False  # a reported request: "A patron wants to know ..."
    if _AFTER.search(first.text):
        return False  # "A reader is after books that ...": somebody looks for something
    if _comment_after_request(stripped):
        return False  # "Organic ways to get rid of aphids without neem oil — it scorched my roses."
    subject = next((c for c in root.children if c.dep_ in SUBJECTS), None)
    return (
        subject is not None
        and subject.i < root.i
        and subject.pos_ in ("NOUN", "PROPN", "PRON")
        and not subject.tag_.startswith("W")
    )


def _comment_after_request(text: str) -> bool:
    """Whether the text before its first spaced dash has no subject: a request with a comment
    after the dash ("All-inclusive resorts in the Maldives, avoiding X — the clients had a bad
    experience there.")."""
    dash = SPACED_DASH.search(text)
    if dash is None or dash.start() == 0:
        return False
    head = nlp.parse_whole(text[: dash.start()])
    return head is not None and not any(t.dep_ in SUBJECTS for t in head)


def _headed(doc: object) -> bool:
    """Whether the text opens with a heading: words with no verb before a colon ("Ambergris for
    a lesson on natural perfume fixatives: what it is ..."), the topic a request names before it
    says what it wants."""
    for tok in doc:  # type: ignore[attr-defined]
        if tok.text == ":":
            return tok.i > 0
        if tok.pos_ in ("VERB", "AUX"):
            return False
    return False
