"""The State every game implements, and the one public door into it: `apply`.

A game declares its state's `layout` (zones and fields: cardtable/core/zones.py) and its
decisions; each decision knows its legal actions, how an action resolves it and how to say what
it asks (the TAG `IExtendedSequence` idea, typed). The base class checks legality (`check`),
guards the terminal state, caches the legal-action list between moves, records the action
history for replays (STYLE.md principle 2), and gives clone, JSON, conservation and
determinize from the layout. A game writes `observation`, `_returns`, `_winners` and its rules.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Self

from mypy_extensions import mypyc_attr

from .actions import Action
from .errors import IllegalAction, ReplayError
from .events import Event
from .rng import Rng, as_rng

if TYPE_CHECKING:
    from collections.abc import Collection

    from .game import Game
    from .replay import Replay
    from .zones import Hidden, StateLayout, Zone


# Games subclass Decision and State in interpreted code even when the core is compiled
# (cardtable/_native.py), so the compiled classes must allow it.
@mypyc_attr(allow_interpreted_subclasses=True)
class Decision:
    """A pending decision. The top of a state's `pending` stack owns `current_player`
    and `legal_actions()`; out-of-turn choices (reactions, catches, tributes) are decisions
    of other seats pushed on the same stack. Decisions are immutable, so clones share them.

    A decision owns its behaviour: `legal_actions(state)`, `resolve(state, action)` (called with
    the decision already taken off the stack and a legal action), `describe(state)` for a person,
    and `why_illegal(state, action)` for a refused action."""

    __slots__ = ("seat",)
    kind: ClassVar[str] = "decision"
    #: the constructor's arguments after `seat`, in order (JSON round trip)
    fields: ClassVar[tuple[str, ...]] = ()
    #: what the deciding seat is asked, after "seat N": "must" or "may" and what to do ("must choose
    #: which Afterlife card to keep"), so that the same words put to the seat itself read as an
    #: instruction ("choose which Afterlife card to keep": `cardtable.ui.names.addressed`)
    asks: ClassVar[str] = ""
    #: the fields an observation shows as they are, after kind, seat and text (`view`)
    shown: ClassVar[tuple[str, ...]] = ()

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        for f in self.fields:
            value = getattr(self, f)
            out[f] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        values = [tuple(v) if isinstance(v, list) else v for v in (data[f] for f in cls.fields)]
        return cls(int(data["seat"]), *values)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_json()})"

    def __reduce__(self) -> tuple[object, ...]:
        # Copies and pickles (process pools, Ray) go through the JSON form: a compiled decision
        # class (cardtable/_native.py) cannot be made without its constructor's arguments.
        return (type(self).from_json, (self.to_json(),))

    # -- behaviour (each game's decisions override these) ------------------------------------

    def legal_actions(self, state: Any) -> list[Action]:
        """The actions `state.current_player` may take now (never empty)."""
        raise NotImplementedError(f"{type(self).__name__} gives no legal actions")

    def resolve(self, state: Any, action: Any) -> None:
        """Carry out `action`, a legal action of this decision, which is already off the stack."""
        raise NotImplementedError(f"{type(self).__name__} cannot be resolved")

    def question(self, state: Any) -> str:
        """What this decision asks of its seat, after "seat N": `asks`, unless a decision words it
        from the state ("may catch seat 2 for not calling UNO, or pass"). Every front end (the
        refusals, the terminal, the web table) puts this one wording to a person."""
        return self.asks or f"must decide ({self.kind})"

    def describe(self, state: Any) -> str:
        """What this decision asks, for a person: "seat 2 must choose the color that continues play"."""
        return f"seat {self.seat} {self.question(state)}"

    def why_illegal(self, state: Any, action: Any) -> str:
        """Why `action`, not among the legal actions, is refused: the rule, for a person."""
        return f"{action.text!r} is not possible now: {self.describe(state)}"

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        """This decision as every game's observation shows it to `viewer` (None: a spectator): its
        kind, seat and question (`describe`), the `shown` fields, then its `details`."""
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat, "text": self.describe(state)}
        for f in self.shown:
            out[f] = getattr(self, f)
        out.update(self.details(state, viewer))
        return out

    def details(self, state: Any, viewer: int | None) -> dict[str, Any]:
        """What else an observation shows of this decision, worked out from the state (a card's
        name for its id) or for its own seat only (the card JUNO's player just drew)."""
        return {}

    def resampled(self, state: Any, viewer: int) -> Decision:
        """This decision in a determinized copy for `viewer`, where hidden cards were dealt anew
        (a decision that names a hidden card gives the one that now stands in its place)."""
        return self


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    __slots__ = ("game", "rng", "seed", "history", "events", "pending", "is_over", "_legal")

    #: the game's zones and fields (cardtable/core/zones.py), declared once per state class
    layout: ClassVar[StateLayout]

    game: Game[Any]
    rng: Rng
    seed: int | None            # None for determinized copies: they have no replay
    history: list[int]          # action indices applied since new_state(seed)
    events: list[Event] | None  # None when recording is off
    pending: list[Decision]
    is_over: bool
    _legal: list[Action] | None

    def _init_base(self, game: Game[Any], seed: int | None, rng: Rng, record_events: bool) -> None:
        self.game = game
        self.seed = seed
        self.rng = rng
        self.history = []
        self.events = [] if record_events else None
        self.pending = []
        self.is_over = False
        self._legal = None

    def _copy_base_into(self, new: State) -> None:
        new.game = self.game
        new.seed = self.seed
        new.rng = self.rng.clone()
        new.history = self.history.copy()
        new.events = None if self.events is None else self.events.copy()  # events are immutable
        new.pending = self.pending.copy()  # decisions are immutable
        new.is_over = self.is_over
        new._legal = self._legal

    # -- the contract ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The seat that must decide now (any seat, not only the one whose turn it is)."""
        if self.is_over or not self.pending:
            return None
        return self.pending[-1].seat

    @property
    def decision(self) -> Decision | None:
        return None if self.is_over or not self.pending else self.pending[-1]

    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = [] if self.is_over else self.pending[-1].legal_actions(self)
        return legal

    def check(self, action: Any) -> Action:
        """The legal action that `action` names (an action, its text or its index); raises
        IllegalAction with the rule's reason otherwise. Changes nothing.

        Typed `Any`: a compiled build checks annotated types at run time, and anything else
        (a float, None) must still be refused with IllegalAction, not TypeError."""
        legal = self.legal_actions()
        if action in legal:
            return legal[legal.index(action)]
        if self.is_over:
            raise IllegalAction("the game is over; no more actions can be taken")
        if not isinstance(action, Action):
            action = self.game.coerce_action(action)
            if action in legal:
                return legal[legal.index(action)]
        if not self.game.actions.owns(action):  # another game's action object
            raise IllegalAction(
                f"{action!r} is not an action of this {self.game.spec.title} game (another game, or other "
                f"options); its actions are like {self.game.actions.examples()}"
            )
        raise IllegalAction(self.pending[-1].why_illegal(self, action))

    def card_moves(self, seat: int) -> dict[str, list[Action]]:
        """The moves that would play each card `seat` holds (by its name) at the decision now, each
        card's moves in the order a view offers them (Iuno Avatar: `summon X`; Ivion: `play X`); a
        card with nothing to do at this decision is left out, and a component the seat holds that a
        move plays is named like a card (Iuno Avatar's `gems`). Empty when no card is played at this
        decision, or the game does not say. A game that says lets its views show each card's why-not
        (`card_status`)."""
        return {}

    def card_status(self, seat: int | None) -> dict[str, dict[str, Any]]:
        """While `seat` decides, each card it holds (`card_moves`): every move that plays it with why
        the rules refuse that move now (`moves`: `[{"move", "why"}]`, `why` None when the move is
        legal), `check`'s reason, so that no front end works a rule out again (STYLE.md, principle
        13); and the card's verdict, what a click on it does: its first legal move (`move`, `why`
        None), or when none is legal its first move and that move's reason."""
        if seat is None or self.current_player != seat:
            return {}
        legal = self.legal_actions()
        out: dict[str, dict[str, Any]] = {}
        for name, actions in self.card_moves(seat).items():
            if not actions:
                continue
            moves = [{"move": a.text, "why": None if a in legal else self._refusal(a)} for a in actions]
            verdict = next((m for m in moves if m["why"] is None), moves[0])
            out[name] = {"move": verdict["move"], "why": verdict["why"], "moves": moves}
        return out

    def _refusal(self, action: Action) -> str:
        """The reason `check` refuses an action that is not legal now."""
        try:
            self.check(action)
        except IllegalAction as exc:
            return str(exc)
        raise AssertionError(f"{action.text!r} is not among the legal actions, yet check accepts it")

    def apply(self, action: Any) -> None:
        """Apply a legal action. Raises IllegalAction (state unchanged) otherwise.

        Strings are parsed with the game's action text, integers are action indices."""
        legal = self._legal
        # The common case first: an action of the cached legal list (a list computed while the
        # game was over is empty, so a finished game always takes the checks of `check`).
        if legal is None or action not in legal:
            action = self.check(action)
        self._legal = None
        self.history.append(action.index)
        self.pending.pop().resolve(self, action)

    def returns(self) -> list[float]:
        """Per seat. Zero for everyone until the game is over."""
        if not self.is_over:
            return [0.0] * self.game.players
        return self._returns()

    def winners(self) -> list[int]:
        return self._winners() if self.is_over else []

    @abstractmethod
    def observation(self, seat: int | None) -> dict[str, Any]:
        """A JSON-able dict of exactly what `seat` may know (None: a spectator)."""

    def determinize(self, seat: int, rng: Rng | int | None = None) -> State:
        """A full state consistent with what `seat` knows: the cards it cannot see dealt anew
        (cardtable/core/zones.py, `StateLayout.resample`), a fresh RNG, no seed, no history."""
        r = as_rng(rng)
        new = self._clone_for_view()
        new.seed = None
        new.rng = r.spawn()
        new.history = []
        type(self).layout.resample(self, new, seat, r)
        new._legal = None
        return new

    def shuffle_unseen(self, rng: Rng) -> None:
        """Chance between a player's choice and its effect (OpenSpiel's chance nodes,
        cardtable/rl/openspiel.py): the cards no seat can see are put in a new random order and
        the state draws from a fresh RNG, so a copy made before the choice does not know what the
        choice will draw. Games where a seat knows where an unseen card lies override it (Ivion:
        the cards a second wind put at the bottom of a deck)."""
        type(self).layout.shuffle_unseen(self, rng)
        self.rng = rng.spawn()
        self._legal = None

    def clone(self) -> State:
        """An independent copy."""
        new: State = type(self).__new__(type(self))
        self._copy_base_into(new)
        type(self).layout._copy_fields(self, new)
        return new

    def zone_visible(self, zone: Zone, owner: int | str | None, seat: int) -> bool:
        """Whether `seat` sees the cards of `zone` (of `owner`, for a zone per seat or host), asked
        of every zone that is not public. Games override it where the rules show a zone (Runes of
        Zun's Exposed hands)."""
        return zone.owned and owner == seat

    def known_positions(self, seat: int) -> dict[tuple[str, int | str | None], Collection[int]]:
        """Positions in zones `seat` cannot see whose cards it knows, which `determinize` and
        `shuffle_unseen` leave in place: {(zone attribute, owner or None): indices in its list}
        (Ivion: revealed cards, and the bottom of a deck its own second wind put there)."""
        return {}

    def hidden_outside_zones(self, seat: int) -> list[Hidden]:
        """Cards `seat` cannot see that are in no zone (held by a pending decision)."""
        return []

    def invariants(self) -> dict[str, int]:
        """Quantities the rules conserve (cards, tokens, gems), checked by the conformance suite:
        the cards of each group over every zone; games add what else they conserve."""
        return type(self).layout.counts(self)

    def events_for(self, seat: int | None) -> list[Event]:
        """The recorded events `seat` may see (public ones, and private ones sent to it)."""
        if self.events is None:
            return []
        return [e for e in self.events if e.visible_to(seat)]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.spec.name,
            "options": self.game.options.to_json(),
            "seed": self.seed,
            "rng": self.rng.state,
            "history": list(self.history),
            "is_over": self.is_over,
            "pending": [d.to_json() for d in self.pending],
            "events": None if self.events is None else [e.to_json() for e in self.events],
            "state": type(self).layout.snapshot(self),
        }

    def __reduce__(self) -> tuple[object, ...]:
        # Copies and pickles (process pools, Ray) go through the exact JSON form: the compiled
        # build (cardtable/_native.py) has no instance dict, and its default pickle state would
        # miss the slots of a game's interpreted subclass.
        return (_state_from_json, (self.game, self.to_json()))

    def replay(self) -> Replay:
        from .replay import Replay

        if self.seed is None:
            raise ReplayError("a determinized copy has no seed, so it has no replay")
        return Replay(
            game=self.game.spec.name,
            options=self.game.options.to_json(),
            seed=self.seed,
            actions=[self.game.actions.actions[i].text for i in self.history],
        )

    # -- hooks for games -----------------------------------------------------------------

    @abstractmethod
    def _returns(self) -> list[float]: ...

    @abstractmethod
    def _winners(self) -> list[int]: ...

    def _restore(self, data: dict[str, Any], pending: list[dict[str, Any]]) -> None:
        layout = type(self).layout
        layout.restore(self, data)
        self.pending = [layout.decision_from_json(p) for p in pending]
        self._derive()
        self._legal = None

    def _derive(self) -> None:  # noqa: B027 (a hook: most games derive nothing)
        """Rebuild the layout's `derived` fields after a load (they are never saved)."""

    # -- helpers for games ---------------------------------------------------------------

    def emit(self, kind: str, to: tuple[int, ...] | None = None, **data: Any) -> None:
        if self.events is not None:
            self.events.append(Event(kind, data, to))

    def _clone_for_view(self) -> Self:
        """A clone without the event log, for `determinize`: a determinized view carries no
        events (bots read what they may know from `observation`), which keeps a view's cost
        independent of the game's length."""
        events, self.events = self.events, None
        try:
            return self.clone()  # type: ignore[return-value]
        finally:
            self.events = events



def zero_sum_returns(winners: list[int], players: int) -> list[float]:
    """Winners share +1 each; losers pay so that returns sum to zero."""
    k = len(winners)
    if k in (0, players):
        return [0.0] * players
    lose = -k / (players - k)
    return [1.0 if s in winners else lose for s in range(players)]


def _state_from_json(game: Game[Any], data: dict[str, Any]) -> State:
    state: State = game.state_from_json(data)
    return state
