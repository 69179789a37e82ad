"""`cardtable simulate` and `cardtable report`: batch bot games to Parquet, and the balance report."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console

from ..core import CardtableError, games
from . import ctrl_c_interrupts
from .play import parse_options

if TYPE_CHECKING:
    from ..sim.analysis import Report

console = Console(highlight=False)


def fail(message: str) -> typer.Exit:
    console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(2)


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    def simulate_cmd(
        game: str = typer.Argument(..., help="game name: " + ", ".join(games())),
        agents: str = typer.Option(..., "--agents", "-a",
                                   help="agents per seat, comma separated, cycled over the seats "
                                        "(name or name:key=value, e.g. heuristic,random or ismcts:iterations=200)"),
        games_: int = typer.Option(..., "--games", "-n", help="number of games"),
        seed: int = typer.Option(0, "--seed", help="first seed; game i uses seed + i"),
        players: int | None = typer.Option(None, "--players", "-p", help="number of players"),
        variant: str | None = typer.Option(None, "--variant", help="rule set of the game"),
        teams: int | None = typer.Option(None, "--teams", help="number of teams (games with teams)"),
        option: list[str] = typer.Option([], "--option", "-o",
                                         help="any other option as key=value (JUNO single rounds: -o match=false)"),
        rotate: bool = typer.Option(True, "--rotate/--no-rotate",
                                    help="turn the seats by one per game, so every agent sits in every seat equally "
                                         "often (default); --no-rotate keeps each agent in its seats"),
        workers: int | None = typer.Option(None, "--workers", "-w", help="worker processes (default: all cores)"),
        backend: str = typer.Option("local", "--backend", help="local (process pool) or ray"),
        address: str | None = typer.Option(None, "--address", help="Ray cluster address (default: a local Ray)"),
        no_cards: bool = typer.Option(False, "--no-cards", help="skip the per-card counters (faster)"),
        out: Path = typer.Option(..., "--out", help="results folder (Parquet); a rerun skips finished seeds"),
    ) -> None:
        """Play many bot games (seeded, reproducible) and store one row per game in Parquet."""
        from ..sim import run

        if backend not in ("local", "ray"):
            raise fail(f"--backend is local or ray, got {backend!r}")
        ctrl_c_interrupts()  # Ctrl-C stops the run and keeps the finished games (sim.run), however it was started
        try:
            options = parse_options(players, variant, teams, option)
            table = run(game, agents.split(","), games_, seed, options=options, rotate=rotate, counters=not no_cards,
                        workers=workers, backend=backend,  # type: ignore[arg-type]
                        address=address, out=out, progress=console)
        except (CardtableError, ValueError) as exc:
            raise fail(str(exc)) from None
        console.print(f"{table.height:,} of {games_:,} games (seeds {seed}..{seed + games_ - 1}) in {out}. "
                      f"Report: cardtable report {out}")
        if table.height < games_:
            console.print("[yellow]The run was stopped early; run the same command again to finish it.[/]")
            raise typer.Exit(130)

    @app.command("report")
    def report_cmd(
        folder: Path = typer.Argument(..., help="a results folder written by `cardtable simulate`"),
        other: Path | None = typer.Argument(None, help="a second results folder: compare the two runs"),
        html: Path | None = typer.Option(None, "--html", help="HTML page to write (default: FOLDER/report.html, "
                                                               "or FOLDER/compare-OTHER.html)"),
        top: int = typer.Option(8, "--top", help="cards shown at each end of the per-card tables"),
    ) -> None:
        """Who wins and how sure, seat advantage, game lengths, card impact; with two folders,
        the differences between the runs with their intervals. Writes one HTML page and
        CSV/Parquet of every table next to it."""
        from ..sim import compare as comparing
        from ..sim.render import report_html, summary

        try:
            first = _report(folder)
            if other is None:
                console.print(summary(first, top=top))
                target = report_html(first, html or folder / "report.html")
            else:
                names = (folder.name, other.name) if folder.name != other.name else (str(folder), str(other))
                both = comparing.compare(first, _report(other), names)
                console.print(comparing.summary(both, top=2 * top))
                target = comparing.compare_html(both, html or folder / f"compare-{other.name or 'other'}.html")
        except (CardtableError, ValueError) as exc:
            raise fail(str(exc)) from None
        console.print(f"HTML report: {target} (tables: {target.with_name(target.stem + '-tables')}/)")


def _report(folder: Path) -> Report:
    from ..sim import load
    from ..sim.analysis import analyze
    from ..sim.store import read_job, run_status

    job = read_job(folder)
    return analyze(load(folder), job.to_json(), run_status(folder))
