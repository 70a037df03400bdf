"""What can go wrong when asking an LLM: the endpoint failed, the answer was unusable, or the
request could not fit the server's context."""

from __future__ import annotations

from logir.errors import LogirError

__all__ = ["LLMContextError", "LLMError", "LLMOutputError"]


class LLMError(LogirError):
    """The endpoint failed after the retries (the message names URL, status or reason, attempts)."""


class LLMOutputError(LLMError):
    """The answer never became valid JSON, or never passed validation, after the repairs."""


class LLMContextError(LLMError):
    """The request was not sent: its prompt and answer cannot fit the server's context."""

    def __init__(self, message: str, *, prompt: int, max_tokens: int, context: int) -> None:
        super().__init__(message)
        self.prompt = prompt
        self.max_tokens = max_tokens
        self.context = context
