"""Ivion in the terminal: the board, both heroes (HP, resources, initiative, control), the stack
of unresolved cards, and your hand with each card's text (generated from the card data). Everything
shown comes from one seat's observation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...ui.names import player, prompt
from .actions import COPY_BASE
from .cards import Library, library
from .verbs import amount

CONTROL_MARK = {"slow": "S", "silence": "Q", "disarm": "D"}


def _who(s: int, viewer: int | None) -> str:
    return "you" if s == viewer else f"seat {s}"


def _v(who: str, third: str, you: str) -> str:
    """The verb for `who`: "you gain", "seat 1 gains"."""
    return you if who == "you" else third


def _at(e: dict[str, Any], who: str, viewer: int | None) -> str:
    """What a card was played at: a hero by its name, "you" to its own player ("yourself" when they
    played it), a tile, a card."""
    if e.get("hero") is None or e["hero"] != viewer:
        return str(e["target"])
    return "yourself" if who == "you" else "you"


def card_line(lib: Library, name: str) -> str:
    c = lib.cards.get(name)
    return name if c is None else f"{name} [dim]({c.header()})[/] {c.text()}"


def _board(obs: dict[str, Any]) -> Table:
    n = obs["board"]
    table = Table(title="the board", show_lines=True, expand=False)
    table.add_column("")
    for col in "abcdefgh"[:n]:
        table.add_column(col, justify="center", min_width=10)
    heroes = {h["tile"]: i for i, h in enumerate(obs["heroes"])}
    on: dict[str, list[str]] = {}
    for a in obs["attached"]:
        if a["host"] == "tile":
            on.setdefault(a["tile"], []).append(_attached(a))
    for row in range(n, 0, -1):
        cells = []
        for col in "abcdefgh"[:n]:
            t = f"{col}{row}"
            bits = []
            if t in heroes:
                # the hero by its name, as every text names it (★ yours, ◆ the other)
                who = escape(obs["heroes"][heroes[t]]["hero"])
                bits.append(f"[bold]{'★' if heroes[t] == obs['seat'] else '◆'}{who}[/]")
            if t in obs["terrain"]:
                bits.append(f"[green]{obs['terrain'][t]}[/]")
            bits += [f"[magenta]{c}[/]" for c in on.get(t, [])]
            cells.append("\n".join(bits))
        table.add_row(str(row), *cells)
    return table


def _attached(a: dict[str, Any]) -> str:
    """An attached card, with a fading card's turn tokens (verb fade; the browser's chip says the same)."""
    n: int = a.get("tokens", 0)
    card: str = a["card"]
    return card + (f" ({n} turn token{'s' if n > 1 else ''})" if n else "")


def _heroes(obs: dict[str, Any]) -> Table:
    table = Table(title="heroes", expand=False)
    for col in ("player", "hero", "HP", "actions", "power", "init.", "control", "hand", "deck", "feats", "notes"):
        table.add_column(col)
    for s, h in enumerate(obs["heroes"]):
        control = " ".join(f"{k} {v}" for k, v in h["control"].items() if v) or "-"
        feats = ", ".join(f["name"] + (" (used)" if f["used"] else "") for f in h["feats"])
        notes = [w for w, on in (("wounded", h["wounded"]), ("chivalrous", h["chivalrous"]),
                                 ("exhausted", h["exhausted"])) if on]
        # on the hero, and in front of its player (no tile): both with that hero
        attached = [_attached(a) for a in obs["attached"] if a["host"] == "hero" and a["seat"] == s]
        if attached:
            notes.append("attached: " + ", ".join(attached))
        in_front = [_attached(a) for a in obs["attached"] if a["host"] == "player" and a["seat"] == s]
        if in_front:
            notes.append("in front: " + ", ".join(in_front))
        if h["revealed_in_hand"]:
            notes.append("revealed in hand: " + ", ".join(h["revealed_in_hand"]))
        if h["revealed_in_deck"]:
            notes.append("face up in deck: " + ", ".join(f"{n} ({k + 1} from the top)" for n, k in h["revealed_in_deck"]))
        table.add_row(player(s, obs["seat"]), h["hero"], f"{h['hp']}/{h['max_hp']}", str(h["actions"]), str(h["power"]),
                      str(h["initiative"]), control, str(h["hand_size"]), str(h["deck"]), feats, "; ".join(notes))
    return table


def render(obs: dict[str, Any], game: Any = None) -> RenderableType:
    """The board, the heroes, the stack and your hand; a card's text comes from `game`'s content (the
    observation does not repeat the table's content), else from the base content."""
    lib: Library = game.library if game is not None else library()
    parts: list[RenderableType] = [_board(obs), _heroes(obs)]
    if obs["stack"]:
        lines = []
        for i, item in enumerate(reversed(obs["stack"])):
            mark = " (countered)" if item["countered"] else ""
            nth = item["id"] // COPY_BASE  # copy k of a card: as its target names it ("copy 2 of ...")
            mark += "" if not item["copy"] else " (copy)" if nth == 1 else f" (copy {nth})"
            mark += " (unleashed)" if item["unleashed"] else ""
            target = f" → {' and '.join(item['targets'])}" if item["targets"] else ""
            lines.append(f"{'top' if i == 0 else '   '} {player(item['controller'], obs['seat'])}: "
                         f"{item['card']}{target}{mark}")
        parts.append(Panel("\n".join(lines), title="unresolved cards (the top resolves first)"))
    if "hand" in obs:
        hand = "\n".join(card_line(lib, n) for n in obs["hand"]) or "(empty)"
        parts.append(Panel(hand, title="your hand"))
        if obs.get("looking"):
            parts.append(Panel("\n".join(card_line(lib, n) for n in obs["looking"]), title="second wind: the top cards"))
    if obs["decision"] is not None:
        d = obs["decision"]
        parts.append(Text(prompt(d["seat"], obs["seat"], d["text"])))
    if obs["winners"]:
        parts.append(Text("game over — winner: " + ", ".join(player(w, obs["seat"]) for w in obs["winners"]),
                          style="bold"))
    return Group(*parts)


def choices(obs: dict[str, Any], texts: list[str]) -> list[tuple[int, str]]:
    """The moves in the game's order; a card's effects to choose between say what each does
    ("choose 1: deal 3 damage to the target"), in the words the server sent, and a cantrip what it
    costs ("cantrip Hunter's Step (an initiative)": the browser's button on the card says it too)."""
    d = obs.get("decision") or {}
    modes = d.get("modes", [])
    out = []
    for i, t in enumerate(texts):
        n = int(t[7:]) if t.startswith("choose ") and t[7:].isdigit() else 0
        out.append((i, f"{t}: {modes[n - 1]}" if 0 < n <= len(modes) else f"{t} (an initiative)" if t.startswith("cantrip ") else t))
    return out


def narrate(event: dict[str, Any], viewer: int | None, obs: dict[str, Any] | None = None) -> str | None:
    k = event["kind"]
    e = event
    if "seat" in e:
        who = _who(e["seat"], viewer)
    lines: dict[str, Callable[[], str | None]] = {
        "setup": lambda: f"{e['heroes'][0]} ({_who(0, viewer)}) against {e['heroes'][1]} ({_who(1, viewer)}) on a "
                         f"{e['board']}x{e['board']} board; {_who(e['first'], viewer)} "
                         f"{_v(_who(e['first'], viewer), 'begins', 'begin')}",
        "turn": lambda: f"— {who}: turn {e['number']} —",
        "played": lambda: f"{who} played {e['card']}" + (f" at {_at(e, who, viewer)}" if e["target"] else "")
                          + (" (cantrip)" if e["how"] == "cantrip" else "") + (" (unleashed)" if e["unleashed"] else ""),
        "resolves": lambda: f"{e['card']}{' (copy)' if e['copy'] else ''} resolves",
        "countered": lambda: f"{e['name']} is countered",
        "meta_countered": lambda: f"{e['name']} is meta-countered" + (
            f"; {e['refunded']} resource{'' if e['refunded'] == 1 else 's'} refunded" if e["refunded"] else ""),
        "damage": lambda: f"{who} {_v(who, 'takes', 'take')} {e['amount']} damage ({e['hp']} HP)",
        "heal": lambda: f"{who} {_v(who, 'heals', 'heal')} {e['amount']} ({e['hp']} HP)",
        "control": lambda: f"{who}: {e['control']} {e['n']}",
        "enter": lambda: f"{who} {_v(who, 'enters', 'enter')} {e['tile']}",
        "draw": lambda: f"you drew {e['card']}",
        "drew": lambda: None if viewer == e["seat"] else f"{who} drew a card",
        "wounded": lambda: f"{who}: wounded — second wind",
        "exhausted_draw": lambda: f"{who} {_v(who, 'is', 'are')} exhausted: 5 damage instead of drawing",
        "chivalrous": lambda: f"{who} became chivalrous",
        "dishonoured": lambda: f"{who} dishonoured chivalry ({e['why']})",
        "relic": lambda: f"{who} gained the relic {e['card']}",
        "destroyed": lambda: f"{e['card']} is destroyed",
        "faded": lambda: f"{e['card']}: turn token {e['tokens']} of {e['turns']}",
        "recalled": lambda: f"{e['card']} returns to its owner's {e['place']}"
        + ("" if e["place"] == "feat zone" else ", revealed"),
        "shuffled": lambda: f"{who} {_v(who, 'shuffles their', 'shuffle your')} deck",
        "drew_revealed": lambda: f"{who} drew {e['card']} (face up)",
        "copied": lambda: f"{who} {_v(who, 'copies', 'copy')} {e['card']}",
        "copy_not_played": lambda: f"{who} cannot play the copy of {e['card']}: {e['why']}",
        "gain": lambda: f"{who} {_v(who, 'gains', 'gain')} {amount(e['n'], e['resource'])}" if e["n"] else None,
        "game_over": lambda: "game over — winner: " + ", ".join(_who(w, viewer) for w in e["winners"]),
    }
    fn = lines.get(k)
    return fn() if fn is not None else None


def card_catalog(game: Any) -> list[dict[str, Any]]:
    """Every card of the game's two heroes (decks, feats, relics), its text generated from the data."""
    lib: Library = game.library
    counts: dict[str, int] = {}
    for d in game.decks:
        for n in (*d.cards, *d.feats, *d.relics):
            counts[n] = counts.get(n, 0) + 1
    out = []
    for card, k in counts.items():
        c = lib.cards[card]
        kind = c.feat or ("relic" if c.relic else f"{c.archetype} card")
        when = "in answer to a card being played, or on your turn" if c.instant else "on your turn"
        # the text, and its parts as fields, so that a view draws them without reading the text
        out.append({"name": card, "kind": kind, "text": f"{c.header()}. {c.text()}", "copies": k,
                    "when": "never played (it has effect from the feat zone)" if c.passive else when,
                    "header": c.header(), "body": c.text(), "actions": c.actions, "power": c.power, "range": c.range,
                    "banner": list(c.banner), "heroic": c.heroic, "instant": c.instant, "cantrip": c.cantrip,
                    "attach": c.attach, "target": c.target, "feat": c.feat, "passive": c.passive,
                    # its archetype's colours, or a trait's pips (the view colours the card by them)
                    "colours": list(c.pips) if c.feat == "trait" else list(lib.colours(c.archetype))})
    return out
