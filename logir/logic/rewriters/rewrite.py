"""Query rewriting with an LLM: what HyDE, LameR, InteR and AGR share.

A rewriter asks an LLM for passages that might answer the query text (each method asks differently:
``hyde.py``, ``lamer.py``, ``inter.py``, ``agr.py``), then retrieves with the query *expanded*
by them:

- over a scorer with query vectors (dense, SPLADE: a ``VectorScorer``) the query vector is the mean
  of the query's vector and the passages' vectors (HyDE's formula); documents are scored by dot
  product with it;
- over any other scorer (BM25, hybrid) the query text is repeated once per passage and followed by
  the passages, the expansion LameR and InteR use with BM25 (the repeats keep the query's words
  from being swamped by the longer passages).

When the endpoint fails (after the client's retries), the query is ranked exactly as ``flat`` ranks
it and counted in ``fallbacks``; after ``DOWN_AFTER`` failures in a row the client's endpoint is
taken to be down, and every rewriter using that client ranks its remaining queries flat without
asking (a new client asks again). The client caches every answer on disk, so
a second run asks nothing again. Sampling follows ComLQ's reproduction (temperature 0.5); sample
``i`` of a query is asked with seed ``i``, so samples differ and each is cached on its own.
"""

from __future__ import annotations

import threading
import weakref
from abc import abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import numpy as np
import scipy.sparse as sp

from logir.errors import LogirError
from logir.index.base import Scorer, VectorScorer
from logir.logic.contract import MAX_SAMPLES, Composer, Param, StateCache
from logir.logic.flat import Flat
from logir.logic.ranking import Ranking
from logir.query.reading import Reading
from logir.text import clip

if TYPE_CHECKING:
    from logir.llm import ChatClient

Messages = list[dict[str, str]]
T = TypeVar("T")

#: consecutive failed requests after which the endpoint is taken to be down for this composer
DOWN_AFTER = 3
#: retrieved passages shown to the LLM are cut to about this many characters each
PASSAGE_CHARS = 1000
#: answer tokens of a written passage: the prompts ask for about 100 words (about 130 tokens)
PASSAGE_TOKENS = 200
#: answer tokens of a JSON answer (an analysis, a list of queries)
JSON_TOKENS = 400
#: the system message of every rewriting prompt
SYSTEM = (
    "You support a search engine. You write short factual passages of the kind found in a "
    "document collection (encyclopedia articles, reference texts), never a conversation."
)


@dataclass(frozen=True)
class Expansion:
    """A query and the LLM passages that expand it; no passages means the query fell back."""

    query: str
    passages: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The expanded text for scorers without query vectors: the query once per passage,
        then the passages."""
        return " ".join([self.query] * len(self.passages) + list(self.passages))


class _Health:
    """Failures in a row of one client's endpoint, shared by every rewriter using the client."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.in_a_row = 0
        self.down = False
        self.last_error: str | None = None

    def answered(self) -> None:
        with self._lock:
            self.in_a_row = 0

    def failed(self, error: str) -> None:
        with self._lock:
            self.in_a_row += 1
            self.last_error = error
            self.down = self.down or self.in_a_row >= DOWN_AFTER


_HEALTH: weakref.WeakKeyDictionary[Any, _Health] = weakref.WeakKeyDictionary()
_HEALTH_LOCK = threading.Lock()


def _health_of(llm: ChatClient) -> _Health:
    with _HEALTH_LOCK:
        health = _HEALTH.get(llm)
        if health is None:
            health = _HEALTH[llm] = _Health()
        return health


@dataclass
class _State:
    expansion: Expansion
    vector: Any = field(default=None, repr=False)


def numbered(passages: Sequence[str]) -> str:
    """Passages as a numbered list for a prompt, one per line, each clipped."""
    return "\n".join(f"[{i}] {clip(p, PASSAGE_CHARS)}" for i, p in enumerate(passages, start=1))


def sample_messages(prompt: str) -> Messages:
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]


class Rewriter(Composer):
    """Base of the rewriting composers: LLM calls, fallbacks, and retrieval with an expansion.

    A subclass implements ``expand(queries, scorer)``: for each query, the passages the LLM wrote
    (or None where a request failed). It may use ``ask`` (LLM requests, in parallel),
    ``retrieve`` (top rows of expanded queries) and ``passage_texts`` (corpus passages by row).
    """

    name: ClassVar[str] = "rewrite"
    #: get_composer gives these composers the ChatClient and the corpus texts
    uses_llm: ClassVar[bool] = True
    reads_logical_form: ClassVar[bool] = False
    PARAMS: ClassVar[dict[str, Param]] = {
        "n": Param("n", int, minimum=1, maximum=MAX_SAMPLES),
        "temperature": Param("temperature", float, minimum=0.0, maximum=2.0),
    }

    def __init__(
        self,
        llm: ChatClient,
        passages: Sequence[str] | None = None,
        n: int = 4,
        temperature: float = 0.5,
    ) -> None:
        if n < 1:
            raise ValueError(f"n must be at least 1, got {n}")
        self.llm = llm
        self.corpus = passages
        self.n = n
        self.temperature = float(temperature)
        self.queries = 0
        self.fallbacks = 0
        self.endpoint_failures = 0  # requests the endpoint failed (connection, HTTP, timeout)
        self.unusable_answers = 0  # answers that came but could not be used (bad JSON, empty)
        self.last_error: str | None = None
        self._states: StateCache[_State] = StateCache()
        self._lock = threading.Lock()
        self._health = _health_of(llm)

    # -- what a method does -------------------------------------------------------------------

    @abstractmethod
    def expand(self, queries: list[str], scorer: Scorer) -> list[list[str] | None]:
        """For each query, the passages the LLM wrote for it, or None where a request failed."""

    # -- Composer -----------------------------------------------------------------------------

    def rank_readings(self, readings: list[Reading], scorer: Scorer, k: int) -> list[Ranking]:
        states = self._prepare([r.text for r in readings], scorer)
        out = []
        for state, (rows, scores) in zip(states, self._top(states, scorer, k), strict=True):
            e = state.expansion
            label = (
                f"{self.name}: query + {len(e.passages)} LLM passages" if e.passages else e.query
            )
            out.append(Ranking(rows, scores, {label: scores}))
        return out

    def score_reading(self, reading: Reading, scorer: Scorer, doc_idx: np.ndarray) -> np.ndarray:
        state = self._prepare([reading.text], scorer)[0]
        doc_idx = doc_idx.ravel()
        if not state.expansion.passages:
            return Flat().score(reading, scorer, doc_idx)
        return self._score(state, scorer, doc_idx)

    def expansion(self, query: str, scorer: Scorer) -> Expansion:
        """The expansion this composer ranks ``query`` with (asking the LLM if not yet done)."""
        return self._prepare([query], scorer)[0].expansion

    def stats(self) -> dict[str, Any]:
        """Queries expanded so far, how many of them fell back to flat, the requests the
        endpoint failed and the answers that were unusable, and the last error."""
        return {
            "queries": self.queries,
            "fallbacks": self.fallbacks,
            "endpoint_failures": self.endpoint_failures,
            "unusable_answers": self.unusable_answers,
            "last_error": self.last_error,
        }

    # -- helpers for the methods --------------------------------------------------------------

    def ask(self, requests: list[tuple[Messages, int]]) -> list[str | None]:
        """The LLM's answer to each ``(messages, seed)``, None where it failed or was empty."""

        def one(request: tuple[Messages, int]) -> str | None:
            messages, seed = request
            answer = self._guard(
                lambda: self.llm.chat(
                    messages, temperature=self.temperature, seed=seed, max_tokens=PASSAGE_TOKENS
                )
            )
            answer = " ".join(answer.split()) if answer is not None else None
            if answer == "":
                with self._lock:
                    self.unusable_answers += 1
                    self.last_error = "the LLM answered with an empty message"
                return None
            return answer

        return self._parallel(one, requests)

    def ask_json(
        self,
        requests: list[Messages],
        validate: Callable[[Any], T],
        schema: dict[str, Any] | None = None,
    ) -> list[T | None]:
        """``validate(JSON answer)`` for each request (the client repairs bad JSON); None where
        the request failed or the answer never validated. ``schema`` is the answer's JSON
        schema."""
        return self._parallel(
            lambda messages: self._guard(
                lambda: self.llm.chat_json(
                    messages,
                    validate=validate,
                    schema=schema,
                    temperature=self.temperature,
                    seed=0,
                    max_tokens=JSON_TOKENS,
                )
            ),
            requests,
        )

    def ask_samples(self, prompts: list[str]) -> list[list[str] | None]:
        """``self.n`` samples (seeds 0..n-1) for each prompt; None where any of them failed."""
        answers = self.ask([(sample_messages(p), seed) for p in prompts for seed in range(self.n)])
        out: list[list[str] | None] = []
        for i in range(len(prompts)):
            got = answers[i * self.n : (i + 1) * self.n]
            out.append(None if any(a is None for a in got) else [a for a in got if a])
        return out

    def retrieve(self, expansions: list[Expansion], scorer: Scorer, k: int) -> list[np.ndarray]:
        """The top ``k`` rows of each expansion (a plain query where it has no passages)."""
        found = self._top([_State(e) for e in expansions], scorer, k)
        return [rows[rows >= 0] for rows, _ in found]

    def passage_texts(self, rows: np.ndarray) -> list[str]:
        """The corpus passages at ``rows`` (for prompts that show retrieved passages)."""
        if self.corpus is None:
            raise LogirError(
                f"the {self.name} composer shows retrieved passages to the LLM and needs the "
                "corpus texts (get_composer(..., passages=texts))"
            )
        return [self.corpus[int(r)] for r in rows]

    # -- internals ----------------------------------------------------------------------------

    def _guard(self, call: Callable[[], T]) -> T | None:
        """``call()``, or None when the endpoint failed (counted; after DOWN_AFTER failures in a
        row it is not asked again) or gave no usable answer."""
        from logir.llm import LLMContextError, LLMError, LLMOutputError

        health = self._health
        if health.down:  # not asked: the endpoint failed DOWN_AFTER times in a row
            with self._lock:
                self.endpoint_failures += 1
                self.last_error = health.last_error
            return None
        try:
            out = call()
        except (LLMOutputError, LLMContextError) as exc:  # the endpoint is fine
            health.answered()
            with self._lock:
                self.unusable_answers += 1
                self.last_error = str(exc)
            return None
        except LLMError as exc:
            health.failed(str(exc))
            with self._lock:
                self.endpoint_failures += 1
                self.last_error = str(exc)
            return None
        health.answered()
        return out

    def _parallel(self, fn: Callable[[Any], T], items: list[Any]) -> list[T]:
        """``fn`` over ``items`` in as many threads as the client lets requests fly at once,
        reported as one phase of LLM calls (see ``ChatClient.phase``)."""
        workers = max(1, min(len(items), self.llm.workers))
        with self.llm.phase(f"{self.name}: LLM calls", len(items)) as tick:

            def one(item: Any) -> T:
                try:
                    return fn(item)
                finally:
                    tick()

            if workers == 1:
                return [one(item) for item in items]
            with ThreadPoolExecutor(max_workers=workers) as pool:
                return list(pool.map(one, items))

    def _prepare(self, queries: list[str], scorer: Scorer) -> list[_State]:
        found, todo = self._states.split(queries, scorer)
        if todo:
            expanded = self.expand(todo, scorer)
            for text, passages in zip(todo, expanded, strict=True):
                self.queries += 1
                if not passages:
                    self.fallbacks += 1
                state = _State(Expansion(text, tuple(passages or ())))
                found[text] = state
                self._states.put(scorer, text, state)
        return [found[text] for text in queries]

    def _top(
        self, states: list[_State], scorer: Scorer, k: int
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Top ``k`` rows and scores of each state; a state without passages is searched as
        ``flat`` searches (padded with -1 / -inf), an expanded one by its exact scores."""
        out: list[tuple[np.ndarray, np.ndarray]] = [(np.zeros(0, np.int64), np.zeros(0))] * len(
            states
        )
        flat = [i for i, s in enumerate(states) if not s.expansion.passages]
        if flat:
            idx, val = scorer.search([states[i].expansion.query for i in flat], k)
            for j, i in enumerate(flat):
                out[i] = (idx[j], val[j])
        todo = [i for i, s in enumerate(states) if s.expansion.passages]
        if todo:
            found = self._search([states[i] for i in todo], scorer, k)
            for i, rows in zip(todo, found, strict=True):
                rows = np.sort(rows[rows >= 0])
                score = self._score(states[i], scorer, rows)
                order = np.lexsort((rows, -score))[:k]
                out[i] = (rows[order], score[order])
        return out

    def _search(self, states: list[_State], scorer: Scorer, k: int) -> np.ndarray:
        """Candidate rows ``[len(states), k]`` of expanded queries (padded with -1)."""
        if isinstance(scorer, VectorScorer):
            vectors = [self._vector(s, scorer) for s in states]
            stacked = sp.vstack(vectors).tocsr() if sp.issparse(vectors[0]) else np.vstack(vectors)
            idx, _ = scorer.search_vectors(stacked, k)
        else:
            idx, _ = scorer.search([s.expansion.text for s in states], k)
        return idx

    def _score(self, state: _State, scorer: Scorer, rows: np.ndarray) -> np.ndarray:
        """Exact scores of an expanded query for ``rows`` (the same whatever rows are asked)."""
        if isinstance(scorer, VectorScorer):
            return scorer.dot(self._vector(state, scorer), rows)[0].astype(np.float32)
        return scorer.score([state.expansion.text], rows)[0].astype(np.float32)

    @staticmethod
    def _vector(state: _State, space: VectorScorer) -> Any:
        """Mean of the query vector and the passage vectors, one row (computed once)."""
        if state.vector is None:
            e = state.expansion
            enc = space.encode_queries([e.query, *e.passages])
            if sp.issparse(enc):
                state.vector = sp.csr_matrix(np.asarray(enc.mean(axis=0), dtype=np.float32))
            else:
                state.vector = np.asarray(enc, dtype=np.float32).mean(axis=0, keepdims=True)
        return state.vector
