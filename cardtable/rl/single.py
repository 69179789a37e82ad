"""A Gymnasium environment: one seat learns, cardtable bots play every other seat.

The learner's observation is the same dict as in the PettingZoo environment
(`{"observation", "action_mask"}`). Opponents act through the engine's usual door: each is
handed what it needs (its legal actions, or `state.determinize(seat, rng)`: `cardtable.core.views`),
never the true state (DESIGN.md, "Agents"). The
reward is the learner's `state.returns()` when the game ends.

Learner seat: a number, or `seat="random"` (drawn at every reset from the episode's seed, so
one policy learns every seat; `env.seat` is the seat of the current episode). Opponents fill
the other seats in seat order.

`normalize=True` divides each observation value by the largest value its piece can hold
(`encoder.high`), so every value lies in [0, 1] (the observation space says so);
`encoding="planes"` gives binary planes instead of small counts (`cardtable.rl.encoders.planes`).

Defaults: a game named by a string is made with the research defaults (`cardtable.rl.defaults`:
2 players, one round), the game's options given on top, as in PettingZoo and OpenSpiel.
Registered ids: `gymnasium.make("cardtable/Juno-v0")`, one per game with an encoder
(`cardtable.rl.registration`, run by `import cardtable.rl`), any keyword of `gym_env` on top:
`gymnasium.make("cardtable/Zun-v0", players=4)`. `gymnasium.make_vec("cardtable/Juno-v0",
num_envs=4)` vectorizes them. Once the game is over the action mask allows every action
(pgx's convention), so the observation of the last step never has an all-zero mask.

Illegal actions. Gymnasium's contract is that every element of `action_space` may be passed
to `step`, so by default (`illegal_action="lose"`) an illegal action ends the episode at
once: the learner gets the game's lowest return, `terminated=True`, and
`info["illegal_action"]` holds the rule's reason. Nothing is substituted. With
`illegal_action="raise"` the environment raises `IllegalAction` instead (game unchanged).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import gymnasium
import numpy as np

from .. import agents as agent_registry
from ..core.errors import IllegalAction
from ..core.game import Game
from ..core.rng import Rng
from ..core.state import State
from ..core.views import Views, need_of
from .defaults import research_game
from .encoders import Encoding, action_mask, encoder_for
from .returns import return_range
from .views import RENDER_FPS, observation_space, render_text

OpponentSpec = str | Any  # an agent name, or an object with act(view) -> action


class CardtableGym(gymnasium.Env):  # type: ignore[misc]
    metadata = {"render_modes": ["human", "ansi"], "render_fps": RENDER_FPS}

    def __init__(
        self,
        game: str | Game[Any],
        seat: int | Literal["random"] = 0,
        opponents: Sequence[OpponentSpec] | None = None,
        *,
        illegal_action: Literal["lose", "raise"] = "lose",
        max_decisions: int | None = None,
        normalize: bool = False,
        encoding: str = "counts",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game: Game[Any] = research_game(game, options)
        if max_decisions is not None and max_decisions < 1:
            raise ValueError(f"max_decisions must be a positive number of decisions, got {max_decisions}")
        n = self.game.players
        if seat != "random" and (not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(
                f"seat must be 0..{n - 1} or 'random' for {self.game.spec.title} with {n} players, got {seat!r}"
            )
        opponents = ["random"] * (n - 1) if opponents is None else list(opponents)
        if len(opponents) != n - 1:
            raise ValueError(f"{n} players: give {n - 1} opponents (one per other seat, in seat order), got {len(opponents)}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, got {render_mode!r}")
        for o in opponents:
            if isinstance(o, str):
                agent_registry.make(o)  # fail now, with the registry's message, on an unknown name
            elif not callable(getattr(o, "act", None)):
                raise TypeError(f"an opponent must be an agent name or have act(view); got {o!r}")
        self.seat_choice = seat
        self.seat = 0 if seat == "random" else seat
        self.opponent_specs = opponents
        self.illegal_action = illegal_action
        self.max_decisions = max_decisions
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        self.encoding = Encoding(self.encoder, encoding, normalize)
        self.normalize = normalize
        self.observation_space = observation_space(self.encoding)
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.others = [s for s in range(n) if s != self.seat]
        self.opponents: dict[int, Any] = {}
        self.state: State | None = None
        self._views = Views(Rng(0))
        self.steps = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game. With `seed`, the game is `game.new_state(seed)` and named opponents are
        rebuilt with seeds drawn from it (when they take one), so seeded episodes repeat exactly."""
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(1 << 63))
        # A game can end before the learner decides once (two-player JUNO: the other seat's Skips,
        # Draw Twos and Wild Draw Fours keep the turn until it goes out). An episode must start at
        # the learner's decision, so such a game is passed over for the next one, whose seed comes
        # from this one (a seeded reset still repeats exactly); `info["games_passed_over"]` counts them.
        passed = 0
        while True:
            self._deal(game_seed)
            if not self._live().is_over:
                break
            passed += 1
            game_seed = Rng(game_seed).below(1 << 63)
        return self._obs(), ({"games_passed_over": passed} if passed else {})

    def _deal(self, game_seed: int) -> None:
        """Game `game_seed`, played by the opponents up to the learner's first decision (or its end)."""
        if self.seat_choice == "random":
            self.seat = Rng(game_seed ^ 0x5EA7).below(self.game.players)
            self.others = [s for s in range(self.game.players) if s != self.seat]
        self.state = self.game.new_state(game_seed, record_events=False)
        self._views = Views(Rng(game_seed).spawn())  # like cardtable.play: bots never share the game's RNG
        bot_seeds = Rng(game_seed ^ 0x5EED)
        self.opponents = {
            s: self._build(spec, bot_seeds.below(1 << 31)) for s, spec in zip(self.others, self.opponent_specs, strict=True)
        }
        self.steps = 0
        self._play_opponents()

    @staticmethod
    def _build(spec: OpponentSpec, seed: int) -> Any:
        if not isinstance(spec, str):
            return spec
        try:
            return agent_registry.make(spec, seed=seed)
        except agent_registry.AgentError:
            return agent_registry.make(spec)  # an agent without a seed parameter

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        state = self._live()
        if state.is_over:
            raise RuntimeError("the episode is over; call reset()")
        try:
            state.apply(self.game.action_from_index(int(action)))
        except (IllegalAction, TypeError, ValueError) as exc:
            reason = f"seat {self.seat} cannot take action {action!r}: {exc}"
            if self.illegal_action == "raise":
                raise IllegalAction(reason) from None
            return self._obs(), return_range(self.game)[0], True, False, {"illegal_action": reason}
        self.steps += 1
        self._play_opponents()
        terminated = state.is_over
        reward = float(state.returns()[self.seat]) if terminated else 0.0
        truncated = not terminated and self.max_decisions is not None and self.steps >= self.max_decisions
        return self._obs(), reward, terminated, truncated, {}

    def _play_opponents(self) -> None:
        state = self._live()
        while not state.is_over and state.current_player != self.seat:
            seat = state.current_player
            assert seat is not None
            opponent = self.opponents[seat]
            state.apply(opponent.act(self._views.of(need_of(opponent), state, seat)))
            self.steps += 1

    def _obs(self) -> dict[str, np.ndarray]:
        state = self._live()
        return {"observation": self.encoding.encode_state(state, self.seat), "action_mask": self._mask(state)}

    def _mask(self, state: State) -> np.ndarray:
        """The learner's legal actions; once the game is over, every action (pgx's convention): a
        vector environment's autoreset ignores the action given after the last step, and a masked
        policy must still be able to draw one (an all-zero mask divides by zero)."""
        if state.is_over:
            return np.ones(self.game.num_actions, np.int8)
        return action_mask(state, self.seat)

    def action_masks(self) -> np.ndarray:
        """The current mask as bools (the name sb3-contrib's MaskablePPO looks for)."""
        return self._mask(self._live()).astype(bool)

    def render(self) -> str | None:
        """The learner's view as text: returned ("ansi") or printed ("human")."""
        if self.render_mode is None:
            return None
        text = render_text(self.game, self._live(), self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _live(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state


def gym_env(
    game: str | Game[Any],
    seat: int | Literal["random"] = 0,
    opponents: Sequence[OpponentSpec] | None = None,
    **options: Any,
) -> CardtableGym:
    """`gym_env("juno", seat=0, opponents=["random"])` (2 players, one round: the research
    defaults, `cardtable.rl.defaults`; `players=4, match=True` on top change them).

    Keyword arguments are the game's options, plus `illegal_action` ("lose" or "raise"),
    `max_decisions` (truncate after that many decisions, every seat's), `normalize`, `encoding`
    ("counts" or "planes") and `render_mode`. Opponents default to random bots."""
    return CardtableGym(game, seat, opponents, **options)

