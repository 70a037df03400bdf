"""BoolQuestions-style synthesis: AND / OR / NOT questions over clusters of related passages.

After the BoolQuestions paper (data collection). Passages are embedded, reduced with truncated
SVD and grouped by agglomerative clustering; a unit takes two or three candidate passages of one
cluster and one operator:

- simple question: asked of one passage (its positive);
- disjunctive question: answered by each candidate on its own (all positive);
- AND: the disjunctive question plus a constraint that only one candidate meets
  (one positive, the other candidates explicit negatives);
- OR: two simple questions joined by OR and rephrased (their two passages positive, the rest
  negative);
- NOT: the disjunctive question minus a simple question (that question's passage negative, the
  rest positive).

Cyclic consistency: the LLM then answers the new question from each candidate passage alone,
and the unit fails when a positive is judged unanswerable or a negative answerable. Negatives
are stored as violating documents; positives are the qrels (grade 1).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from logir.data.dataset import Dataset, Document, Topic
from logir.errors import LogirError
from logir.llm import schema as js
from logir.query.ast import And, Not, Or, Term
from logir.synth import clustering
from logir.synth.base import ItemFailed, Unit
from logir.synth.pipeline_util import (
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

OPERATORS = ("and", "or", "not", "simple", "disjunctive")

_QUESTIONER = (
    "You write questions that test whether a search system understands Boolean logic (AND, OR, "
    "NOT) expressed in natural language. Write the way people type into a search engine, vary "
    "your wording, and keep every question under 32 words. Reply with a single JSON object and "
    "nothing else."
)
_ANSWERER = (
    "You answer questions strictly from the passage you are given and from nothing else. Reply "
    "with a single JSON object and nothing else."
)
_QUESTION_SHAPE = 'Reply with JSON only: {"question": "..."}'


def _messages(system: str, user: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def simple_messages(passage: dict[str, str]) -> list[dict[str, str]]:
    """Ask for a question that one passage answers."""
    user = (
        "Write one question that the passage below answers.\n\n"
        f"{passage_block(passage['id'], passage['text'])}\n\n{_QUESTION_SHAPE}"
    )
    return _messages(_QUESTIONER, user)


def disjunctive_messages(passages: list[dict[str, str]]) -> list[dict[str, str]]:
    """Ask for one question that every passage answers on its own."""
    block = "\n".join(passage_block(p["id"], p["text"]) for p in passages)
    user = (
        "Write one question that each of the passages below answers on its own: any single "
        "passage must be enough to answer it, so the question stays at the level of what they "
        f"have in common.\n\n{block}\n\n{_QUESTION_SHAPE}"
    )
    return _messages(_QUESTIONER, user)


def and_messages(
    question: str, positive: dict[str, str], negatives: list[dict[str, str]]
) -> list[dict[str, str]]:
    """Ask for the question narrowed by a constraint that only the positive passage meets."""
    lines = [f"[positive] {passage_block(positive['id'], positive['text'])}"]
    lines += [f"[negative] {passage_block(p['id'], p['text'])}" for p in negatives]
    block = "\n".join(lines)
    user = (
        "The new question tests whether a search system understands a conjunction (AND). "
        f'Starting from the question "{question}", add a constraint joined with "and" (or an '
        "equivalent phrasing) so that only the passage marked [positive] answers the new "
        "question, while the passages marked [negative] do not.\n\n"
        f"{block}\n\n"
        'Reply with JSON only: {"question": "the new question", "constraint": "the added '
        'constraint in a few words"}'
    )
    return _messages(_QUESTIONER, user)


def or_messages(first: str, second: str) -> list[dict[str, str]]:
    """Ask for a natural question meaning ``first OR second``."""
    user = (
        "The new question tests whether a search system understands a disjunction (OR). "
        "Rewrite the Boolean expression below as one natural question with the same meaning: "
        "a passage that answers either part answers the question.\n\n"
        f"Expression: ({first}) OR ({second})\n\n{_QUESTION_SHAPE}"
    )
    return _messages(_QUESTIONER, user)


def not_messages(base: str, excluded: str) -> list[dict[str, str]]:
    """Ask for a natural question meaning ``base AND NOT excluded``."""
    user = (
        "The new question tests whether a search system understands negation (NOT). Rewrite "
        "the Boolean expression below as one natural question with the same meaning: it asks "
        "what the first part asks and rules out whatever answers the second part.\n\n"
        f"Expression: ({base}) AND NOT ({excluded})\n\n{_QUESTION_SHAPE}"
    )
    return _messages(_QUESTIONER, user)


def answer_messages(question: str, passage: dict[str, str]) -> list[dict[str, str]]:
    """Ask whether one passage alone answers the question (the cyclic-consistency check)."""
    user = (
        "Does the passage below answer the question? Use only the passage. It answers the "
        "question only if it meets every condition of the question, exclusions included; a "
        "passage about something the question rules out does not answer it.\n\n"
        f"Question: {question}\n\n"
        f"Passage:\n{passage_block(passage['id'], passage['text'])}\n\n"
        'Reply with JSON only: {"answerable": "yes" or "no", "answer": "a brief answer, or an '
        'empty string"}'
    )
    return _messages(_ANSWERER, user)


#: answer tokens and schemas: a question of under 32 words; a question and its added
#: constraint; a yes/no with a brief answer
QUESTION_TOKENS = 96
AND_TOKENS = 160
ANSWER_TOKENS = 128
QUESTION_SCHEMA = js.obj("question", question=js.string(1, 300))
AND_SCHEMA = js.obj("and_question", question=js.string(1, 300), constraint=js.string(1, 200))
ANSWER_SCHEMA = js.obj(
    "answerable", answerable=js.enum("yes", "no"), answer=js.string(max_length=300)
)


def question_validator(obj: Any) -> dict[str, str]:
    obj = need_object(obj, ("question",))
    return {"question": need_text(obj, "question")}


def and_validator(obj: Any) -> dict[str, str]:
    obj = need_object(obj, ("question", "constraint"))
    return {"question": need_text(obj, "question"), "constraint": need_text(obj, "constraint")}


def answer_validator(obj: Any) -> dict[str, Any]:
    obj = need_object(obj, ("answerable",))
    answer = obj.get("answer")
    answer = " ".join(answer.split()) if isinstance(answer, str) else ""
    return {"answerable": need_yes_no(obj, "answerable"), "answer": answer}


class BoolQuestionsPipeline:
    """Boolean questions over topic clusters, with positives, negatives and a cyclic check.

    Options: operators (and, or, not, simple, disjunctive; comma-separated), per_cluster (units
    per cluster and operator), clusters (0 = about one per five passages), embed (dense: logir's
    bi-encoder, or tfidf), model (dense model), svd_dim, max_docs (passages sampled for
    clustering), min_words (shorter passages are not used), max_chars (passage length in
    prompts).
    """

    name = "boolquestions"

    def __init__(
        self,
        operators: str | list[str] = "and,or,not",
        per_cluster: int = 1,
        clusters: int = 0,
        embed: str = "dense",
        model: str | None = None,
        svd_dim: int = 64,
        max_docs: int = 5000,
        min_words: int = 8,
        max_chars: int = 1500,
    ) -> None:
        self.operators = list_option("boolquestions", "operators", operators, OPERATORS)
        self.per_cluster = int_option("boolquestions", "per_cluster", per_cluster, 1)
        self.clusters = int_option("boolquestions", "clusters", clusters, 0)
        if embed not in clustering.EMBEDDINGS:
            raise LogirError(
                f"boolquestions option embed must be {' or '.join(clustering.EMBEDDINGS)}, "
                f"got {embed!r}"
            )
        self.embed = embed
        self.model = model or None
        self.svd_dim = int_option("boolquestions", "svd_dim", svd_dim, 1)
        self.max_docs = int_option("boolquestions", "max_docs", max_docs, 2)
        self.min_words = int_option("boolquestions", "min_words", min_words, 1)
        self.max_chars = int_option("boolquestions", "max_chars", max_chars, 100)

    # -- units -----------------------------------------------------------------------------
    def clusters_of(self, corpus: list[Document], seed: int) -> list[list[Document]]:
        """The topic clusters of (a seeded sample of) the corpus, each in corpus order."""
        docs = [d for d in corpus if len(d.full_text.split()) >= self.min_words]
        if len(docs) < 2:
            raise LogirError(
                f"boolquestions: needs at least 2 passages of {self.min_words} words or more, "
                f"the corpus has {len(docs)}"
            )
        if len(docs) > self.max_docs:  # sample first, as the paper does, to bound the cost
            rows = sorted(
                random.Random(f"boolq-sample:{seed}").sample(range(len(docs)), self.max_docs)
            )
            docs = [docs[r] for r in rows]
        n_clusters = self.clusters or max(1, round(len(docs) / 5))
        matrix = clustering.embed([d.full_text for d in docs], self.embed, self.model)
        return [
            [docs[r] for r in rows]
            for rows in clustering.cluster(matrix, n_clusters, self.svd_dim, seed)
        ]

    def units(self, corpus: list[Document], seed: int) -> Iterator[Unit]:
        groups = [g for g in self.clusters_of(corpus, seed) if len(g) >= 2]
        if not groups:
            raise LogirError(
                "boolquestions: no cluster has two passages; lower the 'clusters' option"
            )
        for c, members in enumerate(groups):
            seen: set[tuple[str, tuple[str, ...], tuple[str, ...]]] = set()
            for j in range(self.per_cluster):
                for op in self.operators:
                    unit = self._unit(c, j, op, members, seed, seen)
                    if unit is not None:
                        yield unit

    def _unit(
        self,
        c: int,
        j: int,
        op: str,
        members: list[Document],
        seed: int,
        seen: set[tuple[str, tuple[str, ...], tuple[str, ...]]],
    ) -> Unit | None:
        rng = random.Random(f"boolq:{seed}:{c}:{op}:{j}")
        for _ in range(10):  # a few draws to avoid repeating a unit within the cluster
            n = 1 if op == "simple" else min(rng.choice((2, 3)), len(members))
            picked = [members[i] for i in sorted(rng.sample(range(len(members)), n))]
            ids = [d.id for d in picked]
            if op == "and":
                positives = [rng.choice(ids)]
            elif op == "or":
                positives = sorted(rng.sample(ids, 2), key=ids.index)
            elif op == "not":
                excluded = rng.choice(ids)
                positives = [i for i in ids if i != excluded]
            else:  # simple, disjunctive
                positives = list(ids)
            ident = (op, tuple(ids), tuple(positives))
            if ident in seen:
                continue
            seen.add(ident)
            return Unit(
                key=f"c{c:04d}-{op}-{j}:{ids_part(ids)}",
                payload={
                    "operator": op,
                    "qid": f"{op}-c{c:04d}-{j}",
                    "cluster": c,
                    "passages": [
                        {"id": d.id, "text": clip(d.full_text, self.max_chars)} for d in picked
                    ],
                    "positives": positives,
                    "negatives": [i for i in ids if i not in positives],
                },
            )
        return None

    # -- one item --------------------------------------------------------------------------
    def make(self, unit: Unit, client: ChatClient) -> dict[str, Any]:
        payload = unit.payload
        op = payload["operator"]
        passages = {p["id"]: p for p in payload["passages"]}
        positives, negatives = payload["positives"], payload["negatives"]

        def ask(messages: list[dict[str, str]]) -> str:
            return client.chat_json(
                messages,
                validate=question_validator,
                schema=QUESTION_SCHEMA,
                max_tokens=QUESTION_TOKENS,
            )["question"]

        def simple(doc_id: str) -> str:
            return ask(simple_messages(passages[doc_id]))

        def disjunctive() -> str:
            return ask(disjunctive_messages(list(passages.values())))

        atoms: dict[str, Any] = {}
        form: str | None = None
        conditions: list[str] = []
        if op == "simple":
            question = simple(positives[0])
        elif op == "disjunctive":
            question = disjunctive()
        elif op == "and":
            base = disjunctive()
            got = client.chat_json(
                and_messages(base, passages[positives[0]], [passages[i] for i in negatives]),
                validate=and_validator,
                schema=AND_SCHEMA,
                max_tokens=AND_TOKENS,
            )
            question, constraint = got["question"], got["constraint"]
            atoms = {"disjunctive": base, "constraint": constraint}
            conditions = [base, constraint]
            form = str(And(Term(base), Term(constraint)))
        elif op == "or":
            first, second = simple(positives[0]), simple(positives[1])
            question = ask(or_messages(first, second))
            atoms = {"simple": {positives[0]: first, positives[1]: second}}
            conditions = [first, second]
            form = str(Or(Term(first), Term(second)))
        else:  # not
            base, excluded = disjunctive(), simple(negatives[0])
            question = ask(not_messages(base, excluded))
            atoms = {"disjunctive": base, "simple": {negatives[0]: excluded}}
            conditions = [base, excluded]
            form = str(And(Term(base), Not(Term(excluded))))

        answers = self._cyclic_check(client, question, passages, positives, negatives)
        return {
            "qid": payload["qid"],
            "operator": op,
            "question": question,
            "positives": positives,
            "negatives": negatives,
            "cluster": payload["cluster"],
            "atoms": atoms,
            "conditions": conditions,
            "logical_form": form,
            "answers": answers,
        }

    @staticmethod
    def _cyclic_check(
        client: ChatClient,
        question: str,
        passages: dict[str, dict[str, str]],
        positives: list[str],
        negatives: list[str],
    ) -> dict[str, str]:
        """Answer ``question`` from each labelled passage; ItemFailed on any disagreement."""
        answers: dict[str, str] = {}
        problems = []
        for doc_id in [*positives, *negatives]:
            got = client.chat_json(
                answer_messages(question, passages[doc_id]),
                validate=answer_validator,
                schema=ANSWER_SCHEMA,
                max_tokens=ANSWER_TOKENS,
            )
            wanted = doc_id in positives
            if got["answerable"] != wanted:
                role = "positive" if wanted else "negative"
                said = "answers" if got["answerable"] else "does not answer"
                problems.append(f"{role} passage {doc_id} {said} the question")
            answers[doc_id] = got["answer"]
        if problems:
            raise ItemFailed(f"cyclic consistency failed: {'; '.join(problems)}")
        return answers

    # -- the dataset -----------------------------------------------------------------------
    def assemble(self, items: list[dict[str, Any]], corpus: list[Document]) -> Dataset:
        known = {d.id for d in corpus}
        queries: list[Topic] = []
        qrels: dict[str, dict[str, int]] = {}
        violating: dict[str, list[str]] = {}
        for item in items:
            qid = item["qid"]
            missing = [i for i in [*item["positives"], *item["negatives"]] if i not in known]
            if missing:
                raise LogirError(
                    f"boolquestions: question {qid} labels passage(s) {', '.join(missing)} that "
                    "are not in the corpus; synthesise again into a fresh folder"
                )
            op = item["operator"]
            queries.append(
                Topic(
                    id=qid,
                    text=item["question"],
                    type=op,
                    logical_form=item.get("logical_form"),
                    conditions=tuple(item.get("conditions") or ()),
                    facets={"type": op, "negations": "1" if op == "not" else "0"},
                    meta={
                        "cluster": item["cluster"],
                        "atoms": item.get("atoms") or {},
                        "answers": item.get("answers") or {},
                    },
                )
            )
            qrels[qid] = dict.fromkeys(item["positives"], 1)
            if item["negatives"]:
                violating[qid] = list(item["negatives"])
        return Dataset(
            name="boolquestions",
            corpus=list(corpus),
            queries=queries,
            qrels=qrels,
            violating=violating,
            meta={"synthesised_by": "logir.synth.boolquestions"},
        )
