"""A PettingZoo AEC environment for any cardtable game with an observation encoder.

`agent_selection` follows `state.current_player`, so out-of-turn decisions (an UNO catch,
a reaction) are simply that agent's turn. Each agent observes
`{"observation": float32 encoding of observation(seat), "action_mask": int8 over num_actions}`;
the mask is all zeros for agents that are not deciding. Rewards are `state.returns()` when
the game ends (zero before). An illegal action raises `IllegalAction` naming the agent, the
action and the rule's reason; the game is unchanged and nothing is substituted.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]

import cardtable

from ..core.errors import IllegalAction
from ..core.game import Game
from ..core.rng import Rng
from ..core.state import State
from .encoders import Encoder, action_mask, encoder_for


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def observation_space(encoder: Encoder) -> gymnasium.spaces.Dict:
    """The observation space shared by the PettingZoo and Gymnasium environments."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(0.0, encoder.high, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (encoder.game.num_actions,), dtype=np.int8),
        }
    )


class CardtableAEC(AECEnv):  # type: ignore[misc]
    """`cardtable.rl.pettingzoo_env(game, **options)`; see the module docstring."""

    RENDER_MODES = ("ansi",)
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "cardtable_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str | Game[Any],
        *,
        max_steps: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game: Game[Any] = cardtable.make(game, **options) if isinstance(game, str) else game
        if not isinstance(game, str) and options:
            raise TypeError("pass options either to cardtable.make or here, not both")
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be one of {self.RENDER_MODES} or None, got {render_mode!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be a positive number of decisions, got {max_steps}")
        self.metadata = {**self.metadata, "name": f"cardtable_{self.game.spec.name}_v0"}
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.encoder = encoder_for(self.game)
        self.possible_agents = [agent_name(s) for s in range(self.game.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        space = observation_space(self.encoder)
        self.observation_spaces = {a: space for a in self.possible_agents}
        action = gymnasium.spaces.Discrete(self.game.num_actions)
        self.action_spaces = {a: action for a in self.possible_agents}
        self._num_actions = self.game.num_actions
        self._actions = self.game.actions.actions
        self._seeds: Rng | None = None
        self.state: State | None = None
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
        self.state = self.game.new_state(game_seed, record_events=False)
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        seat = self.state.current_player
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._live()
        seat = self._seat[agent]
        return {"observation": self.encoder.encode_state(state, seat), "action_mask": action_mask(state, seat)}

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
            raise IllegalAction(f"{agent} (seat {seat}) cannot take action {action!r}: {exc}") from None
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        if state.is_over:
            for a, r in zip(self.possible_agents, state.returns(), strict=True):
                self.rewards[a] = float(r)
                self.terminations[a] = True
            self._accumulate_rewards()
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        else:
            # Rewards stay zero until the game ends, so there is nothing to clear or accumulate.
            self.agent_selection = self.possible_agents[state.current_player]  # type: ignore[index]

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without render_mode; use render_mode='ansi'")
            return None
        state = self._live()
        obs = state.observation(None)
        return f"{self.game!r}\n" + "\n".join(f"{k}: {v}" for k, v in obs.items())

    def close(self) -> None:
        self.state = None

    def _live(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state


def pettingzoo_env(game: str | Game[Any], **options: Any) -> CardtableAEC:
    """A PettingZoo AEC environment: `pettingzoo_env("juno", players=2, match=False)`.

    Keyword arguments are the game's options (`cardtable.make`), plus `max_steps`
    (truncate after that many decisions) and `render_mode` ("ansi")."""
    return CardtableAEC(game, **options)
