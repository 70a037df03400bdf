"""Whether a request fits the server's context: prompt tokens + ``max_tokens`` <= context.

Prompt tokens are counted by the server's tokenizer where it has one (llama.cpp ``/tokenize``,
llama-cpp-python ``/extras/tokenize``), else estimated at ``CHARS_PER_TOKEN`` characters a token
(on the safe side for English: real tokenizers average about four). Each message adds
``PER_MESSAGE`` tokens for the chat template's markers, the request ``PER_REQUEST`` more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from logir.llm.errors import LLMContextError

if TYPE_CHECKING:
    import httpx

__all__ = ["CHARS_PER_TOKEN", "check_fits", "count_prompt", "estimate_tokens"]

CHARS_PER_TOKEN = 3.0
PER_MESSAGE = 8
PER_REQUEST = 16


def estimate_tokens(text: str) -> int:
    """A safe guess at the tokens of ``text`` when no tokenizer is at hand."""
    return int(len(text) / CHARS_PER_TOKEN) + 1


def _server_count(
    http: httpx.Client, url: str, text: str, headers: dict[str, str], timeout: float | None
) -> int | None:
    import httpx

    try:
        limit = httpx.Timeout(timeout, connect=10.0)
        response = http.post(url, json={"input": text, "content": text}, headers=headers,
                             timeout=limit)  # fmt: skip
        tokens = response.json().get("tokens") if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError, AttributeError, RecursionError):
        return None
    return len(tokens) if isinstance(tokens, list) else None


def count_prompt(
    messages: list[dict[str, str]],
    http: httpx.Client | None = None,
    tokenize_url: str | None = None,
    headers: dict[str, str] | None = None,
    timeout: float | None = 30.0,
) -> tuple[int, bool]:
    """(prompt tokens, whether the server counted them) for ``messages``."""
    text = "\n".join(m["content"] for m in messages)
    counted = None
    if http is not None and tokenize_url is not None:
        counted = _server_count(http, tokenize_url, text, headers or {}, timeout)
    body = counted if counted is not None else estimate_tokens(text)
    return body + PER_MESSAGE * len(messages) + PER_REQUEST, counted is not None


def check_fits(prompt: int, max_tokens: int, context: int, url: str, exact: bool) -> None:
    """Raise LLMContextError when ``prompt + max_tokens`` exceeds ``context``."""
    if prompt + max_tokens <= context:
        return
    how = "counted by the server" if exact else "estimated"
    raise LLMContextError(
        f"the request to {url} does not fit the server's context: about {prompt} prompt tokens "
        f"({how}) + {max_tokens} answer tokens > {context}; start the server with a larger "
        "context (llama.cpp -c, llama-cpp-python --n_ctx) or lower --llm-max-tokens",
        prompt=prompt,
        max_tokens=max_tokens,
        context=context,
    )
