"""Whether a query's negation describes the answer it asks for rather than excluding a topic.

An entity-seeking request ("What are the dog breeds that were popular in the Renaissance but were
not bred smaller?", "Find the emperor who ruled without leaving Italy") asks for things that meet a
description. A negated verb in that description (in a clause on the noun asked for, or the main
verb of a question whose subject is the answer) states a property of the answer, and the passages
showing that the answer has it often name the negated thing. So does a noun phrase that
coordinates a positive predicate with a negated one of its own ("Processors that supported 16-bit
operations but were not compatible with their predecessors": two statements about the answer).

Still exclusions: a negation on a noun or on the request as a whole ("What are Nolan films other
than sci-fi?", "Find recipes without nuts", "what to cook if you don't like fish"); a clause on
another noun of the question ("What causes hallucinations that are not related to drugs?" asks
for causes, and the clause narrows the topic); a set subtracted ("except", "excluding", "other
than", "besides", "not including"); a verb about what a passage says ("do not mention X", "don't
include any information about X"); the only predicate of a short description ("smartphones that
are not made by Apple"); a bare word or phrase contrasted with the one before it ("laptops that
are cheap but not slow", "restaurants that serve sushi but not tempura").

The test reads spaCy's dependency parse; without spaCy no negation counts as describing the answer.
"""

from __future__ import annotations

from typing import Any

from logir.query.natural import nlp

WH_WORDS = frozenset({"what", "which", "who", "whom", "whose"})
"""Question words that ask for an entity (not "how", "why", "when")."""

COPULAS = frozenset({"is", "are", "was", "were"})
"""A copula right after the question word: "What are the N ..." asks for the N."""

EXCEPTIONS = frozenset({"except", "excluding", "besides"})
PAIRED_EXCEPTIONS = {"other": "than", "apart": "from", "aside": "from", "including": ""}
"""Words that subtract a set ("other than", "not including" ...): always a topic left out."""

CONTRASTS = {"rather": "than", "instead": "of"}
"""Words that negate with the next one and describe the answer when they hang on its verb."""

ANCHORS = frozenset({"VERB", "AUX", "NOUN", "PROPN", "PRON", "ADJ", "NUM"})
"""Parts of speech a negation attaches to (through prepositions and conjunctions)."""

PREDICATES = frozenset({"VERB", "AUX"})
"""Parts of speech of a word that states something (a verb, an auxiliary or copula)."""

NOUN_CLAUSES = frozenset({"relcl", "acl"})
"""Dependency labels of a clause that modifies a noun (relative or participial)."""

ARGUMENTS = frozenset({"nsubj", "nsubjpass", "csubj", "dobj", "attr"})
"""Dependency labels that make the answer an argument of a question's main verb."""

SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj"})
"""Dependency labels of a verb's subject."""

TEXT_NOUNS = frozenset(
    {"introduction", "overview", "summary", "passage", "passages", "article", "articles", "text"}
    | {"document", "documents", "description", "explanation", "account", "essay", "biography"}
)
"""Objects of an instruction that ask for a text rather than for entities."""

SPEECH_VERBS = (
    *("mention", "discuss", "refer", "talk", "cite", "citing", "describ", "consider", "focus"),
    *("delv", "dwell", "touch", "bring", "address", "compar", "explain", "ask", "quot"),
)
"""Beginnings of verbs about what a text says: "do not mention X", "without discussing X" ask the
passages to leave X out, whatever the request asks for (a passive participle, "prophets who are
not mentioned in the Qur'an", describes the answer instead)."""

TOPIC_VERBS = ("relat", "unrelat", "involv", "concern")
"""Beginnings of verbs that name a topic: negated, they leave it out as "unrelated to" does
("involved in X", took part in X, is a predicate)."""

CONTENT_WORDS = frozenset(
    {"information", "detail", "details", "reference", "references", "mention", "mentions"}
    | {"anything", "discussion", "content", "contents", "facts"}
)
"""Objects that make a verb speak about the text ("don't include any information about X",
"without making any references to X"; "processors that do not include a cache" is about them)."""


def negation_describes_answer(text: str, framed: bool = False) -> bool:
    """True when every negation of ``text`` is part of the description of what it asks for.

    ``framed``: a frame such as "Find a passage about" was dropped, so an opening verb is not a
    request for an entity.
    """
    stripped = text.strip()
    doc = nlp.parse_whole(stripped)
    if doc is None:
        return False
    markers = [t for t in doc if _is_marker(t, doc)]
    if not markers or any(_is_exception(m, doc) for m in markers):
        return False
    first = next(iter(doc.sents))
    if any(m.i >= first.end for m in markers):  # a later sentence is an instruction of its own
        return False
    words = [t for t in doc if not t.is_punct]
    if not words:
        return False
    opener = words[1] if words[0].pos_ == "ADP" and len(words) > 1 else words[0]  # "In which"
    if not framed and opener.i == 0 and opener.tag_ == "VB" and opener.dep_ == "ROOT":
        return _instruction(doc, opener, markers)
    if opener.lower_ in WH_WORDS:
        return _question(doc, opener, markers)
    root = first.root
    if root.pos_ not in ("NOUN", "PROPN"):
        return False
    return all(_coordinated_negated_predicate(m) or _gerund_in_clause(m) for m in markers)


def _is_marker(tok: Any, doc: Any) -> bool:
    """A negation word: ``not`` / ``n't`` / ``never``, "without", "neither", "rather than" ..."""
    low = tok.lower_
    if tok.dep_ == "neg" or low in ("without", "neither") or _is_exception(tok, doc):
        return True
    after = CONTRASTS.get(low)
    return after is not None and _next_is(doc, tok, after)


def _next_is(doc: Any, tok: Any, word: str) -> bool:
    return tok.i + 1 < len(doc) and doc[tok.i + 1].lower_ == word


def _is_exception(tok: Any, doc: Any) -> bool:
    """ "except", "excluding", "besides", "other than", "apart from", "not including", "not
    counting"."""
    low = tok.lower_
    if low in EXCEPTIONS:
        return True
    if low == "not":  # "not including", "not counting"
        return _next_is(doc, tok, "including") or _next_is(doc, tok, "counting")
    after = PAIRED_EXCEPTIONS.get(low)
    return bool(after) and _next_is(doc, tok, after)


def _question(doc: Any, wh: Any, markers: list[Any]) -> bool:
    """A question for an entity: every negation describes the answer."""
    if _next_is(doc, wh, "to"):  # "what to cook ...": a question about what to do
        return False
    if wh.i + 1 < len(doc) and doc[wh.i + 1].lower_ in COPULAS:
        # "What are the N of M that ... but were not ...": all after the copula is the answer's
        # description (read by position: a small parser often misplaces the clauses' heads)
        return all(m.i > wh.i + 1 and _stated(m) for m in markers)
    answer = wh.head if wh.dep_ == "det" else wh
    return all(m.i > wh.i and _describes(m, answer, wh) for m in markers)


def _stated(marker: Any) -> bool:
    """The negation denies a verb, or a phrase coordinated inside a clause on a noun ("the
    actions taken in X but not in Y"); not in an "if ..." clause."""
    predicate = _predicate(marker)
    if predicate is None:
        predicate = _elliptical(marker)
        if predicate is None or not _in_noun_clause(predicate):
            return False
    return "advcl" not in _clauses(predicate)


def _clauses(tok: Any) -> list[str]:
    """Dependency labels of ``tok`` and of every word above it."""
    return [tok.dep_, *(a.dep_ for a in tok.ancestors)]


def _instruction(doc: Any, verb: Any, markers: list[Any]) -> bool:
    """An opening imperative: "Determine which X ..." is a question; "Find the X that ..." asks
    for its object, described by a clause on it."""
    after = [t for t in doc[verb.i + 1 :] if not t.is_punct and t.lower_ not in ("me", "us")]
    if after and after[0].lower_ in WH_WORDS:
        return _question(doc, after[0], markers)
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if obj is None or obj.lower_ in TEXT_NOUNS:  # "Find an introduction to X that ...": a text
        return False
    for m in markers:
        predicate = _predicate(m) or _elliptical(m)
        if predicate is None or not _within(predicate, obj) or _names_a_kind(predicate):
            return False
    return True


def _predicate(marker: Any) -> Any | None:
    """The verb a negation denies, or None when it denies a noun, a phrase or a passage's
    content ("not in Europe", "without meat", "do not mention X")."""
    if marker.dep_ == "neg":
        verb = marker.head
        if verb.pos_ not in PREDICATES or _about_text(verb):
            return None
        return verb
    if marker.lower_ == "without":
        objects = [c for c in marker.children if c.dep_ in ("pobj", "pcomp")]
        if not objects or objects[0].tag_ != "VBG":  # "without leaving Italy", not "without nuts"
            return None
        if _about_text(objects[0]):  # "without mentioning X"
            return None
    anchor = _anchor(marker)
    return anchor if anchor.pos_ in PREDICATES else None


def _names_a_kind(verb: Any) -> bool:
    """``verb`` is a copula whose complement is a noun ("Find a phone that isn't an iPhone"): in
    a request the negation leaves a kind out, as "phones other than iPhones" would (a question's
    "What are the capitals that are not the largest city?" still describes its answer)."""
    return verb.lemma_ == "be" and any(
        c.dep_ == "attr" and c.pos_ in ("NOUN", "PROPN") for c in verb.children
    )


def _elliptical(marker: Any) -> Any | None:
    """For ``not`` before a phrase coordinated with another ("in X but not in Y", "X but not
    part of Y"): the verb the two phrases belong to, else None."""
    if marker.dep_ != "neg":
        return None
    tok, coordinated = marker.head, False
    while tok.pos_ not in PREDICATES:
        if tok.head.i == tok.i:
            return None
        coordinated = coordinated or tok.dep_ == "conj"
        tok = tok.head
    return tok if coordinated and not _about_text(tok) else None


def _describes(marker: Any, answer: Any, wh: Any) -> bool:
    """The negated verb is in a clause on the answer, or is (coordinated with) a main verb whose
    subject or object is the answer; not in an adverbial clause ("if you don't like fish")."""
    predicate = _predicate(marker)
    shortened = predicate is None  # "but not in Y": a phrase of the verb above it
    if shortened:
        predicate = _elliptical(marker)
        if predicate is None:
            return False
    if answer.i != wh.i and _within(predicate, answer):
        return True
    if shortened:  # "What methods compute X but not Y": a bare phrase contrasted, a topic left out
        return False
    main = predicate
    while main.dep_ == "conj":
        main = main.head
    if main.dep_ == "advcl":
        return False
    # "without X-ing", "rather than X" are done by the verb's subject: the answer's only when it
    # is that subject ("What concepts combine A without requiring B", not "What can we know
    # about A without discussing B")
    roles = ARGUMENTS if marker.dep_ == "neg" else SUBJECTS
    return any(c.dep_ in roles and c.i in (answer.i, wh.i) for c in main.children)


def _within(tok: Any, noun: Any) -> bool:
    """``tok`` is in a relative or participial clause inside ``noun``'s phrase."""
    for a in [tok, *tok.ancestors]:
        if a.i == noun.i:
            return False
        if a.dep_ in NOUN_CLAUSES:
            return any(b.i == noun.i for b in a.ancestors)
    return False


def _anchor(tok: Any) -> Any:
    """The word a negation hangs on: its head, or the first content word above it."""
    head = tok.head
    while head.pos_ not in ANCHORS and head.head.i != head.i:
        head = head.head
    return head


def _about_text(verb: Any) -> bool:
    """``verb`` speaks about what a passage says ("mention", "include any information"), or
    names a topic outside a clause on a noun ("What causes X but isn't related to Y", "... but
    doesn't involve Y": as "unrelated to Y", a topic left out; "applications that are not related
    to cooking" restricts the noun by a property)."""
    low = verb.lower_
    names_topic = (low.startswith(TOPIC_VERBS) and low != "involved") or any(
        c.dep_ == "prep" and c.lower_ == "about" for c in verb.children
    )
    if names_topic and not _in_noun_clause(verb):
        return True
    if verb.tag_ == "VBN":
        return False
    if low.startswith(SPEECH_VERBS):
        return True
    return any(t.lower_ in CONTENT_WORDS for t in verb.subtree if t.i > verb.i)


def _in_noun_clause(tok: Any) -> bool:
    return any(a.dep_ in NOUN_CLAUSES for a in [tok, *tok.ancestors])


def _coordinated_negated_predicate(marker: Any) -> bool:
    """In a noun phrase: ``not`` negates a verb phrase of its own ("but were not compatible",
    "but not made by") coordinated with a positive verb of a clause on the noun."""
    if marker.dep_ != "neg" or _about_text(marker.head):
        return False
    verb = marker.head
    # its own verb: an auxiliary or copula ("but were not", "but do not"), or an inflected verb
    # ("but not made by"); a bare base form after "not" is more likely a misread noun
    own_verb = any(c.dep_ in ("aux", "auxpass", "cop") for c in verb.children) or (
        verb.pos_ in PREDICATES and verb.tag_ != "VB"
    )
    return (
        own_verb
        and verb.dep_ == "conj"
        and verb.head.pos_ in PREDICATES
        and verb.head.i < marker.i
        and _in_noun_clause(verb.head)
    )


def _gerund_in_clause(marker: Any) -> bool:
    """In a noun phrase: "without" + a gerund in a clause on the noun ("methods that sort
    without using extra memory")."""
    if marker.lower_ != "without":
        return False
    predicate = _predicate(marker)
    return predicate is not None and _in_noun_clause(predicate)
