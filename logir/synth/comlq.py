"""ComLQ-style synthesis: complex logical queries of 14 types over passages of one title.

After the ComLQ paper (data synthesis section). For one unit (a query type and a group of one
to three passages sharing a title):

1. a subgraph-guided prompt (type definition, subgraph indicator, a demonstration) asks the LLM
   for a query of that type grounded in the passages, with its answer, the triplets of its
   structure and the supporting passages, which must be all of the group's passages so that
   the evidence is spread over them;
2. a second call checks structure conformity and evidence distribution (the paper's expert
   criteria); a "no" fails the unit with the reviewer's reason;
3. graded qrels as the paper defines them: 2 for a query whose evidence is one passage, 1 for
   each passage when the evidence spans two or three.

The corpus of the dataset is the groups' passages plus distractor passages whose titles are
disjoint from every query's title (chosen per unit from the seed). Topic.type is the ComLQ
label with its evidence count ("3in_2"), so ``logir.data.benchmarks.comlq`` reads the output.
An untitled passage is a group of its own, so over an untitled corpus every query has one
evidence passage.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from logir.data.benchmarks.comlq import COMLQ_TYPES, type_facets
from logir.data.dataset import Dataset, Document, Topic
from logir.errors import LogirError
from logir.llm import schema as js
from logir.query.ast import And, Not, Or, Query, Term
from logir.synth.base import ItemFailed, Unit
from logir.synth.comlq_types import QUERY_TYPES, Form, QueryType
from logir.synth.pipeline_util import (
    bool_option,
    ids_part,
    int_option,
    list_option,
    need_object,
    need_text,
    need_yes_no,
    passage_block,
)
from logir.text import clip

if TYPE_CHECKING:
    from logir.llm import ChatClient

NEGATION_MARKS = ("NOT ", "¬")
ALL_TYPES = ",".join(COMLQ_TYPES)

_GENERATOR_ROLE = (
    "You write search queries that follow an exact logical structure and are grounded in the "
    "passages you are given. You reply with a single JSON object and nothing else."
)
_REVIEWER_ROLE = (
    "You review generated benchmark queries for their logical structure and their evidence. "
    "You reply with a single JSON object and nothing else."
)
_LEGEND = (
    "(E1, E2, E3: constant entities the query names; R1, R2, R3: relations; ?v, ?w: "
    "intermediate entities the query must not name; ?t: the target, that is the answer.)"
)


def is_negated(triplet: list[str]) -> bool:
    """Whether a triplet's relation carries the negation mark."""
    relation = triplet[1].lstrip()
    return relation.upper().startswith(NEGATION_MARKS[0]) or relation.startswith(NEGATION_MARKS[1])


def _words(triplets: list[list[str]], indices: list[int]) -> str:
    """The constant words of some triplets: variables dropped, negation marks removed."""
    words = []
    for i in indices:
        head, relation, tail = triplets[i]
        relation = relation.strip()
        for mark in NEGATION_MARKS:
            if relation.upper().startswith(mark.upper()):
                relation = relation[len(mark) :].strip()
        words += [w for w in (head, relation, tail) if w.strip() and not w.strip().startswith("?")]
    return " ".join(words)


def logical_form(qtype: QueryType, triplets: list[list[str]]) -> str | None:
    """The query's Boolean form in logir syntax, built from its triplets; None for pure chains
    or when a part has no constant words."""
    if qtype.form is None:
        return None

    def build(form: Form) -> Query | None:
        if isinstance(form, list):
            text = _words(triplets, form)
            return Term(text) if text.strip() else None
        op, *parts = form
        children = [build(p) for p in parts]
        if any(c is None for c in children):
            return None
        if op == "not":
            return Not(children[0])  # type: ignore[arg-type]
        return (And if op == "and" else Or)(children)  # type: ignore[arg-type]

    query = build(qtype.form)
    return None if query is None else str(query)


def _demonstration(qtype: QueryType) -> str:
    passages = "\n".join(f"[{label}] {text}" for label, text in qtype.demo["passages"].items())
    return f"{passages}\n{json.dumps(qtype.demo['output'], ensure_ascii=False)}"


def generation_messages(
    qtype: QueryType, passages: list[dict[str, str]], title: str
) -> list[dict[str, str]]:
    """The subgraph-guided prompt for one query of ``qtype`` over ``passages``."""
    n = len(passages)
    ids = ", ".join(p["id"] for p in passages)
    if qtype.negations:
        negation = (
            f"exactly {qtype.negations} excluded condition, phrased as a negation in the query"
        )
        negated = 'write the negated triplet with its relation starting with "NOT "'
    else:
        negation, negated = "no negation", "no triplet is negated"
    if n == 1:
        evidence = "The single passage below must hold all the evidence on its own."
    else:
        evidence = (
            f"The evidence must be spread over all {n} passages: each one supplies at least "
            "one fact the query needs, and no passage is enough on its own."
        )
    block = "\n".join(passage_block(p["id"], p["text"]) for p in passages)
    about = f' (all from the article "{title}")' if title else ""
    user = f"""Write one ComLQ query of type {qtype.name}.

Query type {qtype.name}
Definition: {qtype.definition}
Subgraph indicator: {qtype.indicator}
{_LEGEND}
Core idea: {qtype.core_idea}

Requirements:
1. Every fact behind the query and its answer is stated in the passages below; use nothing else.
2. The query follows the indicator exactly: {qtype.edges} relation(s) and {negation}; it names \
neither the answer nor any intermediate entity.
3. "triplets" lists the {qtype.edges} triplet(s) of the indicator in its order as [head, \
relation, tail], filled with the entities and relations of your query; keep ?v, ?w and ?t as \
variables; {negated}.
4. {evidence} "evidence" lists the ids of the supporting passages: {ids}.
5. Phrase the query the way a person types it into a search engine: one sentence, at most 40 \
words.

Demonstration (its passages are labelled D1, D2):
{_demonstration(qtype)}

Passages{about}:
{block}

Reply with JSON only, in this shape:
{{"query": "...", "answer": "...", "triplets": [["head", "relation", "tail"], ...], \
"evidence": ["passage id", ...]}}"""
    return [{"role": "system", "content": _GENERATOR_ROLE}, {"role": "user", "content": user}]


def generation_validator(qtype: QueryType, ids: list[str]) -> Any:
    """A chat_json validator for the generated sample: shapes, triplet count and negation count,
    evidence covering exactly the given passages."""

    def validate(obj: Any) -> dict[str, Any]:
        obj = need_object(obj, ("query", "answer", "triplets", "evidence"))
        query = need_text(obj, "query")
        answer = obj["answer"]
        if isinstance(answer, list) and answer and all(isinstance(a, str) for a in answer):
            answer = ", ".join(a.strip() for a in answer if a.strip())
            obj = {**obj, "answer": answer}
        answer = need_text(obj, "answer")
        triplets = obj["triplets"]
        if not isinstance(triplets, list) or len(triplets) != qtype.edges:
            raise ValueError(
                f'"triplets" must be a list of exactly {qtype.edges} [head, relation, tail] '
                f"triplet(s) for a {qtype.name} query"
            )
        clean = []
        for i, t in enumerate(triplets):
            if (
                not isinstance(t, list)
                or len(t) != 3
                or not all(isinstance(x, str) and x.strip() for x in t)
            ):
                raise ValueError(f"triplet {i + 1} must be a list of 3 non-empty strings")
            clean.append([" ".join(x.split()) for x in t])
        negated = sum(is_negated(t) for t in clean)
        if negated != qtype.negations:
            raise ValueError(
                f"a {qtype.name} query has {qtype.negations} negated triplet(s) (relation "
                f'starting with "NOT "), the answer has {negated}'
            )
        evidence = obj["evidence"]
        if not isinstance(evidence, list) or not all(isinstance(e, str | int) for e in evidence):
            raise ValueError('"evidence" must be a list of passage ids')
        evidence = list(dict.fromkeys(str(e).strip() for e in evidence))
        unknown = [e for e in evidence if e not in ids]
        if unknown:
            raise ValueError(
                f"evidence {', '.join(unknown)} is not among the passages ({', '.join(ids)})"
            )
        missing = [i for i in ids if i not in evidence]
        if missing:
            raise ValueError(f"the evidence must use every passage; missing {', '.join(missing)}")
        return {"query": query, "answer": answer, "triplets": clean, "evidence": evidence}

    return validate


def conformity_messages(
    qtype: QueryType, sample: dict[str, Any], passages: list[dict[str, str]]
) -> list[dict[str, str]]:
    """The review prompt: structure conformity and evidence distribution, yes or no."""
    triplets = "\n".join(f"  ({h}, {r}, {t})" for h, r, t in sample["triplets"])
    block = "\n".join(passage_block(p["id"], p["text"]) for p in passages)
    if len(passages) == 1:
        spread = "the one passage supports the answer on its own"
    else:
        spread = (
            f"answering needs every one of the {len(passages)} passages: each contributes a "
            "fact, and no single passage suffices"
        )
    user = f"""Review a query that should have the ComLQ structure {qtype.name}.

Definition: {qtype.definition}
Subgraph indicator: {qtype.indicator}
{_LEGEND}

Query: {sample["query"]}
Answer: {sample["answer"]}
Triplets:
{triplets}
Supporting passages:
{block}

Check two things:
1. Structure conformity: read literally, the query has exactly the structure of the indicator \
(the same named entities, hops and conditions, combined the same way, with any exclusion on the \
right part); it names neither the answer nor an intermediate entity; the triplets describe the \
query faithfully.
2. Evidence distribution: {spread}.

Reply with JSON only: {{"conforms": "yes" or "no", "reason": "one sentence"}}"""
    return [{"role": "system", "content": _REVIEWER_ROLE}, {"role": "user", "content": user}]


#: answer tokens of a generated sample (query, answer, up to 4 triplets, evidence ids)
GENERATION_TOKENS = 512
#: answer tokens of a yes/no review with a one-sentence reason
CONFORMITY_TOKENS = 160
CONFORMITY_SCHEMA = js.obj(
    "conformity", conforms=js.enum("yes", "no"), reason=js.string(max_length=300)
)


def generation_schema(qtype: QueryType, ids: list[str]) -> dict[str, Any]:
    """The JSON schema of a generated sample: ``qtype.edges`` triplets, every passage as
    evidence."""
    triplet = js.array(js.string(1, 120), 3, 3)
    return js.obj(
        "comlq_sample",
        query=js.string(1, 400),
        answer=js.string(1, 200),
        triplets=js.array(triplet, qtype.edges, qtype.edges),
        evidence=js.array(js.enum(*ids), len(ids), len(ids)),
    )


def conformity_validator(obj: Any) -> dict[str, Any]:
    obj = need_object(obj, ("conforms",))
    reason = obj.get("reason")
    reason = " ".join(reason.split()) if isinstance(reason, str) else ""
    return {"conforms": need_yes_no(obj, "conforms"), "reason": reason}


def _group_key(doc: Document) -> str:
    """Passages of one article share their title; an untitled passage is a group of its own."""
    return f"title:{doc.title}" if doc.title.strip() else f"doc:{doc.id}"


class ComLQPipeline:
    """Complex logical queries of the 14 ComLQ types over passages of one title.

    Options: types (comma-separated, default all 14), per_type (units per type), max_passages
    (evidence spread over at most this many passages), distractors (passages with disjoint
    titles added per query), full_corpus (keep the whole input corpus instead of the sampled
    passages and distractors), max_chars (passage length in prompts).
    """

    name = "comlq"

    def __init__(
        self,
        types: str | list[str] = ALL_TYPES,
        per_type: int = 10,
        max_passages: int = 3,
        distractors: int = 3,
        full_corpus: bool = False,
        max_chars: int = 2000,
    ) -> None:
        self.types = list_option("comlq", "types", types, COMLQ_TYPES)
        self.per_type = int_option("comlq", "per_type", per_type, 1)
        self.max_passages = int_option("comlq", "max_passages", max_passages, 1)
        self.distractors = int_option("comlq", "distractors", distractors, 0)
        self.full_corpus = bool_option("comlq", "full_corpus", full_corpus)
        self.max_chars = int_option("comlq", "max_chars", max_chars, 100)

    # -- units -----------------------------------------------------------------------------
    def _plan(self, groups: list[list[Document]], seed: int) -> list[tuple[str, int, list]]:
        """(type, round, passages) for every unit, types interleaved round by round."""
        plan = []
        seen: set[tuple[str, tuple[str, ...]]] = set()
        by_size = {n: [g for g in groups if len(g) >= n] for n in range(1, self.max_passages + 1)}
        for i in range(self.per_type):
            for name in self.types:
                rng = random.Random(f"comlq:{seed}:{name}:{i}")
                qtype = QUERY_TYPES[name]
                for _ in range(10):  # a few draws to avoid repeating a (type, passages) pair
                    n = rng.randint(1, min(qtype.max_passages, self.max_passages))
                    while not by_size[n]:  # n = 1 always has groups: the corpus is not empty
                        n -= 1
                    eligible = by_size[n]
                    group = eligible[rng.randrange(len(eligible))]
                    picked = [group[j] for j in sorted(rng.sample(range(len(group)), n))]
                    ident = (name, tuple(d.id for d in picked))
                    if ident not in seen:
                        seen.add(ident)
                        plan.append((name, i, picked))
                        break
        return plan

    def units(self, corpus: list[Document], seed: int) -> Iterator[Unit]:
        if not corpus:
            raise LogirError("comlq: the corpus is empty")
        by_group: dict[str, list[Document]] = {}
        for doc in corpus:
            by_group.setdefault(_group_key(doc), []).append(doc)
        plan = self._plan(list(by_group.values()), seed)
        used = {_group_key(picked[0]) for _, _, picked in plan}
        pool = [d for d in corpus if _group_key(d) not in used]
        order = {d.id: i for i, d in enumerate(corpus)}
        for name, i, picked in plan:
            group = _group_key(picked[0])
            rng = random.Random(f"comlq-distractors:{seed}:{name}:{i}")
            candidates = pool or [d for d in corpus if _group_key(d) != group]
            chosen = rng.sample(candidates, min(self.distractors, len(candidates)))
            ids = [d.id for d in picked]
            yield Unit(
                key=f"{name}-{i:04d}:{ids_part(ids)}",
                payload={
                    "type": name,
                    "qid": f"{name}-{i:04d}",
                    "title": picked[0].title,
                    "group": group,
                    "passages": [
                        {"id": d.id, "text": clip(d.text, self.max_chars)} for d in picked
                    ],
                    "distractors": sorted((d.id for d in chosen), key=order.__getitem__),
                },
            )

    # -- one item --------------------------------------------------------------------------
    def make(self, unit: Unit, client: ChatClient) -> dict[str, Any]:
        payload = unit.payload
        qtype = QUERY_TYPES[payload["type"]]
        passages = payload["passages"]
        ids = [p["id"] for p in passages]
        sample = client.chat_json(
            generation_messages(qtype, passages, payload.get("title", "")),
            validate=generation_validator(qtype, ids),
            schema=generation_schema(qtype, ids),
            max_tokens=GENERATION_TOKENS,
        )
        verdict = client.chat_json(
            conformity_messages(qtype, sample, passages),
            validate=conformity_validator,
            schema=CONFORMITY_SCHEMA,
            max_tokens=CONFORMITY_TOKENS,
        )
        if not verdict["conforms"]:
            raise ItemFailed(f"structure check said no: {verdict['reason'] or 'no reason given'}")
        return {
            "qid": payload["qid"],
            "type": qtype.name,
            "query": sample["query"],
            "answer": sample["answer"],
            "triplets": sample["triplets"],
            "evidence": sample["evidence"],
            "logical_form": logical_form(qtype, sample["triplets"]),
            "title": payload.get("title", ""),
            "group": payload["group"],
            "distractors": payload["distractors"],
            "check": verdict["reason"],
        }

    # -- the dataset -----------------------------------------------------------------------
    def assemble(self, items: list[dict[str, Any]], corpus: list[Document]) -> Dataset:
        known = {d.id for d in corpus}
        queries: list[Topic] = []
        qrels: dict[str, dict[str, int]] = {}
        gold: set[str] = set()
        groups: set[str] = set()
        for item in items:
            evidence = item["evidence"]
            missing = [e for e in evidence if e not in known]
            if missing:
                raise LogirError(
                    f"comlq: query {item['qid']} cites passage(s) {', '.join(missing)} that are "
                    "not in the corpus; synthesise again into a fresh folder"
                )
            label = f"{item['type']}_{len(evidence)}"
            queries.append(
                Topic(
                    id=item["qid"],
                    text=item["query"],
                    type=label,
                    logical_form=item.get("logical_form"),
                    facets=type_facets(label),
                    meta={
                        "answer": item["answer"],
                        "triplets": item["triplets"],
                        "evidence": evidence,
                        "title": item.get("title", ""),
                    },
                )
            )
            grade = 2 if len(evidence) == 1 else 1
            qrels[item["qid"]] = dict.fromkeys(evidence, grade)
            gold.update(evidence)
            groups.add(item["group"])
        if self.full_corpus:
            docs = list(corpus)
        else:
            keep = set(gold)
            for item in items:
                keep.update(item["distractors"])
            # a distractor must not share a title with any query of the dataset
            docs = [
                d for d in corpus if d.id in gold or (d.id in keep and _group_key(d) not in groups)
            ]
        return Dataset(
            name="comlq",
            corpus=docs,
            queries=queries,
            qrels=qrels,
            meta={"synthesised_by": "logir.synth.comlq", "distractors": len(docs) - len(gold)},
        )
