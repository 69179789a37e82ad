"""Ivion (../shared/rules/ivion.txt): two heroes on a tile grid, the published classes and specializations."""

from .game import Ivion
from .options import IvionOptions
from .state import IvionState

__all__ = ["Ivion", "IvionOptions", "IvionState"]
