"""`cardtable games`, `cardtable rules`, `cardtable play`, `cardtable replay`: the terminal table."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .. import agents
from ..core import CardtableError, IllegalAction, Replay, State, game_class, games, make
from ..core.game import Game
from ..core.views import Views, need_of
from ..ui.cards import catalog, describe, find, guide
from ..ui.names import default_name, rename, seated, unname, valid_name
from ..ui.text import choices, narrate, player_count, render, standings
from . import ctrl_c_interrupts

console = Console(highlight=False)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"


def parse_options(players: int | None, variant: str | None, teams: int | None, option: list[str]) -> dict[str, Any]:
    """`--players/--variant/--teams` plus `-o key=value` (values read as JSON when they parse)."""
    out: dict[str, Any] = {}
    if players is not None:
        out["players"] = players
    if variant is not None:
        out["variant"] = variant
    if teams is not None:
        out["teams"] = teams
    for item in option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"options are written key=value, got {item!r}", param_hint="-o/--option")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def fail(message: str) -> typer.Exit:
    console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(2)


def saves_dir() -> Path:
    """Where a game left in the middle is saved when no --save was given ($CARDTABLE_SAVES to change it)."""
    return Path(os.environ.get("CARDTABLE_SAVES") or Path.home() / ".cardtable" / "saves")


def show_events(game: Game[Any], state: State, start: int, viewer: int | None) -> int:
    events = state.events or []
    if len(events) <= start:
        return len(events)
    obs = state.observation(viewer)
    for e in events[start:]:
        if e.visible_to(viewer):
            line = narrate(game, e.to_json(), viewer, obs)
            if line:
                console.print(f"  [dim]·[/] {escape(line)}")
    return len(events)


def show_results(game: Game[Any], state: State, viewer: int | None, names: list[str]) -> None:
    """The end as places and points, every player by name; no points column in a game without points
    (Ivion: a hero is defeated), as on the web table."""
    rows = standings(game, state, viewer)
    with_points = any(r["points"] is not None for r in rows)
    table = Table(title="Result")
    for col in ("place", "player", "points") if with_points else ("place", "player"):
        table.add_column(col)
    for r in rows:
        who = names[r["seat"]] + (" (you)" if r["seat"] == viewer else "")
        points = ["" if r["points"] is None else str(r["points"])] if with_points else []
        table.add_row(r["place_name"], who, *points)
    console.print(table)


def option_words(value: Any) -> str:
    """An option's value as a person reads it: on/off, a list as names, a custom deck as "your own"."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (list, tuple)):
        return ", ".join(option_words(v) for v in value)
    if isinstance(value, dict):
        return str(value.get("name", "your own"))
    return str(value)


def game_words(game: Game[Any]) -> str:
    """The game, its variant, players and teams, and the options the player chose, in words:
    "JUNO, seven-o rules, 4 players, match off"."""
    o = game.options
    variant = getattr(o, "variant", None)
    teams = getattr(o, "teams", None)
    parts = [game.spec.title]
    if variant and len(game.spec.variants) > 1:
        parts.append(f"{variant} rules")
    parts.append(f"{game.players} players" + (f" in {teams} teams" if teams else ""))
    chosen = sorted(o.model_fields_set - {"players", "variant", "teams"})
    parts += [f"{k.replace('_', ' ')} {option_words(getattr(o, k))}" for k in chosen]
    return ", ".join(parts)


def welcome(game: Game[Any], names: list[str], human: int | None, bot_names: dict[int, str], seed: int) -> str:
    """The first line at the table: the game in words and who sits where (never the Python call):
    "JUNO, classic rules, 2 players. You are Ann. Bots: Bot 2 (medium). Seed 3." """
    bots = ", ".join(f"{names[s]} ({bot_names[s]})" for s in range(game.players) if s != human)
    you = f"You are {names[human]}. Bots: " if human is not None else "You watch the bots: "
    return f"{game_words(game)}. {you}{bots}. Seed {seed}."


def save_replay(state: State, path: Path, names: list[str]) -> None:
    """The replay file, with the players' names (a replay without them still loads)."""
    data = state.replay().to_json()
    data["names"] = names
    path.write_text(json.dumps(data, indent=1) + "\n")


def replay_names(path: Path, players: int) -> list[str]:
    try:
        saved = json.loads(path.read_text()).get("names")
    except (OSError, ValueError, AttributeError):
        saved = None
    if isinstance(saved, list) and len(saved) == players and all(valid_name(n) for n in saved):
        return [str(n) for n in saved]
    return [default_name(s) for s in range(players)]


def register(app: typer.Typer) -> None:
    @app.command("games")
    def games_cmd() -> None:
        """List the games with their player counts and variants."""
        # Two columns, the description under the game's facts: in an 80-column terminal it keeps the
        # width of the line (five columns squeezed it to about 18 characters).
        table = Table(title="cardtable games", show_lines=True)
        table.add_column("name", no_wrap=True)
        table.add_column("game")
        for name in games():
            spec = game_class(name).spec
            facts = [player_count(spec.min_players, spec.max_players)]
            if spec.variants:
                facts.append(f"variants: {', '.join(spec.variants)}")
            table.add_row(name, Text.assemble((spec.title, "bold"), f" · {' · '.join(facts)}\n{spec.summary}"))
        console.print(table)

    @app.command("rules")
    def rules_cmd(
        game: str = typer.Argument(..., help="game name, e.g. juno"),
        coverage: bool = typer.Option(False, "--coverage", help="the rules page for developers: each rule clause, "
                                      "its test and our interpretations"),
    ) -> None:
        """How to play a game: setup, a turn, how to win and every card with its text."""
        try:
            spec = game_class(game).spec
            if not coverage:
                console.print(Markdown(guide(make(game))))
                return
        except CardtableError as exc:
            raise fail(str(exc)) from None
        page = DOCS / f"{game}.md"
        if page.exists():
            console.print(Markdown(page.read_text()))
        else:
            console.print(f"{spec.title}: {spec.summary}\nRulebook: shared/rules/{spec.rules}")

    @app.command("play")
    def play_cmd(
        game: str = typer.Argument(..., help="game name: " + ", ".join(games())),
        players: int | None = typer.Option(None, "--players", "-p", help="number of players"),
        variant: str | None = typer.Option(None, "--variant", help="rule set, e.g. classic, seven-o, serious"),
        teams: int | None = typer.Option(None, "--teams", help="number of teams (games with teams)"),
        option: list[str] = typer.Option([], "--option", "-o", help="any other option as key=value"),
        seat: int = typer.Option(1, "--seat", help="your seat, counted from 1 as the names are (Player 1 plays first)"),
        bots: str = typer.Option("medium", "--bots", help="agent or difficulty for the other seats; comma list per seat"),
        seed: int | None = typer.Option(None, "--seed", help="seed for the deal (default: random)"),
        save: Path | None = typer.Option(None, "--save", help="write the replay of this game here"),
        watch: bool = typer.Option(False, "--watch", help="only bots play; you watch as a spectator"),
        name: str | None = typer.Option(None, "--name", help="your name at the table (default: Player N)"),
    ) -> None:
        """Sit at a table in the terminal: you against bots, every rule enforced and explained."""
        import secrets

        try:
            g = make(game, **parse_options(players, variant, teams, option))
        except CardtableError as exc:
            raise fail(str(exc)) from None
        if not 1 <= seat <= g.players:
            raise fail(f"--seat must be between 1 and {g.players} (Player 1 plays first)")
        human = None if watch else seat - 1
        chosen = valid_name(name) if name is not None else None
        if name is not None and chosen is None:
            raise fail('--name: 1 to 24 printable characters, neither "you" nor a seat number')
        names_given = [b.strip() for b in bots.split(",") if b.strip()] or ["random"]
        others = [s for s in range(g.players) if s != human]
        if len(names_given) not in (1, len(others)):
            raise fail(f"--bots takes one agent for every bot seat or one per bot seat ({len(others)})")
        seed = secrets.randbelow(1 << 31) if seed is None else seed
        bot_for: dict[int, Any] = {}
        try:
            for i, s in enumerate(others):
                bot_for[s] = agents.make(names_given[0] if len(names_given) == 1 else names_given[i], seed=seed + 1000 * (s + 1))
        except (CardtableError, ValueError) as exc:
            raise fail(str(exc)) from None
        state = g.new_state(seed)
        # One name per seat, used in the board, the log, the moves and the result (cardtable.ui.names).
        names = [chosen if s == human and chosen else default_name(s, "person" if s == human else "bot")
                 for s in range(g.players)]
        with seated(names):
            agent_of = {s: (names_given[0] if len(names_given) == 1 else names_given[i]) for i, s in enumerate(others)}
            console.print(f"[bold]{escape(welcome(g, names, human, agent_of, seed))}[/] "
                          + ("Type a number or an action; '?' lists the commands, 'q' leaves." if human is not None else ""))
            shown = show_events(g, state, 0, human)
            views = Views(agents.RandomAgent(seed).rng)  # each bot is handed what it needs from this stream
            save_to = save if save is not None else saves_dir() / f"{game}-{seed}.json"
            ctrl_c_interrupts()  # Ctrl-C asks before leaving
            left = False
            while not state.is_over and not left:
                try:
                    current = state.current_player
                    assert current is not None
                    if current == human:
                        console.print(render(g, state.observation(human)))
                        action = ask(state, human)
                        if action is None:
                            left = True
                            break
                    else:
                        bot = bot_for[current]
                        action = bot.act(views.of(need_of(bot), state, current))
                    state.apply(action)
                    shown = show_events(g, state, shown, human)
                except KeyboardInterrupt:
                    left = confirm_leave(save_to)
            if left or save is not None:
                save_to.parent.mkdir(parents=True, exist_ok=True)
                save_replay(state, save_to, names)
            if left:
                console.print(f"\n[yellow]You left the table.[/] The game so far is saved in {save_to} "
                              f"(see it with: cardtable replay {save_to}).")
                return
            if save is not None:
                console.print(f"Replay saved to {save} (cardtable replay {save}).")
            console.print(render(g, state.observation(human)))
            show_results(g, state, human, names)

    @app.command("replay")
    def replay_cmd(
        file: Path = typer.Argument(..., help="a replay saved with --save"),
        seat: int | None = typer.Option(None, "--seat", help="watch as this seat, counted from 1 (default: spectator)"),
        step: bool = typer.Option(False, "--step", help="move by move: Enter (or n) forward, b back, q quits"),
    ) -> None:
        """Step through a saved game, showing what the chosen seat could see."""
        try:
            replay = Replay.load(file)
            g = make(replay.game, **replay.options)
            state = replay.start()
        except CardtableError as exc:
            raise fail(str(exc)) from None
        if seat is not None and not 1 <= seat <= g.players:
            raise fail(f"--seat must be between 1 and {g.players}")
        seat = None if seat is None else seat - 1
        names = replay_names(file, g.players)
        total = len(replay.actions)
        with seated(names):
            console.print(f"[bold]Replay[/] of {escape(game_words(g))}, seed {replay.seed}, {total} moves")
            states = [state]
            for n, text in enumerate(replay.actions, 1):
                state = state.clone()
                try:
                    state.apply(g.parse_action(text))
                except CardtableError as exc:
                    raise fail(f"replay step {n} ({text!r}) cannot be applied: {exc}") from None
                states.append(state)
            if not step:
                show_events(g, states[-1], 0, seat)
                console.print(render(g, states[-1].observation(seat)))
                if states[-1].is_over:
                    show_results(g, states[-1], seat, names)
                return
            step_through(g, states, seat, names)


def step_through(game: Game[Any], states: list[State], seat: int | None, names: list[str]) -> None:
    """`replay --step`: the board after each move, who made it and what the log said; Enter or n goes
    forward, b goes back, a number jumps to that move, q quits."""
    total = len(states) - 1
    n = 0
    while True:
        state = states[n]
        if n == 0:
            console.print(f"[bold]— the deal (move 0 of {total}) —[/]")
            show_events(game, state, 0, seat)
        else:
            actor = states[n - 1].current_player
            who = names[actor] if actor is not None else "nobody"
            console.print(f"[bold]— move {n} of {total}: {escape(who)} —[/]")
            show_events(game, state, len(states[n - 1].events or []), seat)
        console.print(render(game, state.observation(seat)))
        if n == total and state.is_over:
            show_results(game, state, seat, names)
        while True:
            try:
                raw = console.input("[dim]Enter/n next · b back · number: go to move · q quit[/] > ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                return
            if raw in ("q", "quit", "exit"):
                return
            if raw in ("", "n", "next"):
                if n < total:
                    n += 1
                    break
                console.print(f"[yellow]That was the last move ({total}); b goes back, q quits.[/]")
            elif raw in ("b", "back", "p", "prev"):
                if n > 0:
                    n -= 1
                    break
                console.print("[yellow]This is the deal, before the first move; Enter goes forward.[/]")
            elif raw.isdigit() and 0 <= int(raw) <= total:
                n = int(raw)
                break
            else:
                console.print(f"[yellow]Type Enter or n (next), b (back), a move from 0 to {total}, or q.[/]")


def confirm_leave(save_to: Path) -> bool:
    """Ctrl-C: ask before leaving (a second Ctrl-C or end of input leaves)."""
    try:
        # "[y/N]" escaped: rich would take it for a style tag and print nothing
        answer = console.input(f"\n[yellow]Leave the table?[/] The game will be saved in {escape(str(save_to))}. "
                               f"{escape('[y/N]')} ")
    except (KeyboardInterrupt, EOFError):
        return True
    return answer.strip().lower() in ("y", "yes")


HELP = """[bold]Commands[/]
  [cyan]a number[/]        make the move of that number in the list
  [cyan]a move's text[/]   the same, typed out (e.g. {example})
  [cyan]info N[/]          what the card of move N does
  [cyan]info NAME[/]       what a card does (e.g. info {card})
  [cyan]board[/]           show the table again
  [cyan]?[/] or [cyan]help[/]       this list
  [cyan]q[/]               leave the table (the game is saved; Ctrl-C asks first)"""


def info(raw: str, cards: list[dict[str, Any]], listed: list[tuple[Any, str]], obs: dict[str, Any]) -> str:
    """`info N` (the card of move N) or `info NAME`: the card's full text."""
    what = raw.strip()
    if not cards:
        return "This game has no card texts."
    if not what:
        hand = obs.get("hand") or []
        return "Type info and a move's number or a card's name" + (f" (your hand: {', '.join(map(str, hand))})." if hand else ".")
    if what.isdigit():
        k = int(what)
        if not 1 <= k <= len(listed):
            return f"Choose a move from 1 to {len(listed)}, or name a card."
        card = find(cards, listed[k - 1][1])
        return describe(card) if card else f"Move {k} ({listed[k - 1][1]}) names no card; type info and a card's name."
    card = find(cards, what)
    if card is None:
        return f"No card is called {what!r}. Cards: {', '.join(dict.fromkeys(c['name'] for c in cards))}."
    return describe(card)


def refusals(statuses: dict[str, dict[str, Any]]) -> list[str]:
    """A line for each reason why cards held cannot be played now, in the table's words: alone, a card's own
    ("Flame Lash has no target in range"); the cards that share a reason are named together on one line
    ("Charge, Cleave: each is not an instant: ...") instead of a line each, which at a response window
    listed every card in hand."""
    groups: dict[tuple[bool, str], list[tuple[str, str]]] = {}
    for name, status in statuses.items():
        why = status["why"]
        if why:
            own = why.startswith(name)  # the reason names the card first: the rest is the same for each
            groups.setdefault((own, why[len(name):] if own else why), []).append((name, why))
    lines = []
    for (own, rest), held in groups.items():
        if len(held) == 1:
            name, why = held[0]
            lines.append(why if own else f"{name}: {why}")
        else:
            names = ", ".join(name for name, _ in held)
            lines.append(f"{names}: each{rest}" if own else f"{names}: {rest}")
    return lines


def ask(state: State, human: int | None = None) -> Any | None:
    """Numbered choices; a number or the action's text; a refused move shows the engine's reason
    (and, when it names a card, what that card is and when it can be played)."""
    game = state.game
    legal = state.legal_actions()
    obs = state.observation(human)
    listed = [(legal[i], label) for i, label in choices(game, obs, [a.text for a in legal])]
    cards = catalog(game)
    for i, (_, label) in enumerate(listed, 1):
        console.print(f"  [bold cyan]{i:>2}[/] {escape(label)}")
    if human is not None:  # each card held that cannot be played now, and the rule's reason (the table's words)
        for line in refusals(state.card_status(human)):
            console.print(f"  [dim]✗ {escape(rename(line))}[/]")

    def refused(message: str, raw: str, parsed: bool) -> None:
        """The engine's reason; when the words name a card, what it is and when it can be played instead
        of the parser's generic examples (they are not about this card)."""
        card = find(cards, raw)
        if card is None or parsed:
            console.print(f"[red]{escape(message)}[/]")
        else:
            console.print(f"[red]{raw!r} is not a move now.[/] Moves now: {', '.join(label for _, label in listed)}.")
        if card is not None:
            console.print(describe(card))

    while True:
        try:
            raw = console.input("[bold]your move> [/]").strip()
        except EOFError:
            return None
        low = raw.lower()
        if low in ("q", "quit", "exit"):
            return None
        if not raw:
            continue
        if low in ("?", "help", "h"):
            hand = obs.get("hand") or []
            example = listed[0][0].text if listed else "pass"
            console.print(HELP.format(example=example, card=hand[0] if hand else (cards[0]["name"] if cards else "NAME")))
            continue
        if low == "info" or low.startswith("info "):
            console.print(info(raw[4:], cards, listed, obs))
            continue
        if low == "board":
            console.print(render(game, obs))
            for i, (_, label) in enumerate(listed, 1):
                console.print(f"  [bold cyan]{i:>2}[/] {escape(label)}")
            continue
        if raw.isdigit():
            k = int(raw)
            if 1 <= k <= len(listed):
                return listed[k - 1][0]
            console.print(f"[red]Choose a number from 1 to {len(listed)}, or type an action ('?' for help).[/]")
            continue
        typed = raw
        named = unname(raw)  # "target Bo" is "target seat 1" to the engine
        if named != raw:  # a name that is also a card's word ("Red") only counts when the words alone are no move
            try:
                plain = game.parse_action(raw)
            except IllegalAction:
                plain = None
            if plain is None or plain not in legal:
                typed = named
        try:
            action = game.parse_action(typed)
        except IllegalAction as exc:
            refused(rename(str(exc)), raw, parsed=False)
            continue
        if action not in legal:
            try:
                state.apply(action)  # raises with the rule's reason; the state is unchanged
            except IllegalAction as exc:
                refused(f"Not allowed: {rename(str(exc))}", raw, parsed=True)
            continue
        return action
