"""``logir train KIND ...``: the typer front of :mod:`logir.train.run`, which parses the
options itself (so ``python -m logir.train.run`` and ``logir train`` take the same ones)."""

from __future__ import annotations

import typer

from logir.train import DESCRIPTIONS

train_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help=(
        "Train a model from logic-labelled data: logir train KIND --data PATH --out DIR. "
        "The folder works as --model DIR (dense) or as a reader; `logir train KIND --help` "
        "lists the options. Rerunning the same command resumes from the last checkpoint."
    ),
)

_PASS_THROUGH = {"allow_extra_args": True, "ignore_unknown_options": True}


def _command(kind: str) -> None:
    def run(ctx: typer.Context) -> None:
        from logir.train.run import main

        main([kind, *ctx.args], prog="logir train")

    run.__doc__ = f"Train {DESCRIPTIONS[kind]}."
    train_app.command(kind, context_settings=_PASS_THROUGH, add_help_option=False)(run)


for _kind in DESCRIPTIONS:
    _command(_kind)
