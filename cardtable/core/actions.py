"""Actions are values: hashable, with a stable int index and a stable text form.

Each game builds its whole action space once (`ActionSpace`). `legal_actions()` returns
these canonical objects, so membership tests and hashing are by index, and nothing is
allocated on the hot path. Text forms are what logs, the CLI and replays use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

from mypy_extensions import mypyc_attr

from .errors import IllegalAction


@mypyc_attr(allow_interpreted_subclasses=True)  # games' action records (cardtable/_native.py)
class Action:
    """Base of every game's action record. `index` and `text` are set by the ActionSpace."""

    __slots__ = ("index", "text", "space")
    index: int
    text: str
    space: str

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.index == self.index)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.index}: {self.text}>"

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled actions (process pools, Ray) come back as the canonical objects.
        return (_action_from_registry, (self.space, self.index))


@mypyc_attr(allow_interpreted_subclasses=True)
class CardAction(Action):
    """An action as most games' moves are: a `kind` (the game's `IntEnum`), the `card` it is about
    (the index the game gives its cards, -1 for none) and a number `n` (a seat, an order; -1 for
    none). Iuno Avatar's and Runes of Zun's actions are these; `ActionSpace.find` looks one up."""

    __slots__ = ("kind", "card", "n")

    def __init__(self, kind: int, card: int = -1, n: int = -1) -> None:
        self.kind = kind
        self.card = card
        self.n = n


A = TypeVar("A", bound=Action)
C = TypeVar("C", bound=CardAction)
T = TypeVar("T")

_SPACES: dict[str, ActionSpace] = {}  # type: ignore[type-arg]
_SHARED: dict[str, object] = {}  # a game's spaces with their lookup tables, by key (`ActionSpace.shared`)


def _action_from_registry(space: str, index: int) -> Action:
    action: Action = _SPACES[space].actions[index]
    return action


# Not on the hot path: a plain Python class even in the compiled build (cardtable/_native.py),
# so copies and pickles work as for any Python object.
@mypyc_attr(native_class=False)
class ActionSpace(Generic[A]):
    """The fixed, ordered list of a game's actions."""

    def __init__(self, key: str, game_title: str, actions: Iterable[tuple[A, str]]) -> None:
        """`key` names this space uniquely (game name plus whatever options shape it)."""
        self.key = key
        self.game_title = game_title
        self.actions: list[A] = []
        self._by_text: dict[str, A] = {}
        self._by_key: dict[tuple[int, int, int], Any] | None = None  # `find`'s table, made at its first call
        for i, (action, text) in enumerate(actions):
            action.index = i
            action.text = text
            action.space = key
            if text.lower() in self._by_text:
                raise ValueError(f"duplicate action text {text!r}")
            self._by_text[text.lower()] = action
            self.actions.append(action)
        _SPACES[key] = self

    @staticmethod
    def shared(key: str, build: Callable[[], T]) -> T:
        """The space (or a game's record holding it and its lookup tables) made by `build` for `key`,
        made once and shared by every game of that key (a deck, a rune set)."""
        space = _SHARED.get(key)
        if space is None:
            space = _SHARED[key] = build()
        return space  # type: ignore[return-value]  # each key is built by one game's `build`

    def __len__(self) -> int:
        return len(self.actions)

    def __iter__(self) -> Iterator[A]:
        return iter(self.actions)

    def owns(self, action: object) -> bool:
        """`action` is one of this space's action objects. (Spaces may share one: the yes / no of every
        Iuno Avatar deck; its `space` names the last space built with it.)"""
        index = getattr(action, "index", None)
        return isinstance(index, int) and 0 <= index < len(self.actions) and self.actions[index] is action

    def from_index(self, index: int) -> A:
        if not isinstance(index, int) or not 0 <= index < len(self.actions):
            raise IllegalAction(
                f"{self.game_title} has actions 0..{len(self.actions) - 1}; {index!r} is not one of them"
            )
        return self.actions[index]

    def parse(self, text: str) -> A:
        action = self._by_text.get(" ".join(str(text).split()).lower())
        if action is None:
            raise IllegalAction(f"{text!r} is not a {self.game_title} action; examples: {self.examples()}")
        return action

    def find(self: ActionSpace[C], kind: int, card: int = -1, n: int = -1) -> C:
        """The `CardAction` of this space with `kind`, `card` and `n` (KeyError when there is none)."""
        by = self._by_key
        if by is None:
            by = self._by_key = {(a.kind, a.card, a.n): a for a in self.actions}
        action: C = by[kind, card, n]
        return action

    def examples(self, n: int = 4) -> str:
        step = max(1, len(self.actions) // n)
        return ", ".join(repr(a.text) for a in self.actions[::step][:n])
