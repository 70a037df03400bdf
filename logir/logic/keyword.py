"""A keyword query: what a person types into a search box ("Roman emperors but not Nero").

"Italian desserts without coffee", "Kurosawa films other than Rashomon", "antibiotic resistance
-penicillin": a short phrase that names a set of things and takes some out of it, as a boolean
NOT in a search engine does. Every passage about the excluded thing is one the person does not
want, so its penalty may be stronger than in a question or a request ("What can we know about
Loudoun House, without considering any information about Francis Scott Key?", "Compare X
(excluding Y) and Z"), where the excluded thing is an aside whose name the wanted passages often
carry themselves. The composer weighs a keyword query's penalty by its ``keyword`` factor
(BENCHMARKS.md, "A keyword query excludes harder").

A text is a keyword query when it has at most ``KEYWORD_WORDS`` words, no question mark, does not
end as a sentence does (a full stop: "Waves that result in constructive interference but not in
destructive interference." describes an answer in prose), and does not open with a question word,
an auxiliary, a request verb or a pronoun ("how to treat migraines without medication", "show me
...", "I need ..."). Linear in the text's length.

A *short* query has at most ``SHORT_WORDS`` words, whatever its form ("how to treat migraines
without medication"): its words, like a keyword query's, are mostly the topic's own. So are a
*request*'s, a text with no question mark and no question word first, however long ("famous ppl
beefing w each other - politicians, racing drivers, whoever. music beef is played out tho, skip
that"), unlike a question's framing words ("What are the ... that ..., without considering ...?").
"""

from __future__ import annotations

import re

#: the most words a keyword query has (hand-written search-box queries: 2 to 13 words)
KEYWORD_WORDS = 12

#: the most words a short query has, a question or not (chosen on the tune splits: 12 cost
#: ComLQ's exclusions a point, BENCHMARKS.md "A keyword query's positive part reads its words")
SHORT_WORDS = 10

#: first words of a question, a request or a sentence about the writer: not a keyword query
_OPENER_WORDS = (
    "what which who whom whose where when why how whether is are was were am be do does did "
    "can could would will should shall may might must has have had please provide give tell "
    "show find list explain describe analyze analyse compare contrast explore examine discuss "
    "summarize summarise introduce name identify define outline evaluate assess search look "
    "get investigate review recommend suggest detail elaborate "
    "i i'm i'd i've we we're let's let you my our"
)
OPENERS = frozenset(_OPENER_WORDS.split())

_FIRST = re.compile(r"[^\W\d_][\w'\u2019]*")


def is_keyword_query(text: str) -> bool:
    """Whether ``text`` reads as a search-box query: short, no question, no request."""
    if "?" in text or text.rstrip().rstrip("\"'\u201d)").endswith("."):
        return False
    words = text.split(None, KEYWORD_WORDS + 1)
    if not words or len(words) > KEYWORD_WORDS:
        return False
    first = _FIRST.search(words[0])
    return first is not None and first.group().lower().replace("\u2019", "'") not in OPENERS


#: a question's first words ("What ...", "How ...", "Is ...", "In which ...")
_QUESTION_START = re.compile(
    r"^\W*(?:what|which|who|whom|whose|where|when|why|how|whether|is|are|was|were|do|does|did"
    r"|can|could|would|will|should|in\s+what|in\s+which)\b",
    re.I,
)


def is_request(text: str) -> bool:
    """Whether ``text`` asks for something without asking a question: no question mark and no
    question word first ("famous ppl beefing w each other - politicians, racing drivers, whoever.
    music beef is played out tho, skip that"; not "What are ..., without ...?")."""
    return "?" not in text and not _QUESTION_START.match(text)


def is_short_query(text: str) -> bool:
    """Whether ``text`` has at most ``SHORT_WORDS`` words."""
    return len(text.split(None, SHORT_WORDS)) <= SHORT_WORDS
