"""Every cardtable game as an OpenSpiel game: `register_all()`, then
`pyspiel.load_game("cardtable_juno(players=2,match=False)")`.

How the engine maps onto OpenSpiel:

- GameType from the game's `GameSpec`: sequential; IMPERFECT_INFORMATION (or PERFECT if the
  spec says so); ZERO_SUM utility (cardtable returns are `zero_sum_returns` unless a game
  declares `return_range`); TERMINAL rewards; players from `min_players..max_players`.
- GameInfo per instance: `num_distinct_actions = game.num_actions`, `max_game_length =
  max_decisions` (below), utilities from `cardtable.rl.returns.return_range`.
- Research defaults (`cardtable.rl.defaults`): a registered game loads with 2 players (or the
  game's least number, if higher) and one round (an option named `match` defaults to False):
  `cardtable_juno` is 2-player JUNO, one round. Every game option remains a parameter.
- Chance is EXPLICIT_STOCHASTIC. The first chance node picks the game's seed, uniformly among
  `NUM_SEEDS` (the outcome list is built once and shared): the deal. The seed is never shown to a
  player (it is in OpenSpiel's history, not in any observation or information state). Why not
  SAMPLED_STOCHASTIC, with randomness drawn from a game-level RNG: OpenSpiel serializes such
  games through `Game::GetRNGState`, which a Python game cannot implement, so serialization
  (and `random_sim_test(serialize=True)`) would fail.
- Draws are chance too (`chance_draws=True`, the default): after a player chooses an action, a
  chance node with `NUM_SHUFFLES` equally likely outcomes comes before the action takes effect.
  It puts the cards no seat can see (face-down piles) in a new order and gives the state a fresh
  RNG (`State.shuffle_unseen`), drawn from the outcome and the state's own generator, so a state
  and its clone given the same outcome stay equal, as `random_sim_test` requires. A seat's view
  does not change at the node, and the game is the same game: a pile nobody has seen is in a
  uniformly random order before and after (Ivion keeps the cards a second wind put at the bottom
  of a deck, which their owner knows). So a perfect-information search over clones
  (`mcts.MCTSBot`) no longer knows what a draw will give; it still sees the other hands, which
  only determinization hides: `ismcts.ISMCTSBot` searches `resample_from_infostate` copies (the
  engine's `determinize`: hidden cards, pile order and RNG resampled). Each outcome stands for
  many orders (the state's generator differs along each history), so 256 outcomes are a sample of
  the orders, not all of them: a method that enumerates chance outcomes sees 256 branches where
  the real game has more. `chance_draws=False` keeps only the deal's chance node (then clones know
  every future draw).
- `max_decisions` ends the game after that many decisions with every return 0 (a draw); it
  is `max_game_length`, and the number of rows of the information-state tensor. The default,
  0, takes the game's own bound or, if smaller, the longest history whose tensor fits in
  `DEFAULT_TENSOR_SIZE` floats (2^16; 2-player JUNO: 1,035 decisions, where a random game takes
  ~930, median).
- Game parameters are the game's options whose defaults are numbers, strings or booleans
  (`players`, `variant`, `match`, ...), and those typed `int | None` or `str | None` with
  default None, where 0 (or "") stands for None (JUNO's `hand_size`, Zun's `teams`). Card
  files and custom decks are not available through OpenSpiel.
- Observation tensor and string: the game's encoder (docs/rl.md) over `observation(seat)`,
  as counts or binary planes (the `encoding` parameter, as in every interface:
  `cardtable.rl.encoders.Encoding`), and that dict as JSON.
- Information state (perfect recall), built for every game from the contract alone:
  - the string is the seat's current observation (JSON) plus a digest of everything the seat
    has seen: its observation after every decision and its own actions, in order. Two
    histories get the same string exactly when the seat saw the same sequence;
  - the tensor is the observation tensor followed by the history, one compact row per
    decision (up to `max_game_length`; `history_width`): the relative seat that decided
    (one-hot), the action when the seat can tell which it was — its own actions, and another
    seat's action whose outcome shows it (there were other legal actions, and every one would
    have shown the seat a different observation; a forced action is not shown) — as action + 1
    in binary digits (`num_actions.bit_length()` of them, all zero: not seen), then how the
    encoder's `private` and `transient` pieces changed for the seat at that decision (its hand:
    +1 for a card drawn, -1 for a card played; Iuno Avatar's die roll). So the tensor has
    perfect recall of the seat's own draws and of what chance showed it, in order: those pieces
    after any decision are the pieces now minus the changes since. With `encoding=planes` the
    observation part is planes and the history is the same (the changes are counts: a row stays
    as narrow), so recall stays perfect: the planes give the counts back one to one
    (`Planes.to_counts`). A `max_decisions` that makes
    the tensor larger than `MAX_TENSOR_SIZE` floats is refused when the tensor is asked for,
    with the reason.
- `resample_from_infostate(player, sampler)` is `state.determinize(player, seed)`, which is
  what OpenSpiel's ISMCTS bot needs.
- Serialization: the state's exact `to_json()` and its history records.
"""

from __future__ import annotations

import hashlib
import json
import typing
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]
from open_spiel.python.algorithms import ismcts  # type: ignore[import-untyped]

import cardtable

from ..core.game import Game
from ..core.registry import game_class, games
from ..core.rng import Rng
from ..core.state import State
from .defaults import research_options
from .encoders import Encoder, Encoding, check_encoding, encoder_for, has_encoder
from .returns import return_range

PREFIX = "cardtable_"
NUM_SEEDS = 1 << 16  # outcomes of the opening chance node (the game's seed)
_SEED_OUTCOMES = [(seed, 1.0 / NUM_SEEDS) for seed in range(NUM_SEEDS)]  # built once, shared
NUM_SHUFFLES = 1 << 8  # outcomes of a chance node between a choice and its effect
_SHUFFLE_OUTCOMES = [(k, 1.0 / NUM_SHUFFLES) for k in range(NUM_SHUFFLES)]
_GOLDEN = 0x9E3779B97F4A7C15
MAX_TENSOR_SIZE = 1 << 20  # floats (4 MB); a larger information-state tensor is refused
DEFAULT_TENSOR_SIZE = 1 << 16  # floats (256 KB): what `max_decisions=0` sizes the tensor to
#: parameters beside the game's options: `max_decisions` (below; the same name in every interface),
#: `chance_draws`: a chance node between each choice and its effect, which puts the cards no seat
#: sees in a new order (True, the default), or the opening chance node only (False: a clone then
#: knows every future draw), and, as in PettingZoo and Gymnasium, `normalize` (the observation
#: part of both tensors divided by the largest value of each piece, so it lies in [0, 1]) and
#: `encoding` ("counts" or "planes": the observation part of both tensors as binary planes)
EXTRA_PARAMETERS: dict[str, Any] = {"max_decisions": 0, "chance_draws": True, "normalize": False, "encoding": "counts"}
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
    `int | None` / `str | None` option with default None, exposed as 0 / "" meaning None;
    the research defaults (`cardtable.rl.defaults`) replace the game's own; then `EXTRA_PARAMETERS`."""
    cls = game_class(name)
    research = research_options(name)
    out: dict[str, Any] = {}
    for key, field in cls.Options.model_fields.items():
        default = research.get(key, field.default)
        if key == "players" and not isinstance(default, int):
            default = cls.spec.min_players
        if default is None:
            default = _unset_value(field.annotation)
        if isinstance(default, bool | int | float | str):
            out[key] = default
    return {**out, **EXTRA_PARAMETERS}


def _options_from_parameters(name: str, params: dict[str, Any]) -> dict[str, Any]:
    fields = game_class(name).Options.model_fields
    out = {}
    for key, value in params.items():
        if key in EXTRA_PARAMETERS:
            continue
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
        provides_information_state_tensor=has_encoder(name),
        provides_observation_string=True,
        provides_observation_tensor=has_encoder(name),
        parameter_specification=_parameter_defaults(name),
    )


def action_bits(num_actions: int) -> int:
    """Binary digits of an action in a history row: action + 1, so that all zeros is "not seen"."""
    return num_actions.bit_length()


def history_width(players: int, num_actions: int, encoder: Encoder) -> int:
    """Values in one row of the information-state tensor's history: the relative seat that
    decided (one-hot), the action + 1 in binary, the changes of the recalled pieces."""
    return players + action_bits(num_actions) + int(encoder.recalled_index.size)


def default_max_decisions(game: Game[Any], encoding: str = "counts") -> int:
    """`max_decisions=0`: the game's own bound, or the longest history whose information-state
    tensor fits in `DEFAULT_TENSOR_SIZE` floats, whichever is smaller (JUNO, 2 players: 1,035;
    1,029 with planes, whose observation is larger)."""
    if not has_encoder(game.spec.name):
        return game.max_length
    encoder = encoder_for(game)
    room = DEFAULT_TENSOR_SIZE - Encoding(encoder, encoding).size
    return max(1, min(game.max_length, room // history_width(game.players, game.num_actions, encoder)))


class CardtableSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A cardtable game as a pyspiel.Game (one class for every game)."""

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        gtype = _REGISTERED[name]
        merged = {**gtype.parameter_specification, **(params or {})}
        encoding = check_encoding(merged["encoding"])
        self.cardtable: Game[Any] = cardtable.make(name, **_options_from_parameters(name, merged))
        asked = int(merged["max_decisions"])
        if asked < 0:
            raise ValueError(f"max_decisions must be 0 (automatic) or a positive number, got {asked}")
        self.max_decisions = min(asked or default_max_decisions(self.cardtable, encoding), self.cardtable.max_length)
        self.chance_draws = bool(merged["chance_draws"])
        self.normalize = bool(merged["normalize"])
        self.max_length = self.max_decisions
        lo, hi = return_range(self.cardtable)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.cardtable.num_actions,
            max_chance_outcomes=NUM_SEEDS,
            num_players=self.cardtable.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0,
            max_game_length=self.max_length,
        )
        super().__init__(gtype, info, params or {})
        self.encoder: Encoder | None = encoder_for(self.cardtable) if has_encoder(name) else None
        # the observation part of both tensors (the history's changes are the encoder's counts)
        self.encoding = Encoding(self.encoder, encoding, self.normalize) if self.encoder is not None else None
        self.shared = _Shared(self)

    def new_initial_state(self) -> CardtableSpielState:
        return CardtableSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> CardtableObserver:
        if params:
            raise ValueError(f"cardtable observers take no parameters; got {params}")
        return CardtableObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


#: how a seat's recalled pieces (private and transient) changed at a decision: positions within
#: them, and the changes
Change = tuple[tuple[int, ...], tuple[float, ...]]
NO_CHANGE: Change = ((), ())


class Decision:
    """One decision of the history, shared by every clone that descends from it (so a clone
    copies one reference, whatever the length of the game).

    `seen[s]`: seat `s` can tell which action this was. `recall[s]`: a digest of everything
    seat `s` has seen up to and including this decision. `changes[s]`: how the recalled pieces
    of seat `s` changed at this decision (its encoder's `private` pieces, its hand, and its
    `transient` ones, a die just rolled), as positions within those pieces and the change (a card
    drawn: +1). All are worked out when first asked for, from
    a copy of the state before the decision kept until then: a search that never asks for an
    information state (MCTS rollouts) pays one engine clone per decision, not the probes."""

    __slots__ = ("previous", "seat", "action", "length", "_before", "_seen", "_recall", "_changes", "_encoder")

    def __init__(
        self,
        previous: Decision | None,
        seat: int,
        action: int,
        before: State | None = None,
        seen: tuple[bool, ...] = (),
        recall: tuple[bytes, ...] = (),
        changes: tuple[Change, ...] = (),
        encoder: Encoder | None = None,
    ) -> None:
        self.previous = previous
        self.seat = seat
        self.action = action
        self.length: int = 1 if previous is None else previous.length + 1
        self._before = before  # None once settled
        self._seen = seen
        self._recall = recall
        self._changes = changes
        self._encoder = encoder  # until settled

    @property
    def seen(self) -> tuple[bool, ...]:
        if self._before is not None:
            self._settle()
        return self._seen

    @property
    def recall(self) -> tuple[bytes, ...]:
        if self._before is not None:
            self._settle()
        return self._recall

    @property
    def changes(self) -> tuple[Change, ...]:
        if self._before is not None:
            self._settle()
        return self._changes

    def _settle(self) -> None:
        """Work out `seen`, `recall` and `changes` of this decision and of every unsettled one before it."""
        pending: list[Decision] = []
        node: Decision | None = self
        while node is not None and node._before is not None:
            pending.append(node)
            node = node.previous
        for d in reversed(pending):
            assert d._before is not None
            d._seen, d._recall, d._changes = _observe(d._before, d.seat, d.action, d.previous, d._encoder)
            d._before = d._encoder = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Decision:
        return self  # never changed once settled; settling gives the same answer in any copy

    def __reduce__(self) -> tuple[Any, ...]:
        # flat, not nested: a game's history is longer than Python's recursion limit
        return (_decisions_from_rows, ([(d.seat, d.action, d.seen, d.recall, d.changes) for d in self.chain()],))

    def chain(self) -> list[Decision]:
        """Every decision from the first to this one."""
        out: list[Decision] = []
        node: Decision | None = self
        while node is not None:
            out.append(node)
            node = node.previous
        out.reverse()
        return out


def _decisions_from_rows(rows: list[tuple[int, int, tuple[bool, ...], tuple[bytes, ...], tuple[Change, ...]]]) -> Decision:
    last: Decision | None = None
    for seat, action, seen, recall, changes in rows:
        last = Decision(last, seat, action, None, seen, recall, changes)
    assert last is not None
    return last


def _digest(previous: bytes, observation: dict[str, Any], own_action: int | None) -> bytes:
    text = json.dumps(observation, sort_keys=True, separators=(",", ":"))
    h = hashlib.blake2b(previous, digest_size=12)
    h.update(text.encode())
    if own_action is not None:
        h.update(b"|%d" % own_action)
    return h.digest()


def _observe(
    before: State, seat: int, action: int, previous: Decision | None, encoder: Encoder | None = None
) -> tuple[tuple[bool, ...], tuple[bytes, ...], tuple[Change, ...]]:
    """What each seat learns from `seat` taking `action` in `before` (left unchanged).

    Another seat `s` sees which action it was when there were other legal actions and every one
    of them would have shown `s` a different observation (each is tried on a clone). A forced
    action is not shown: which action was forced can depend on what `s` cannot see (the one card
    a player may keep)."""
    players = before.game.players
    others = [s for s in range(players) if s != seat]
    alternatives: list[list[dict[str, Any]]] = []
    if others:
        for legal in before.legal_actions():
            if legal.index != action:
                probe = before.clone()
                probe.apply(legal)
                alternatives.append([probe.observation(s) for s in others])
    after = before.clone()
    after.apply(action)
    seen = [True] * players
    recall = []
    changes: list[Change] = []
    base = previous.recall if previous is not None else (b"",) * players
    recalled = encoder.recalled_index if encoder is not None and encoder.recalled_index.size else None
    for s in range(players):
        obs = after.observation(s)
        if s != seat:
            i = others.index(s)
            seen[s] = bool(alternatives) and all(alt[i] != obs for alt in alternatives)
        recall.append(_digest(base[s], obs, action if s == seat else None))
        if recalled is None:
            changes.append(NO_CHANGE)
            continue
        assert encoder is not None
        diff = encoder.encode(obs)[recalled] - encoder.encode(before.observation(s))[recalled]
        where = np.flatnonzero(diff)
        changes.append((tuple(int(k) for k in where), tuple(float(v) for v in diff[where])))
    return tuple(seen), tuple(recall), tuple(changes)


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


class _Shared:
    """What every state of one game reads and none changes: the game's bounds and its encoder.

    pyspiel clones a Python state by deep-copying its attributes; this holder is copied as a
    reference, so a clone costs the engine's `clone()`, not a rebuilt encoder (the encoder's
    copy rebuilds its layout and buffers from the game: 0.3-2 ms a clone)."""

    __slots__ = ("max_decisions", "chance_draws", "encoder")

    def __init__(self, game: CardtableSpielGame) -> None:
        self.max_decisions: int = game.max_decisions
        self.chance_draws: bool = game.chance_draws
        self.encoder: Encoder | None = game.encoder

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class CardtableSpielState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: CardtableSpielGame) -> None:
        super().__init__(game)
        self._carried = _Carried()
        self._last: Decision | None = None  # the history's records, newest first (shared, immutable)
        self._shared = game.shared
        self._chosen = -1  # an action chosen, waiting for the chance node before its effect

    @property
    def cardtable(self) -> State:
        """The cardtable state (the true state: hidden information included)."""
        state = self._carried.state
        if state is None:
            raise RuntimeError("the game has not started: apply the opening chance outcome (the seed) first")
        return state

    @property
    def decisions(self) -> list[Decision]:
        """The records of every decision so far (oldest first)."""
        return [] if self._last is None else self._last.chain()

    def _cut(self) -> bool:
        """The game reached `max_decisions` (a draw)."""
        return self._last is not None and self._last.length >= self._shared.max_decisions

    def current_player(self) -> int:
        state = self._carried.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over or self._cut():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._chosen >= 0:
            return int(pyspiel.PlayerId.CHANCE)
        seat = state.current_player
        assert seat is not None
        return seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._carried.state is None:
            return _SEED_OUTCOMES
        return _SHUFFLE_OUTCOMES if self._chosen >= 0 else []

    def _legal_actions(self, player: int) -> list[int]:
        state = self.cardtable
        if state.is_over or self._cut() or self._chosen >= 0 or player != state.current_player:
            return []
        return sorted(a.index for a in state.legal_actions())

    def _apply_action(self, action: int) -> None:
        if self._carried.state is None:
            if not 0 <= action < NUM_SEEDS:
                raise ValueError(f"the opening chance outcome is a seed in 0..{NUM_SEEDS - 1}, got {action}")
            game: CardtableSpielGame = self.get_game()
            self._carried.state = game.cardtable.new_state(int(action), record_events=False)
            return
        if self._cut():
            raise cardtable.IllegalAction(f"the game ended after max_decisions={self._shared.max_decisions} decisions")
        state = self._carried.state
        if self._chosen >= 0:
            # The chance node between a choice and its effect: what no seat sees is put in a new
            # order drawn from this outcome and the state's own generator (so a state and its clone
            # given the same outcome stay equal), then the choice takes effect.
            if not 0 <= action < NUM_SHUFFLES:
                raise ValueError(f"this chance outcome is a shuffle in 0..{NUM_SHUFFLES - 1}, got {action}")
            state.shuffle_unseen(Rng((state.rng.next64() + (int(action) + 1) * _GOLDEN) & (2**64 - 1)))
            chosen, self._chosen = self._chosen, -1
            self._take(state, chosen)
            return
        if self._shared.chance_draws:
            state.check(int(action))  # IllegalAction, with the rule's reason, if it is not legal
            self._chosen = int(action)
            return
        self._take(state, int(action))

    def _take(self, state: State, action: int) -> None:
        seat = state.current_player
        assert seat is not None
        before = state.clone()
        state.apply(action)  # IllegalAction, with the rule's reason, if it is not legal
        self._last = Decision(self._last, seat, action, before, encoder=self._shared.encoder)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}" if self._carried.state is None else f"shuffle {action}"
        game: CardtableSpielGame = self.get_game()
        return game.cardtable.action_from_index(int(action)).text

    def is_terminal(self) -> bool:
        state = self._carried.state
        return state is not None and (state.is_over or self._cut())

    def returns(self) -> list[float]:
        state = self._carried.state
        if state is None or not state.is_over:
            return [0.0] * self.num_players()  # before the end, and a game cut at max_decisions
        return [float(r) for r in state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardtableSpielState:
        """A state consistent with what `player_id` knows (the engine's `determinize`)."""
        seed = int(probability_sampler() * (1 << 53))
        new = CardtableSpielState(self.get_game())
        new._carried = _Carried(self.cardtable.determinize(player_id, seed))
        new._last = self._last
        new._chosen = self._chosen
        return new

    def __str__(self) -> str:
        if self._carried.state is None:
            return "(before the deal: the seed is not chosen yet)"
        data = self._carried.state.to_json()
        return json.dumps({k: data[k] for k in ("seed", "rng", "is_over", "pending", "state")}, sort_keys=True)


class CardtableObserver:
    """OpenSpiel's PyObserver: `tensor` and its named views `dict`, `set_from`, `string_from`.

    Without perfect recall: the game's encoding (counts or planes) of `observation(seat)`. With
    perfect recall (the information state): that, then the action history (module docstring)."""

    def __init__(self, game: CardtableSpielGame, iig_obs_type: pyspiel.IIGObservationType) -> None:
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(
                "cardtable observations are what one seat may know (public and its own private information); "
                f"{iig_obs_type} is not available"
            )
        self.perfect_recall = iig_obs_type.perfect_recall
        self.encoder = game.encoder
        self.encoding = game.encoding
        self.players = game.num_players()
        self.num_actions = game.num_distinct_actions()
        self.rows = game.max_length if self.perfect_recall else 0
        self.bits = action_bits(self.num_actions)
        self.recalled = int(self.encoder.recalled_index.size) if self.encoder is not None else 0
        row = self.players + self.bits + self.recalled
        obs_size = self.encoding.size if self.encoding is not None else 0
        self.size = obs_size + self.rows * row if self.encoder is not None else 0
        self._refusal = ""
        if self.size > MAX_TENSOR_SIZE:
            self._refusal = (
                f"the information-state tensor of {game} would hold {self.size:,} floats ({self.rows:,} decisions "
                f"of {row} values after the observation): load it with max_decisions=N (the game ends as a draw "
                f"after N decisions) so that it holds at most {MAX_TENSOR_SIZE:,}"
            )
            self.size = 0
        self._tensor = np.zeros(self.size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        self._obs = self._tensor[:obs_size]
        # what the encoder writes: the observation part itself, or counts turned into planes
        planes = self.encoding is not None and self.encoding.planes is not None
        self._counts = np.zeros(self.encoder.size, np.float32) if planes and self.encoder is not None else self._obs
        self._history: np.ndarray | None = None
        self._set = np.zeros(0, np.intp)  # the history's values in the tensor now (flat positions)
        # per seat: the decision its last history ended at, and the flat positions of its values and those values
        self._positions: dict[int, tuple[Decision | None, list[int], list[float]]] = {}
        if self.size:
            self.dict = self.encoding.views(self._obs) if self.encoding is not None else {}
            if self.perfect_recall:
                self._history = self._tensor[obs_size:].reshape(self.rows, row)
                # one piece, in tensor order (pyspiel reads the tensor through these views): each
                # row the relative seat that decided (one-hot), then the action + 1 in binary if
                # seen, then how the seat's private and transient pieces changed
                self.dict["history"] = self._history

    @property
    def tensor(self) -> np.ndarray:
        """The tensor; empty for a game without an encoder and for a refused (unbounded) history,
        whose `set_from` raises with the reason."""
        return self._tensor

    def set_from(self, state: CardtableSpielState, player: int) -> None:
        if self.encoder is None or self.encoding is None:
            return
        if self._refusal:
            raise ValueError(self._refusal)
        self._obs.fill(0.0)
        if state._carried.state is None:  # before the deal nothing is known: all zeros
            self._clear_history()
            return
        self.encoder.encode_state(state.cardtable, player, out=self._counts)
        self.encoding.finish(self._counts, out=self._obs)
        if self._history is not None:
            self._write_history(state._last, player)

    def _clear_history(self) -> None:
        if self._history is not None and self._set.size:
            self._history.flat[self._set] = 0.0
        self._set = np.zeros(0, np.intp)

    def _write_history(self, last: Decision | None, player: int) -> None:
        """Set the ones of the rows of the decisions up to `last`, after clearing the last call's.

        Each seat's list of positions is kept with the decision it ends at, and extended when
        the next call is for a later point of the same history (one game, step by step)."""
        assert self._history is not None
        known_last, positions, values = self._positions.get(player, (None, [], []))
        new: list[Decision] = []
        node = last
        done = 0 if known_last is None else known_last.length
        while node is not None and node.length > done:
            new.append(node)
            node = node.previous
        if node is not known_last:  # another history: start over
            new, positions, values = ([] if last is None else last.chain()[::-1]), [], []
        players, bits = self.players, self.bits
        acted = players + bits  # where the recalled pieces' changes begin in a row
        row = acted + self.recalled
        for d in reversed(new):
            at = (d.length - 1) * row
            positions.append(at + (d.seat - player) % players)
            values.append(1.0)
            if d.seen[player]:
                code = d.action + 1  # binary, most significant digit first; all zeros: not seen
                digits = [at + players + j for j in range(bits) if code >> (bits - 1 - j) & 1]
                positions.extend(digits)
                values.extend([1.0] * len(digits))
            if self.recalled:
                where, change = d.changes[player]
                positions.extend(at + acted + k for k in where)
                values.extend(change)
        self._positions[player] = (last, positions, values)
        self._clear_history()
        self._set = np.asarray(positions, np.intp)
        if self._set.size:
            self._history.flat[self._set] = np.asarray(values, np.float32)

    def string_from(self, state: CardtableSpielState, player: int) -> str:
        if state._carried.state is None:
            return "before the deal"
        text = json.dumps(state.cardtable.observation(player), sort_keys=True)
        if self.perfect_recall:
            last = state._last
            recall = "" if last is None else last.recall[player].hex()
            return f"{text} decisions={0 if last is None else last.length} recall={recall}"
        return text


class RestartableISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python `ismcts.ISMCTSBot` with `restart_at`, so `evaluate_bots` can run it.

    Upstream's class does not implement `restart_at` (pyspiel.Bot's default raises "RestartAt(state)
    not implemented"), so `evaluate_bots` refuses it for every game, OpenSpiel's own included. Its
    search keeps nothing between moves that a restart should reset but its tree: `reset()`."""

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()


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
