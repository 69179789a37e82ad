"""Every cardtable game as an OpenSpiel game: `register_all()`, then
`pyspiel.load_game("cardtable_juno(players=2,match=False)")`.

How the engine maps onto OpenSpiel:

- GameType from the game's `GameSpec`: sequential; IMPERFECT_INFORMATION (or PERFECT if the
  spec says so); ZERO_SUM utility (cardtable returns are `zero_sum_returns` unless a game
  declares `return_range`); TERMINAL rewards; players from `min_players..max_players`.
- GameInfo per instance: `num_distinct_actions = game.num_actions`, `max_game_length =
  game.max_length`, utilities from `cardtable.rl.returns.return_range`.
- Chance is EXPLICIT_STOCHASTIC with exactly one chance node, at the start: it picks the
  game's seed, uniformly among `NUM_SEEDS`. A cardtable state carries its own seeded RNG, so
  every shuffle and draw after that follows from the seed and the players' actions; the seed
  is never shown to a player (it is in OpenSpiel's history, not in any observation or
  information state). Why not SAMPLED_STOCHASTIC, with the seed drawn from a game-level RNG:
  OpenSpiel serializes such games through `Game::GetRNGState`, which a Python game cannot
  implement, so serialization (and `random_sim_test(serialize=True)`) would fail.
- Game parameters are the game's options whose defaults are numbers, strings or booleans
  (`players`, `variant`, `match`, ...), and those typed `int | None` or `str | None` with
  default None, where 0 (or "") stands for None (JUNO's `hand_size`, Zun's `teams`). Card
  files and custom decks are not available through OpenSpiel.
- Observation tensor and string: the game's encoder (docs/rl.md) over `observation(seat)`,
  and that dict as JSON. Information state string: the seat's observation plus the list of
  its own past actions. That is perfect recall only as far as the observation dict keeps the
  public history (JUNO's keeps the current DISCARD pile, hand counts and scores, not the order
  of every draw); no information-state tensor is offered.
- `resample_from_infostate(player, sampler)` is `state.determinize(player, seed)`, which is
  what OpenSpiel's ISMCTS bot needs.
- Serialization: the state's exact `to_json()`.
"""

from __future__ import annotations

import json
import typing
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

import cardtable

from ..core.game import Game
from ..core.registry import game_class, games
from ..core.state import State
from .encoders import Encoder, encoder_for, has_encoder
from .returns import return_range

PREFIX = "cardtable_"
NUM_SEEDS = 1 << 16  # outcomes of the opening chance node (the game's seed)
_REGISTERED: dict[str, pyspiel.GameType] = {}


def _unset_value(annotation: Any) -> int | str | None:
    """For an option typed `int | None` or `str | None`: the OpenSpiel value meaning None."""
    args = set(typing.get_args(annotation))
    if type(None) not in args or len(args) != 2:
        return None
    (kind,) = args - {type(None)}
    unset: dict[object, int | str] = {int: 0, str: ""}
    return unset.get(kind)


def _parameter_defaults(name: str) -> dict[str, Any]:
    """OpenSpiel parameters: every option with a number, string or boolean default, and every
    `int | None` / `str | None` option with default None, exposed as 0 / "" meaning None."""
    cls = game_class(name)
    out: dict[str, Any] = {}
    for key, field in cls.Options.model_fields.items():
        default = field.default
        if key == "players" and not isinstance(default, int):
            default = cls.spec.min_players
        if default is None:
            default = _unset_value(field.annotation)
        if isinstance(default, bool | int | float | str):
            out[key] = default
    return out


def _options_from_parameters(name: str, params: dict[str, Any]) -> dict[str, Any]:
    fields = game_class(name).Options.model_fields
    out = {}
    for key, value in params.items():
        field = fields.get(key)
        if field is not None and field.default is None and value == _unset_value(field.annotation):
            continue  # 0 / "" stands for "not set": the option keeps its default, None
        out[key] = value
    return out


def game_type(name: str) -> pyspiel.GameType:
    """The pyspiel GameType of a registered cardtable game, built from its spec."""
    spec = game_class(name).spec
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"cardtable {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.PERFECT_INFORMATION if spec.information == "perfect" else info.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=has_encoder(name),
        parameter_specification=_parameter_defaults(name),
    )


class CardtableSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A cardtable game as a pyspiel.Game (one class for every game)."""

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        gtype = _REGISTERED[name]
        merged = {**gtype.parameter_specification, **(params or {})}
        self.cardtable: Game[Any] = cardtable.make(name, **_options_from_parameters(name, merged))
        lo, hi = return_range(self.cardtable)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.cardtable.num_actions,
            max_chance_outcomes=NUM_SEEDS,
            num_players=self.cardtable.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0,
            max_game_length=self.cardtable.max_length,
        )
        super().__init__(gtype, info, params or {})
        self.encoder: Encoder | None = encoder_for(self.cardtable) if has_encoder(name) else None

    def new_initial_state(self) -> CardtableSpielState:
        return CardtableSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> CardtableObserver:
        if params:
            raise ValueError(f"cardtable observers take no parameters; got {params}")
        return CardtableObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Carried:
    """Holds the cardtable state inside a pyspiel state (None before the opening chance node).

    pyspiel clones a Python state by building a new initial state and deep-copying its
    attributes, and serializes it by pickling them: this holder makes the first the engine's
    cheap `clone()` and the second the exact `to_json()`."""

    __slots__ = ("state",)

    def __init__(self, state: State | None = None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Carried:
        return _Carried(None if self.state is None else self.state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        if self.state is None:
            return (_Carried, ())
        g = self.state.game
        return (_carried_from_json, (g.spec.name, g.options.to_json(), json.dumps(self.state.to_json())))


def _carried_from_json(name: str, options: dict[str, Any], text: str) -> _Carried:
    return _Carried(cardtable.make(name, **options).state_from_json(json.loads(text)))


class CardtableSpielState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: CardtableSpielGame) -> None:
        super().__init__(game)
        self._carried = _Carried()
        # each seat's own actions so far: what the information state adds to the observation
        self._own: list[list[int]] = [[] for _ in range(game.num_players())]

    @property
    def cardtable(self) -> State:
        """The cardtable state (the true state: hidden information included)."""
        state = self._carried.state
        if state is None:
            raise RuntimeError("the game has not started: apply the opening chance outcome (the seed) first")
        return state

    def current_player(self) -> int:
        state = self._carried.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = state.current_player
        assert seat is not None
        return seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._carried.state is not None:
            return []
        p = 1.0 / NUM_SEEDS
        return [(seed, p) for seed in range(NUM_SEEDS)]

    def _legal_actions(self, player: int) -> list[int]:
        state = self.cardtable
        if state.is_over or player != state.current_player:
            return []
        return sorted(a.index for a in state.legal_actions())

    def _apply_action(self, action: int) -> None:
        if self._carried.state is None:
            if not 0 <= action < NUM_SEEDS:
                raise ValueError(f"the opening chance outcome is a seed in 0..{NUM_SEEDS - 1}, got {action}")
            game: CardtableSpielGame = self.get_game()
            self._carried.state = game.cardtable.new_state(int(action), record_events=False)
            return
        state = self._carried.state
        seat = state.current_player
        state.apply(int(action))  # IllegalAction, with the rule's reason, if it is not legal
        assert seat is not None
        self._own[seat].append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        game: CardtableSpielGame = self.get_game()
        return game.cardtable.action_from_index(int(action)).text

    def is_terminal(self) -> bool:
        return self._carried.state is not None and self._carried.state.is_over

    def returns(self) -> list[float]:
        if self._carried.state is None:
            return [0.0] * self.num_players()
        return [float(r) for r in self._carried.state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardtableSpielState:
        """A state consistent with what `player_id` knows (the engine's `determinize`)."""
        seed = int(probability_sampler() * (1 << 53))
        new = CardtableSpielState(self.get_game())
        new._carried = _Carried(self.cardtable.determinize(player_id, seed))
        new._own = [list(a) for a in self._own]
        return new

    def __str__(self) -> str:
        if self._carried.state is None:
            return "(before the deal: the seed is not chosen yet)"
        data = self._carried.state.to_json()
        return json.dumps({k: data[k] for k in ("seed", "rng", "is_over", "pending", "state")}, sort_keys=True)


class CardtableObserver:
    """OpenSpiel's PyObserver: `tensor` and its named views `dict`, `set_from`, `string_from`."""

    def __init__(self, game: CardtableSpielGame, iig_obs_type: pyspiel.IIGObservationType) -> None:
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(
                "cardtable observations are what one seat may know (public and its own private information); "
                f"{iig_obs_type} is not available"
            )
        self.perfect_recall = iig_obs_type.perfect_recall
        self.encoder = None if self.perfect_recall else game.encoder
        size = self.encoder.size if self.encoder is not None else 0
        self.tensor = np.zeros(size, np.float32)
        self.dict = self.encoder.views(self.tensor) if self.encoder is not None else {}

    def set_from(self, state: CardtableSpielState, player: int) -> None:
        if self.encoder is None:
            return
        if state._carried.state is None:  # before the deal nothing is known: all zeros
            self.tensor.fill(0.0)
        else:
            self.encoder.encode_state(state.cardtable, player, out=self.tensor)

    def string_from(self, state: CardtableSpielState, player: int) -> str:
        if state._carried.state is None:
            return "before the deal"
        text = json.dumps(state.cardtable.observation(player), sort_keys=True)
        if self.perfect_recall:
            return f"{text} own_actions={state._own[player]}"
        return text


_CLASSES: dict[str, type[CardtableSpielGame]] = {}


def _game_class(name: str) -> type[CardtableSpielGame]:
    """A subclass per game, registered as the factory. (pyspiel keeps its factories until the
    process exits; a class, unlike a closure, outlives that without a crash at shutdown.)"""

    def __init__(self: CardtableSpielGame, params: dict[str, Any] | None = None) -> None:
        CardtableSpielGame.__init__(self, name, params)

    cls = type(f"CardtableSpielGame_{name}", (CardtableSpielGame,), {"__init__": __init__})
    _CLASSES[name] = cls
    return cls


def register(name: str) -> str:
    """Register one cardtable game with pyspiel; returns its OpenSpiel name. Idempotent."""
    if name not in _REGISTERED:
        gtype = game_type(name)
        _REGISTERED[name] = gtype
        if gtype.short_name not in pyspiel.registered_names():
            pyspiel.register_game(gtype, _game_class(name))
    return PREFIX + name


def register_all() -> list[str]:
    """Register every game in cardtable's registry; returns their OpenSpiel names."""
    return [register(name) for name in games()]
