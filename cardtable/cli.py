"""`cardtable ...`: the command line. Each command lives in cardtable/commands/."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    help="cardtable: play, simulate and study tabletop card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Modules under cardtable.commands that add commands to `app`. A new command adds one line.
COMMANDS = [
    "cardtable.commands.play",
    "cardtable.commands.simulate",
    "cardtable.commands.serve",
    "cardtable.commands.arena",
    "cardtable.commands.deck",
    "cardtable.commands.review",
    "cardtable.commands.ladder",
]


def _load() -> None:
    for module in COMMANDS:
        importlib.import_module(module).register(app)


def main() -> None:
    _load()
    app()


if __name__ == "__main__":
    main()
