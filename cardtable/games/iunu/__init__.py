"""IUNU (../shared/rules/iunu.txt): 2-4 players, and the two 2-player variants."""

from .game import Iunu
from .options import IunuOptions
from .state import IunuState

__all__ = ["Iunu", "IunuOptions", "IunuState"]
