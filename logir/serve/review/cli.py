"""``logir review FOLDER`` (the review server) and ``logir review-export FOLDER --out DIR``.

fastapi and uvicorn are imported inside the commands, so the ``logir`` command works without them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from logir.errors import LogirError
from logir.serve.net import check_port, read_token

TOKEN_ENV = "LOGIR_REVIEW_TOKEN"


def _db_path(folder: Path, db: Path | None) -> Path:
    return db if db is not None else folder / "review.sqlite"


def review_cmd(
    folder: Annotated[Path, typer.Argument(help="The generated BEIR folder to review.")],
    db: Annotated[
        Path | None, typer.Option(help="SQLite file of the labels (default FOLDER/review.sqlite).")
    ] = None,
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8001,
    required: Annotated[
        int, typer.Option(help="Annotators per item; a majority of them accepts it.", min=1)
    ] = 3,
    token_env: Annotated[
        str | None,
        typer.Option(
            "--token-env",
            help=f"Environment variable holding a token the API requires; the page asks for it "
            f"once (default {TOKEN_ENV}; unset means no token).",
            show_default=False,
        ),
    ] = None,
    export_root: Annotated[
        Path | None,
        typer.Option(
            "--export-root",
            help="The only folder the page may export into, by folder name "
            "(default: DB-exports beside the database, FOLDER/review-exports).",
            show_default=False,
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            help="A host name the page may be reached by, besides IP addresses, localhost and "
            "--host (repeatable; e.g. the name of a proxy in front).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Serve the review page: annotators label each item, a majority accepts it."""
    try:
        import uvicorn

        from logir.serve.review.app import create_review_app, default_export_root
        from logir.serve.review.guard import host_names
    except ImportError as exc:
        msg = f"logir review needs fastapi and uvicorn ({exc.name} is missing)"
        raise LogirError(msg) from None

    token = read_token(token_env, TOKEN_ENV)
    path = _db_path(folder, db)
    exports = export_root if export_root is not None else default_export_root(path)
    app = create_review_app(
        folder,
        path,
        annotators_required=required,
        token=token,
        export_root=exports,
        allowed_hosts=host_names(host, allow_host or ()),
    )
    check_port(host, port)
    shown = f"[{host}]" if ":" in host else host
    print(f"review of {folder} on http://{shown}:{port}/review", file=sys.stderr)
    print(f"labels in {path}; exports under {app.state.export_root}", file=sys.stderr)
    if token:
        env = token_env or TOKEN_ENV
        print(f"the page asks for the token once (the value of ${env})", file=sys.stderr)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def review_export_cmd(
    folder: Annotated[Path, typer.Argument(help="The BEIR folder that was reviewed.")],
    out: Annotated[Path, typer.Option("--out", help="Folder to write the accepted items to.")],
    db: Annotated[
        Path | None, typer.Option(help="SQLite file of the labels (default FOLDER/review.sqlite).")
    ] = None,
    required: Annotated[
        int | None,
        typer.Option(help="Annotators per item (default: as the review was served).", min=1),
    ] = None,
) -> None:
    """Write the items a majority accepted as a BEIR folder (for `logir eval beir`)."""
    from logir.serve.review.export import export_accepted
    from logir.serve.review.items import ReviewFolder
    from logir.serve.review.store import ReviewStore

    path = _db_path(folder, db)
    review = ReviewFolder.load(folder)
    if not path.is_file():
        raise LogirError(f"review database not found: {path}")
    with ReviewStore(path) as store:
        if required is not None:  # for this export only; the database keeps its own
            store.required = required
        store.sync_items(review.fingerprints(), review.fingerprint)
        result = export_accepted(review, store, out)
    c = result.counts
    print(
        f"{c['accepted']} of {c['total']} items accepted ({c['rejected']} rejected, "
        f"{c['pending']} pending) -> {result.out_dir}",
        file=sys.stderr,
    )
