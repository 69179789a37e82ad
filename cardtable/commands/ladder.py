"""`cardtable ladder GAME`: a round robin between the levels (and any agents named), rated on the Elo scale."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..core import CardtableError, games
from ..sim import ladder
from . import ctrl_c_interrupts
from .arena import EstimateColumn, a_tenth, duration
from .play import fail, parse_options

console = Console(highlight=False, width=None if sys.stdout.isatty() else 150)


def render(game: str, ratings: list[ladder.Rating], results: list[ladder.PairResult]) -> tuple[Table, Table]:
    table = Table(title=f"{game}: Bradley-Terry ratings, {ratings[0].name} = 0")
    for col in ("entrant", "Elo", "95% CI", "games", "score"):
        table.add_column(col, justify="left" if col == "entrant" else "right")
    for x in ratings:
        table.add_row(escape(x.name), f"{x.elo:+.0f}", f"{x.low:+.0f} to {x.high:+.0f}", str(x.games),
                      f"{x.score:g} ({x.score / x.games:.0%})" if x.games else "")
    duels = Table(title="each pair, seats rotated")
    for col in ("pair", "games", "first's share", "95% CI (Wilson)"):
        duels.add_column(col, justify="left" if col == "pair" else "right")
    for p in results:
        duels.add_row(f"{escape(p.a)} v {escape(p.b)}", str(p.games), f"{p.a_score / p.games:.1%}",
                      f"{p.interval[0]:.1%} - {p.interval[1]:.1%}")
    return table, duels


def register(app: typer.Typer) -> None:
    @app.command("ladder")
    def ladder_cmd(
        game: str = typer.Argument(..., help="game name: " + ", ".join(games())),
        levels: str = typer.Option(",".join(ladder.LEVELS), "--levels", help="the levels that play, weakest first "
                                   "(the first is rated 0)"),
        agents_arg: str = typer.Option("", "--agents", "-a", help="more entrants: agents as the arena writes them, "
                                       "e.g. ismcts:time_limit=1:rollout=heuristic"),
        games_: int = typer.Option(200, "--games", "-n", help="games a pair (seats alternate)"),
        variant: str | None = typer.Option(None, "--variant", help="rule set"),
        option: list[str] = typer.Option([], "--option", "-o", help="any other option as key=value"),
        seed: int = typer.Option(0, "--seed", help="the ladder's seed (each pair's games derive from it)"),
        workers: int = typer.Option(1, "--workers", "-w", help="worker processes"),
        out: Path | None = typer.Option(None, "--out", help="the ladder's folder (default: ladders/GAME); a rerun "
                                        "plays only the games not there yet, then fits every game there"),
        prior: float = typer.Option(1.0, "--prior", help="virtual games per pair, half won by each side"),
        clock: str = typer.Option("wall", "--clock", help="what the searching levels' time per move counts: wall "
                                  "(real time, as a person waits) or cpu (their own CPU time: a busy machine then "
                                  "plays the ladder an idle one does); part of the ladder's folder"),
        adjacent: bool = typer.Option(False, "--adjacent", help="only each entrant against the next (the steps "
                                      "between levels), not every pair; the fit uses every game in the folder"),
        publish: bool = typer.Option(False, "--publish", help="also write the ratings the lobby shows for this game"),
    ) -> None:
        """Every pair of entrants plays --games games; Bradley-Terry ratings (Elo scale) with 95% intervals, a table,
        a plot (ladder.png) and the ratings (ratings.json) in the folder."""
        entrants = [t.strip() for t in (levels + "," + agents_arg).split(",") if t.strip()]
        folder = out or Path("ladders") / game
        ctrl_c_interrupts()  # Ctrl-C stops the ladder and keeps the finished games, however it was started
        finished, total, started = 0, 0, time.perf_counter()
        scores: dict[tuple[str, str], list[float]] = {}  # each pair's score in the games this run played

        def begin(n: int) -> None:
            nonlocal total
            total = n
            progress.update(task, total=n)

        def count(row: dict[str, Any]) -> None:
            nonlocal finished
            finished += 1
            progress.update(task, advance=1)
            pair = scores.setdefault((row["a"], row["b"]), [0.0, 0.0])
            pair[0] += ladder.score(row, row["a"])
            pair[1] += ladder.score(row, row["b"])
            # a log (no terminal: a run left going for hours) gets a line every tenth instead of a redrawn bar
            if not console.is_terminal and a_tenth(finished, total):
                spent = time.perf_counter() - started
                console.print(f"{finished}/{total} games, {duration(spent)}, about "
                              f"{duration(spent / finished * (total - finished))} left; in these games "
                              + ", ".join(f"{escape(a)} {x:g} - {y:g} {escape(b)}" for (a, b), (x, y) in scores.items()))

        try:
            options = parse_options(None, variant, None, option)
            had = ladder.read_games(folder).num_rows if (folder / ladder.LADDER_FILE).exists() else 0
            pairs = len(entrants) - 1 if adjacent else len(entrants) * (len(entrants) - 1) // 2
            console.print(f"Ladder of {game} in {folder}: {', '.join(entrants)}; {games_} games a pair "
                          f"({had} games there).")
            with Progress(TextColumn("[bold]ladder"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          EstimateColumn(), console=console, transient=True) as progress:
                if not console.is_terminal:
                    progress.stop()
                task = progress.add_task("games", total=None)
                table = ladder.run(game, entrants, games_, folder, options, seed=seed, workers=workers,
                                   on_game=count, clock=clock, adjacent=adjacent, on_start=begin)
            console.print(f"{table.num_rows - had} new games played; {table.num_rows} in all "
                          f"({pairs} pair{'' if pairs == 1 else 's'}).")
            names, wins, played = ladder.tally(table, entrants)
            ratings = ladder.fit(names, wins, played, prior=prior)
        except (CardtableError, ValueError) as exc:
            raise fail(str(exc)) from None
        except KeyboardInterrupt:
            console.print(f"[yellow]Stopped: {finished} new games finished and kept in {folder}; run the same "
                          "command again to play the rest and fit the ratings.[/]")
            raise typer.Exit(130) from None
        results = ladder.pairs(names, wins, played)
        for t in render(game, ratings, results):
            console.print(t)
        shown = ", ".join(f"{k}={v}" for k, v in options.items())  # the options the ladder was given, if any
        ladder.plot(ratings, f"{game}{' (' + shown + ')' if shown else ''}, 2 players: {table.num_rows} games, seats "
                    f"rotated{' (CPU clock)' if clock == 'cpu' else ''}", folder / "ladder.png")
        options = json.loads((folder / ladder.LADDER_FILE).read_text())["options"]
        data = {"game": game, "options": options, "clock": clock, "games": table.num_rows, "prior": prior,
                "ratings": {x.name: {"elo": x.elo, "low": x.low, "high": x.high, "games": x.games, "score": x.score}
                            for x in ratings},
                "pairs": [{"a": p.a, "b": p.b, "games": p.games, "a_score": p.a_score, "interval": list(p.interval)}
                          for p in results]}
        (folder / "ratings.json").write_text(json.dumps(data, indent=1) + "\n")
        console.print(f"Plot: {folder / 'ladder.png'}; ratings: {folder / 'ratings.json'}.")
        if publish:
            console.print(f"The lobby shows these ratings: {ladder.publish(game, options, ratings, table.num_rows, clock=clock)}")
        console.print(f"[dim]Elo: Bradley-Terry maximum likelihood, 100 points ahead = {ladder.SHARE_100_AHEAD:.0%} of the games; 95% CI from "
                      f"the likelihood's curvature, relative to {escape(ratings[0].name)}; score: wins, a game without a "
                      f"winner counted half; {prior:g} virtual game(s) a pair, half won by each side.[/]")
