"""logir.llm: a client for OpenAI-compatible chat endpoints, with cache, retries and JSON repair."""

from logir.llm.client import ChatClient, LLMConfig, Usage
from logir.llm.errors import LLMContextError, LLMError, LLMOutputError
from logir.llm.jsonout import JSONExtractError, extract_json

__all__ = [
    "ChatClient",
    "JSONExtractError",
    "LLMConfig",
    "LLMContextError",
    "LLMError",
    "LLMOutputError",
    "Usage",
    "extract_json",
]
