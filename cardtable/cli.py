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
    try:
        _load()
    except KeyboardInterrupt:
        # Ctrl-C while the commands' libraries load (a third of a second): nothing has started, so
        # nothing is lost; the shell's exit status for it, not a traceback of an import
        raise SystemExit(130) from None
    app()


if __name__ == "__main__":
    main()
