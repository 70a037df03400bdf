"""What the generators know about each passage: its words, their stems and the corpus's counts.

A passage is read once into a :class:`Passage`: its content words in order (stop and function
words dropped) as *forms*, where punctuation or a line break cuts the text, and the phrases of
one to three adjacent content words it holds. A lower-case word's form is its stem ("infants" ->
"infant"); a capitalised word's form is "^" and the word ("Peele" -> "^peele"), so a name is not
the common word it stems to. Tests of what a passage *mentions* are generous: a word counts in
either form, so an exclusion is never missed because of a capital.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from logir.data.dataset import Document

_TOKEN = re.compile(r"\w+(?:[-'\u2019]\w+)*")
_SENTENCE_END = re.compile(r"[.!?:;\n]")
_ARTICLE_WORDS = "a an the its their his her this these those our"
_ARTICLES = frozenset(_ARTICLE_WORDS.split())
_VERB_SIGNS = frozenset(("to", "the", "a", "an"))
_FUNCTION_TEXT = """
    a about above after again against all also although always among an and another any are
    around as at be because been before being below between both but by can could did do
    does doing done down during each either else even ever every few for from further had
    has have having he her here hers him his how however i if in into is it its itself just
    least less like may me might more most much must my neither never no nor not now of off
    often on once one only or other others our out over own per rather same several she
    should since so some still such than that the their them then there these they this
    those though through thus to too under until up upon us very via was we were what when
    where whether which while who whom whose why will with within without would yet you your
    first second third new used using use based including include includes included well
    whereas alongside aboard across along beyond toward towards unlike despite throughout
    inside outside onto beside near besides except apart aside excluding instead made make
    makes making take takes taken took give gives given gave known found shown seen became
    become began come came get gets got put set held kept left told said say says led
    brought built grown drawn born written late later earlier going goes went two three four
    five many
"""
#: words that never start, end or sit inside a phrase (a stop list wider than BM25's)
FUNCTION_WORDS = frozenset(_FUNCTION_TEXT.split())
#: a word this long or longer counts as mentioned where it starts a longer word
MIN_PREFIX = 4
#: a phrase is at most this many words
MAX_PHRASE_WORDS = 3
#: a passage's first this many content words count as its lead (with the title)
LEAD_WORDS = 30

#: endings of adverbs ("significantly"), which never name a topic
_ADVERB_ENDINGS = ("ally", "ously", "ively", "ently", "antly", "ably", "ibly", "arly")

Key = tuple[str, ...]


@dataclass
class Passage:
    """One document as the generators see it."""

    index: int
    doc: Document
    stems: list[str]  # content-word forms in order
    surfaces: list[tuple[int, int]]  # (start, end) of each content word in full_text
    breaks: list[bool]  # a break (punctuation, a function word) before content word i
    all_stems: frozenset[str]  # every word's form and plain stem, function words too
    words: list[str]  # every word in lower case, sorted (for prefix tests)
    title_words: int  # content words that belong to the title
    phrases: Counter[Key] = field(default_factory=Counter)  # phrase -> occurrences

    def mentions_any(self, key: Key) -> bool:
        """Whether any word of `key` occurs in the passage, in either form or as the start of a
        longer word ("NF-kappa" in "NF-kappaB", "infant" in "infantile")."""
        for s in key:
            if s in self.all_stems or plain(s) in self.all_stems:
                return True
            start = s.lstrip("^")
            if len(start) >= MIN_PREFIX:
                i = bisect.bisect_left(self.words, start)
                if i < len(self.words) and self.words[i].startswith(start):
                    return True
        return False

    def contains(self, key: Key) -> bool:
        """Whether the passage holds `key`'s content words adjacent and in order."""
        if len(key) <= MAX_PHRASE_WORDS:
            return key in self.phrases
        n = len(key)
        return any(tuple(self.stems[i : i + n]) == key for i in range(len(self.stems) - n + 1))

    def salient(self, key: Key) -> bool:
        """Whether `key` is prominent: in the title or lead, or said at least twice."""
        if self.phrases.get(key, 0) >= 2:
            return True
        n = len(key)
        lead = self.stems[: max(LEAD_WORDS, self.title_words)]
        return any(tuple(lead[i : i + n]) == key for i in range(len(lead) - n + 1))

    def surface(self, key: Key) -> str:
        """The first place `key` occurs, as written (empty when it does not occur)."""
        n = len(key)
        for i in range(len(self.stems) - n + 1):
            if tuple(self.stems[i : i + n]) == key and not any(self.breaks[i + 1 : i + n]):
                text = self.doc.full_text
                return text[self.surfaces[i][0] : self.surfaces[i + n - 1][1]]
        return ""


class Analysis:
    """Every passage of a corpus read once, with document frequencies of stems."""

    def __init__(self, docs: list[Document]) -> None:
        import Stemmer

        self._stemmer = Stemmer.Stemmer("english")
        self._stem_cache: dict[str, str] = {}
        self.lower_seen: Counter[str] = Counter()  # word -> times written in lower case
        self.mid_capital: Counter[str] = Counter()  # word -> times capitalised mid-sentence
        for d in docs:
            text, last = d.full_text, -1
            for m in _TOKEN.finditer(text):
                w = _bare(m.group())
                if w.islower():
                    self.lower_seen[w] += 1
                elif (
                    w[:1].isupper()
                    and last >= 0
                    and not _SENTENCE_END.search(text, last, m.start())
                ):
                    self.mid_capital[w.lower()] += 1
                last = m.end()
        self.occurrences: Counter[str] = Counter()  # word -> times said (lower case)
        self.after_article: Counter[str] = Counter()  # word -> times "the ... X" ends a phrase
        self.verb_place: Counter[str] = Counter()  # word -> times followed by "to", "the", "a"
        self.passages = [self._read(i, d) for i, d in enumerate(docs)]
        self.df: Counter[str] = Counter()  # form -> passages holding it
        self.phrase_df: Counter[Key] = Counter()  # phrase of 2+ words -> passages holding it
        for p in self.passages:
            self.df.update(set(p.stems))
            self.phrase_df.update(k for k in p.phrases if len(k) > 1)
        self.n = len(docs)

    def stem(self, word: str) -> str:
        """The stem of a lower-case word (cached)."""
        s = self._stem_cache.get(word)
        if s is None:
            s = self._stemmer.stemWord(word)
            self._stem_cache[word] = s
        return s

    def content(self, token: str) -> bool:
        """Whether a word as written can be (part of) a topic or an excluded thing: not a
        function word, and not a common word in capitals (a section label: "RATIONALE")."""
        word = token.lower()
        if token.isupper() and len(token) >= 4 and self.lower_seen.get(word):
            return False
        return _content(word)

    def form(self, token: str) -> str:
        """The form of a word as written: "^" + the word for a name (capitalised and never
        written in lower case in the corpus), else its stem."""
        word = token.lower()
        if token[:1].isupper() and not self.lower_seen.get(word):
            form = "^" + word
            _PLAIN.setdefault(form, self.stem(word))
            return form
        return self.stem(word)

    def key(self, text: str) -> Key:
        """The content-word forms of a text, in order (what a phrase is compared by)."""
        out = []
        for m in _TOKEN.finditer(text):
            token = _bare(m.group())
            if self.content(token):
                out.append(self.form(token))
        return tuple(out)

    def is_name(self, word: str) -> bool:
        """A word of a name: capitalised, never written in lower case in the corpus, and
        capitalised at least once where no sentence starts ("Nolan", not "Develop")."""
        low = _bare(word).lower()
        return (
            word[:1].isupper() and not self.lower_seen.get(low) and self.mid_capital.get(low, 0) > 0
        )

    def nounish(self, text: str) -> bool:
        """Whether a phrase as written can name a thing: a name (capitalised words), or
        words whose last one, in this or its singular form, ends a phrase opened by an article
        ("the icing", "an infant"; not "the raw milk") at least once in five times it is said,
        and none of which is often followed by "to" or an article ("need to", "keeps the"). So
        verbs and adjectives alone ("developing", "raw") are neither asked for nor excluded."""
        words = [_bare(w).lower() for w in text.split()]
        if not words:
            return False
        if all(self.is_name(w) for w in text.split()):
            return True
        last = words[-1]
        forms = [last]
        if last.endswith("ies"):
            forms.append(last[:-3] + "y")
        elif last.endswith("s") and not last.endswith(("ss", "us", "is")):
            forms.append(last[:-1])
        said = sum(self.occurrences.get(w, 0) for w in forms)
        heads = sum(self.after_article.get(w, 0) for w in forms)
        if said == 0 or heads * 5 < said:
            return False
        return all(self.verb_place.get(w, 0) * 5 < max(self.occurrences[w], 1) for w in words)

    def idf(self, stem: str) -> float:
        """log(N / df), the rarer the larger (a stem never seen counts as seen once)."""
        return math.log(max(self.n, 1) / max(self.df.get(stem, 0), 1))

    def phrase_text(self, passage: Passage, key: Key) -> str:
        """`key` as `passage` writes it, a capital that only starts a sentence lowered."""
        words = passage.surface(key).split()
        if words:
            words[-1] = _bare(words[-1])
        if words and words[0][:1].isupper() and words[0][1:].islower():
            low = words[0].lower()
            if self.lower_seen.get(low, 0) > 0:
                words[0] = low
        return " ".join(words)

    def _read(self, index: int, doc: Document) -> Passage:
        text = doc.full_text
        stems: list[str] = []
        spans: list[tuple[int, int]] = []
        breaks: list[bool] = []
        every: set[str] = set()
        title_end = len(doc.title) if doc.title else 0
        title_words = 0
        pending_break = True
        last_end = 0
        previous = ""  # the word before, lower case
        head = ""  # the last word of the current phrase when an article opened it
        opened = False  # whether an article opened the current phrase
        last_form = ""  # the word before (lower case) when it was a content word
        for m in _TOKEN.finditer(text):
            gap = text[last_end : m.start()]
            last_end = m.end()
            if last_form and gap.isspace() and m.group().lower() in _VERB_SIGNS:
                self.verb_place[last_form] += 1  # "need to", "keeps the": a verb's place
            last_form = ""
            if "\n" in gap or any(not (c.isspace() or c == "-") for c in gap):
                pending_break = True
            token = _bare(m.group())
            word = token.lower()
            every.add(self.stem(word))
            for part in word.split("-") if "-" in word else ():
                every.add(self.stem(part))
            after, previous = previous, word
            if not self.content(token):
                pending_break = True
                continue
            form = self.form(token)
            last_form = word
            self.occurrences[word] += 1
            if pending_break:  # a new phrase: count the last one's final word if "the" began it
                if head:
                    self.after_article[head] += 1
                opened = after in _ARTICLES
            head = word if opened else ""
            every.add(form)
            stems.append(form)
            spans.append((m.start(), m.end()))
            breaks.append(pending_break)
            pending_break = False
            if m.end() <= title_end:
                title_words += 1
        if head:
            self.after_article[head] += 1
        words = sorted({_bare(t).lower() for t in _TOKEN.findall(text)})
        passage = Passage(index, doc, stems, spans, breaks, frozenset(every), words, title_words)
        passage.phrases.update(_phrases(stems, breaks))
        return passage


def overlaps(a: Key, b: Key) -> bool:
    """Whether two phrases share a word, or a word of one starts a word of the other."""
    if set(a) & set(b):
        return True
    starts_a = [w.lstrip("^") for w in a]
    starts_b = [w.lstrip("^") for w in b]
    return any(
        min(len(x), len(y)) >= MIN_PREFIX and (x.startswith(y) or y.startswith(x))
        for x in starts_a
        for y in starts_b
    )


#: a capitalised form -> the plain stem of its word ("^peele" -> "peel")
_PLAIN: dict[str, str] = {}


def plain(form: str) -> str:
    """The plain stem behind a form (a lower-case form is one already)."""
    return _PLAIN.get(form, form)


def _bare(token: str) -> str:
    """A token without a final possessive and without apostrophes ("Nolan's" -> "Nolan")."""
    if token[-2:] in ("'s", "\u2019s"):
        token = token[:-2]
    return token.replace("'", "").replace("\u2019", "")


def _content(word: str) -> bool:
    """A word that can be (part of) a topic or an excluded thing."""
    return (
        len(word) >= 3
        and word.replace("-", "").isalpha()
        and word not in FUNCTION_WORDS
        and not word.endswith(_ADVERB_ENDINGS)
        and not (word.endswith("ed") and len(word) > 4 and not word.endswith("eed"))
    )


def _phrases(stems: list[str], breaks: list[bool]) -> Iterable[Key]:
    """Every run of one to MAX_PHRASE_WORDS adjacent content words with no break inside."""
    for i in range(len(stems)):
        for n in range(1, MAX_PHRASE_WORDS + 1):
            j = i + n
            if j > len(stems) or (n > 1 and breaks[j - 1]):
                break
            yield tuple(stems[i:j])
