"""A nation as an excluded term: its names, and the lead that says a passage is of it.

"tennis players, no americans", "film directors who are neither american nor british",
"stadiums outside england", "anyone except the brits": the passages such a query leaves out say
so in their first words ("... is an American former tennis player", "... is an English operatic
tenor"), and seldom in the term's own word: a Briton is "English", "Scottish" or "Welsh" in his
lead, and no passage says "brits". BM25 counts a lead's one "American" as a passing mention
against the passages that say it ten times, and MiniLM's vector of "brits" is far from "English
tenor". So an excluded term that names a nation and nothing else (:func:`nation_of`) reads the
nation's names: its demonym, its country's names and their short forms, and the names of the
nations it is made of (:data:`NATIONS`). A passage whose lead (the first
:data:`~logir.logic.mentions.LEAD_WORDS` words) says one of them (:func:`said_in_lead`) is of
that nation. A name inside a longer name ("South American", "New England", "British Columbia")
or naming a language ("an English-language film") does not count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

import numpy as np

from logir.index.base import Scorer, scorer_passages
from logir.logic.mentions import LEAD_WORDS


@dataclass(frozen=True)
class Nation:
    """One nation: the ``names`` passages call it by (lower case; a name written with capitals
    is matched as written: "US", not the pronoun; "Turkey", not the bird), the ``typed`` forms a
    query may use besides ("brits", "the states"), and the keys of the nations it is made of
    (``parts``)."""

    names: tuple[str, ...]
    typed: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()


def _split(phrases: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in phrases.split(",") if p.strip())


def _n(names: str, typed: str = "", parts: str = "") -> Nation:
    return Nation(_split(names), _split(typed), _split(parts))


#: nations by key; names are comma-separated phrases
NATIONS: dict[str, Nation] = {
    "american": _n(
        "american, united states, united states of america, US, U.S., USA, U.S.A., america",
        "americans, yank, yanks, the states, states, us, usa, the us, the usa",
    ),
    "british": _n(
        "british, britain, great britain, united kingdom, UK, U.K., briton",
        "brit, brits, britons, brittish, uk, the uk, the british",
        "english, scottish, welsh, northern irish",
    ),
    "english": _n("english, england, englishman, englishwoman", "englishmen, englishwomen"),
    "scottish": _n("scottish, scotland, scots, scot", "scotsman, scotsmen"),
    "welsh": _n("welsh, wales"),
    "northern irish": _n("northern irish, northern ireland"),
    "irish": _n("irish, ireland, republic of ireland", "irishman, irishmen"),
    "canadian": _n("canadian, canada", "canadians, canucks"),
    "australian": _n("australian, australia", "australians, aussie, aussies"),
    "new zealand": _n("new zealand, new zealander", "new zealanders, kiwi, kiwis, nz"),
    "french": _n("french, france, frenchman, frenchwoman", "frenchmen, the french"),
    "german": _n("german, germany, west german, east german", "germans, the germans"),
    "italian": _n("italian, italy", "italians"),
    "spanish": _n("spanish, spain, spaniard", "spaniards"),
    "portuguese": _n("portuguese, portugal"),
    "dutch": _n("dutch, netherlands, holland", "the dutch"),
    "belgian": _n("belgian, belgium", "belgians"),
    "swiss": _n("swiss, switzerland"),
    "austrian": _n("austrian, austria", "austrians"),
    "swedish": _n("swedish, sweden, swede", "swedes"),
    "norwegian": _n("norwegian, norway", "norwegians"),
    "danish": _n("danish, denmark", "danes"),
    "finnish": _n("finnish, finland", "finns"),
    "icelandic": _n("icelandic, iceland"),
    "polish": _n("polish, poland", "poles"),
    "czech": _n("czech, czech republic, czechia", "czechs"),
    "hungarian": _n("hungarian, hungary", "hungarians"),
    "greek": _n("greek, greece", "greeks"),
    "turkish": _n("turkish, Turkey", "turks"),
    "russian": _n("russian, russia", "russians"),
    "ukrainian": _n("ukrainian, ukraine", "ukrainians"),
    "israeli": _n("israeli, israel", "israelis"),
    "iranian": _n("iranian, iran", "iranians"),
    "egyptian": _n("egyptian, egypt", "egyptians"),
    "south african": _n("south african, south africa", "south africans"),
    "nigerian": _n("nigerian, nigeria", "nigerians"),
    "indian": _n("indian, india", "indians"),
    "pakistani": _n("pakistani, pakistan", "pakistanis"),
    "chinese": _n("chinese, china, people's republic of china, prc"),
    "japanese": _n("japanese, japan"),
    "korean": _n("korean, korea, south korean, south korea", "koreans"),
    "mexican": _n("mexican, mexico", "mexicans"),
    "brazilian": _n("brazilian, brazil", "brazilians"),
    "argentine": _n("argentine, argentinian, argentina", "argentines, argentinians"),
    "chilean": _n("chilean, Chile", "chileans"),
    "colombian": _n("colombian, colombia", "colombians"),
    "cuban": _n("cuban, cuba", "cubans"),
    "filipino": _n("filipino, philippines, philippine", "filipinos"),
    "indonesian": _n("indonesian, indonesia", "indonesians"),
    "thai": _n("thai, thailand"),
    "vietnamese": _n("vietnamese, vietnam"),
}


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


#: words before a name that make it part of another name or another people ("South American",
#: "New England", "West Indian", "American Indian", "anti-American", "non-British")
_NOT_AFTER = _wordset("south latin central north west east meso pan anti non new papua american")

#: words after a name that make it a language or another place ("English-language", "British
#: Columbia", "Indian Ocean", "French Guiana")
_NOT_BEFORE = _wordset(
    "language languages speaking speaker speakers dubbed subtitles subtitled translation "
    "columbia ocean sea channel guiana polynesia guinea horn"
)

#: the people and works a nation's passages are about ("american artists", "german breeds"):
#: their passages say the nation in their lead
_WORKS = (
    "artist artists actor actors actress actresses player players writer writers author authors "
    "director directors filmmaker filmmakers singer singers musician musicians band bands act "
    "acts composer composers painter painters politician politicians athlete athletes team teams "
    "club clubs company companies film films movie movies show shows series breed breeds "
    "performer performers entertainer entertainers star stars celebrity celebrities figure figures "
    "poet poets novelist novelists playwright playwrights architect architects designer designers "
    "scientist scientists chef chefs dancer dancers comedian comedians rapper rappers"
)

#: words a term may carry besides the nation ("the brits", "those from england", "american
#: ones"), and its people and works (``_WORKS``)
_FILLER = _wordset(
    "the those ones one any anything anyone anybody people guys folks from in of made born "
    "based set stuff " + _WORKS
)

#: the people and works a query asks for by their nation ("mexican people", "british actors",
#: "german dudes", "dutch things"): the nation's word right before one of these (or before
#: another nation's and one of these: "portugese or brazilian people")
_ROLES = _wordset(
    "people guys folks dudes celebs ppl persons men women stuff things groups magazines albums "
    "novels books kings queens leaders footballers boxers " + _WORKS
)
_JOINERS = _wordset("or and n &")
#: what may follow the role word for the nation's word to name people or works of it ("british
#: actors for my essay", "mexican people, actors ..."; not "american film institute")
_AFTER_ROLE = _wordset(
    "and or n that who which whose from in of for with but not no minus except other excluding "
    "apart aside besides without like such i we to on about only pls please lol tho etc "
    "whatever who'd"
)

_WORD = re.compile(r"[A-Za-z]+(?:['\u2019][A-Za-z]+)?")


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _index() -> dict[str, str]:
    """Every name and typed form, dot-free, to its nation's key: lower-cased, but a form written
    with capitals as written ("Turkey", not the bird; "Chile", not the pepper)."""
    out: dict[str, str] = {}
    for key, nation in NATIONS.items():
        for form in (*nation.names, *nation.typed):
            words = " ".join(_words(form))
            out.setdefault(words if _exact(form) else words.lower(), key)
    return out


def _exact(name: str) -> bool:
    return any(c.isupper() for c in name)


_BY_FORM = _index()


def nation_of(term: str) -> str | None:
    """The key of the nation ``term`` names and nothing else ("the brits" -> "british", "made
    in america" -> "american"), None for any other term ("US Navy", "invasion of Italy")."""
    words = [w for w in _words(term) if w.lower() not in _FILLER]
    if not words or len(words) > 4:
        return None
    typed = " ".join(words)
    return _key(typed)


def _key(form: str) -> str | None:
    """The nation a form names, as written or lower-cased ("Turkey" as written; "americans")."""
    return _BY_FORM.get(form) or _BY_FORM.get(form.lower())


def wanted_nations(text: str) -> list[str]:
    """The nations whose people or works ``text`` (a query's positive part) asks for by their
    nation's word ("mexican people" -> "mexican"; "portugese or brazilian people" ->
    "brazilian"; not "american civil war", "greek myth"): their passages say the nation in
    their lead."""
    spans = list(_WORD.finditer(text))
    words = [m.group() for m in spans]
    lower = [w.lower() for w in words]
    out: list[str] = []
    for i, w in enumerate(words):
        key = _key(w)
        if key is None or key in out or (i and lower[i - 1] in _NOT_AFTER):
            continue  # "latin american" is no American
        j = i + 1
        while j < len(lower) and j <= i + 4 and (lower[j] in _JOINERS or _key(words[j])):
            j += 1
        if j >= len(lower) or lower[j] not in _ROLES:
            continue
        if j + 1 < len(lower):
            between = text[spans[j].end() : spans[j + 1].start()]
            if between.isspace() and lower[j + 1] not in _AFTER_ROLE:
                continue  # "american film institute": the role word is part of a name
        out.append(key)
    return out


def nation_words(text: str) -> set[str]:
    """The one-word names (lower case) of each nation ``text`` names by one word ("irish" ->
    "irish", "ireland"): a query that asks for "Irish places" has asked for "Ireland"."""
    out: set[str] = set()
    for w in _words(text):
        key = _key(w)
        if key is not None:
            out.update(n.lower() for n in NATIONS[key].names if " " not in n and "." not in n)
    return out


def names_of(key: str) -> tuple[str, ...]:
    """The names a passage calls the nation ``key`` by, its parts' names included."""
    nation = NATIONS[key]
    out = list(nation.names)
    for part in nation.parts:
        out.extend(names_of(part))
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=len(NATIONS))
def _phrases(key: str) -> tuple[tuple[tuple[str, ...], bool], ...]:
    """Each name of the nation ``key`` (:func:`names_of`) as its words, and whether it is
    matched as written (a name with capitals: "US", not the pronoun "us")."""
    out = []
    for name in names_of(key):
        exact = _exact(name)
        out.append((tuple(_words(name) if exact else _words(name.lower())), exact))
    return tuple(out)


def _lead(text: str) -> list[str]:
    """The first ``LEAD_WORDS`` words of ``text``, read no further."""
    return [m.group() for m in islice(_WORD.finditer(text), LEAD_WORDS)]


def said_in_lead(text: str, key: str) -> bool:
    """Whether the passage ``text`` names the nation ``key`` within its lead, not as part of
    another name nor as a language."""
    return _says(_lead(text), key)


def named_in(text: str, key: str) -> bool:
    """Whether ``text`` (a query's positive part) names the nation ``key`` anywhere: "Irish
    bands" left out of "Irish history and culture" leaves the bands out, not Ireland."""
    return _says(_words(text), key)


def _says(words: list[str], key: str) -> bool:
    lower = [w.lower() for w in words]
    for phrase, exact in _phrases(key):
        seq = words if exact else lower
        n = len(phrase)
        for i in range(len(seq) - n + 1):
            if tuple(seq[i : i + n]) != phrase:
                continue
            if i and lower[i - 1] in _NOT_AFTER:
                continue
            if i + n < len(lower) and lower[i + n] in _NOT_BEFORE:
                continue
            return True
    return False


def nations_in_lead(scorer: Scorer, keys: list[str], rows: np.ndarray) -> np.ndarray:
    """``[len(keys), len(rows)]``: whether each row's passage names each nation in its lead
    (:func:`said_in_lead`); False where the scorer carries no passages."""
    out = np.zeros((len(keys), len(rows)), dtype=bool)
    passages = scorer_passages(scorer)
    if passages is None or not keys:
        return out
    for col, r in enumerate(rows):
        lead = _lead(passages[int(r)])  # read once for every nation asked
        for j, key in enumerate(keys):
            out[j, col] = _says(lead, key)
    return out
