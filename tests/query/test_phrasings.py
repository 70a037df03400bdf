"""Natural language means what it says: readings of hand-written phrasings against their forms.

Sets of JSON Lines ``{"id", "text", "forms", "negation"}`` (see ``../shared/phrasings/README.md``):
- the shared set (45 queries, read from beside the shared datasets);
- ``phrasings_extra.jsonl``: this folder's own (other wordings and domains, the same phenomena);
- ``phrasings_blind.jsonl``: 70 queries written in session 13 by an engineer who had read the
  shared set's README and corpora but none of the reader's code; 54 of 70 forms matched before
  that session changed the reader for them;
- ``phrasings_blind2.jsonl``: 60 more, written the same way, as six imagined users would type them;
  28 of 60 forms and 18 of the 30 exclusions planned at session 13's start.
- ``phrasings_blind3.jsonl``: 50 more, written the same way after that session's first reader
  changes; 35 of 50 forms and 21 of 28 exclusions at the session's start, 39 and 23 with the
  changes made before it was seen (the held-out figure), 43 and 27 after.
- ``phrasings_blind4.jsonl``: 50 more, written at the end of that session (as ten students would
  write them); 31 of 50 forms and 25 of 28 exclusions at its start, 34 and 26 when first read
  (held out), 38 and 28 after.
- ``phrasings_blind5.jsonl`` and ``phrasings_blind6.jsonl``: 50 each, written blind in session
  36 (ten people typing to a chat assistant; ten dictating or writing to a librarian), with forms
  in the writers' own words. When first read: 21 and 24 of 28 exclusions planned as such (spaCy),
  every predicate and none query right; 26 and 26 after that session's changes.
- ``phrasings_blind7.jsonl`` and ``phrasings_blind8.jsonl``: 50 each, written blind later in
  session 36 (ten people from ten countries and trades; ten people with strong habits: symbols,
  run-on sentences, dictated punctuation), with forms in the query's own words. When first read:
  24 and 23 of 28 exclusions (spaCy); 26 and 27 after that session's changes.
- ``phrasings_blind9.jsonl`` and ``phrasings_blind10.jsonl``: 50 each, the last of session 36
  (shoppers and hobbyists at a store or forum search; researchers and officials writing to a
  librarian). When first read: 27 and 23 of 28 exclusions; 28 and 25 after.
- ``phrasings_blind11.jsonl`` and ``phrasings_blind12.jsonl``: 50 each (health and family
  questions; encyclopedia searches for school, work or fun). When first read: 25 and 26 of 28
  exclusions; 27 and 28 after (spaCy).
- ``phrasings_blind13.jsonl`` and ``phrasings_blind14.jsonl``: 50 each (people planning things;
  people writing in a hurry). When first read: 25 and 24 of 28 exclusions; 26 and 25 after.
- ``phrasings_blind15.jsonl`` and ``phrasings_blind16.jsonl``: 50 each (news-archive and catalogue
  searches; people mixing languages or writing in dialect), read once at the session's end with
  no change made for them: 27 and 14 of 28 exclusions, every predicate and none query right.

A reading matches when :func:`logir.query.compare.same_form` holds for one of the forms; ``auto``
must penalise mentions exactly where the negation excludes a topic. All run with and without
spaCy.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from logir.logic.auto import Auto
from logir.query import n_negations
from logir.query.compare import same_form
from logir.query.natural import QueryTooComplex
from logir.query.reading import Reading, read
from tests.conftest import shared_datasets

EXTRA = Path(__file__).with_name("phrasings_extra.jsonl")


def _shared() -> Path:
    return shared_datasets().parent / "phrasings" / "phrasings.jsonl"


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _read(text: str) -> Reading:
    """``read(text, "auto")``; once more when a stalled machine ran it past its wall-clock budget
    (a real slowdown fails twice)."""
    try:
        return read(text, "auto")
    except QueryTooComplex:
        return read(text, "auto")


def _score(rows: list[dict[str, Any]]) -> tuple[int, dict[str, list[str]], list[str]]:
    """(readings that match a form, ids per negation kind that auto plans right, misses)."""
    auto = Auto()
    matched, right, misses = 0, {"exclude": [], "predicate": [], "none": []}, []
    for r in rows:
        reading = _read(r["text"])
        if any(same_form(f, reading.query) for f in r["forms"]):
            matched += 1
        else:
            misses.append(f"{r['id']}: {r['text']!r} -> {reading.logical_form}")
        plan = auto.plan(reading)
        kind = r["negation"]
        if kind == "exclude":
            ok = plan.kind == "exclude"
        elif kind == "predicate":
            ok = plan.kind == "flat"
        else:
            negation_cue = any(c.startswith("negation:") for c in reading.cues)
            ok = plan.kind == "flat" and n_negations(reading.query) == 0 and not negation_cue
        if ok:
            right[kind].append(r["id"])
        else:
            misses.append(f"{r['id']}: {kind} planned {plan.kind} ({plan.why})")
    return matched, right, misses


@pytest.fixture(params=["spacy", "regex"])
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs with spaCy (where installed) and on the regex-only path."""
    from logir.query.natural import nlp

    if request.param == "regex":
        monkeypatch.setattr(nlp, "load_nlp", lambda: None)
    elif not nlp.spacy_available():
        pytest.skip(f"spaCy model {nlp.SPACY_MODEL} not installed")
    return str(request.param)


def test_shared_phrasings(parser: str) -> None:
    path = _shared()
    if not path.is_file():
        pytest.skip(f"shared phrasings not found at {path}")
    rows = _rows(path)
    matched, right, misses = _score(rows)
    print(f"{parser}: {matched}/{len(rows)} readings match", *misses, sep="\n  ")
    counts = {k: sum(r["negation"] == k for r in rows) for k in right}
    assert matched >= 42, misses
    assert len(right["exclude"]) >= 26 and counts["exclude"] == 28, misses
    assert len(right["predicate"]) == counts["predicate"] == 5, misses
    assert len(right["none"]) == counts["none"] == 12, misses


def test_own_phrasings(parser: str) -> None:
    rows = _rows(EXTRA)
    matched, right, misses = _score(rows)
    print(f"{parser}: {matched}/{len(rows)} readings match", *misses, sep="\n  ")
    counts = {k: sum(r["negation"] == k for r in rows) for k in right}
    assert len(rows) >= 40
    assert matched >= len(rows) - 2, misses
    assert len(right["exclude"]) == counts["exclude"], misses
    assert len(right["predicate"]) == counts["predicate"], misses
    assert len(right["none"]) == counts["none"], misses


#: the blind sets: file, (exclude, predicate, none) queries, and the least each reading must keep:
#: forms matched, then plans right per kind (measured at session 13's end; see the docstring)
BLIND_SETS = [
    # misses left: f10 (an entity question, "which planets ... (never mind saturn)", ranks flat),
    # f30 (", non-American" read as a compound), f40 / f41 (a qualifier the form drops), f58 ("in
    # Spain and France": a union read as one term); f46 on the regex path only
    ("phrasings_blind.jsonl", (35, 10, 25), (63, 33, 10, 25)),
    # misses left: "beyond X" (g01), "england + india dont count" (g27), "shows no rap" (g28) go
    # flat; "sorting algorithms that are not stable" (g36) is planned as an exclusion; "vs"
    # comparisons and lower-case ORs with a shared part are read as one term
    ("phrasings_blind2.jsonl", (30, 8, 22), (38, 27, 7, 22)),
    # misses left: "treatments for asthma that aren't inhalers?" (k03) ranks flat on the spaCy
    # path (the negation read as describing the answer); "smoke-free laws" (k37) is read as an
    # exclusion; ORs and ANDs with a shared part ("malaria OR dengue fever in Southeast Asia")
    ("phrasings_blind3.jsonl", (28, 7, 15), (42, 27, 7, 14)),
    # misses left: "visible from the southern hemisphere but not the northern" (m35, a predicate)
    # is planned as an exclusion; lower-case ORs with a shared part, "+" as AND, "X as well as Y"
    ("phrasings_blind4.jsonl", (28, 7, 15), (38, 28, 6, 15)),
    # sessions 36's two sets write their forms in their own words ("IV fluids for dehydration"
    # for "iv fluid options for a dehydrated pt"), so few forms match word for word; the plans
    # are the measure. Misses left: an entity question with "except" (q21) ranks flat; "X and
    # Y I know well" (q35), "is out of the question for this client" (r44) and "I should prefer
    # ones that don't require X" (r48, read as a predicate)
    ("phrasings_blind5.jsonl", (28, 7, 15), (11, 26, 7, 15)),
    ("phrasings_blind6.jsonl", (28, 7, 15), (8, 27, 7, 15)),
    # misses left: Scots ("isnae made wi margarine", s23), "under 450k no HOA" (s26), a
    # dictated "open bracket no bleach close bracket" (t45); "nba mvp winners w/o a ring" (t04,
    # a predicate) is planned as an exclusion; t35 reads "never dealt with either" as a negation
    ("phrasings_blind7.jsonl", (28, 7, 15), (12, 26, 7, 15)),
    ("phrasings_blind8.jsonl", (28, 7, 15), (17, 27, 6, 14)),
    # (v29 "I already own Waley's, so not that one", v40 "burgundy's been done to death", v43 a
    # numbered list's "3) Finland not required." read since session 37)
    ("phrasings_blind9.jsonl", (28, 7, 15), (27, 28, 7, 15)),
    ("phrasings_blind10.jsonl", (28, 7, 15), (19, 28, 7, 15)),
    # misses left: "nothing with banana" inside a bracket after a dash (w24); "plant proteins
    # that don't contain all nine essential amino acids" and "sports drinks that don't contain
    # potassium" (w23, w49: predicates planned as exclusions); without spaCy, "but leave out
    # Elvis, he always hated Elvis" (w15: the comment is told by its parse)
    ("phrasings_blind11.jsonl", (28, 7, 15), (22, 26, 5, 15)),
    ("phrasings_blind12.jsonl", (28, 7, 15), (26, 28, 7, 15)),
    # misses left: "cruises that don't stop in Naples? We have been there twice already." (y21,
    # read as a negated property), a run-on "forget Denver I'm routing around it ..." (z07, its
    # comment kept in the item), "ex NVDA", "ex-REITs" (z26, z28)
    ("phrasings_blind13.jsonl", (28, 7, 15), (22, 27, 7, 15)),
    ("phrasings_blind14.jsonl", (28, 7, 15), (16, 25, 6, 15)),
    # read once, at the session's end, with no change made for them. Misses left: "YA novels ...
    # that aren't too dark?" (a26); most of set 16's other languages and dialects: Hinglish
    # ("chole bhature nahi"), Spanish ("pero sin carne", "que no sea"), Pidgin ("wey no be UK"),
    # Scots ("nae taylor swift", "disnae hae"), Singlish ("ikea dun count"), "that ain't barbed
    # wire" (a participle-looking noun), "avoidin the M4", an entity question with "except"
    ("phrasings_blind15.jsonl", (28, 7, 15), (30, 27, 7, 15)),
    ("phrasings_blind16.jsonl", (28, 7, 15), (3, 14, 7, 15)),
    # session 37: professionals with their reasons (17) and structured or compressed writing (18:
    # numbered lists, labelled fields, emoji and hashtags, capitals, subject lines), read first
    # at 4c1dae3 (24 and 19 of 28 exclusions), then mended. Misses left: on the regex path,
    # "pairing ideas ... but not riesling. Every list says riesling ..." (pb1708, the comment
    # sentence is told by spaCy's parse); "ex-Germany" (pb1824) and "need a new phone thats not
    # an iPhone or a Samsung, under $400" (pb1843, read as describing the answer) rank flat;
    # "metals ... that aren't solid at room temperature" (pb1832, a predicate) is planned as
    # an exclusion
    ("phrasings_blind17.jsonl", (28, 7, 15), (15, 27, 7, 15)),
    ("phrasings_blind18.jsonl", (28, 7, 15), (20, 26, 6, 14)),
    # 19: long messages, the background first (24 of 28 at first read); no form matches because
    # the background sentences stay in the positive part, which the writer's forms leave out.
    # Misses left: "boiler designs ... that don't use copper -- copper has gotten stupid
    # expensive" (pb1906, a property with a reason) ranks flat; "small towns that paid for road
    # repair without raising property taxes" (pb1911, a predicate) is planned as an exclusion
    # 20: database searchers' shorthand (24 of 28 at first read). Misses left: "statins or CCBs
    # bar amlodipine" (pb2012: "bar" after a plural, unread)
    ("phrasings_blind19.jsonl", (28, 7, 15), (0, 26, 6, 15)),
    ("phrasings_blind20.jsonl", (28, 7, 15), (30, 27, 7, 15)),
    # session 38: speech to a voice assistant, transcribed (21: fillers, corrections mid-sentence,
    # no punctuation) and forum or group-chat posts (22: "ISO", "tl;dr", "hard pass on", "been
    # there done that"), read first at 9e223d9 (14 and 17 of 28 exclusions), then mended. Misses
    # left: "wait my wife is allergic to shellfish so none of that" (pb2136), "(she has a million
    # candles and mugs, so not those)" (pb2220) and "Logitech is off the table after my last one
    # died" (pb2229) rank flat; "games like Don't Starve" (pb2214, a title) is read as a negation
    ("phrasings_blind21.jsonl", (28, 7, 15), (29, 27, 7, 15)),
    ("phrasings_blind22.jsonl", (28, 7, 15), (22, 26, 7, 14)),
    # 23: learners of English (calques: "except of", "neither X neither Y", "apart Duolingo",
    # "Please to not show me", "X don't want") and 24: several wanted and excluded parts in one
    # query, read first at 866b6a7 (19 and 24 of 28 exclusions). Misses left: "indian sweets
    # recipes which is not having sugar" (pb2324) ranks flat; "sugar-free chocolate" (pb2346,
    # judged no negation) is an x-free exclusion; "but neither with coconut milk" (pb2410) and
    # a fronted "Not Netflix but HBO ..." (pb2414) rank flat
    ("phrasings_blind23.jsonl", (28, 7, 15), (34, 27, 6, 14)),
    ("phrasings_blind24.jsonl", (28, 7, 15), (11, 26, 7, 15)),
    # 25: teenagers texting ("miss me with X", "X is a no for me", "X give me the ick so skip
    # those", "im so done w X, ...") and 26: professionals, with error messages and price bases
    # that only look like negations ("fatal: not a git repository", "excl. VAT", "IS NOT NULL"),
    # read first at 01f9ad5 (16 and 24 of 28 exclusions; 9 of 15 none in set 26). Misses left:
    # "outfit ideas ... that arent all black" (pb2505), "whey?? absolutely not" (pb2510), a
    # fronted "besides bts and blackpink what kpop groups ..." (pb2512) and "keep the serial
    # killer ones away from me" after an emoji (pb2521) rank flat; "NHS never events" (pb2625),
    # "non-GAAP" (pb2621, read as non-X) and x-free compounds judged no negation (pb2547,
    # pb2639) are read as negations
    ("phrasings_blind25.jsonl", (28, 7, 15), (15, 24, 7, 13)),
    ("phrasings_blind26.jsonl", (28, 7, 15), (37, 27, 6, 12)),
]


@pytest.mark.parametrize(("name", "kinds", "least"), BLIND_SETS, ids=[b[0] for b in BLIND_SETS])
def test_blind_phrasings(
    parser: str, name: str, kinds: tuple[int, int, int], least: tuple[int, int, int, int]
) -> None:
    rows = _rows(Path(__file__).with_name(name))
    matched, right, misses = _score(rows)
    print(f"{parser}: {matched}/{len(rows)} readings match", *misses, sep="\n  ")
    counts = {k: sum(r["negation"] == k for r in rows) for k in right}
    assert (counts["exclude"], counts["predicate"], counts["none"]) == kinds
    forms, exclude, predicate, none = least
    assert matched >= forms, misses
    assert len(right["exclude"]) >= exclude, misses
    assert len(right["predicate"]) >= predicate, misses
    assert len(right["none"]) >= none, misses
