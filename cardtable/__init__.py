"""cardtable: play, simulate and study tabletop card games on one rules engine."""

from . import _native

_native.activate()  # compiled engine or its pure-Python source, before the core is imported

from .core import (  # noqa: E402
    Action,
    CardFileError,
    CardtableError,
    IllegalAction,
    Need,
    OptionError,
    Replay,
    ReplayError,
    Rng,
    State,
    UnknownGame,
    games,
    make,
    play,
    register,
)

__version__ = "0.1.0"

__all__ = [
    "Action", "CardFileError", "CardtableError", "IllegalAction", "OptionError", "Replay",
    "Need", "ReplayError", "Rng", "State", "UnknownGame", "games", "make", "play", "register",
]


def __getattr__(name: str) -> object:
    # `cardtable.agents` without importing every bot at `import cardtable`.
    if name == "agents":
        import importlib

        return importlib.import_module("cardtable.agents")
    raise AttributeError(f"module 'cardtable' has no attribute {name!r}")
