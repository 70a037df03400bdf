"""Request and response bodies of the API (pydantic), with the field constraints of ``Limits``.

Request models are built per app by :func:`request_models`, so that the limits an app was created
with are the ones its validation enforces and its OpenAPI page documents.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from logir.limits import k_problem
from logir.logic.applied import AppliedKind
from logir.rerank.settings import MAX_RERANK_DEPTH
from logir.search import SEARCH_RETRIEVERS
from logir.serve.limits import Limits

Mode = Literal["auto", "syntax", "natural", "llm"]
Retriever = Literal[SEARCH_RETRIEVERS]  # type: ignore[valid-type]

MAX_COMPOSER_CHARS = 200


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty or only whitespace")
    return value


def request_models(limits: Limits) -> tuple[type[BaseModel], type[BaseModel]]:
    """The ``ParseRequest`` and ``SearchRequest`` models enforcing ``limits``."""

    class ParseRequest(_Strict):
        """A query to read into a logical form."""

        query: str = Field(
            min_length=1,
            max_length=limits.max_query_chars,
            description=f"Query text, 1 to {limits.max_query_chars} characters.",
            examples=['"vitamin D" AND NOT "bone health"'],
        )
        mode: Mode = Field(
            "auto",
            description="syntax: logir syntax; natural: rule-based decomposition; "
            "auto: syntax when the text looks like it, else natural; llm: an LLM writes the "
            "logical form (only on a server started with an LLM endpoint; natural when its "
            "form is not used, and 'fallback' says why).",
        )

        _blank = field_validator("query")(_not_blank)

    class SearchRequest(ParseRequest):
        """A query to rank the index's documents for."""

        composer: str = Field(
            "auto",
            min_length=1,
            max_length=MAX_COMPOSER_CHARS,
            description="Composer spec NAME[,key=value...]: flat, auto, exclusion (formerly "
            "hybrid), fuzzy, sets, vectors (e.g. fuzzy,and=min,depth=200: depth is the "
            "candidates per term, k the hits returned).",
        )
        k: int = Field(
            10,
            strict=True,
            description=f"Hits, 1 to {limits.max_k}.",
            json_schema_extra={"minimum": 1, "maximum": limits.max_k},
        )
        retriever: Retriever | None = Field(  # type: ignore[valid-type]
            None,
            description="bm25, dense, hybrid or splade; default: hybrid when the index "
            "has bm25 and dense, else its first retriever.",
        )

        rerank: bool | None = Field(
            None,
            strict=True,
            description="On a server started with a reader (logir serve --rerank DIR): false "
            "ranks by the first stage alone; by default its reader rereads the top hits. Refused "
            "(400) by a server without a reader.",
        )
        rerank_depth: int | None = Field(
            None,
            ge=1,
            le=MAX_RERANK_DEPTH,
            strict=True,
            description=f"First-stage hits the reader rereads, 1 to {MAX_RERANK_DEPTH} "
            "(default: the server's --rerank-depth).",
        )
        rerank_weight: float | None = Field(
            None,
            ge=0.0,
            le=1.0,
            allow_inf_nan=False,
            description="The reader's share of the final score, 0 to 1; 0 keeps the "
            "first-stage order (default: the server's --rerank-weight).",
        )

        @field_validator("k")
        @classmethod
        def _k_in_range(cls, value: int) -> int:
            problem = k_problem(value, limits.max_k)  # the message the CLI gives for -k
            if problem:
                raise ValueError(problem)
            return value

    return ParseRequest, SearchRequest


class ErrorBody(BaseModel):
    """Every 4xx/5xx answer: what is wrong, naming the field."""

    error: str = Field(description="What is wrong and where.")
    column: int | None = Field(None, description="1-based column of a query syntax error.")


class ParseResponse(BaseModel):
    query: str
    mode_used: str = Field(description="How the text was read: syntax, natural or llm.")
    fallback: str | None = Field(
        None,
        description="Mode llm only: why the LLM's form was not used (the endpoint failed, its "
        "answer was unusable, or its form was not grounded in the query); null when it was.",
    )
    logical_form: str = Field(description="The canonical logir syntax of the logical form.")
    tree: dict[str, Any] = Field(
        description='Nested {"term": s} | {"and": [...]} | {"or": [...]} | {"not": {...}}.'
    )
    terms: list[str]
    negated: list[str] = Field(description="Terms under a NOT.")
    spans: dict[str, list[int]] = Field(description="Where each term came from in the text.")
    notes: list[str] = Field(description="The decomposition rules that fired.")


class Hit(BaseModel):
    rank: int
    id: str
    title: str
    snippet: str
    score: float
    evidence: dict[str, float] = Field(
        description="Each part's score for this hit (a term, or NOT term)."
    )


class Rerank(BaseModel):
    reader: str = Field(description="The name of the reader folder the server loaded.")
    depth: int = Field(description="First-stage hits reread.")
    weight: float = Field(description="The reader's share of the final score.")


class SearchResponse(ParseResponse):
    composer: str
    retriever: str
    k: int
    composer_input: str = Field(
        description="Deprecated: the query text. The composer is handed the reading itself "
        "(mode_used, logical_form, notes); composer_logical_form is the form it ranked by."
    )
    composer_logical_form: str | None = Field(
        description="The logical form the composer used (null when it ranked the text as is)."
    )
    applied: AppliedKind = Field(
        description="What the composer applied to this query: flat (the text as is, e.g. auto "
        "for a NOT that states a property of the answer, although logical_form has a NOT), "
        "exclude (positive part minus the excluded terms' evidence), logic (term scores "
        "composed by the logical form: fuzzy, sets, vectors) or rewrite (an LLM rewrote the text)."
    )
    applied_reason: str = Field(
        description="Why, in a few words (e.g. 'the wording excludes a topic', "
        "'the negation states a property, no exclusion cue')."
    )
    evidence_is_additive: bool = Field(
        description="True when each hit's evidence values add up to its score."
    )
    explanation: list[str] = Field(
        description="What `logir search --explain` prints: the form ranked by, what the composer "
        "decided for this query and why, what the evidence numbers mean."
    )
    corrections: dict[str, str] = Field(
        default_factory=dict,
        description="Each misspelt query word BM25 read as another (word -> correction): a word "
        "neither the index nor English knows, one edit from one the index holds.",
    )
    rerank: Rerank | None = Field(
        description="The second stage that reread the top hits (null: the first stage alone). "
        "Then each hit's evidence holds 'first stage' ((1 - weight) x the first-stage score "
        "min-max normalised over the top depth), 'reader' (weight x sigmoid of the reader's "
        "score) and 'below the reranked top N' (-1 for hits below depth, which keep the "
        "first-stage order); they add up to the score."
    )
    hits: list[Hit]


class Health(BaseModel):
    status: str
    n_docs: int
    retrievers: list[str]


class Info(BaseModel):
    n_docs: int
    retrievers: list[str] = Field(description="Retrievers this index can search with.")
    default_retriever: str
    composers: list[str] = Field(
        description="Composers this server can run (the LLM rewriters need an endpoint it lacks)."
    )
    additive_composers: list[str]
    limits: dict[str, int | float]
    auth: bool
    llm: bool = Field(description="Whether mode 'llm' is offered (an LLM endpoint is set).")
    rerank: Rerank | None = Field(
        description="The reader that rereads each search's top hits (null: none)."
    )
