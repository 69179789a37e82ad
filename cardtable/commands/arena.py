"""`cardtable arena GAME --agents a,b[,...] --games N [--players N]`: bots head to head.

Seats rotate so every agent plays every seat equally often; each game has its own seed
(derived from `--seed` and the game's number), so the results do not depend on the number of
worker processes (time-limited searches aside, which depend on the machine's speed). Bots are
run through `cardtable.play`, the same door as everywhere else: each is handed what it needs
(its legal actions, or `state.determinize(seat, rng)`), never the true state.

An agent is written `name` or `name:key=value:key=value` (values read as JSON when they parse),
e.g. `ismcts:time_limit=0.25:rollout=heuristic:cutoff=20`.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from .. import agents
from ..core import CardtableError, State, make, play
from ..core.game import Game
from ..core.views import Legal, Need, need_of
from ..sim import job as sim_job
from ..sim.stats import wilson as wilson  # the lab's interval, one definition
from .play import fail, parse_options

console = Console(highlight=False, width=None if sys.stdout.isatty() else 150)

Spec = tuple[str, dict[str, Any]]


def parse_agent(text: str) -> Spec:
    """`ismcts:time_limit=0.25:rollout=heuristic` -> ("ismcts", {"time_limit": 0.25, "rollout": "heuristic"})."""
    try:
        name, params = sim_job.parse_agent(text)
    except CardtableError as exc:
        raise agents.AgentError(str(exc)) from None
    if "seed" in params:
        raise agents.AgentError("the arena seeds every agent itself; use --seed instead of a seed parameter")
    return name, params


def seat_agents(game_index: int, players: int, k: int) -> list[int]:
    """Which agent (0..k-1) sits in each seat in game `game_index`: rotated every game."""
    return [(s + game_index) % k for s in range(players)]


def game_seed(seed: int, game_index: int) -> int:
    return (seed * 1_000_003 + game_index) & ((1 << 63) - 1)


class _Timed:
    """Wraps an agent: the time of every real choice (more than one legal action)."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.needs = need_of(agent)  # handed what the agent it times needs
        self.times: list[float] = []
        self.forced = 0
        self.iterations = 0
        self.search_seconds = 0.0
        self.per_choice: list[int] = []  # search iterations of each choice (search agents)
        self.early_stops = 0             # choices whose search stopped early (ISMCTS early_stop)
        self.search_times: list[float] = []  # the search's own clock per choice (CPU with clock=cpu)

    def act(self, view: Legal) -> Any:
        if len(view.legal_actions()) == 1:
            self.forced += 1
            return self.agent.act(view)
        start = time.perf_counter()
        action = self.agent.act(view)
        self.times.append(time.perf_counter() - start)
        its = getattr(self.agent, "last_iterations", 0)
        if its:
            self.iterations += its
            self.search_seconds += self.agent.last_seconds
            self.per_choice.append(its)
            self.search_times.append(self.agent.last_seconds)
            self.early_stops += bool(getattr(self.agent, "last_stopped_early", False))
        return action


@dataclass
class GameResult:
    index: int
    seats: list[int]              # agent per seat
    winners: list[int]            # winning agents (indices into the agent list)
    decisions: int
    times: list[list[float]]      # per agent: seconds per real choice
    forced: list[int]
    iterations: list[int]
    search_seconds: list[float]
    choice_iterations: list[list[int]] = field(default_factory=list)
    early_stops: list[int] = field(default_factory=list)
    choice_search_seconds: list[list[float]] = field(default_factory=list)


def run_game(game: Game[Any], bots: list[Any], seats: list[int], seed: int, index: int = 0) -> GameResult:
    """One game; `bots[i]` plays the seats where `seats[s] == i`."""
    k = len(bots)
    timed = [_Timed(b) for b in bots]
    final = play(game, [timed[seats[s]] for s in range(game.players)], seed=seed, record_events=False)
    winners = sorted({seats[s] for s in final.winners()})
    return GameResult(
        index=index,
        seats=seats,
        winners=winners,
        decisions=len(final.history),
        times=[t.times for t in timed],
        forced=[t.forced for t in timed],
        iterations=[t.iterations for t in timed],
        search_seconds=[t.search_seconds for t in timed],
        choice_iterations=[t.per_choice for t in timed],
        early_stops=[t.early_stops for t in timed],
        choice_search_seconds=[t.search_times for t in timed],
    ) if k else GameResult(index, seats, [], 0, [], [], [], [])


_GAME_CACHE: dict[str, Game[Any]] = {}


def _play_task(task: tuple[str, dict[str, Any], list[Spec], int, int]) -> GameResult:
    """One game in a worker process (top level, so `spawn` workers can import it)."""
    name, options, specs, seed, index = task
    key = json.dumps([name, options], sort_keys=True)
    game = _GAME_CACHE.get(key)
    if game is None:
        game = _GAME_CACHE[key] = make(name, **options)
    gseed = game_seed(seed, index)
    seats = seat_agents(index, game.players, len(specs))
    bots = [agents.make(n, **p, seed=(gseed * 31 + i + 1) & ((1 << 63) - 1)) for i, (n, p) in enumerate(specs)]
    return run_game(game, bots, seats, gseed, index)


def _quantile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


@dataclass
class AgentSummary:
    label: str
    games: int
    wins: int
    win_rate: float
    ci: tuple[float, float]
    choices: int
    forced: int
    median_ms: float
    p95_ms: float
    mean_ms: float
    iterations_per_second: float | None
    median_iterations: float | None = None
    early_stops: int = 0
    median_search_ms: float | None = None  # per choice, on the search's own clock
    p95_search_ms: float | None = None


@dataclass
class ArenaResult:
    game: str
    options: dict[str, Any]
    agents: list[str]
    games: int
    ties: int
    seconds: float
    workers: int
    summaries: list[AgentSummary] = field(default_factory=list)
    indices: list[int] = field(default_factory=list)  # the games played (all of 0..games-1 when finished)
    # per agent, every choice: real ms and the search's own ms (to pool runs made in parts)
    choice_ms: list[list[float]] = field(default_factory=list)
    choice_search_ms: list[list[float]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "options": self.options, "agents": self.agents, "games": self.games,
            "ties": self.ties, "seconds": round(self.seconds, 1), "workers": self.workers,
            "results": [s.__dict__ for s in self.summaries],
        }


def summarize(game: str, options: dict[str, Any], labels: list[str], results: list[GameResult],
              seconds: float, workers: int) -> ArenaResult:
    k = len(labels)
    out = ArenaResult(game, options, labels, len(results), sum(1 for r in results if not r.winners), seconds, workers)
    out.indices = [r.index for r in results]
    out.choice_ms = [[round(t * 1000, 2) for r in results for t in r.times[i]] for i in range(k)]
    out.choice_search_ms = [[round(t * 1000, 2) for r in results if r.choice_search_seconds
                             for t in r.choice_search_seconds[i]] for i in range(k)]
    for i, label in enumerate(labels):
        times = [t for r in results for t in r.times[i]]
        wins = sum(1 for r in results if i in r.winners)
        its = sum(r.iterations[i] for r in results)
        secs = sum(r.search_seconds[i] for r in results)
        per_choice = [float(x) for r in results for x in r.choice_iterations[i]]
        search = [x for r in results if r.choice_search_seconds for x in r.choice_search_seconds[i]]
        n = len(results)
        out.summaries.append(AgentSummary(
            label=label,
            games=n,
            wins=wins,
            win_rate=wins / n if n else 0.0,
            ci=wilson(wins, n),
            choices=len(times),
            forced=sum(r.forced[i] for r in results),
            median_ms=_quantile(times, 0.5) * 1000,
            p95_ms=_quantile(times, 0.95) * 1000,
            mean_ms=(sum(times) / len(times) * 1000) if times else float("nan"),
            iterations_per_second=(its / secs) if secs > 0 else None,
            median_iterations=_quantile(per_choice, 0.5) if per_choice else None,
            early_stops=sum(r.early_stops[i] for r in results if r.early_stops),
            median_search_ms=_quantile(search, 0.5) * 1000 if search else None,
            p95_search_ms=_quantile(search, 0.95) * 1000 if search else None,
        ))
    assert k == len(out.summaries)
    return out


#: the default budget of a run, in seconds of real time: the README's example
#: (`cardtable arena juno --agents ismcts,heuristic --games 200`) ends in a few minutes on two cores
BUDGET = 180.0
#: below this many iterations per choice the arena warns that the search is starved (docs/agents.md:
#: 40-100 iterations were already too few to beat the IUNU heuristic)
FEW_ITERATIONS = 50


def _unbounded_search(name: str, params: dict[str, Any]) -> bool:
    """An ISMCTS agent given neither iterations nor a time limit (difficulty names resolved)."""
    base, preset = agents.DIFFICULTY.get(name, (name, {}))
    merged = {**preset, **params}
    return base == "ismcts" and "iterations" not in merged and "time_limit" not in merged


class _Sampler:
    """A heuristic stand-in that counts its real choices and keeps a few views to time a search on."""

    needs = Need.DETERMINIZED  # the heuristic's need, and the search is timed on the states kept

    def __init__(self, seed: int) -> None:
        self.bot = agents.make("heuristic", seed=seed)
        self.choices = 0
        self.views: list[State] = []

    def act(self, view: State) -> Any:
        if len(view.legal_actions()) > 1:
            self.choices += 1
            if self.choices % 7 == 1:
                self.views.append(view)
        return self.bot.act(view)


@dataclass
class BudgetPlan:
    seconds: float                  # the budget asked for
    params: dict[int, dict[str, Any]]  # agent index -> the parameters the budget adds (iterations, rollout)
    per_second: dict[int, float]    # agent index -> iterations per second measured here
    choices: dict[int, float]       # agent index -> its real choices per game (measured with stand-ins)
    estimate: float                 # seconds the run should take on `workers` processes

    def describe(self, labels: list[str]) -> str:
        parts = []
        for i, params in self.params.items():
            n = params["iterations"]
            how = ", ".join(f"{k}={v}" for k, v in params.items() if k != "iterations")
            parts.append(f"{labels[i]} gets {n:,} iterations per choice{f' ({how})' if how else ''}, "
                         f"~{1000 * n / self.per_second[i]:.0f} ms for each of its ~{self.choices[i]:.0f} choices "
                         "per game")
        return "; ".join(parts)


def plan_budget(game: Game[Any], specs: list[Spec], games: int, workers: int, seconds: float,
                seed: int = 0, clock: Callable[[], float] = time.perf_counter) -> BudgetPlan | None:
    """Give every unbounded search agent as many iterations per choice as fit the budget.

    Six games between heuristic stand-ins count the real choices a seat makes per game, and the
    search is timed on positions from them; the iterations are then fixed for the whole run, so
    its results do not depend on the machine's load while it runs (only the choice of the
    number does). The default of the agent (1000) is never exceeded."""
    search = [i for i, (n, p) in enumerate(specs) if _unbounded_search(n, p)]
    if not search:
        return None
    # Rollouts played to the end cost ~150 times more than the tuned ones of `hard` (heuristic
    # play cut off and scored by the game's evaluation; docs/agents.md): in a JUNO match to 500
    # points, 18 ms against 0.12 ms an iteration, so a budget of minutes would buy one iteration
    # per choice. An agent that names neither its rollout nor a cutoff gets the tuned ones.
    hard = agents.DIFFICULTY["hard"][1]
    added = {i: {} if {"rollout", "cutoff"} & set(specs[i][1])
             else {k: hard[k] for k in ("rollout", "cutoff")} for i in search}
    k, players = len(specs), game.players
    per_seat, views = 0.0, []
    # a few games: lengths vary a lot (a JUNO match lasts 3 to 20 rounds), heuristic games are cheap
    calibration = 6
    for g in range(calibration):
        samplers = [_Sampler(seed + g * 31 + s) for s in range(players)]
        play(game, samplers, seed=game_seed(seed, 10_000_000 + g), record_events=False)
        per_seat += sum(x.choices for x in samplers) / players / calibration
        views += [v for x in samplers for v in x.views]
    views = views[:: max(1, len(views) // 5)][:5] or [game.new_state(seed, record_events=False)]
    per_second, choices = {}, {}
    for i in search:
        name, params = specs[i]
        probe = agents.make(name, **{**params, **added[i], "iterations": 20, "early_stop": False}, seed=0)
        start = clock()
        for v in views:
            probe.act(v)
        per_second[i] = 20 * len(views) / max(clock() - start, 1e-6)
        # agent i sits in players / k seats of every game on average (seats rotate)
        choices[i] = per_seat * players / k
    # 80% of the budget for the searches: the rest is the other agents, the game and the workers
    share = 0.8 * seconds * workers / max(games * sum(choices.values()), 1e-9)
    iterations = {i: max(1, min(1000, int(share * per_second[i]))) for i in search}
    estimate = games * sum(choices[i] * iterations[i] / per_second[i] for i in search) / workers / 0.8
    return BudgetPlan(seconds, {i: {**added[i], "iterations": iterations[i]} for i in search}, per_second, choices,
                      estimate)


def duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def a_tenth(done: int, total: int) -> bool:
    """Whether a log (no terminal, where no bar is drawn) gets a progress line after `done` of `total` games:
    every tenth of the run, and at its end."""
    return done % max(1, total // 10) == 0 or done == total


def score_line(labels: list[str], results: list[GameResult]) -> str:
    """The running score: wins per agent and the games without a winner."""
    wins = [sum(1 for r in results if i in r.winners) for i in range(len(labels))]
    ties = sum(1 for r in results if not r.winners)
    text = "  ".join(f"{label} {w}" for label, w in zip(labels, wins, strict=True))
    return text + (f"  no winner {ties}" if ties else "")


class EstimateColumn(ProgressColumn):
    """Time left: from the games' pace once games have finished, from the plan before."""

    def render(self, task: Task) -> Text:
        left = task.time_remaining
        if left is None and task.fields.get("estimate"):
            left = max(0.0, float(task.fields["estimate"]) - (task.elapsed or 0.0))
        if left is None:
            return Text("ETA --:--", style="cyan")
        return Text(f"ETA {int(left) // 60}:{int(left) % 60:02d}", style="cyan")


def run_arena(
    game: str,
    options: dict[str, Any],
    agent_texts: list[str],
    games: int,
    seed: int = 0,
    workers: int | None = None,
    progress: Progress | None = None,
    on_game: Callable[[ArenaResult], None] | None = None,
    budget: float | None = None,
    on_plan: Callable[[BudgetPlan], None] | None = None,
    on_score: Callable[[int, str], None] | None = None,
) -> ArenaResult:
    """Play `games` games; seats rotated; `workers` processes (default: every core).

    `budget` (seconds): search agents given neither iterations nor a time limit get the
    iterations that fit it (`plan_budget`; `on_plan` hears the plan before the first game).
    `on_score` hears the games finished and the running score after each game.
    `on_game`, if given, receives the summary of the games finished so far after each game (the
    command rewrites `--out` with it, so a long run that is stopped keeps what it has played)."""
    specs = [parse_agent(t) for t in agent_texts]
    g = make(game, **options)  # validate options here, not in a worker
    if not 1 <= len(specs) <= g.players:
        raise CardtableError(f"{g.spec.title} with {g.players} players seats 1 to {g.players} agents, got {len(specs)}")
    for n, p in specs:
        agents.make(n, **p, seed=0)  # a bad name or parameter fails now, with its message
    if games < 1:
        raise CardtableError("--games must be at least 1")
    if budget is not None and budget <= 0:
        raise CardtableError(f"--budget is a number of seconds above 0, got {budget}")
    workers = max(1, min(workers or os.cpu_count() or 1, games))
    plan = plan_budget(g, specs, games, workers, budget, seed) if budget is not None else None
    short = list(agent_texts)  # the names as given: the running score stays one short line
    if plan is not None:
        for i, params in plan.params.items():
            specs[i] = (specs[i][0], {**specs[i][1], **params})
        # the table names exactly what played
        agent_texts = [t + "".join(f":{k}={json.dumps(v).strip(chr(34))}" for k, v in plan.params.get(i, {}).items())
                       for i, t in enumerate(agent_texts)]
        if on_plan is not None:
            on_plan(plan)
    tasks = [(game, options, specs, seed, i) for i in range(games)]
    results: list[GameResult] = []
    task_id = progress.add_task(score_line(short, []), total=games,
                                estimate=plan.estimate if plan else None) if progress is not None else None
    start = time.perf_counter()

    def finished(r: GameResult) -> None:
        results.append(r)
        if progress is not None and task_id is not None:
            progress.update(task_id, advance=1, description=score_line(short, results))
        if on_score is not None:
            on_score(len(results), score_line(short, results))
        if on_game is not None:
            done = sorted(results, key=lambda x: x.index)
            on_game(summarize(game, options, agent_texts, done, time.perf_counter() - start, workers))

    if workers == 1:
        for t in tasks:
            finished(_play_task(t))
    else:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(workers) as pool:
            for r in pool.imap_unordered(_play_task, tasks, chunksize=1):
                finished(r)
    results.sort(key=lambda r: r.index)
    return summarize(game, options, agent_texts, results, time.perf_counter() - start, workers)


def render(result: ArenaResult) -> Table:
    table = Table(title=f"{result.game} {result.options}: {result.games} games, seats rotated "
                        f"({result.ties} without a winner, {duration(result.seconds)} on {result.workers} "
                        f"worker{'s' if result.workers > 1 else ''})")
    for col in ("agent", "wins", "win rate", "95% CI", "choices", "median ms", "p95 ms", "mean ms", "iter/s",
                "median iter", "search ms (median / p95)", "early stops"):
        # the agent's spec is folded, never cut: it says what played (budgeted iterations included)
        table.add_column(col, justify="left" if col == "agent" else "right", overflow="fold")
    for s in result.summaries:
        table.add_row(
            s.label, f"{s.wins}/{s.games}", f"{s.win_rate:.1%}", f"{s.ci[0]:.1%} - {s.ci[1]:.1%}", str(s.choices),
            f"{s.median_ms:.2f}", f"{s.p95_ms:.2f}", f"{s.mean_ms:.2f}",
            "" if s.iterations_per_second is None else f"{s.iterations_per_second:,.0f}",
            "" if s.median_iterations is None else f"{s.median_iterations:,.0f}",
            "" if s.median_search_ms is None else f"{s.median_search_ms:.0f} / {s.p95_search_ms:.0f}",
            "" if s.median_iterations is None else f"{s.early_stops}/{s.choices}",
        )
    return table


def _write(out: Path, planned: int, result: ArenaResult) -> None:
    """The results so far as JSON; `planned` games were asked for, `games` are finished."""
    data = {**result.to_json(), "planned": planned, "indices": result.indices,
            "choice_ms": result.choice_ms, "choice_search_ms": result.choice_search_ms}
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2))
    tmp.replace(out)  # a reader never sees half a file


def register(app: typer.Typer) -> None:
    @app.command("arena")
    def arena_cmd(
        game: str = typer.Argument(..., help="game name, e.g. juno"),
        agents_arg: str = typer.Option(..., "--agents", "-a",
                                       help="comma list of agents, e.g. heuristic,random or ismcts:time_limit=0.25,heuristic"),
        games: int = typer.Option(100, "--games", "-n", help="number of games"),
        players: int | None = typer.Option(None, "--players", "-p", help="number of players (default: one per agent)"),
        variant: str | None = typer.Option(None, "--variant", help="rule set"),
        teams: int | None = typer.Option(None, "--teams", help="number of teams (games with teams)"),
        option: list[str] = typer.Option([], "--option", "-o", help="any other option as key=value"),
        seed: int = typer.Option(0, "--seed", help="base seed; game i is seeded from it and i"),
        workers: int | None = typer.Option(None, "--workers", "-w", help="worker processes (default: every core)"),
        budget: float = typer.Option(BUDGET, "--budget", help="seconds the run should take: search agents given "
                                     "neither iterations nor time_limit get the iterations per choice that fit"),
        out: Path | None = typer.Option(None, "--out", help="also write the results as JSON here "
                                        "(rewritten after every game, so a stopped run keeps its games)"),
    ) -> None:
        """Head-to-head between bots: a running score, then win rates with 95% intervals and time per decision."""
        texts = [a.strip() for a in agents_arg.split(",") if a.strip()]
        options = parse_options(players if players is not None else len(texts), variant, teams, option)
        n_workers = max(1, min(workers or os.cpu_count() or 1, games))
        console.print(f"{games} games of {game} {options} between {', '.join(texts)}, seats rotated, "
                      f"on {n_workers} worker{'s' if n_workers > 1 else ''}.")

        def planned(plan: BudgetPlan) -> None:
            console.print(f"Budget {duration(plan.seconds)}: {plan.describe(texts)}; about "
                          f"{duration(plan.estimate)} in all. Give iterations or time_limit to an agent, or "
                          "--budget, to choose otherwise.")
            if min(p["iterations"] for p in plan.params.values()) < FEW_ITERATIONS:
                console.print(f"[yellow]Fewer than {FEW_ITERATIONS} iterations per choice is too little to search: "
                              "expect the search to lose to the heuristic. Give it fewer or shorter games "
                              "(JUNO: -o match=false plays single rounds) or a larger --budget.[/]")

        columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   EstimateColumn())
        started = time.perf_counter()

        def logged(done: int, score: str) -> None:
            # a log (no terminal) gets a line every tenth of the run instead of a redrawn bar
            if a_tenth(done, games):
                console.print(f"{done}/{games} games, {duration(time.perf_counter() - started)}: {score}")

        try:
            with Progress(*columns, console=console, transient=False, refresh_per_second=2) as progress:
                if not console.is_terminal:
                    progress.stop()
                result = run_arena(game, options, texts, games, seed=seed, workers=workers, progress=progress,
                                   on_game=None if out is None else partial(_write, out, games), budget=budget,
                                   on_plan=planned, on_score=None if console.is_terminal else logged)
        except (CardtableError, ValueError) as exc:
            raise fail(str(exc)) from None
        console.print(render(result))
        console.print("[dim]A choice is a decision with more than one legal action; ms: real time per choice; "
                      "iter/s: search iterations per second of the search's own clock (CPU time with clock=cpu); "
                      "search ms: the search's own time per choice on that clock; "
                      "early stops: searches that ended when their move could no longer change; "
                      "win rate: games in which one of the agent's seats won; 95% CI: Wilson score interval.[/]")
        if out is not None:
            _write(out, games, result)
            console.print(f"Results written to {out}.")
