"""MultiConIR-style synthetic data: condition ladders of queries and hard-negative documents.

After the MultiConIR paper (§3, appendix B). For each seed document of the corpus:

1. the LLM picks ten sentences of the document, copied verbatim, each stating a distinct
   condition (documents with fewer than ten sentences are not used);
2. it writes each condition as a short phrase, and ten descriptive-style queries, query k asking
   for conditions 1..k in flowing prose; the instruction-style query k lists conditions 1..k
   ("Find a ... that satisfies all of the following conditions: 1. ... 2. ...");
3. it rewrites each condition sentence so that it no longer holds, keeping length and style
   (``strategy`` "alter" changes a critical fact; "mislead" keeps the keywords and adds a
   misleading clause, as the paper did for its People domain);
4. the hard-negative ladder: HN k is the document with the sentences of conditions 1..k replaced
   by their rewrites, so HN k satisfies 10 - k conditions and violates the first k; the positive is
   the document itself;
5. optionally (``verify``, on by default) the LLM checks that no rewrite still meets its
   condition; an item that fails the check is recorded as failed.

The BEIR output has, per item, the topics of the published adapter (ids ``DOMAIN:i:STYLE:k``,
meta item / level / style / ladder), so ``logir eval beir`` reports Win Rate and Flip Rate; the
same rows are also written as ``OUT/DOMAIN.csv``, so ``logir eval multiconir --data OUT`` reads it.
"""

from __future__ import annotations

import csv
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from logir.data.benchmarks.multiconir import DOC_COLUMNS, DOC_SUFFIXES, LEVELS, STYLES
from logir.data.dataset import Dataset, Document, Topic
from logir.errors import LogirError
from logir.llm import schema as js
from logir.synth.base import ItemFailed, Unit

if TYPE_CHECKING:
    from logir.llm import ChatClient

N_CONDITIONS = 10
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def normalise(text: str) -> str:
    return " ".join(text.split())


def sentences(text: str) -> list[str]:
    """A plain sentence split (end punctuation, then a capital or a digit)."""
    return [s for s in _SENTENCE_END.split(normalise(text)) if s]


def locate(text: str, picked: list[str]) -> list[tuple[int, int]]:
    """Non-overlapping (start, end) spans of the picked sentences in `text`, in their order.

    Raises ValueError naming the first sentence that is not in the text (verbatim, up to
    whitespace and trailing punctuation) or that overlaps another.
    """
    spans: list[tuple[int, int]] = []
    for i, s in enumerate(picked):
        needle = normalise(s)
        found = _find_free(text, needle, spans)
        if found is None:
            trimmed = needle.rstrip(".!?;:, ")
            found = _find_free(text, trimmed, spans) if trimmed else None
        if found is None:
            raise ValueError(
                f"sentence {i + 1} is not copied verbatim from the document "
                "(or it overlaps another chosen sentence)"
            )
        a, b = found
        while b < len(text) and text[b] in ".!?":  # a copy that dropped the final stop
            b += 1
        spans.append((a, b))
    return spans


def _find_free(text: str, needle: str, taken: list[tuple[int, int]]) -> tuple[int, int] | None:
    start = text.find(needle)
    while start >= 0:
        end = start + len(needle)
        if all(end <= a or start >= b for a, b in taken):
            return start, end
        start = text.find(needle, start + 1)
    return None


def replace_spans(text: str, spans: list[tuple[int, int]], new: list[str]) -> str:
    """`text` with each span replaced by the matching new text."""
    out = text
    for (a, b), s in sorted(zip(spans, new, strict=True), reverse=True):
        out = out[:a] + s + out[b:]
    return out


def ladder(text: str, spans: list[tuple[int, int]], rewrites: list[str]) -> list[str]:
    """[positive, HN1, ..., HN10]: HN k has the first k condition sentences rewritten."""
    return [text] + [replace_spans(text, spans[:k], rewrites[:k]) for k in LEVELS]


def instruction_query(domain: str, conditions: list[str]) -> str:
    listed = " ".join(
        f"{i}. {c if c.endswith(('.', '!', '?')) else c + '.'}"
        for i, c in enumerate(conditions, start=1)
    )
    return f"Find a {domain} that satisfies all of the following conditions: {listed}"


# -- prompts and their validation --------------------------------------------------------------

SYSTEM = (
    "You help build a test collection for search engines that must handle queries with many "
    "conditions. Answer with one JSON object and nothing else."
)

EXTRACT_PROMPT = """Here is a {domain}:
<<<
{text}
>>>
Choose ten sentences of this text that each state a different, specific property of the
{domain}{features}. Copy each chosen sentence exactly as it is written, word for word and with
its punctuation; do not shorten, merge or reword anything. Two chosen sentences must not state
the same thing.
Return JSON shaped like {{"sentences": [ten strings]}}"""

QUERIES_PROMPT = """Here are ten numbered sentences, each stating one condition met by a {domain}:
{numbered}
Do two things.
1. "conditions": for each sentence, in order, a concise condition of about ten words that a
   searcher could ask for. You may paraphrase but keep the facts that make it specific.
2. "descriptive": ten search requests written as natural, flowing prose (no numbering and no
   list). Request k asks for a {domain} that meets conditions 1 to k and no others: request 1
   uses only condition 1, request 10 uses all ten.
Return JSON shaped like {{"conditions": [ten strings], "descriptive": [ten strings]}}"""

REWRITE_ALTER = """change one critical fact in it (a name, number, date, place, cause, outcome
or similar), keeping the rest of the wording"""
REWRITE_MISLEAD = """keep all of its key words but add a short clause with misleading
information that changes what the sentence says"""

REWRITE_PROMPT = """Each numbered line below gives a sentence from a {domain} and the condition
that sentence satisfies:
{numbered}
Rewrite every sentence so that it no longer satisfies its condition: {how}. Each rewrite must
keep roughly the length and the style of the original and still read naturally in place of it.
Return JSON shaped like {{"rewrites": [ten strings, in the same order]}}"""

VERIFY_PROMPT = """Each numbered line below gives a condition about a {domain} and a sentence:
{numbered}
For each line, does the sentence, read on its own, still satisfy the condition? Answer true or
false per line.
Return JSON shaped like {{"still_satisfied": [ten booleans]}}"""


def _ten(item: dict[str, Any]) -> dict[str, Any]:
    return js.array(item, N_CONDITIONS, N_CONDITIONS)


#: each task's answer schema and answer tokens (ten sentences copied; ten conditions of about
#: ten words and ten requests of 1..10 conditions; ten rewrites; ten booleans)
TASKS: dict[str, tuple[dict[str, Any], int]] = {
    "sentences": (js.obj("sentences", sentences=_ten(js.string(1, 600))), 1024),
    "queries": (
        js.obj("queries", conditions=_ten(js.string(1, 200)), descriptive=_ten(js.string(1, 1200))),
        1536,
    ),
    "rewrites": (js.obj("rewrites", rewrites=_ten(js.string(1, 600))), 1024),
    "verdicts": (js.obj("verdicts", still_satisfied=_ten(js.boolean())), 96),
}


def _strings(obj: Any, field: str, n: int = N_CONDITIONS) -> list[str]:
    if not isinstance(obj, dict):
        raise ValueError(f'expected a JSON object with "{field}"')
    values = obj.get(field)
    if not isinstance(values, list) or len(values) != n:
        raise ValueError(f'"{field}" must be a list of exactly {n} strings')
    out = []
    for i, v in enumerate(values):
        if not isinstance(v, str) or not v.strip():
            raise ValueError(f'"{field}" item {i + 1} must be a non-empty string')
        out.append(normalise(v).strip("\"'"))
    if len({v.casefold() for v in out}) != n:
        raise ValueError(f'the {n} items of "{field}" must all be different')
    return out


def sentences_validator(text: str) -> Callable[[Any], list[str]]:
    """Ten distinct sentences, each found verbatim in `text` and not overlapping."""

    def validate(obj: Any) -> list[str]:
        picked = _strings(obj, "sentences")
        locate(text, picked)
        return picked

    return validate


def validate_queries(obj: Any) -> dict[str, list[str]]:
    return {
        "conditions": _strings(obj, "conditions"),
        "descriptive": _strings(obj, "descriptive"),
    }


def rewrites_validator(originals: list[str]) -> Callable[[Any], list[str]]:
    """Ten rewrites, each different from its original and of a comparable length."""
    folded = {normalise(s).casefold() for s in originals}

    def validate(obj: Any) -> list[str]:
        out = _strings(obj, "rewrites")
        for i, (new, old) in enumerate(zip(out, originals, strict=True)):
            if new.casefold() in folded:
                raise ValueError(f"rewrite {i + 1} repeats an original sentence unchanged")
            ratio = len(new.split()) / max(1, len(old.split()))
            if not 0.5 <= ratio <= 2.0:
                raise ValueError(f"rewrite {i + 1} must keep about the length of its original")
        return out

    return validate


def validate_verdicts(obj: Any) -> list[bool]:
    if not isinstance(obj, dict):
        raise ValueError('expected a JSON object with "still_satisfied"')
    values = obj.get("still_satisfied")
    if not isinstance(values, list) or len(values) != N_CONDITIONS:
        raise ValueError(f'"still_satisfied" must be a list of exactly {N_CONDITIONS} booleans')
    if not all(isinstance(v, bool) for v in values):
        raise ValueError('"still_satisfied" must hold only true or false')
    return values


def _numbered(lines: list[str]) -> str:
    return "\n".join(f"{i}. {s}" for i, s in enumerate(lines, start=1))


class MultiConIRPipeline:
    """Ten-condition ladders from seed documents.

    Options: ``domain`` what a document is, used in prompts, queries, ids and the CSV name
    (default "document"), ``features`` examples of properties to pick (e.g. "genre, director,
    plot"), ``strategy`` "alter" or "mislead", ``verify`` the LLM check of the rewrites (true),
    ``keep_corpus`` add the unused corpus documents as distractors (false), ``max_words`` longest
    seed document (1500).
    """

    name = "multiconir"

    def __init__(
        self,
        domain: str = "document",
        features: str = "",
        strategy: str = "alter",
        verify: bool = True,
        keep_corpus: bool = False,
        max_words: int = 1500,
    ) -> None:
        if not isinstance(domain, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9 _-]*", domain):
            raise LogirError(f"multiconir option domain must be a word or two: {domain!r}")
        if strategy not in ("alter", "mislead"):
            raise LogirError(f"multiconir option strategy must be alter or mislead: {strategy!r}")
        for opt, value in (("verify", verify), ("keep_corpus", keep_corpus)):
            if not isinstance(value, bool):
                raise LogirError(f"multiconir option {opt} must be true or false: {value!r}")
        if not isinstance(max_words, int) or isinstance(max_words, bool) or max_words < 10:
            raise LogirError(f"multiconir option max_words must be an integer >= 10: {max_words!r}")
        self.domain = domain.strip()
        self.features = str(features).strip()
        self.strategy = strategy
        self.verify = verify
        self.keep_corpus = keep_corpus
        self.max_words = max_words

    @property
    def stem(self) -> str:
        """The domain as an id part and file name."""
        return re.sub(r"[^a-z0-9_-]+", "_", self.domain.lower())

    def units(self, corpus: list[Document], seed: int) -> Iterator[Unit]:
        eligible = [
            (i, d)
            for i, d in enumerate(corpus)
            if len(sentences(d.text)) >= N_CONDITIONS and len(d.text.split()) <= self.max_words
        ]
        if not eligible:
            raise LogirError(
                f"multiconir: no corpus document has {N_CONDITIONS} sentences or more "
                f"(and at most {self.max_words} words)"
            )
        random.Random(seed).shuffle(eligible)
        for i, d in eligible:
            yield Unit(key=f"doc{i:06d}", payload={"doc_id": d.id, "text": normalise(d.text)})

    def _ask(
        self, client: ChatClient, prompt: str, validate: Callable[[Any], Any], task: str
    ) -> Any:
        """The validated answer to ``prompt``; ``task`` names its schema and answer size."""
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]
        schema, tokens = TASKS[task]
        return client.chat_json(messages, validate=validate, schema=schema, max_tokens=tokens)

    def make(self, unit: Unit, client: ChatClient) -> dict[str, Any]:
        text = unit.payload["text"]
        if len(sentences(text)) < N_CONDITIONS:
            raise ItemFailed(f"the document has fewer than {N_CONDITIONS} sentences")
        features = f" (for example {self.features})" if self.features else ""
        picked = self._ask(
            client,
            EXTRACT_PROMPT.format(domain=self.domain, text=text, features=features),
            sentences_validator(text),
            "sentences",
        )
        spans = locate(text, picked)
        picked = [text[a:b] for a, b in spans]
        queries = self._ask(
            client,
            QUERIES_PROMPT.format(domain=self.domain, numbered=_numbered(picked)),
            validate_queries,
            "queries",
        )
        conditions = queries["conditions"]
        how = REWRITE_ALTER if self.strategy == "alter" else REWRITE_MISLEAD
        pairs = [f"{s} || condition: {c}" for s, c in zip(picked, conditions, strict=True)]
        rewrites = self._ask(
            client,
            REWRITE_PROMPT.format(domain=self.domain, numbered=_numbered(pairs), how=how),
            rewrites_validator(picked),
            "rewrites",
        )
        if self.verify:
            checks = [
                f"condition: {c} || sentence: {r}"
                for c, r in zip(conditions, rewrites, strict=True)
            ]
            still = self._ask(
                client,
                VERIFY_PROMPT.format(domain=self.domain, numbered=_numbered(checks)),
                validate_verdicts,
                "verdicts",
            )
            bad = [str(i + 1) for i, v in enumerate(still) if v]
            if bad:
                raise ItemFailed(
                    f"the rewrites of condition(s) {', '.join(bad)} still satisfy them"
                )
        return {
            "key": unit.key,
            "seed_doc": unit.payload["doc_id"],
            "sentences": picked,
            "conditions": conditions,
            "rewrites": rewrites,
            "instruction": [instruction_query(self.domain, conditions[:k]) for k in LEVELS],
            "descriptive": queries["descriptive"],
            "documents": ladder(text, spans, rewrites),
        }

    def assemble(self, items: list[dict[str, Any]], corpus: list[Document]) -> Dataset:
        docs: list[Document] = []
        queries: list[Topic] = []
        qrels: dict[str, dict[str, int]] = {}
        violating: dict[str, list[str]] = {}
        for i, item in enumerate(items):
            name = f"{self.stem}:{i}"
            ids = [f"{name}:{s}" for s in DOC_SUFFIXES]
            docs.extend(Document(d, t) for d, t in zip(ids, item["documents"], strict=True))
            for style in STYLES:
                for k in LEVELS:
                    qid = f"{name}:{style}:{k}"
                    queries.append(
                        Topic(
                            id=qid,
                            text=item[style][k - 1],
                            conditions=tuple(item["conditions"][:k]),
                            facets={"level": str(k), "style": style, "domain": self.stem},
                            meta={
                                "item": name,
                                "level": k,
                                "style": style,
                                "ladder": list(ids),
                                "seed_doc": item["seed_doc"],
                            },
                        )
                    )
                    qrels[qid] = {ids[0]: 1}
                    violating[qid] = [ids[1]]
        if self.keep_corpus:
            used = {item["seed_doc"] for item in items}
            docs.extend(d for d in corpus if d.id not in used)
        return Dataset("multiconir", docs, queries, qrels, violating, meta={"domain": self.stem})

    def write_extra(self, items: list[dict[str, Any]], corpus: list[Document], out: Path) -> Path:
        """OUT/DOMAIN.csv in the published MultiConIR layout (read by the multiconir adapter)."""
        columns = [*DOC_COLUMNS, *(p.format(k=k) for p in STYLES.values() for k in LEVELS)]
        path = out / f"{self.stem}.csv"
        tmp = path.with_suffix(".csv.tmp")
        with tmp.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(columns)
            for item in items:
                row = list(item["documents"])
                for style in STYLES:
                    row.extend(item[style])
                writer.writerow(row)
        tmp.replace(path)
        return path
