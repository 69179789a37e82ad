"""JUNO (../shared/rules/juno.txt): classic, seven-o and serious rule sets, custom decks."""

from .game import Juno
from .options import JunoOptions
from .state import JunoState

__all__ = ["Juno", "JunoOptions", "JunoState"]
