"""A thread-safe client for OpenAI-compatible chat endpoints (``POST {base}/chat/completions``).

Retries 429, 5xx, timeouts and dropped connections with exponential backoff and jitter (honouring
``Retry-After``), bounds the requests in flight with a semaphore, caches answers on disk by the
content of the request, counts tokens and cost, and turns free-form answers into validated JSON
with a short repair conversation. The API key is read from the environment variable the config
names; it is sent in the ``Authorization`` header and appears nowhere else (messages, cache).

Each task passes the JSON schema of the answer it expects (sent as ``response_format`` in the
form the endpoint takes, see ``formats.py``) and a ``max_tokens`` sized to that answer. On the
first request that is not a cache hit the client asks the server what it is (``endpoint.py``): a
local one-slot server (llama-cpp-python, llama.cpp with one slot) gets one request at a time and
no read timeout, so nothing is abandoned and asked again while the server is still working on
it; a request whose prompt and answer cannot fit the server's context is not sent
(``budget.py``). Retries are reported on stderr with their reason.
"""

from __future__ import annotations

import email.utils
import os
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from logir.errors import LogirError
from logir.llm.budget import check_fits, count_prompt
from logir.llm.cache import ResponseCache, request_key
from logir.llm.endpoint import EndpointInfo, context_from_error, probe
from logir.llm.errors import LLMContextError, LLMError, LLMOutputError
from logir.llm.formats import MODES, FormatMemory, rejects_format, response_format
from logir.llm.jsonout import extract_json

__all__ = [
    "DEFAULT_CONCURRENCY",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_TIMEOUT",
    "ChatClient",
    "LLMConfig",
    "LLMContextError",
    "LLMError",
    "LLMOutputError",
    "Usage",
    "default_cache_dir",
]

if TYPE_CHECKING:
    import httpx

T = TypeVar("T")

MAX_DELAY = 60.0
"""Longest backoff between two attempts, in seconds (a Retry-After may ask for up to 10x this)."""
DEFAULT_TIMEOUT = 60.0
"""Seconds a request may take, unless the endpoint is a local one-slot server (no read limit)."""
DEFAULT_CONCURRENCY = 4
"""Requests in flight at once, unless the server says how many it serves at once."""
DEFAULT_MAX_TOKENS = 1024
"""Answer tokens of a request whose task gives no size of its own."""
CONNECT_TIMEOUT = 10.0
"""Seconds to open a connection, whatever the read timeout."""
MAX_TIMEOUT = 86_400.0
"""Longest read timeout one may give (a day; a local one-slot server gets none by default)."""
MAX_RETRIES = 100
"""Most retries of one request (each waits up to MAX_DELAY)."""
MAX_CONCURRENCY = 256
"""Most requests in flight at once (each is a worker thread and a connection)."""
MAX_ANSWER_TOKENS = 1 << 17
"""Most answer tokens one request may ask for (``--llm-max-tokens``)."""
MAX_CONTEXT = 1 << 24
"""Largest server context one may state, in tokens (``--llm-context``)."""


def default_cache_dir() -> Path:
    """``$LOGIR_CACHE/llm``, else ``~/.cache/logir/llm``."""
    root = os.environ.get("LOGIR_CACHE")
    base = Path(root) if root else Path.home() / ".cache" / "logir"
    return base / "llm"


@dataclass(frozen=True)
class LLMConfig:
    """Where and how to reach an OpenAI-compatible chat endpoint.

    ``timeout`` and ``concurrency`` left None are chosen from what the server says of itself
    (a local one-slot server: 1 request at a time, no read limit; else DEFAULT_TIMEOUT and
    DEFAULT_CONCURRENCY). ``max_tokens``, when set, replaces every task's own answer size;
    ``context``, when set, is the server's context size in tokens (else asked of the server).
    """

    base_url: str
    model: str
    api_key_env: str = "LOGIR_LLM_API_KEY"
    timeout: float | None = None
    max_retries: int = 4
    backoff: float = 1.0
    concurrency: int | None = None
    cache_dir: Path | None = field(default_factory=default_cache_dir)
    temperature: float = 0.0
    max_tokens: int | None = None
    price_in: float = 0.0
    price_out: float = 0.0
    context: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.base_url, str) or not self.base_url.strip():
            raise LogirError("LLM base_url is empty; expected e.g. http://127.0.0.1:8080/v1")
        if not self.base_url.startswith(("http://", "https://")):
            raise LogirError(f"LLM base_url {self.base_url!r} must start with http:// or https://")
        if not self.model:
            raise LogirError("LLM model name is empty")
        if self.timeout is not None and not 0 < self.timeout <= MAX_TIMEOUT:  # nan too
            raise LogirError(
                f"LLM timeout must be > 0 and at most {MAX_TIMEOUT:g} seconds, got {self.timeout}"
            )
        if not 0 <= self.max_retries <= MAX_RETRIES:
            raise LogirError(
                f"LLM max_retries must be from 0 to {MAX_RETRIES}, got {self.max_retries}"
            )
        if self.backoff < 0:
            raise LogirError(f"LLM backoff must be >= 0, got {self.backoff}")
        if self.concurrency is not None and not 1 <= self.concurrency <= MAX_CONCURRENCY:
            raise LogirError(
                f"LLM concurrency must be from 1 to {MAX_CONCURRENCY}, got {self.concurrency}"
            )
        if self.max_tokens is not None and not 1 <= self.max_tokens <= MAX_ANSWER_TOKENS:
            raise LogirError(
                f"LLM max_tokens must be from 1 to {MAX_ANSWER_TOKENS}, got {self.max_tokens}"
            )
        if self.context is not None and not 2 <= self.context <= MAX_CONTEXT:
            raise LogirError(
                f"LLM context must be from 2 to {MAX_CONTEXT} tokens, got {self.context}"
            )
        if self.cache_dir is not None and not isinstance(self.cache_dir, Path):
            object.__setattr__(self, "cache_dir", Path(self.cache_dir))

    @property
    def url(self) -> str:
        """The chat completions URL."""
        return self.base_url.rstrip("/") + "/chat/completions"

    @classmethod
    def from_env(cls, **overrides: Any) -> LLMConfig:
        """A config from ``LOGIR_LLM_BASE_URL`` and ``LOGIR_LLM_MODEL``, then ``overrides``."""
        values: dict[str, Any] = {
            "base_url": os.environ.get("LOGIR_LLM_BASE_URL", ""),
            "model": os.environ.get("LOGIR_LLM_MODEL") or "default",
        }
        values.update({k: v for k, v in overrides.items() if v is not None or k == "cache_dir"})
        if not values["base_url"]:
            raise LogirError("no LLM endpoint: pass --llm-base-url or set LOGIR_LLM_BASE_URL")
        return cls(**values)

    def with_(self, **changes: Any) -> LLMConfig:
        """A copy with ``changes`` applied."""
        return replace(self, **changes)


@dataclass
class Usage:
    """Running totals for one client; updated under a lock."""

    requests: int = 0  # answers received from the endpoint (not counting cache hits)
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failures: int = 0  # chat() calls that ended in LLMError
    retries: int = 0  # attempts repeated after a retryable failure
    repairs: int = 0  # repair turns asked for by chat_json
    price_in: float = 0.0
    price_out: float = 0.0

    def __post_init__(self) -> None:
        self._lock = threading.Lock()  # not a field: dataclasses.asdict() keeps working

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    @property
    def cost(self) -> float:
        """prompt_tokens * price_in + completion_tokens * price_out, prices per 1M tokens."""
        return (self.prompt_tokens * self.price_in + self.completion_tokens * self.price_out) / 1e6

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, **counts: int) -> None:
        """Add ``counts`` (field name -> increment) atomically."""
        with self._lock:
            for name, value in counts.items():
                setattr(self, name, getattr(self, name) + value)

    def as_dict(self) -> dict[str, float | int]:
        """A JSON-ready snapshot, cost included."""
        with self._lock:
            return {
                "requests": self.requests,
                "cache_hits": self.cache_hits,
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "failures": self.failures,
                "retries": self.retries,
                "repairs": self.repairs,
                "cost": self.cost,
            }


class _Refused(Exception):
    """The endpoint refused the response_format sent (try the next form)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason


class _Retryable(Exception):
    """One failed attempt that may succeed if tried again."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


def _retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or an HTTP date), else None."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())


def _server_message(response: httpx.Response) -> str:
    """The error text a server sent: ``error.message`` of a JSON body, else the body, shortened."""
    try:
        body = response.json()
    except (ValueError, RecursionError):  # RecursionError: a body nested too deeply
        body = None
    message: Any = None
    if isinstance(body, dict):
        err = body.get("error", body.get("message", body.get("detail")))
        message = err.get("message", err) if isinstance(err, dict) else err
    if message is None:
        message = response.text
    text = " ".join(str(message).split())
    return text[:300] + ("..." if len(text) > 300 else "")


def _count(value: Any) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


class ChatClient:
    """Chat completions with retries, a concurrency limit, an on-disk cache and usage totals.

    ``notify`` receives one line per retry (default: printed on stderr); ``report``, when set
    (e.g. ``Bars.update``), receives the progress of :meth:`phase` blocks.
    """

    def __init__(
        self,
        config: LLMConfig,
        *,
        sleep: Callable[[float], None] = time.sleep,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        try:
            import httpx
        except ImportError:  # pragma: no cover - httpx ships with the llm and dev extras
            raise LogirError("the LLM client needs httpx: pip install 'logir[llm]'") from None
        self.config = config
        self.usage = Usage(price_in=config.price_in, price_out=config.price_out)
        self.cache = ResponseCache(config.cache_dir) if config.cache_dir is not None else None
        self.formats = FormatMemory(config.cache_dir)
        self.report: Callable[..., None] | None = None
        self._sleep = sleep
        self._notify = notify if notify is not None else _to_stderr
        self._setup_lock = threading.Lock()
        self._endpoint: EndpointInfo | None = None
        self._learnt_context: int | None = None
        self._slots: threading.BoundedSemaphore | None = None
        self._read_timeout: float | None = DEFAULT_TIMEOUT
        self._phase_lock = threading.Lock()
        width = config.concurrency or DEFAULT_CONCURRENCY
        self._http = httpx.Client(
            timeout=httpx.Timeout(config.timeout or DEFAULT_TIMEOUT, connect=CONNECT_TIMEOUT),
            limits=httpx.Limits(max_connections=width, max_keepalive_connections=width),
        )

    # -- lifecycle -------------------------------------------------------------------------
    def close(self) -> None:
        """Release the connection pool."""
        self._http.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the endpoint ----------------------------------------------------------------------
    @property
    def workers(self) -> int:
        """Threads worth running against this client (requests beyond the server's slots wait
        in the client, where no timeout runs)."""
        return self.config.concurrency or DEFAULT_CONCURRENCY

    @property
    def endpoint(self) -> EndpointInfo:
        """What the server says of itself (asked once, on first use)."""
        self._setup()
        assert self._endpoint is not None
        return self._endpoint

    @property
    def context(self) -> int | None:
        """The server's context size in tokens: ``--llm-context``, else the server's word, else
        what an overflow error named; None when unknown."""
        return self.config.context or self._learnt_context or self.endpoint.context

    def _setup(self) -> None:
        """Ask the endpoint what it is and size the slots and the read timeout to it."""
        if self._endpoint is not None:
            return
        with self._setup_lock:
            if self._endpoint is not None:
                return
            info = probe(self._http, self.config.base_url, self._headers(), timeout=CONNECT_TIMEOUT)
            slots = self.config.concurrency or info.slots or DEFAULT_CONCURRENCY
            timeout = self.config.timeout
            if timeout is None and not (info.local and info.slots):
                timeout = DEFAULT_TIMEOUT  # a local llama.cpp server is never given up on
            self._read_timeout = timeout
            self._slots = threading.BoundedSemaphore(slots)
            self._endpoint = info
            if info.local and info.slots:
                read = "no read timeout" if timeout is None else f"timeout {timeout:g}s"
                if self.config.context and not info.context:
                    info = replace(info, context=self.config.context)
                self._notify(
                    f"llm: {info.describe()}: {slots} request{'s' if slots > 1 else ''} at a "
                    f"time, {read}"
                )

    # -- progress ---------------------------------------------------------------------------
    @contextmanager
    def phase(self, task: str, total: int) -> Iterator[Callable[[], None]]:
        """A block of ``total`` LLM calls: call the yielded ``tick()`` after each; ``report``
        (when set) hears calls done, requests sent and tokens, so a bar shows the ETA."""
        done = [0]
        start = self.usage.as_dict()

        def tick() -> None:
            report = self.report
            with self._phase_lock:
                done[0] += 1
                if report is None:
                    return
                now = self.usage.as_dict()
                sent = int(now["requests"] - start["requests"])
                tokens = int(now["completion_tokens"] - start["completion_tokens"])
                hits = int(now["cache_hits"] - start["cache_hits"])
                info = f"{sent} sent, {hits} cached, {tokens} answer tokens"
                report(task, done[0], total, unit="LLM calls", info=info)

        if self.report is not None and total:
            self.report(task, 0, total, unit="LLM calls", info="")
        yield tick

    # -- plain chat ------------------------------------------------------------------------
    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        json_mode: bool = False,
        seed: int | None = None,
        schema: dict[str, Any] | None = None,
    ) -> str:
        """The assistant's answer (``choices[0].message.content``) to ``messages``.

        ``max_tokens`` is the task's answer size (``--llm-max-tokens`` replaces it); ``schema``
        the JSON schema the answer must follow (implies ``json_mode``). Cached by the sha256 of
        endpoint, model, messages, temperature, max_tokens, json_mode, schema and seed; a cache
        hit makes no request.
        """
        return self._chat(messages, temperature, max_tokens, json_mode, seed, schema)[0]

    def answer_tokens(self, task_tokens: int | None) -> int:
        """The ``max_tokens`` a request gets: ``--llm-max-tokens``, else the task's, else 1024."""
        return self.config.max_tokens or task_tokens or DEFAULT_MAX_TOKENS

    def _chat(
        self,
        messages: list[dict[str, str]],
        temperature: float | None,
        max_tokens: int | None,
        json_mode: bool,
        seed: int | None,
        schema: dict[str, Any] | None = None,
    ) -> tuple[str, str | None]:
        """The answer and its cache key (None when caching is off)."""
        _check_messages(messages)
        fields: dict[str, Any] = {
            "endpoint": self.config.url,
            "model": self.config.model,
            "messages": messages,
            "temperature": self.config.temperature if temperature is None else temperature,
            "max_tokens": self.answer_tokens(max_tokens),
            "json_mode": json_mode or schema is not None,
            "seed": seed,
        }
        if schema is not None:
            fields["schema"] = schema
        key = None
        if self.cache is not None:
            key = request_key(fields)
            record = self.cache.get(key)
            if record is not None and isinstance(record.get("content"), str):
                self.usage.add(cache_hits=1)
                return record["content"], key
        body: dict[str, Any] = {
            "model": fields["model"],
            "messages": messages,
            "temperature": fields["temperature"],
            "max_tokens": fields["max_tokens"],
        }
        if seed is not None:
            body["seed"] = seed
        try:
            self._setup()
            content, usage = self._post(body, schema if fields["json_mode"] else None,
                                        fields["json_mode"])  # fmt: skip
        except LLMError:
            self.usage.add(failures=1)
            raise
        if self.cache is not None and key is not None:
            self.cache.put(
                key,
                {"request": fields, "content": content, "usage": usage, "created": time.time()},
            )
        return content, key

    def fits(self, messages: list[dict[str, str]], max_tokens: int | None = None) -> bool:
        """Whether ``messages`` and an answer of ``max_tokens`` fit the server's context."""
        self._setup()
        if self.context is None:
            return True
        assert self._slots is not None
        try:
            with self._slots:  # a one-slot server tokenizes between two generations
                self._check_context(messages, self.answer_tokens(max_tokens))
        except LLMContextError:
            return False
        return True

    def _check_context(self, messages: list[dict[str, str]], max_tokens: int) -> None:
        """LLMContextError when the request cannot fit the server's context (when known); the
        caller holds a slot."""
        context = self.context
        if context is None:
            return
        info = self.endpoint
        prompt, exact = count_prompt(
            messages, self._http, info.tokenize_url, self._headers(), timeout=self._read_timeout
        )
        check_fits(prompt, max_tokens, context, self.config.url, exact)

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = os.environ.get(self.config.api_key_env, "").strip()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def _scrub(self, text: str) -> str:
        """``text`` with the API key, should a server have echoed it, blanked out."""
        key = os.environ.get(self.config.api_key_env, "").strip()
        return text.replace(key, "***") if key else text

    def _post(
        self, body: dict[str, Any], schema: dict[str, Any] | None, json_mode: bool
    ) -> tuple[str, dict[str, int]]:
        url = self.config.url
        attempts = self.config.max_retries + 1
        attempt = 1
        while True:
            mode = self.formats.mode(url) if json_mode else "none"
            if json_mode and schema is None and mode in MODES[:2]:
                mode = "json_object"
            fmt = response_format(mode, schema)
            sent = {**body, "response_format": fmt} if fmt is not None else body
            try:
                return self._attempt(url, sent)
            except _Refused as exc:
                following = self.formats.give_up(url, mode)
                if following is None:
                    raise LLMError(self._scrub(exc.message)) from None
                reason = exc.reason if len(exc.reason) <= 160 else exc.reason[:157] + "..."
                self._notify(
                    f"llm: {url} does not take response_format {mode!r} ({reason}); "
                    f"using {following!r} from now on"
                )
            except _Retryable as exc:
                if attempt == attempts:
                    raise LLMError(
                        self._scrub(
                            f"LLM request to {url} failed after {attempt} "
                            f"attempt{'s' if attempt > 1 else ''}: {exc.reason}"
                        )
                    ) from None
                self.usage.add(retries=1)
                delay = self._delay(attempt, exc.retry_after)
                self._notify(
                    self._scrub(
                        f"llm: retry {attempt} of {attempts - 1} in {delay:.1f}s: {exc.reason}"
                    )
                )
                self._sleep(delay)
                attempt += 1

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait before attempt ``attempt + 1``."""
        if retry_after is not None:
            return min(retry_after, 10 * MAX_DELAY)
        base = self.config.backoff * (2 ** (attempt - 1))
        return min(MAX_DELAY, base * (0.5 + random.random()))

    def _attempt(self, url: str, body: dict[str, Any]) -> tuple[str, dict[str, int]]:
        import httpx

        assert self._slots is not None
        timeout = httpx.Timeout(self._read_timeout, connect=CONNECT_TIMEOUT)
        with self._slots:
            self._check_context(body["messages"], int(body["max_tokens"]))
            try:
                response = self._http.post(url, json=body, headers=self._headers(),
                                           timeout=timeout)  # fmt: skip
            except httpx.TimeoutException as exc:
                what = "connecting" if isinstance(exc, httpx.ConnectTimeout) else "waiting"
                limit = CONNECT_TIMEOUT if what == "connecting" else self._read_timeout
                raise _Retryable(f"timed out after {limit:g}s {what}") from None
            except httpx.TransportError as exc:
                reason = " ".join(str(exc).split()) or type(exc).__name__
                raise _Retryable(f"connection failed ({reason})") from None
        status = response.status_code
        if status >= 400 and "response_format" in body:
            message = _server_message(response)
            if rejects_format(status, message):
                raise _Refused(
                    f"LLM request to {url} failed: HTTP {status}: {message}",
                    f"HTTP {status}: {message}",
                )
        if status == 429 or status >= 500:
            raise _Retryable(
                f"HTTP {status}: {_server_message(response)}",
                _retry_after(response.headers.get("retry-after")),
            )
        if status >= 400:
            message = _server_message(response)
            full = f"LLM request to {url} failed: HTTP {status}: {message}"
            context = context_from_error(message) if status == 400 else None
            if context is not None and ("context" in message or "n_ctx" in message):
                self._learnt_context = context
                raise LLMContextError(
                    self._scrub(full + " (the prompt and answer do not fit its context)"),
                    prompt=0,
                    max_tokens=int(body.get("max_tokens") or 0),
                    context=context,
                )
            raise LLMError(self._scrub(full))
        try:
            payload = response.json()
            content = payload["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError, RecursionError):
            raise LLMError(
                f"LLM request to {url}: the answer is not a chat completion "
                f"(no choices[0].message.content in {response.text[:200]!r})"
            ) from None
        if not isinstance(content, str):
            raise LLMError(f"LLM request to {url}: the answer has no text content")
        raw = payload.get("usage") if isinstance(payload, dict) else None
        raw = raw if isinstance(raw, dict) else {}
        usage = {
            "prompt_tokens": _count(raw.get("prompt_tokens")),
            "completion_tokens": _count(raw.get("completion_tokens")),
        }
        self.usage.add(requests=1, **usage)
        return content, usage

    # -- JSON answers ----------------------------------------------------------------------
    def chat_json(
        self,
        messages: list[dict[str, str]],
        *,
        validate: Callable[[Any], T] | None = None,
        max_repairs: int = 2,
        schema: dict[str, Any] | None = None,
        **chat_kwargs: Any,
    ) -> T:
        """The answer as JSON, passed through ``validate``, with up to ``max_repairs`` repair turns.

        ``schema`` is the JSON schema of the expected answer (sent as ``response_format``).
        ``validate(obj)`` returns the cleaned value or raises ``ValueError("what is wrong")``. On a
        failure the bad answer and a message naming the problem are appended and the model asked
        again, unless that repair turn cannot fit the server's context. Answers that fail are
        dropped from the cache so a later run asks afresh.
        """
        if max_repairs < 0:
            raise ValueError(f"max_repairs must be >= 0, got {max_repairs}")
        conversation = list(messages)
        problems: list[str] = []
        max_tokens = chat_kwargs.get("max_tokens")
        for turn in range(max_repairs + 1):
            try:
                answer, key = self._chat(
                    conversation,
                    chat_kwargs.get("temperature"),
                    max_tokens,
                    chat_kwargs.get("json_mode", False),
                    chat_kwargs.get("seed"),
                    schema,
                )
            except LLMContextError as exc:
                if not problems:
                    raise
                raise LLMOutputError(
                    f"LLM answer from {self.config.url} was not usable "
                    f"({'; '.join(problems)}), and the repair turn did not fit the server's "
                    f"context ({exc})"
                ) from None
            try:
                value = extract_json(answer)
                return validate(value) if validate is not None else value
            except ValueError as exc:
                problem = " ".join(str(exc).split()) or type(exc).__name__
            problems.append(problem)
            if self.cache is not None and key is not None:
                self.cache.delete(key)
            if turn == max_repairs:
                break
            repair = [
                *conversation,
                {"role": "assistant", "content": answer},
                {"role": "user", "content": _repair_message(problem)},
            ]
            if not self.fits(repair, max_tokens):
                raise LLMOutputError(
                    f"LLM answer from {self.config.url} was not usable "
                    f"({'; '.join(problems)}), and a repair turn would not fit the server's "
                    f"context of {self.context} tokens"
                )
            self.usage.add(repairs=1)
            conversation = repair
        raise LLMOutputError(
            f"LLM answer from {self.config.url} was not usable after {max_repairs + 1} "
            f"attempt{'s' if max_repairs else ''}: " + "; ".join(problems)
        )


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _repair_message(problem: str) -> str:
    return (
        f"That answer could not be used: {problem}. Reply again with only the corrected JSON "
        "(no explanation, no code fence)."
    )


def _check_messages(messages: Any) -> None:
    if not isinstance(messages, list) or not messages:
        raise LogirError("chat messages must be a non-empty list of {role, content} dicts")
    for i, m in enumerate(messages):
        if (
            not isinstance(m, dict)
            or not isinstance(m.get("role"), str)
            or not isinstance(m.get("content"), str)
        ):
            raise LogirError(f"chat message {i} must be a dict with str 'role' and 'content'")
