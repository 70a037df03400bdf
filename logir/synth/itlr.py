"""ITLR-style synthetic data: three-term Boolean queries with positives and hard negatives.

After the ITLR paper (§3.1 and appendix H). Every query follows one of the 32 three-term
templates ``[NOT] A op1 [NOT] B op2 [NOT] C`` with op in {AND, OR}, read with logir's precedence
(NOT, then AND, then OR: ``A OR B AND NOT C`` is ``A OR (B AND NOT C)``). For one query:

1. the LLM names a subject area and three topics from a seed passage of the corpus;
2. the template is filled with the topics (the logical form, in logir syntax);
3. the satisfying *categories* are the clauses of the formula's disjunctive normal form (which
   topics a document must discuss, which it must avoid; at most three for three terms); each one
   gets a positive document;
4. each hard negative takes a category and moves one topic to the other side (discussed <->
   avoided), completed with the fewest extra constraints that make the formula false; up to
   ``max_negatives`` distinct ones are kept, labelled as violating documents;
5. the LLM writes a natural question with the same logic and one passage per category.

Topic.type is the template id (T01..T32); facets carry the template, its number of negations and
its operators, for the breakdowns of the paper's Table 1.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations, product
from typing import TYPE_CHECKING, Any

from logir.data.dataset import Dataset, Document, Topic
from logir.errors import LogirError
from logir.llm import schema as js
from logir.query.ast import And, Not, Query, Term, n_negations, terms
from logir.query.syntax import parse
from logir.synth.base import ItemFailed, Unit

if TYPE_CHECKING:
    from logir.llm import ChatClient

PLACEHOLDERS = ("A", "B", "C")
OPERATORS = ("AND", "OR")

Literal = tuple[str, bool]  # (placeholder, wanted): wanted=False means the document avoids it
Spec = tuple[Literal, ...]  # a conjunction of literals, sorted by placeholder


@dataclass(frozen=True)
class Template:
    """One of the 32 three-term query shapes."""

    id: str  # "T01".."T32"
    pattern: str  # as written, e.g. "A AND NOT B OR C"
    query: Query  # parsed with the placeholders as terms

    @property
    def negations(self) -> int:
        return n_negations(self.query)

    @property
    def operators(self) -> str:
        """The two binary operators in order, e.g. "AND-OR"."""
        return "-".join(w for w in self.pattern.split() if w in OPERATORS)


def templates() -> list[Template]:
    """All 32 templates: two binary operators times a NOT or not on each of the three terms."""
    out = []
    for ops in product(OPERATORS, repeat=2):
        for negs in product((False, True), repeat=3):
            lits = [("NOT " if n else "") + p for n, p in zip(negs, PLACEHOLDERS, strict=True)]
            pattern = f"{lits[0]} {ops[0]} {lits[1]} {ops[1]} {lits[2]}"
            out.append(Template(f"T{len(out) + 1:02d}", pattern, parse(pattern)))
    return out


def evaluate(q: Query, truth: dict[str, bool]) -> bool:
    """The truth value of `q` when each term's text maps to whether a document matches it."""
    if isinstance(q, Term):
        return truth[q.text]
    if isinstance(q, Not):
        return not evaluate(q.child, truth)
    values = (evaluate(c, truth) for c in q.children)
    return all(values) if isinstance(q, And) else any(values)


def dnf(q: Query) -> list[Spec]:
    """The clauses of `q`'s disjunctive normal form, without contradictory or subsumed clauses."""

    def clauses(node: Query, negated: bool) -> list[frozenset[Literal]]:
        if isinstance(node, Term):
            return [frozenset({(node.text, not negated)})]
        if isinstance(node, Not):
            return clauses(node.child, not negated)
        parts = [clauses(c, negated) for c in node.children]
        conjunctive = isinstance(node, And) != negated  # De Morgan under a NOT
        if not conjunctive:
            return [c for part in parts for c in part]
        combined = [frozenset()]
        for part in parts:
            combined = [a | b for a in combined for b in part]
        return [c for c in combined if len({name for name, _ in c}) == len(c)]

    found = list(dict.fromkeys(clauses(q, False)))
    minimal = [c for c in found if not any(o < c for o in found)]
    return [tuple(sorted(c)) for c in minimal]


def _forces(q: Query, spec: Spec, names: tuple[str, ...], value: bool) -> bool:
    """Whether every completion of the partial assignment `spec` gives `q` the truth `value`."""
    fixed = dict(spec)
    free = [n for n in names if n not in fixed]
    for bits in product((False, True), repeat=len(free)):
        if evaluate(q, {**fixed, **dict(zip(free, bits, strict=True))}) != value:
            return False
    return True


def _falsify(q: Query, partial: dict[str, bool], names: tuple[str, ...]) -> Spec | None:
    """`partial` plus the fewest extra literals that make `q` false whatever the rest; or None."""
    free = [n for n in names if n not in partial]
    for size in range(len(free) + 1):
        for chosen in combinations(free, size):
            for bits in product((False, True), repeat=size):
                spec = tuple(sorted({**partial, **dict(zip(chosen, bits, strict=True))}.items()))
                if _forces(q, spec, names, False):
                    return spec
    return None


def hard_negatives(q: Query, positives: list[Spec], limit: int) -> list[Spec]:
    """Specs made by flipping one literal of a positive, completed until `q` is surely false."""
    names = tuple(t.text for t in terms(q))
    out: list[Spec] = []
    for spec in positives:
        for name, wanted in spec:
            flipped = dict(spec)
            flipped[name] = not wanted
            found = _falsify(q, flipped, names)
            if found is not None and found not in out:
                out.append(found)
    return out[:limit]


def fill(q: Query, mapping: dict[str, str]) -> Query:
    """`q` with each placeholder term replaced by its topic."""
    if isinstance(q, Term):
        return Term(mapping[q.text])
    if isinstance(q, Not):
        return Not(fill(q.child, mapping))
    return type(q)(*(fill(c, mapping) for c in q.children))


# -- prompts and their validation --------------------------------------------------------------

SYSTEM = (
    "You help build a test collection for search engines that must respect Boolean logic. "
    "Answer with one JSON object and nothing else."
)

TOPICS_PROMPT = """Read this passage:
<<<
{text}
>>>
Give the broad subject area of the passage in a few words, and three topics that belong to that
area. Each topic is a short noun phrase (one to five words). The three must be clearly different:
a text could talk about any one of them without the others, none may contain another, and none
may be a synonym of another.
Return JSON shaped like {{"subject": "...", "topics": ["...", "...", "..."]}}"""

DOCUMENTS_PROMPT = """A search query joins three topics with Boolean operators. NOT applies to the
topic right after it, AND binds more tightly than OR, and parentheses group explicitly:
    {logical_form}
Do two things.
1. "question": restate this query as one natural request that a person might type into a search
   box. Keep its logic exactly (what is wanted, what is excluded, how the parts combine), but use
   ordinary words instead of the capitalised operators and parentheses.
2. "passages": write {n} short passages (two to four sentences each) on the subject "{subject}",
   one per line below, in this order. A passage must clearly deal with every topic it has to
   cover, and must not mention or allude to any topic it has to avoid; topics that are not named
   for a passage may appear or not. Make the passages read like real encyclopedia or news text,
   not like answers to the query.
{specs}
Return JSON shaped like {{"question": "...", "passages": [{n} strings, in the order above]}}"""


#: answer tokens of a subject and three short topics
TOPICS_TOKENS = 128
TOPICS_SCHEMA = js.obj("topics", subject=js.string(1, 80), topics=js.array(js.string(1, 60), 3, 3))


def documents_schema(n: int) -> dict[str, Any]:
    """The JSON schema of a question and ``n`` passages."""
    return js.obj(
        "documents", question=js.string(1, 300), passages=js.array(js.string(1, 700), n, n)
    )


def documents_tokens(n: int) -> int:
    """Answer tokens of a question and ``n`` passages of two to four sentences."""
    return 96 + 128 * n


def _clean(s: Any, what: str) -> str:
    if not isinstance(s, str) or not s.strip():
        raise ValueError(f"{what} must be a non-empty string")
    return " ".join(s.split())


def _mentions(text: str, topic: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(topic.casefold())}(?!\w)", text.casefold()) is not None


def validate_topics(obj: Any) -> dict[str, Any]:
    """{"subject": str, "topics": [3 distinct short noun phrases]}."""
    if not isinstance(obj, dict):
        raise ValueError('expected a JSON object with "subject" and "topics"')
    subject = _clean(obj.get("subject"), '"subject"')
    topics = obj.get("topics")
    if not isinstance(topics, list) or len(topics) != 3:
        raise ValueError('"topics" must be a list of exactly 3 strings')
    topics = [_clean(t, f"topic {i + 1}").strip(" .\"'") for i, t in enumerate(topics)]
    for i, t in enumerate(topics):
        if not t or len(t.split()) > 6:
            raise ValueError(f"topic {i + 1} must be a short phrase of one to five words")
    folded = [t.casefold() for t in topics]
    for i, a in enumerate(folded):
        for j, b in enumerate(folded):
            if i < j and (a == b or _mentions(a, b) or _mentions(b, a)):
                raise ValueError(f"topics {i + 1} and {j + 1} overlap; they must be distinct")
    return {"subject": subject, "topics": topics}


def documents_validator(n: int, avoid: list[list[str]]) -> Callable[[Any], dict[str, Any]]:
    """Checks {"question": str, "passages": [n passages]}, none naming a topic it must avoid."""

    def validate(obj: Any) -> dict[str, Any]:
        if not isinstance(obj, dict):
            raise ValueError('expected a JSON object with "question" and "passages"')
        question = _clean(obj.get("question"), '"question"')
        if re.search(r"\b(AND|OR|NOT)\b|[()]", question):
            raise ValueError('"question" must use ordinary words, not AND/OR/NOT or parentheses')
        passages = obj.get("passages")
        if not isinstance(passages, list) or len(passages) != n:
            raise ValueError(f'"passages" must be a list of exactly {n} strings')
        passages = [_clean(p, f"passage {i + 1}") for i, p in enumerate(passages)]
        if len({p.casefold() for p in passages}) != n:
            raise ValueError("the passages must all be different")
        for i, (p, bad) in enumerate(zip(passages, avoid, strict=True)):
            for topic in bad:
                if _mentions(p, topic):
                    raise ValueError(f'passage {i + 1} mentions "{topic}", which it must avoid')
        return {"question": question, "passages": passages}

    return validate


def _spec_line(i: int, spec: Spec, names: dict[str, str]) -> str:
    cover = [f'"{names[p]}"' for p, wanted in spec if wanted]
    avoid = [f'"{names[p]}"' for p, wanted in spec if not wanted]
    parts = []
    if cover:
        parts.append("covers " + ", ".join(cover))
    if avoid:
        parts.append("avoids " + ", ".join(avoid))
    return f"Passage {i}: " + "; ".join(parts)


def _spec_json(spec: Spec, names: dict[str, str]) -> dict[str, list[str]]:
    return {
        "covers": [names[p] for p, w in spec if w],
        "avoids": [names[p] for p, w in spec if not w],
    }


class ITLRPipeline:
    """Three-term template queries with one passage per satisfying category and hard negatives.

    Options: ``per_template`` queries per template (default 10; units interleave the templates,
    so ``--max-items 32`` gives one of each), ``max_negatives`` per query (3), ``query_style``
    "natural" (the LLM's question is the query text) or "logical" (the logical form is),
    ``keep_corpus`` (add the seed corpus to the generated passages as distractors; default off,
    since its passages are not judged), ``min_words`` a seed passage needs (20).
    """

    name = "itlr"

    def __init__(
        self,
        per_template: int = 10,
        max_negatives: int = 3,
        query_style: str = "natural",
        keep_corpus: bool = False,
        min_words: int = 20,
    ) -> None:
        for opt, value, low in (
            ("per_template", per_template, 1),
            ("max_negatives", max_negatives, 0),
            ("min_words", min_words, 1),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise LogirError(f"itlr option {opt} must be an integer >= {low}, got {value!r}")
        if query_style not in ("natural", "logical"):
            raise LogirError(f"itlr option query_style must be natural or logical: {query_style!r}")
        if not isinstance(keep_corpus, bool):
            raise LogirError(f"itlr option keep_corpus must be true or false: {keep_corpus!r}")
        self.per_template = per_template
        self.max_negatives = max_negatives
        self.query_style = query_style
        self.keep_corpus = keep_corpus
        self.min_words = min_words
        self.templates = {t.id: t for t in templates()}

    def units(self, corpus: list[Document], seed: int) -> Iterator[Unit]:
        seeds = [d for d in corpus if len(d.full_text.split()) >= self.min_words]
        if not seeds:
            raise LogirError(
                f"itlr: no corpus passage has {self.min_words} words or more to take topics from"
            )
        rng = random.Random(seed)
        for i in range(self.per_template):
            for t in self.templates.values():
                doc = seeds[rng.randrange(len(seeds))]
                yield Unit(
                    key=f"{t.id}-{i:04d}",
                    payload={"template": t.id, "doc_id": doc.id, "text": doc.full_text},
                )

    def make(self, unit: Unit, client: ChatClient) -> dict[str, Any]:
        template = self.templates[unit.payload["template"]]
        picked = client.chat_json(
            [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": TOPICS_PROMPT.format(text=unit.payload["text"])},
            ],
            validate=validate_topics,
            schema=TOPICS_SCHEMA,
            max_tokens=TOPICS_TOKENS,
        )
        names = dict(zip(PLACEHOLDERS, picked["topics"], strict=True))
        query = fill(template.query, names)
        positives = dnf(template.query)
        if not positives:
            raise ItemFailed(f"template {template.pattern} has no satisfying category")
        negatives = hard_negatives(template.query, positives, self.max_negatives)
        specs = positives + negatives
        lines = "\n".join(_spec_line(i + 1, s, names) for i, s in enumerate(specs))
        answer = client.chat_json(
            [
                {"role": "system", "content": SYSTEM},
                {
                    "role": "user",
                    "content": DOCUMENTS_PROMPT.format(
                        logical_form=str(query),
                        n=len(specs),
                        subject=picked["subject"],
                        specs=lines,
                    ),
                },
            ],
            validate=documents_validator(
                len(specs), [[names[p] for p, w in s if not w] for s in specs]
            ),
            schema=documents_schema(len(specs)),
            max_tokens=documents_tokens(len(specs)),
        )
        passages = answer["passages"]
        return {
            "template": template.id,
            "pattern": template.pattern,
            "seed_doc": unit.payload["doc_id"],
            "subject": picked["subject"],
            "topics": picked["topics"],
            "logical_form": str(query),
            "question": answer["question"],
            "positives": [
                {"text": p, **_spec_json(s, names)}
                for p, s in zip(passages[: len(positives)], positives, strict=True)
            ],
            "negatives": [
                {"text": p, **_spec_json(s, names)}
                for p, s in zip(passages[len(positives) :], negatives, strict=True)
            ],
            "key": unit.key,
        }

    def assemble(self, items: list[dict[str, Any]], corpus: list[Document]) -> Dataset:
        docs: list[Document] = list(corpus) if self.keep_corpus else []
        queries: list[Topic] = []
        qrels: dict[str, dict[str, int]] = {}
        violating: dict[str, list[str]] = {}
        for item in items:
            qid = f"itlr:{item['key']}"
            pos = [f"{qid}:p{i + 1}" for i in range(len(item["positives"]))]
            neg = [f"{qid}:n{i + 1}" for i in range(len(item["negatives"]))]
            for doc_id, d in zip(pos + neg, item["positives"] + item["negatives"], strict=True):
                docs.append(Document(doc_id, d["text"]))
            template = self.templates[item["template"]]
            natural = self.query_style == "natural"
            queries.append(
                Topic(
                    id=qid,
                    text=item["question"] if natural else item["logical_form"],
                    type=template.id,
                    logical_form=item["logical_form"],
                    facets={
                        "template": template.pattern,
                        "negations": str(template.negations),
                        "operators": template.operators,
                    },
                    meta={
                        "question": item["question"],
                        "topics": item["topics"],
                        "subject": item["subject"],
                        "seed_doc": item["seed_doc"],
                        "categories": [
                            {k: d[k] for k in ("covers", "avoids")} for d in item["positives"]
                        ],
                    },
                )
            )
            qrels[qid] = {d: 1 for d in pos}
            violating[qid] = neg
        return Dataset("itlr", docs, queries, qrels, violating, meta={"generator": "logir synth"})
