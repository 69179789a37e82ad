"""Iuno Avatar (../shared/rules/iuno-avatar.txt): 2-3 players, cardtable's own 54-card deck."""

from .game import IunoAvatar
from .options import AvatarOptions
from .state import AvatarState

__all__ = ["AvatarOptions", "AvatarState", "IunoAvatar"]
