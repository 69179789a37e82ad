"""A simulation job and one game of it: everything a worker needs, picklable and deterministic.

Every game is a pure function of (job, seed): the deal comes from `seed`, each agent's seed
and the determinization stream are derived from it, and the agents are rebuilt for each game.
So the results do not depend on the number of workers, the chunking or the backend.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from .. import agents as agent_registry
from ..core.errors import CardtableError
from ..core.game import Game
from ..core.play import play
from ..core.registry import game_class, make
from ..core.rng import Rng
from .counters import EventCounter, card_counts, has_hook

# Each seat's agent seed comes from a stream of its own, apart from the deal (the seed
# itself) and the determinization stream (`Rng(seed).spawn()`, as in `cardtable.play`).
_AGENT_STREAM = 0xA6E575EED5


class SimError(CardtableError):
    """A simulation that cannot run as asked (bad agents, a results folder of another job)."""


def parse_agent(spec: str) -> tuple[str, dict[str, Any]]:
    """`name` or `name:key=value:key=value` (values read as JSON when they parse)."""
    name, *parts = spec.strip().split(":")
    params: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise SimError(f"agent parameters are written name:key=value, got {spec!r}")
        try:
            params[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            params[key.strip()] = value
    if not name:
        raise SimError(f"an agent needs a name, got {spec!r}; known agents: {', '.join(agent_registry.names())}")
    return name, params


def rules_version(game: str) -> str:
    """A fingerprint of the game's rules and card data as installed: the first 12 hex digits of
    a hash over every source and data file of the game's package. Results of two versions are
    different experiments, so a results folder keeps one (and the report says when it differs)."""
    # The folder of the file that defines the game's class, not the package's `__file__`: a
    # folder without `__init__.py` (Ivion's once was) has none, and `Path("")` hashed nothing.
    source = sys.modules[game_class(game).__module__].__file__
    if not source:
        raise SimError(f"cannot fingerprint the rules of {game!r}: its module has no source file")
    root = Path(source).parent
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".toml", ".json", ".txt", ".csv")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class Job:
    """What to simulate. `agents` are the agent specs; seat s plays `agents[s % len(agents)]`,
    and with `rotate` the assignment turns by one seat per seed (seed % players), so every
    agent sits in every seat equally often over consecutive seeds. `version`: the cardtable
    version and the game's `rules_version` the games were played with (empty when unknown:
    folders written before versions were recorded)."""

    game: str
    options: dict[str, Any] = field(hash=False)
    agents: tuple[str, ...]
    rotate: bool = True
    counters: bool = True
    version: dict[str, str] = field(default_factory=dict, hash=False)

    @classmethod
    def build(
        cls, game: str, options: dict[str, Any], agents: list[str] | tuple[str, ...], rotate: bool = True,
        counters: bool = True,
    ) -> Job:
        """Validate everything up front (options, agent names and parameters), so a bad job
        fails before any worker starts, with the game's or agent's own message."""
        g = make(game, **options)
        specs = tuple(a.strip() for a in agents if a.strip())
        if not specs:
            raise SimError(f"give at least one agent (--agents); known agents: {', '.join(agent_registry.names())}")
        if len(specs) > g.players:
            raise SimError(f"{len(specs)} agents for {g.players} seats: give at most one agent per seat")
        for spec in specs:
            name, params = parse_agent(spec)
            agent_registry.make(name, **{**params, "seed": 0})
        return cls(game, g.options.to_json(), specs, rotate, counters, current_version(game))

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": self.options, "agents": list(self.agents), "rotate": self.rotate,
                "counters": self.counters, "version": dict(self.version)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Job:
        return cls(data["game"], dict(data["options"]), tuple(data["agents"]), bool(data["rotate"]),
                   bool(data["counters"]), {str(k): str(v) for k, v in (data.get("version") or {}).items()})

    def make_game(self) -> Game[Any]:
        return make(self.game, **self.options)

    def seat_agents(self, seed: int, players: int) -> list[str]:
        shift = seed % players if self.rotate else 0
        return [self.agents[((seat - shift) % players) % len(self.agents)] for seat in range(players)]


def current_version(game: str) -> dict[str, str]:
    """What `Job.version` records for a run made now."""
    return {"cardtable": __version__, "rules": rules_version(game)}


def agent_seeds(seed: int, players: int) -> list[int]:
    """The seed of each seat's agent in the game played from `seed`."""
    stream = Rng(seed ^ _AGENT_STREAM)
    return [stream.next64() >> 1 for _ in range(players)]


_GAMES: dict[tuple[str, str], tuple[Game[Any], bool]] = {}


def _game_for(job: Job) -> tuple[Game[Any], bool]:
    """The job's game (built once per process) and whether its states have the counter hook."""
    key = (job.game, json.dumps(job.options, sort_keys=True))
    found = _GAMES.get(key)
    if found is None:
        g = job.make_game()
        found = _GAMES[key] = (g, has_hook(g.new_state(0, record_events=False)))
    return found


def play_game(job: Job, seed: int) -> dict[str, Any]:
    """One game from `seed`: the result row.

    The game is played by `cardtable.play` (each agent handed what it needs: its legal actions or
    `state.determinize(seat, rng)`, never the true state). When the per-card counters come from
    events, the final state's event log is counted once the game is over (a determinized copy
    carries no events, so the log's length costs the agents nothing)."""
    game, hooked = _game_for(job)
    players = game.players
    names = job.seat_agents(seed, players)
    bots = []
    for spec, agent_seed in zip(names, agent_seeds(seed, players), strict=True):
        name, params = parse_agent(spec)
        bots.append(agent_registry.make(name, **{**params, "seed": agent_seed}))
    counter = EventCounter() if job.counters and not hooked else None
    start = game.new_state(seed, record_events=counter is not None)
    if counter is not None:
        counter.kinds = dict(getattr(start, "card_counter_kinds", {}))
    first = start.current_player
    # The setup's events (the deal) are the first events of the played state too: the same
    # options and seed give the same setup. They are counted as the opening, apart from the rest.
    opening = len(start.events or [])
    state = play(game, bots, seed=seed, record_events=counter is not None)
    if counter is not None and state.events:
        counter.feed(state.events[:opening], opening=True)
        counter.feed(state.events[opening:])
    returns = [float(r) for r in state.returns()]
    spectator = state.observation(None)
    scores = final_scores(spectator.get("scores"), players) or returns
    by_limit = spectator.get("by_limit")  # games with a turn limit of their own say whether it ended the game
    turns = spectator.get("turns")  # games that count their turns show how many were begun
    cards = card_counts(state, counter) if job.counters else []
    return {
        "seed": seed,
        "game": job.game,
        "variant": job.options.get("variant"),
        "options": json.dumps(job.options, sort_keys=True),
        "players": players,
        "agents": names,
        "first_player": first,
        "winners": sorted(state.winners()),
        "scores": scores,
        "returns": returns,
        "length": len(state.history),
        "by_limit": by_limit if isinstance(by_limit, bool) else None,
        "turns": turns if type(turns) is int else None,
        "cards": [{"seat": s, "counter": c, "card": k, "count": n} for s, c, k, n in cards],
    }


def final_scores(scores: Any, players: int) -> list[float] | None:
    """A game's final scores from its spectator observation: a list of numbers per seat, or of
    score sheets with a `total` (IUNU); None when the game shows no scores (then the returns)."""
    if not isinstance(scores, list) or len(scores) != players:
        return None
    totals: list[float] = []
    for s in scores:
        x = s.get("total") if isinstance(s, dict) else s
        if not isinstance(x, int | float) or isinstance(x, bool):
            return None
        totals.append(float(x))
    return totals


def play_chunk(job: Job, seeds: list[int]) -> list[dict[str, Any]]:
    return [play_game(job, s) for s in seeds]
