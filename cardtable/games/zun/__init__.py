"""Runes of Zun (../shared/rules/runes-of-zun.txt): 2-8 players, free-for-all or teams; our own base set."""

from .game import Zun
from .options import ZunOptions
from .state import ZunState

__all__ = ["Zun", "ZunOptions", "ZunState"]
