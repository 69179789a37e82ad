"""`cardtable review FILE --seat N`: the coach's review of one seat's decisions in a saved game."""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..core import CardtableError, Replay
from ..sim import coach
from ..ui.names import rename, seated
from .play import fail, replay_names

console = Console(highlight=False, width=None if sys.stdout.isatty() else 150)


def _pct(x: float) -> str:
    return f"{x:.0%}"


def render(verdicts: list[coach.Verdict], names: list[str], seat: int) -> Table:
    marked = sum(v.marked for v in verdicts)
    table = Table(title=f"{names[seat]}'s {len(verdicts)} decisions: {marked} clearly lost to {coach.SEARCH_LEVEL}'s move")
    for col in ("move", "played", "win chance", f"{coach.SEARCH_LEVEL} plays", "win chance ", "lost (95% CI)", ""):
        table.add_column(col, justify="left" if col in ("played", f"{coach.SEARCH_LEVEL} plays", "") else "right")
    with seated(names):
        for v in verdicts:
            same = v.best == v.made
            table.add_row(
                str(v.step), escape(rename(v.made)),
                f"{_pct(v.made_chance)} [{_pct(v.made_interval[0])}, {_pct(v.made_interval[1])}]",
                "(the same)" if same else escape(rename(v.best)),
                "" if same else f"{_pct(v.best_chance)} [{_pct(v.best_interval[0])}, {_pct(v.best_interval[1])}]",
                "" if same else f"{v.loss:+.0%} [{v.loss_interval[0]:+.0%}, {v.loss_interval[1]:+.0%}]",
                "[bold red]clearly worse[/]" if v.marked else "[dim]not clear when checked[/]" if v.checked else "",
                style="red" if v.marked else None,
            )
    return table


def register(app: typer.Typer) -> None:
    @app.command("review")
    def review_cmd(
        file: Path = typer.Argument(..., help="a saved game (cardtable play --save, or a table's replay)"),
        seat: int = typer.Option(..., "--seat", help="the seat to review, counted from 1"),
        seconds: float = typer.Option(0.5, "--seconds", help=f"{coach.SEARCH_LEVEL}'s search time per decision"),
        playouts: int = typer.Option(100, "--playouts", help="paired playouts per decision (more: narrower intervals)"),
        confirm: int = typer.Option(300, "--confirm", help="paired playouts on copies dealt anew that check a move "
                                    "before it is marked (0: no check)"),
        seed: int = typer.Option(0, "--seed", help="the coach's own random stream"),
    ) -> None:
        """For each of a seat's decisions: the win chance of the move made and of hard's move, from that seat's
        information only (the hidden cards dealt anew); moves that lost clearly are marked."""
        try:
            replay = Replay.load(file)
            budget = coach.Budget(search_seconds=seconds, playouts=playouts, confirm=confirm)
            players = replay.start(record_events=False).game.players
            if not 1 <= seat <= players:
                raise CardtableError(f"--seat must be between 1 and {players}")
            total = coach.count_decisions(replay.start(record_events=False), replay.actions, seat - 1)
        except CardtableError as exc:
            raise fail(str(exc)) from None
        names = replay_names(file, players)
        console.print(f"Reviewing {escape(names[seat - 1])}'s {total} decisions in {escape(str(file))} "
                      f"(at most {seconds + (budget.playout_seconds or 0):g} s each).")
        with Progress(TextColumn("[bold]review"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, transient=True) as progress:
            task = progress.add_task("review", total=total)
            verdicts = coach.review_replay(replay, seat - 1, budget, seed=seed,
                                    on_verdict=lambda _v: progress.update(task, advance=1))
        console.print(render(verdicts, names, seat - 1))
        console.print(f"[dim]Win chance: the share of {playouts} playouts (the game's heuristic in every seat) the "
                      "seat won after that move, from deals consistent with what it could see, with a 95% Wilson "
                      f"interval. Lost: {coach.SEARCH_LEVEL}'s move's chance minus the move made's, paired over the "
                      "same deals; marked when its 95% interval lies above zero"
                      + (f", then again on {confirm} deals dealt anew (the figures shown are the check's)" if confirm else "")
                      + ".[/]")
