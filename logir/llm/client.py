"""A thread-safe client for OpenAI-compatible chat endpoints (``POST {base}/chat/completions``).

Retries 429, 5xx, timeouts and dropped connections with exponential backoff and jitter (honouring
``Retry-After``), bounds the requests in flight with a semaphore, caches answers on disk by the
content of the request, counts tokens and cost, and turns free-form answers into validated JSON
with a short repair conversation. The API key is read from the environment variable the config
names; it is sent in the ``Authorization`` header and appears nowhere else (messages, cache).
"""

from __future__ import annotations

import email.utils
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from logir.errors import LogirError
from logir.llm.cache import ResponseCache, request_key
from logir.llm.jsonout import extract_json

__all__ = [
    "ChatClient",
    "LLMConfig",
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


def default_cache_dir() -> Path:
    """``$LOGIR_CACHE/llm``, else ``~/.cache/logir/llm``."""
    root = os.environ.get("LOGIR_CACHE")
    base = Path(root) if root else Path.home() / ".cache" / "logir"
    return base / "llm"


class LLMError(LogirError):
    """The endpoint failed after the retries (the message names URL, status or reason, attempts)."""


class LLMOutputError(LLMError):
    """The answer never became valid JSON, or never passed validation, after the repairs."""


@dataclass(frozen=True)
class LLMConfig:
    """Where and how to reach an OpenAI-compatible chat endpoint."""

    base_url: str
    model: str
    api_key_env: str = "LOGIR_LLM_API_KEY"
    timeout: float = 60.0
    max_retries: int = 4
    backoff: float = 1.0
    concurrency: int = 4
    cache_dir: Path | None = field(default_factory=default_cache_dir)
    temperature: float = 0.0
    max_tokens: int = 1024
    price_in: float = 0.0
    price_out: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.base_url, str) or not self.base_url.strip():
            raise LogirError("LLM base_url is empty; expected e.g. http://127.0.0.1:8080/v1")
        if not self.base_url.startswith(("http://", "https://")):
            raise LogirError(f"LLM base_url {self.base_url!r} must start with http:// or https://")
        if not self.model:
            raise LogirError("LLM model name is empty")
        if self.timeout <= 0:
            raise LogirError(f"LLM timeout must be > 0 seconds, got {self.timeout}")
        if self.max_retries < 0:
            raise LogirError(f"LLM max_retries must be >= 0, got {self.max_retries}")
        if self.backoff < 0:
            raise LogirError(f"LLM backoff must be >= 0, got {self.backoff}")
        if self.concurrency < 1:
            raise LogirError(f"LLM concurrency must be >= 1, got {self.concurrency}")
        if self.max_tokens < 1:
            raise LogirError(f"LLM max_tokens must be >= 1, got {self.max_tokens}")
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
    except ValueError:
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
    """Chat completions with retries, a concurrency limit, an on-disk cache and usage totals."""

    def __init__(self, config: LLMConfig, *, sleep: Callable[[float], None] = time.sleep) -> None:
        try:
            import httpx
        except ImportError:  # pragma: no cover - httpx ships with the llm and dev extras
            raise LogirError("the LLM client needs httpx: pip install 'logir[llm]'") from None
        self.config = config
        self.usage = Usage(price_in=config.price_in, price_out=config.price_out)
        self.cache = ResponseCache(config.cache_dir) if config.cache_dir is not None else None
        self._sleep = sleep
        self._slots = threading.BoundedSemaphore(config.concurrency)
        self._http = httpx.Client(
            timeout=httpx.Timeout(config.timeout),
            limits=httpx.Limits(
                max_connections=config.concurrency, max_keepalive_connections=config.concurrency
            ),
        )

    # -- lifecycle -------------------------------------------------------------------------
    def close(self) -> None:
        """Release the connection pool."""
        self._http.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plain chat ------------------------------------------------------------------------
    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        json_mode: bool = False,
        seed: int | None = None,
    ) -> str:
        """The assistant's answer (``choices[0].message.content``) to ``messages``.

        Cached by the sha256 of endpoint, model, messages, temperature, max_tokens, json_mode and
        seed; a cache hit makes no request.
        """
        return self._chat(messages, temperature, max_tokens, json_mode, seed)[0]

    def _chat(
        self,
        messages: list[dict[str, str]],
        temperature: float | None,
        max_tokens: int | None,
        json_mode: bool,
        seed: int | None,
    ) -> tuple[str, str | None]:
        """The answer and its cache key (None when caching is off)."""
        _check_messages(messages)
        fields: dict[str, Any] = {
            "endpoint": self.config.url,
            "model": self.config.model,
            "messages": messages,
            "temperature": self.config.temperature if temperature is None else temperature,
            "max_tokens": self.config.max_tokens if max_tokens is None else max_tokens,
            "json_mode": json_mode,
            "seed": seed,
        }
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
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        if seed is not None:
            body["seed"] = seed
        try:
            content, usage = self._post(body)
        except LLMError:
            self.usage.add(failures=1)
            raise
        if self.cache is not None and key is not None:
            self.cache.put(
                key,
                {"request": fields, "content": content, "usage": usage, "created": time.time()},
            )
        return content, key

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

    def _post(self, body: dict[str, Any]) -> tuple[str, dict[str, int]]:
        url = self.config.url
        attempts = self.config.max_retries + 1
        for attempt in range(1, attempts + 1):
            try:
                return self._attempt(url, body)
            except _Retryable as exc:
                if attempt == attempts:
                    raise LLMError(
                        self._scrub(
                            f"LLM request to {url} failed after {attempt} "
                            f"attempt{'s' if attempt > 1 else ''}: {exc.reason}"
                        )
                    ) from None
                self.usage.add(retries=1)
                self._sleep(self._delay(attempt, exc.retry_after))
        raise AssertionError("unreachable")  # pragma: no cover

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait before attempt ``attempt + 1``."""
        if retry_after is not None:
            return min(retry_after, 10 * MAX_DELAY)
        base = self.config.backoff * (2 ** (attempt - 1))
        return min(MAX_DELAY, base * (0.5 + random.random()))

    def _attempt(self, url: str, body: dict[str, Any]) -> tuple[str, dict[str, int]]:
        import httpx

        with self._slots:
            try:
                response = self._http.post(url, json=body, headers=self._headers())
            except httpx.TimeoutException:
                raise _Retryable(f"timed out after {self.config.timeout:g}s") from None
            except httpx.TransportError as exc:
                reason = " ".join(str(exc).split()) or type(exc).__name__
                raise _Retryable(f"connection failed ({reason})") from None
        status = response.status_code
        if status == 429 or status >= 500:
            raise _Retryable(
                f"HTTP {status}: {_server_message(response)}",
                _retry_after(response.headers.get("retry-after")),
            )
        if status >= 400:
            raise LLMError(
                self._scrub(
                    f"LLM request to {url} failed: HTTP {status}: {_server_message(response)}"
                )
            )
        try:
            payload = response.json()
            content = payload["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
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
        **chat_kwargs: Any,
    ) -> T:
        """The answer as JSON, passed through ``validate``, with up to ``max_repairs`` repair turns.

        ``validate(obj)`` returns the cleaned value or raises ``ValueError("what is wrong")``. On a
        failure the bad answer and a message naming the problem are appended and the model asked
        again. Answers that fail are dropped from the cache so a later run asks afresh.
        """
        if max_repairs < 0:
            raise ValueError(f"max_repairs must be >= 0, got {max_repairs}")
        conversation = list(messages)
        problems: list[str] = []
        for turn in range(max_repairs + 1):
            answer, key = self._chat(
                conversation,
                chat_kwargs.get("temperature"),
                chat_kwargs.get("max_tokens"),
                chat_kwargs.get("json_mode", False),
                chat_kwargs.get("seed"),
            )
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
            self.usage.add(repairs=1)
            conversation = [
                *conversation,
                {"role": "assistant", "content": answer},
                {"role": "user", "content": _repair_message(problem)},
            ]
        raise LLMOutputError(
            f"LLM answer from {self.config.url} was not usable after {max_repairs + 1} "
            f"attempt{'s' if max_repairs else ''}: " + "; ".join(problems)
        )


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
