"""A PettingZoo `ParallelEnv` for any cardtable game with an encoder: `parallel_env(game, **options)`,
also `cardtable.rl.pettingzoo.<game>_v0.parallel_env()`.

Every cardtable game is turn-based: at each point one seat decides (`state.current_player`, which
may be a seat out of turn: an UNO catch, a Reaction). So a parallel step is one decision, PettingZoo's
own convention for turn-based games (`pettingzoo.utils.conversions.turn_based_aec_to_parallel`):
`step(actions)` applies the action of the agent whose mask has legal actions and ignores the
others' (their masks are all zeros); `actions` must hold the deciding agent's. Observations,
rewards, terminations, truncations and infos are given for every live agent at every step; when
the game ends every agent terminates and `agents` is empty.

It is the AEC environment (`cardtable.rl.aec.CardtableAEC`) stepped for the parallel API, so the
options are the same: the game's options over the research defaults (2 players, one round),
`illegal_action`, `max_decisions` or `max_cycles`, `normalize`, `encoding` and `render_mode`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from ..core.game import Game
from .aec import CardtableAEC


class CardtableParallel(ParallelEnv):  # type: ignore[misc]
    """`cardtable.rl.parallel_env(game, **options)`; see the module docstring."""

    metadata: dict[str, Any] = {**CardtableAEC.metadata, "is_parallelizable": True}

    def __init__(self, game: str | Game[Any], **options: Any) -> None:
        self.aec = CardtableAEC(game, **options)
        self.game = self.aec.game
        self.metadata = {**self.metadata, "name": self.aec.metadata["name"]}
        self.render_mode = self.aec.render_mode
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """A new game; `seed` is the game's seed, as in the AEC environment."""
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        if not self.agents:
            raise RuntimeError("the game is over; call reset()")
        decider = self.aec.agent_selection
        if decider not in actions:
            raise KeyError(
                f"{decider} must act now (the seat the game asks; its mask has the legal actions); "
                f"got actions for {sorted(actions)}"
            )
        self.aec.step(actions[decider])
        live = self.agents
        observations = {a: self.aec.observe(a) for a in live}
        rewards = {a: float(self.aec.rewards[a]) for a in live}
        terminations = {a: bool(self.aec.terminations[a]) for a in live}
        truncations = {a: bool(self.aec.truncations[a]) for a in live}
        infos = {a: dict(self.aec.infos[a]) for a in live}
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def state(self) -> Any:
        raise NotImplementedError("cardtable environments have no global-state array; the cardtable state is env.game_state")

    @property
    def game_state(self) -> Any:
        return self.aec.game_state


def parallel_env(game: str | Game[Any], **options: Any) -> CardtableParallel:
    """A PettingZoo ParallelEnv: `parallel_env("juno")` (module docstring)."""
    return CardtableParallel(game, **options)
