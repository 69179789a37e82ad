"""A PettingZoo AEC environment for any cardtable game with an observation encoder.

A game named by a string is made with the research defaults (`cardtable.rl.defaults`: 2 players,
one round), its options given on top, as in Gymnasium and OpenSpiel.

`agent_selection` follows `state.current_player`, so out-of-turn decisions (an UNO catch,
a reaction) are simply that agent's turn. Each agent observes
`{"observation": float32 encoding of observation(seat), "action_mask": int8 over num_actions}`;
the mask is all zeros for agents that are not deciding. Rewards are `state.returns()` when
the game ends (zero before).

Illegal actions: by default (`illegal_action="raise"`) an illegal action raises
`IllegalAction` naming the agent, the action and the rule's reason; the game is unchanged and
nothing is substituted. `illegal_action="lose"` is PettingZoo's classic behaviour (its
`TerminateIllegalWrapper`): the game ends at once, the offender gets the game's lowest return
and the other agents share what it pays; `infos[agent]["illegal_action"]` holds the reason.

`pettingzoo_env(...)` (and `cardtable.rl.pettingzoo.<game>_v0.env()`) return the environment
wrapped in PettingZoo's `OrderEnforcingWrapper`, like every PettingZoo environment; the
cardtable state is `env.game_state` (`env.state()` is PettingZoo's global-state method).
"""

from __future__ import annotations

from typing import Any, Literal

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]

from ..core.errors import IllegalAction
from ..core.game import Game
from ..core.rng import Rng
from ..core.state import State
from .defaults import research_game
from .encoders import Encoding, action_mask, encoder_for
from .returns import return_range
from .views import RENDER_FPS, observation_space, render_text


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class CardtableAEC(AECEnv):  # type: ignore[misc]
    """`cardtable.rl.pettingzoo_env(game, **options)`; see the module docstring."""

    RENDER_MODES = ("human", "ansi")
    metadata: dict[str, Any] = {
        "render_modes": list(RENDER_MODES),
        "name": "cardtable_v0",
        "is_parallelizable": False,
        "render_fps": RENDER_FPS,
    }

    def __init__(
        self,
        game: str | Game[Any],
        *,
        illegal_action: Literal["raise", "lose"] = "raise",
        max_decisions: int | None = None,
        max_cycles: int | None = None,
        normalize: bool = False,
        encoding: str = "counts",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game: Game[Any] = research_game(game, options)
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be one of {self.RENDER_MODES} or None, got {render_mode!r}")
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        if max_decisions is not None and max_cycles is not None:
            raise TypeError("give max_decisions or max_cycles (max_cycles x players decisions), not both")
        if max_cycles is not None:
            if max_cycles < 1:
                raise ValueError(f"max_cycles must be a positive number, got {max_cycles}")
            # a cycle: as many decisions as there are agents, whoever takes them (a total: an agent
            # that decides out of turn, an UNO catch, takes a share of the others')
            max_decisions = max_cycles * self.game.players
        if max_decisions is not None and max_decisions < 1:
            raise ValueError(f"max_decisions must be a positive number of decisions, got {max_decisions}")
        self.metadata = {**self.metadata, "name": f"cardtable_{self.game.spec.name}_v0"}
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.max_decisions = max_decisions
        self.max_cycles = max_cycles
        self.encoder = encoder_for(self.game)
        self.encoding = Encoding(self.encoder, encoding, normalize)
        self.normalize = normalize
        self.possible_agents = [agent_name(s) for s in range(self.game.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        space = observation_space(self.encoding)
        self.observation_spaces = {a: space for a in self.possible_agents}
        action = gymnasium.spaces.Discrete(self.game.num_actions)
        self.action_spaces = {a: action for a in self.possible_agents}
        self._num_actions = self.game.num_actions
        self._actions = self.game.actions.actions
        self._seeds: Rng | None = None
        self.game_state: State | None = None
        self.steps = 0

    def __str__(self) -> str:
        return str(self.metadata["name"])

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. `seed` is the game's own seed (`game.new_state(seed)`), so an episode
        replays with cardtable; unseeded resets draw the next seed from the last seed given
        (or from the operating system the first time)."""
        if seed is not None:
            game_seed = int(seed)
            self._seeds = Rng(game_seed)
        else:
            if self._seeds is None:
                entropy = np.random.SeedSequence().entropy
                assert isinstance(entropy, int)
                self._seeds = Rng(entropy & ((1 << 63) - 1))
            game_seed = self._seeds.below(1 << 63)
        self.game_state = self.game.new_state(game_seed, record_events=False)
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        seat = self.game_state.current_player
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._live()
        seat = self._seat[agent]
        return {"observation": self.encoding.encode_state(state, seat), "action_mask": action_mask(state, seat)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._live()
        seat = self._seat[agent]
        if action is None:
            raise IllegalAction(f"{agent} (seat {seat}) must act now; step(None) is only for finished agents")
        try:
            if type(action) is int and 0 <= action < self._num_actions:
                chosen = self._actions[action]  # the hot path: a plain index
            else:
                chosen = self.game.action_from_index(int(action))  # numpy integers; refuses bad indices
            state.apply(chosen)
        except (IllegalAction, TypeError, ValueError) as exc:
            reason = f"{agent} (seat {seat}) cannot take action {action!r}: {exc}"
            if self.illegal_action == "raise":
                raise IllegalAction(reason) from None
            self._lose(agent, reason)
            return
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        if state.is_over:
            for a, r in zip(self.possible_agents, state.returns(), strict=True):
                self.rewards[a] = float(r)
                self.terminations[a] = True
            self._accumulate_rewards()
        elif self.max_decisions is not None and self.steps >= self.max_decisions:
            for a in self.agents:
                self.truncations[a] = True
        else:
            # Rewards stay zero until the game ends, so there is nothing to clear or accumulate.
            self.agent_selection = self.possible_agents[state.current_player]  # type: ignore[index]

    def _lose(self, agent: str, reason: str) -> None:
        """PettingZoo's "illegal move loses": the offender pays, the game ends, nothing is applied."""
        lowest = return_range(self.game)[0]
        others = len(self.agents) - 1
        for a in self.agents:
            self.rewards[a] = lowest if a == agent else (-lowest / others if others else 0.0)
            self.terminations[a] = True
        self.infos[agent] = {**self.infos[agent], "illegal_action": reason}
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The spectator's view as text: returned ("ansi") or printed ("human")."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without render_mode; use render_mode='human' or 'ansi'")
            return None
        text = render_text(self.game, self._live())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game_state = None

    def _live(self) -> State:
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state


class OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's `OrderEnforcingWrapper`, with `last()` and `step()` passed to the environment
    in one call once reset: the inherited ones read their attributes through the wrapper's
    `__getattr__`, which cost 40% of a JUNO decision. Before reset, and for a step after every
    agent is done, they are the inherited ones, with their errors and warnings."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]
        return self.env.last(observe)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return str(self.env)  # as OrderEnforcingWrapper itself prints: the environment's name

    def step(self, action: Any) -> None:
        env = self.env
        if self._has_reset and env.agents:
            self._has_updated = True
            env.step(action)
        else:
            super().step(action)


def raw_env(game: str | Game[Any], **options: Any) -> CardtableAEC:
    """The environment without PettingZoo's wrappers (PettingZoo's `raw_env` convention)."""
    return CardtableAEC(game, **options)


def pettingzoo_env(game: str | Game[Any], **options: Any) -> OrderEnforcingWrapper:
    """A PettingZoo AEC environment: `pettingzoo_env("juno")` (2 players, one round: the research
    defaults, `cardtable.rl.defaults`), `pettingzoo_env("juno", players=4, match=True)`.

    Keyword arguments are the game's options (`cardtable.make`), plus `illegal_action`
    ("raise" or "lose"), `max_decisions` (truncate after that many decisions in all) or
    `max_cycles` (`max_cycles x players` decisions in all), `normalize` (every value in [0, 1]),
    `encoding` ("counts" or "planes": `cardtable.rl.encoders.Encoding`) and `render_mode`
    ("human" or "ansi"). The environment comes wrapped in PettingZoo's `OrderEnforcingWrapper`;
    `env.unwrapped` is the `CardtableAEC`."""
    return OrderEnforcing(raw_env(game, **options))
