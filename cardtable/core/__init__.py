"""The core contract every game meets (DESIGN.md, "The core contract")."""

from .actions import Action, ActionSpace, CardAction
from .errors import CardFileError, CardtableError, IllegalAction, OptionError, ReplayError, UnknownGame
from .events import Event
from .game import Game
from .options import GameOptions
from .play import play
from .registry import game_class, games, make, register
from .replay import Replay
from .rng import Rng
from .spec import GameSpec
from .state import Decision, State, zero_sum_returns
from .views import Need, Turn, view_for
from .zones import Form, Hidden, HostKeys, Layout, Order, Pool, StateLayout, Visibility, Zone

__all__ = [
    "Action", "ActionSpace", "CardAction", "CardFileError", "CardtableError", "Decision", "Event", "Game",
    "GameOptions", "GameSpec", "IllegalAction", "OptionError", "Replay", "ReplayError", "Rng",
    "Form", "Hidden", "HostKeys", "Layout", "Order", "Pool", "State", "StateLayout", "UnknownGame", "Visibility", "Zone", "game_class",
    "games", "make", "Need", "play", "register", "Turn", "view_for", "zero_sum_returns",
]
