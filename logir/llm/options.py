"""Command-line options shared by every ``logir`` command that talks to an LLM.

Use them as parameter annotations with the defaults given here, then build the config::

    def synth_cmd(
        ...,
        llm_base_url: LLMBaseUrlOpt = None,
        llm_model: LLMModelOpt = DEFAULT_MODEL,
        llm_key_env: LLMKeyEnvOpt = DEFAULT_KEY_ENV,
        llm_timeout: LLMTimeoutOpt = DEFAULT_TIMEOUT,
        llm_retries: LLMRetriesOpt = DEFAULT_RETRIES,
        llm_concurrency: LLMConcurrencyOpt = DEFAULT_CONCURRENCY,
        llm_no_cache: LLMNoCacheOpt = False,
        llm_max_tokens: LLMMaxTokensOpt = None,
        llm_context: LLMContextOpt = None,
    ) -> None:
        config = config_from_options(
            llm_base_url, llm_model, llm_key_env, llm_timeout, llm_retries, llm_concurrency,
            llm_no_cache, max_tokens=llm_max_tokens, context=llm_context,
        )
"""

from __future__ import annotations

import os
from typing import Annotated, Any

import typer

from logir.errors import LogirError
from logir.llm.client import (
    MAX_ANSWER_TOKENS,
    MAX_CONCURRENCY,
    MAX_CONTEXT,
    MAX_RETRIES,
    MAX_TIMEOUT,
    LLMConfig,
)

__all__ = [
    "DEFAULT_CONCURRENCY",
    "DEFAULT_KEY_ENV",
    "DEFAULT_MODEL",
    "DEFAULT_RETRIES",
    "DEFAULT_TIMEOUT",
    "LLMBaseUrlOpt",
    "LLMConcurrencyOpt",
    "LLMContextOpt",
    "LLMKeyEnvOpt",
    "LLMMaxTokensOpt",
    "LLMModelOpt",
    "LLMNoCacheOpt",
    "LLMRetriesOpt",
    "LLMTimeoutOpt",
    "config_from_options",
]

PANEL = "LLM endpoint"
DEFAULT_MODEL = "default"
DEFAULT_KEY_ENV = "LOGIR_LLM_API_KEY"
DEFAULT_TIMEOUT: float | None = None  # chosen from the endpoint (see LLMConfig)
DEFAULT_RETRIES = 4
DEFAULT_CONCURRENCY: int | None = None  # chosen from the endpoint (see LLMConfig)

LLMBaseUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--llm-base-url",
        envvar="LOGIR_LLM_BASE_URL",
        help="OpenAI-compatible API root, e.g. http://127.0.0.1:8080/v1.",
        rich_help_panel=PANEL,
    ),
]
LLMModelOpt = Annotated[
    str,
    typer.Option(
        "--llm-model",
        envvar="LOGIR_LLM_MODEL",
        help="Model name sent to the endpoint.",
        rich_help_panel=PANEL,
    ),
]
LLMKeyEnvOpt = Annotated[
    str,
    typer.Option(
        "--llm-key-env",
        help="Name of the environment variable holding the API key (the key is never printed).",
        rich_help_panel=PANEL,
    ),
]
LLMTimeoutOpt = Annotated[
    float | None,
    typer.Option(
        "--llm-timeout",
        help="Seconds per request [default: 60; none for a local llama.cpp server].",
        min=0.001,
        max=MAX_TIMEOUT,
        rich_help_panel=PANEL,
        show_default=False,
    ),
]
LLMRetriesOpt = Annotated[
    int,
    typer.Option(
        "--llm-retries",
        help="Retries on 429, 5xx, timeouts and dropped connections.",
        min=0,
        max=MAX_RETRIES,
        rich_help_panel=PANEL,
    ),
]
LLMConcurrencyOpt = Annotated[
    int | None,
    typer.Option(
        "--llm-concurrency",
        help="Requests in flight at once [default: the server's slots where it says, else 4].",
        min=1,
        max=MAX_CONCURRENCY,
        rich_help_panel=PANEL,
        show_default=False,
    ),
]
LLMNoCacheOpt = Annotated[
    bool,
    typer.Option(
        "--llm-no-cache",
        help="Do not read or write the answer cache ($LOGIR_CACHE/llm or ~/.cache/logir/llm).",
        rich_help_panel=PANEL,
    ),
]

LLMMaxTokensOpt = Annotated[
    int | None,
    typer.Option(
        "--llm-max-tokens",
        help="Answer tokens per request, for every task [default: sized to each task's answer].",
        min=1,
        max=MAX_ANSWER_TOKENS,
        rich_help_panel=PANEL,
        show_default=False,
    ),
]
LLMContextOpt = Annotated[
    int | None,
    typer.Option(
        "--llm-context",
        envvar="LOGIR_LLM_CONTEXT",
        help="The server's context size in tokens [default: asked of the server]; a request "
        "whose prompt and answer cannot fit is not sent.",
        min=2,
        max=MAX_CONTEXT,
        rich_help_panel=PANEL,
        show_default=False,
    ),
]


def config_from_options(
    base_url: str | None,
    model: str = DEFAULT_MODEL,
    key_env: str = DEFAULT_KEY_ENV,
    timeout: float | None = DEFAULT_TIMEOUT,
    retries: int = DEFAULT_RETRIES,
    concurrency: int | None = DEFAULT_CONCURRENCY,
    no_cache: bool = False,
    **extra: Any,
) -> LLMConfig:
    """The LLMConfig the options describe; ``extra`` passes further LLMConfig fields
    (``max_tokens``, ``context``, prices).

    Raises LogirError when no endpoint is given (neither the option nor LOGIR_LLM_BASE_URL).
    """
    url = (base_url or os.environ.get("LOGIR_LLM_BASE_URL") or "").strip()
    if not url:
        raise LogirError("no LLM endpoint: pass --llm-base-url or set LOGIR_LLM_BASE_URL")
    if not key_env or not key_env.replace("_", "").isalnum():
        raise LogirError(f"--llm-key-env {key_env!r} is not an environment variable name")
    values: dict[str, Any] = {
        "base_url": url,
        "model": model or DEFAULT_MODEL,
        "api_key_env": key_env,
        "timeout": timeout,
        "max_retries": retries,
        "concurrency": concurrency,
        **extra,
    }
    if no_cache:
        values["cache_dir"] = None
    return LLMConfig(**values)
