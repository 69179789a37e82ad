"""Iuno Avatar in the terminal: your Heaven (yours only), every Earth with the gems on each figure,
the shared Hell, the dice and gems of each player, the middle and the purse; each card with the
text generated from its data; an effect that offers itself asks "also do ...?" or "instead do ...?".
Everything shown comes from one seat's observation."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...ui.names import player, prompt
from .language import ELEMENTS


def _who(s: int, viewer: int | None) -> str:
    return "you" if s == viewer else f"seat {s}"


def _whose(s: int, viewer: int | None) -> str:
    """A seat's, for the line the viewer reads: "your" for the viewer, "seat N's" for the others."""
    return "your" if s == viewer else f"seat {s}'s"


def _gems(n: int) -> str:
    return f"{n} gem" if n == 1 else f"{n} gems"


def render(obs: dict[str, Any]) -> RenderableType:
    seat = obs["seat"]
    texts = obs.get("card_texts", {})
    head = Text(f"Iuno Avatar — turn {obs['turns']} (limit {obs['turn_limit']}) — middle: {obs['middle']} dice, "
                f"purse: {obs['purse']} gems, stack: {obs['stack']} cards")
    table = Table(title="Players (turn order)", expand=False)
    for col in ("player", "avatar", "Heaven", "dice", "gems", "Earth (gems/level)"):
        table.add_column(col)
    for s in obs["order"]:
        p = obs["seats"][s]
        earth = ", ".join(f"{f['name']} ({f['gems']}/{f['level']})" if f["type"] == "figure" else f["name"]
                          for f in p["earth"]) or "-"
        name = player(s, seat) + (" ◀" if s == obs["turn"] else "")
        table.add_row(f"[bold]{name}[/]" if s == seat else name, p["avatar"].title(), f"{p['heaven_size']} cards",
                      str(p["dice"]), str(p["gems"]), earth)
    parts: list[RenderableType] = [head, table]
    parts.append(Text("Hell (face up): " + (", ".join(obs["hell"]) or "(empty)")))
    if obs["announced"]:
        parts.append(Text("Being played: " + ", ".join(obs["announced"]), style="cyan"))
    if seat is not None and "heaven" in obs:
        mine = Table(title="Your Heaven", expand=False)
        mine.add_column("card")
        mine.add_column("text")
        for name in obs["heaven"]:
            mine.add_row(name, texts.get(name, ""))
        parts.append(mine)
    on_earth = [f for s in obs["order"] for f in obs["seats"][s]["earth"]]
    if on_earth:
        lines = Table(title="On Earth", expand=False)
        lines.add_column("card")
        lines.add_column("text")
        for f in on_earth:
            lines.add_row(f["name"], texts.get(f["name"], ""))
        parts.append(lines)
    d = obs["decision"]
    if d is not None:
        parts.append(Text(prompt(d["seat"], seat, d["text"]), style="italic"))
    if obs["is_over"]:
        parts.append(Text(f"Game over. Winners: {', '.join(player(w, seat) for w in obs['winners'])}", style="bold"))
    return Panel(Group(*parts), expand=False)


def choices(obs: dict[str, Any], texts: list[str]) -> list[tuple[int, str]]:
    """The move list; an effect's yes/no reads as its question."""
    d = obs.get("decision") or {}
    out = []
    for i, t in enumerate(texts):
        if d.get("kind") == "use_ability" and t in ("yes", "no"):
            how = "instead" if d.get("instead") else "also"
            label = f"yes, {how} {d['effect']}" if t == "yes" else f"no, not {d['card']}'s effect"
            out.append((i, label))
        else:
            out.append((i, t))
    return out


def narrate(event: dict[str, Any], viewer: int | None, obs: dict[str, Any] | None = None) -> str | None:
    """One line for an event the viewer may see."""
    k = event["kind"]

    def who(s: int) -> str:
        return _who(s, viewer)

    def whose(s: int) -> str:
        return _whose(s, viewer)

    def does(s: int, third: str, second: str) -> str:
        """The verb for the seat: "you end", "seat 1 ends"."""
        return f"{who(s)} {second if s == viewer else third}"

    lines = {
        "setup": lambda e: f"turn order {', '.join(who(s) for s in e['order'])}; Hell: {', '.join(e['hell'])}",
        "turn": lambda e: f"— turn {e['turn']}: {who(e['seat'])} —",
        "took": lambda e: f"{who(e['seat'])} took a {e['what']}" + (f" from {who(e['source'])}" if "source" in e else ""),
        "took_card": lambda e: f"{who(e['seat'])} took a card" + (f" from {who(e['source'])}" if "source" in e else ""),
        "drew": lambda e: f"  ({who(e['seat'])} got {e['card']})",
        "hell_shuffled": lambda e: f"Hell is shuffled into a new stack ({e['cards']} cards)",
        "rolled": lambda e: f"{who(e['seat'])} rolled {e['value']}",
        "announced": lambda e: f"{who(e['seat'])} will {e['action']} {e['card']}",
        "paid_card": lambda e: f"{who(e['seat'])} paid with {e['card']}",
        "paid_gems": lambda e: f"{who(e['seat'])} paid {_gems(e['gems'])}",
        "arrived": lambda e: f"{e['card']} arrives on {whose(e['seat'])} Earth",
        "not_arrived": lambda e: f"{e['card']} goes back to {whose(e['seat'])} Heaven",
        "to_hell": lambda e: f"{e['card']} goes to Hell",
        "gem_on": lambda e: f"{who(e['seat'])} put a gem on {e['card']} ({e['gems']})",
        "die_discarded": lambda e: f"{who(e['seat'])} discarded the die",
        "discarded": lambda e: f"{who(e['seat'])} discarded {e['card']}",
        "discarded_die": lambda e: f"{who(e['seat'])} discarded {e['n']} {'die' if e['n'] == 1 else 'dice'}",
        "discarded_gem": lambda e: f"{who(e['seat'])} discarded {_gems(e['n'])}",
        "gems_discarded": lambda e: f"{who(e['seat'])} discarded {_gems(e['gems'])} down to six",
        "moved": lambda e: f"{who(e['seat'])} moved {e['card'] or 'a card'} to "
        + ("Hell" if e["to_area"] == "hell" else f"{whose(e['to_seat'])} Heaven"),
        "moved_card": lambda e: f"  (the card was {e['card']})",
        "all_figures_to_hell": lambda e: f"more than six figures: all of {whose(e['seat'])} figures go to Hell",
        "end_turn": lambda e: f"{does(e['seat'], 'ends', 'end')} the turn",
        "won": lambda e: f"{does(e['seat'], 'has', 'have')} no cards left in Heaven and {'win' if e['seat'] == viewer else 'wins'}!",
        "turn_limit": lambda e: f"turn limit: fewest cards in Heaven win ({', '.join(who(w) for w in e['winners'])})",
    }
    fn = lines.get(k)
    return fn(event) if fn else None


WHEN = {
    "figure": "Summoned with a roll above your figures on Earth.",
    "spell": "Cast with a roll above the spells you cast this turn.",
    "gem": "Used to pay a figure or spell of its element.",
}


def card_catalog(game: Any) -> list[dict[str, Any]]:
    """Every card of the deck with its text and pictograms generated from its data."""
    out = []
    for c in game.cards:
        entry: dict[str, Any] = {"name": c.name, "kind": c.type, "text": c.text(), "copies": 1,
                                 "pictograms": c.pictograms(), "element": c.element,
                                 "cost": [e for e, n in zip(ELEMENTS, c.cost, strict=False) for _ in range(n)],
                                 "level": c.level, "symbols": c.symbols, "effect_kind": c.kind}
        entry["when"] = WHEN[c.type]
        if not c.gem:
            entry["note"] = f"Cost: {c.cost_text()}." + (f" Level {c.level}." if c.figure else "")
        out.append(entry)
    return out
