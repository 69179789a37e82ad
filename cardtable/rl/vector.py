"""N games of one game stepped in one process, with numpy batches: `cardtable.rl.vector`.

    from cardtable.rl.vector import VectorGame
    games = VectorGame("juno", 64)                        # 64 games, 2 players, one round
    obs, info = games.reset(seed=0)
    while True:
        actions = policy(obs["observation"], obs["action_mask"])   # one action per game
        obs, rewards, terminated, truncated, info = games.step(actions)

The model is pgx's `init`/`step` over a batch with `legal_action_mask`: every game is at a
decision, `obs["current_player"][i]` is the seat deciding in game `i`, and the observation and
the mask are that seat's (seats relative to it, as in every cardtable encoding, so one policy
plays every seat: self-play). Rewards are per game and seat, `(N, players)`, the game's returns
on the step that ends it, zero before.

Gymnasium's vector conventions, with autoreset in the same step (Gymnasium's
`AutoresetMode.SAME_STEP`): when game `i` ends (`terminated[i]`, or `truncated[i]` after
`max_decisions` decisions), the step returns its rewards and flags, and in `obs` already the
first decision of a new game, so **every returned mask has a legal action**; the last
observation of the game that ended is in `info["final_obs"]` (rows of the ended games; the mask
there is all ones, pgx's convention for a finished game) with `info["_final_obs"]` saying which
rows, as Gymnasium's vector environments do. New games take seeds drawn from the seed given to
`reset`, one stream per game, so a seeded run repeats exactly; `info["seed"][i]` is the game
seed of game `i`'s current game (`game.new_state(seed)` replays it with the rest of cardtable).

An illegal action raises `IllegalAction` naming the game, the seat and the rule's reason; the
games already stepped in that call keep their step (nothing is substituted). Options:
the game's options (over the research defaults, `cardtable.rl.defaults`: 2 players, one round),
`normalize`, `encoding` and `max_decisions`, with the same meaning as in the other interfaces.

Why it is faster than `gymnasium.make_vec`: one Python loop over the games per step, each game
encoded straight into its row of one preallocated batch (`Encoder.encode_state(..., out=row)`),
each mask set byte by byte in one reused bytearray that numpy sees as the batch, and no opponents
or per-environment wrappers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from mypy_extensions import mypyc_attr

from ..core.errors import IllegalAction
from ..core.game import Game
from ..core.rng import Rng
from ..core.state import State
from .defaults import research_game
from .encoders import Encoding, encoder_for


# ready to be compiled with the engine (cardtable/_native.py says why it is not yet); a
# researcher's own subclass stays possible either way
@mypyc_attr(allow_interpreted_subclasses=True)
class VectorGame:
    """`num_envs` games of `game`, stepped together (module docstring)."""

    def __init__(
        self,
        game: str | Game[Any],
        num_envs: int,
        *,
        normalize: bool = False,
        encoding: str = "counts",
        max_decisions: int | None = None,
        **options: Any,
    ) -> None:
        self.game: Game[Any] = research_game(game, options)
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive number of games, got {num_envs!r}")
        if max_decisions is not None and max_decisions < 1:
            raise ValueError(f"max_decisions must be a positive number of decisions, got {max_decisions}")
        self.num_envs = num_envs
        self.players = self.game.players
        self.num_actions = self.game.num_actions
        self.normalize = normalize
        self.max_decisions = max_decisions
        self.encoder = encoder_for(self.game)
        self.encoding = Encoding(self.encoder, encoding, normalize)
        # one encoder per game: an encoder keeps what it can carry from one call to the next of
        # the same game (JUNO's DISCARD pile counts), which games sharing one would keep undoing
        self._encoders = [self.encoder] + [encoder_for(self.game) for _ in range(num_envs - 1)]
        self._actions = self.game.actions.actions
        n = num_envs
        self._obs = np.zeros((n, self.encoding.size), np.float32)
        # what the encoders write: the batch itself, or counts turned into planes in one call
        self._counts = np.zeros((n, self.encoder.size), np.float32) if self.encoding.planes is not None else self._obs
        # the masks are set byte by byte in a bytearray (a numpy item or a fancy index costs several
        # times a byte's), seen by numpy as the (N, actions) batch that `_batch` copies
        self._mask_bytes = bytearray(n * self.num_actions)
        self._no_mask = bytes(n * self.num_actions)
        self._mask = np.frombuffer(self._mask_bytes, np.int8).reshape(n, self.num_actions)
        self._player = np.zeros(n, np.int64)
        self._rows = list(self._counts)  # each game's row of the encoders' batch, a view made once
        self._bases = [i * self.num_actions for i in range(n)]  # each game's first position in the masks
        self.states: list[State] = []
        self._decisions = [0] * n  # decisions taken in each game's current game (`decisions`)
        self.seeds = np.zeros(n, np.uint64)
        self._streams: list[Rng] = []

    def reset(self, *, seed: int | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """New games everywhere. With `seed`, game `i` draws its game seeds from `Rng(seed).spawn()`
        (the `i`-th), so the whole run repeats; without, from the operating system's entropy."""
        if seed is None:
            entropy = np.random.SeedSequence().entropy
            assert isinstance(entropy, int)
            seed = entropy & ((1 << 63) - 1)
        root = Rng(int(seed))
        self._streams = [root.spawn() for _ in range(self.num_envs)]
        self.states = [self._new_game(i) for i in range(self.num_envs)]
        self._observe()
        return self._batch(), {"seed": self.seeds.copy()}

    def _new_game(self, i: int) -> State:
        seed = self._streams[i].below(1 << 63)
        self.seeds[i] = seed
        self._decisions[i] = 0
        state: State = self.game.new_state(seed, record_events=False)
        return state

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision in every game: `actions[i]` is the action index of game `i`'s deciding seat."""
        if not self.states:
            raise RuntimeError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise ValueError(
                f"step takes one action index per game: an integer array of shape ({self.num_envs},), "
                f"got {chosen.dtype} {chosen.shape}"
            )
        n, players = self.num_envs, self.players
        rewards = np.zeros((n, players), np.float32)
        terminated = np.zeros(n, bool)
        truncated = np.zeros(n, bool)
        table, count, limit, decisions = self._actions, self.num_actions, self.max_decisions, self._decisions
        ended: list[int] = []
        for i, (state, a) in enumerate(zip(self.states, chosen.tolist(), strict=True)):
            try:
                if not 0 <= a < count:
                    raise IllegalAction(f"{a} is not an action index (0..{count - 1})")
                state.apply(table[a])
            except IllegalAction as exc:
                raise IllegalAction(f"game {i}, seat {state.current_player}: action {a} is not legal: {exc}") from None
            decisions[i] += 1
            if state.is_over:
                rewards[i] = state.returns()
                terminated[i] = True
                ended.append(i)
            elif limit is not None and decisions[i] >= limit:
                truncated[i] = True
                ended.append(i)
        info: dict[str, Any] = {}
        if ended:
            final = self._final_observations(ended)
            info["final_obs"], info["_final_obs"] = final, terminated | truncated
            for i in ended:
                self.states[i] = self._new_game(i)
        self._observe()
        info["seed"] = self.seeds.copy()
        return self._batch(), rewards, terminated, truncated, info

    @property
    def decisions(self) -> np.ndarray:
        """Decisions taken in each game's current game (a new array)."""
        return np.array(self._decisions, np.int64)

    def _final_observations(self, ended: list[int]) -> dict[str, np.ndarray]:
        """The last observation of each ended game (rows of the others are zeros): a finished
        game's mask allows every action (pgx's convention); its observer is the seat that took the
        last decision."""
        obs = np.zeros_like(self._obs)
        counts = np.zeros(self.encoder.size, np.float32)
        mask = np.zeros_like(self._mask)
        player = self._player.copy()
        for i in ended:
            state = self.states[i]
            seat = int(self._player[i]) if state.current_player is None else state.current_player
            player[i] = seat
            self._encoders[i].encode_state(state, seat, out=counts)
            self.encoding.finish(counts, out=obs[i])
            mask[i] = 1 if state.is_over else 0
            if not state.is_over:  # truncated: the mask of the decision it was cut at
                for legal in state.legal_actions():
                    mask[i, legal.index] = 1
        return {"observation": obs, "action_mask": mask, "current_player": player}

    def _observe(self) -> None:
        """Encode the deciding seat's observation and mask of every game into the batch: each
        game's encoder writes into its row (views made once) and its legal actions set their
        bytes of the masks; then the batch is normalized or turned into planes in one call."""
        on = self._mask_bytes
        on[:] = self._no_mask
        seats: list[int] = []
        for state, encoder, row, base in zip(self.states, self._encoders, self._rows, self._bases, strict=True):
            seat = state.current_player
            assert seat is not None, "a game in the batch is over: it should have been replaced"
            seats.append(seat)
            encoder.encode_state(state, seat, row)
            for legal in state.legal_actions():
                on[base + legal.index] = 1
        self._player[:] = seats
        self.encoding.finish(self._counts, out=self._obs)

    def _batch(self) -> dict[str, np.ndarray]:
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy(), "current_player": self._player.copy()}
