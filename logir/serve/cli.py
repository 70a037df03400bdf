"""``logir serve INDEX_DIR``: the API and the search explorer over one index, with uvicorn.

FastAPI and uvicorn are imported inside the command, so the rest of the ``logir`` command works
without the ``serve`` extra.
"""

from __future__ import annotations

import gc
import ipaddress
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from logir.cli_options import (
    RerankDepthOpt,
    RerankOpt,
    RerankWeightOpt,
    SpellingOpt,
    rerank_settings,
)
from logir.cli_ray import RayOpt, ShardsOpt, ray_sharding
from logir.errors import LogirError
from logir.limits import MAX_K
from logir.llm.options import (
    DEFAULT_KEY_ENV,
    DEFAULT_MODEL,
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT,
    LLMBaseUrlOpt,
    LLMContextOpt,
    LLMKeyEnvOpt,
    LLMMaxTokensOpt,
    LLMModelOpt,
    LLMNoCacheOpt,
    LLMRetriesOpt,
    LLMTimeoutOpt,
    config_from_options,
)
from logir.rerank.settings import DEFAULT_DEPTH, DEFAULT_WEIGHT
from logir.serve.net import check_port, read_token

DEFAULT_TOKEN_ENV = "LOGIR_SERVE_TOKEN"
KEEP_ALIVE_S = 5.0
GRACEFUL_SHUTDOWN_S = 5
SWITCH_INTERVAL_S = 0.001
MAX_TIMEOUT_S = 3600.0  # as logir.serve.limits, which needs the 'serve' extra to import


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def serve_cmd(
    index_dir: Annotated[Path, typer.Argument(help="An index built by `logir index`.")],
    host: Annotated[
        str, typer.Option(help="Address to bind; 127.0.0.1 keeps the server local.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
    token_env: Annotated[
        str | None,
        typer.Option(
            "--token-env",
            help=f"Environment variable holding a bearer token that every API call must send "
            f"(default: {DEFAULT_TOKEN_ENV}, when set).",
        ),
    ] = None,
    max_query_chars: Annotated[int, typer.Option(help="Longest query accepted.", min=1)] = 1000,
    max_k: Annotated[
        int, typer.Option(help="Most hits one search may ask for.", min=1, max=MAX_K)
    ] = MAX_K,
    max_terms: Annotated[int, typer.Option(help="Most terms in a logical form.", min=1)] = 16,
    max_body_bytes: Annotated[
        int, typer.Option(help="Largest request body accepted.", min=256)
    ] = 32 * 1024,
    request_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds a request may take, waiting for earlier ones included; past it the "
            "client gets a 503.",
            min=0.1,
            max=MAX_TIMEOUT_S,
        ),
    ] = 20.0,
    body_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds a client has to send a whole request body (else 408).",
            min=0.1,
            max=MAX_TIMEOUT_S,
        ),
    ] = 10.0,
    max_waiting: Annotated[
        int, typer.Option(help="Most requests waiting for the search worker (more get 503).", min=1)
    ] = 16,
    keep_alive: Annotated[
        float,
        typer.Option(help="Seconds an idle keep-alive connection stays open.", min=0.1, max=600),
    ] = KEEP_ALIVE_S,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
    rerank: RerankOpt = None,
    rerank_depth: RerankDepthOpt = DEFAULT_DEPTH,
    rerank_weight: RerankWeightOpt = DEFAULT_WEIGHT,
    llm_base_url: LLMBaseUrlOpt = None,
    llm_model: LLMModelOpt = DEFAULT_MODEL,
    llm_key_env: LLMKeyEnvOpt = DEFAULT_KEY_ENV,
    llm_timeout: LLMTimeoutOpt = DEFAULT_TIMEOUT,
    llm_retries: LLMRetriesOpt = DEFAULT_RETRIES,
    llm_no_cache: LLMNoCacheOpt = False,
    llm_max_tokens: LLMMaxTokensOpt = None,
    llm_context: LLMContextOpt = None,
    ray: RayOpt = None,
    shards: ShardsOpt = 4,
    spelling: SpellingOpt = True,
) -> None:
    """Serve the search API and the search explorer for an index (with --rerank, a trained
    reader, loaded once at start, rereads every search's top hits; with --llm-base-url,
    requests may ask for mode "llm"; with --ray, from shards in Ray actors)."""
    settings = rerank_settings(rerank, rerank_depth, rerank_weight)
    llm_config = None
    if llm_base_url:  # also from LOGIR_LLM_BASE_URL (the option's environment variable)
        # one request at a time (the searches run on one worker thread), and none that may hold
        # the worker longer than a request may take (the client's local-server default is no
        # read timeout at all)
        timeout = request_timeout if llm_timeout is None else llm_timeout
        llm_config = config_from_options(
            llm_base_url, llm_model, llm_key_env, timeout, llm_retries, 1, llm_no_cache,
            max_tokens=llm_max_tokens, context=llm_context,
        )  # fmt: skip
    try:
        import uvicorn

        from logir.serve.app import create_app
        from logir.serve.limits import Limits
    except ImportError as exc:
        raise LogirError(
            f"logir serve needs the 'serve' extra ({exc.name} is missing): "
            "pip install 'logir[serve]'"
        ) from None
    token = read_token(token_env, DEFAULT_TOKEN_ENV)
    check_port(host, port)
    limits = Limits(
        max_query_chars,
        max_k,
        max_terms,
        max_body_bytes,
        request_timeout_s=request_timeout,
        body_timeout_s=body_timeout,
        max_waiting=max_waiting,
    )
    llm = None
    if llm_config is not None:
        from logir.llm import ChatClient

        llm = ChatClient(llm_config)  # one worker thread asks it: one request in flight
    shard = ray_sharding(ray, shards)
    app = create_app(
        index_dir,
        token=token,
        limits=limits,
        rerank=settings,
        llm=llm,
        shard=shard,
        spelling=spelling,
    )
    if not token and not _is_loopback(host):
        print(
            f"warning: serving on {host} without a bearer token; anyone who can reach it can "
            f"query the index (set {DEFAULT_TOKEN_ENV})",
            file=sys.stderr,
        )
    shown = f"[{host}]" if ":" in host else host
    print(f"logir serve: {index_dir} at http://{shown}:{port}/ (API docs: /docs)", file=sys.stderr)
    # searches run on a worker thread; a short switch interval hands the GIL back to the event
    # loop within about a millisecond, so /healthz and the other quick answers never wait long
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    # what is loaded now (index, models, reader) lives as long as the server: keep it out of the
    # garbage collector's full passes, which would otherwise walk it for half a second each
    gc.collect()
    gc.freeze()
    uvicorn.run(app, **uvicorn_options(host, port, log_level, keep_alive))


def uvicorn_options(
    host: str, port: int, log_level: str = "info", keep_alive: float = KEEP_ALIVE_S
) -> dict[str, Any]:
    """The settings ``logir serve`` runs uvicorn with: idle connections closed after
    ``keep_alive`` seconds, and a stop (SIGTERM, Ctrl-C) that waits at most a few seconds for
    open requests."""
    return {
        "host": host,
        "port": port,
        "log_level": log_level,
        "timeout_keep_alive": keep_alive,
        "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_S,
    }
