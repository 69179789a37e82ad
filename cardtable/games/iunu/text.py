"""IUNU in the terminal: the Forum, the dice, each Dynasty as columns, Debens and Bread, and the
final score table broken down by source. Everything shown comes from one seat's observation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .cards import CITIZENS

DIE_FACES = {None: "✗", 1: "1", 2: "2", 3: "3", 4: "4"}


def _seat_name(s: int, viewer: int | None) -> str:
    return "you" if s == viewer else f"seat {s}"


def _dynasty_table(obs: dict[str, Any]) -> Table:
    """One row per Citizen type, one column per Dynasty: cards played, with Bread shown as +b."""
    seat = obs["seat"]
    table = Table(title="Dynasties (cards, +bread)", expand=False)
    table.add_column("Citizen")
    owners: list[tuple[str, dict[str, Any]]] = [
        (_seat_name(s, seat), p) for s, p in enumerate(obs["dynasties"])
    ]
    if obs["heliopolis"] is not None:
        owners.append(("Heliopolis", obs["heliopolis"]))
    for name, _ in owners:
        table.add_column(name, justify="center")
    for c in CITIZENS:
        row = [c]
        for _, p in owners:
            n = p["dynasty"].get(c, 0)
            fed = p["fed"].get(c, 0)
            row.append("" if not n else f"{n}" + (f" +{fed}b" if fed else ""))
        table.add_row(*row)
    extras = [("Debens", "debens"), ("hand", "hand_size"), ("under Scribe", "scribe_cards")]
    for label, key in extras:
        table.add_row(f"[dim]{label}[/]", *[str(p.get(key, "-")) for _, p in owners])
    table.add_row("[dim]Afterlife[/]", *[
        (p.get("afterlife") or ("face down" if p.get("has_afterlife") else "-")) for _, p in owners
    ])
    return table


def _score_table(obs: dict[str, Any]) -> Table:
    seat = obs["seat"]
    names = [_seat_name(s, seat) for s in range(obs["players"])]
    if obs["heliopolis"] is not None:
        names.append("Heliopolis")
    table = Table(title="Final scores", expand=False)
    table.add_column("source")
    for n in names:
        table.add_column(n, justify="right")
    rows = [("Citizen VP", "citizen"), ("Bread VP", "bread"), ("Majority VP", "majority"),
            ("Afterlife", "afterlife"), ("Debens (VP)", "deben_vp")]
    if obs["heliopolis"] is not None:
        rows.append(("Merchant bonus", "merchant_bonus"))
    for label, key in rows:
        table.add_row(label, *[str(r[key]) for r in obs["scores"]])
    table.add_row("[bold]total[/]", *[f"[bold]{r['total']}[/]" for r in obs["scores"]])
    table.add_row("[dim]Debens (tie-break)[/]", *[str(r["debens"]) for r in obs["scores"]])
    return table


def render(obs: dict[str, Any]) -> RenderableType:
    seat = obs["seat"]
    head = Text(f"IUNU {obs['variant']} — round {obs['round']}, starting player seat {obs['starter']}")
    if obs["final_turns"]:
        head.append("   FINAL TURNS (Dynasty phase only)", style="bold red")
    dice = Text("Dice: ")
    for v in obs["dice"]:
        dice.append(f" {DIE_FACES[v]} ", style="bold black on white" if v else "dim")
        dice.append(" ")
    dice.append(f"   Citizen deck: {obs['deck']}   Afterlife deck: {obs['afterlife_deck']}   "
                f"Bread left: {obs['bread_supply']}")
    forum = Text("Forum: ")
    for i, c in enumerate(obs["forum"]):
        if i:
            forum.append(" ")
        forum.append(f" {c} ", style="bold black on yellow3")
    parts: list[RenderableType] = [head, dice, forum]
    if obs["removed"]:
        parts.append(Text(f"Removed by Aten: {', '.join(obs['removed'])}", style="dim"))
    parts.append(_dynasty_table(obs))
    if seat is not None and "hand" in obs:
        mine = Text("Your hand: " + (", ".join(obs["hand"]) or "(empty)"))
        if obs["scribed"]:
            mine.append("   under your Scribe: " + ", ".join(obs["scribed"]))
        if obs["afterlife"]:
            mine.append(f"   your Afterlife card: {obs['afterlife']}")
        parts.append(mine)
    d = obs["decision"]
    if d is not None:
        who = "You" if d["seat"] == seat else f"Seat {d['seat']}"
        line = f"{who}: {DECISION_TEXT.get(d['kind'], d['kind'])}"
        if "price" in d:
            line += f" (Bread costs {d['price']} each, {d['baked']} baked)"
        if "thief" in d:
            line += f" (seat {d['thief']}'s Soldier)"
        if "drawn" in d:
            line += f" — drawn: {', '.join(d['drawn'])}"
        parts.append(Text(line, style="italic"))
    if obs["is_over"]:
        parts.append(_score_table(obs))
        text = f"Game over. Winner: {', '.join(_seat_name(w, seat) for w in obs['winners'])}"
        if obs["heliopolis"] is not None and obs["heliopolis"]["first"]:
            text += " — but Heliopolis scored more than both dynasties"
        parts.append(Text(text, style="bold"))
    return Panel(Group(*parts), expand=False)


DECISION_TEXT = {
    "pharaoh_reroll": "Pharaoh: reroll one die, or keep the dice",
    "play": "play a Citizen card",
    "second_card": "play a second card of the same type for 1 Deben?",
    "use_ability": "use the ability?",
    "scribe": "Scribe: put a card under the Scribe for 1 Deben (then draw 1), or skip",
    "priest_die": "Priest: choose a die (pay its value, draw that many Afterlife cards), or skip",
    "priest_keep": "Priest: choose the Afterlife card to keep",
    "soldier": "Soldier: steal a Farmer, or skip",
    "tribute": "pay 1 Deben tribute, or give up a Farmer",
    "bake": "Baker: put Bread on a Citizen, or stop",
    "artisan": "Artisans: how many cards to place in the Forum",
    "place": "place a card from your hand in the Forum",
    "take": "take a card from the Forum",
}


def narrate(event: dict[str, Any], viewer: int | None) -> str | None:
    """One line for an event the viewer may see (None: not worth a line)."""
    k = event["kind"]

    def who(s: int) -> str:
        return _seat_name(s, viewer)

    simple: dict[str, Callable[[dict[str, Any]], str]] = {
        "played": lambda e: f"{who(e['seat'])} played {e['card']}" + (" (a second one, for 1 Deben)" if e["count"] == 2 else ""),
        "round_started": lambda e: f"— round {e['round']}: seat {e['starter']} rolls {e['rolled']}"
        + (f", reduced to {e['dice']}" if e["rolled"] != e["dice"] else "") + " —",
        "game_end_triggered": lambda e: "the Citizen deck is empty: final turns (Dynasty phase only) until the round ends",
        "rerolled": lambda e: f"{who(e['seat'])} rerolled die {e['die']}: {e['old']} → {e['new']} (Pharaoh)",
        "noble": lambda e: f"{who(e['seat'])} gained {e['gained']} Debens (Noble); dice now {e['dice']}",
        "merchant": lambda e: f"{who(e['seat'])} gained {e['gained']} Debens (Merchant); dice now {e['dice']}",
        "ability_skipped": lambda e: f"{who(e['seat'])} did not use the {e['card']}",
        "scribed": lambda e: f"{who(e['seat'])} put a card under the Scribe",
        "scribed_card": lambda e: f"  (under your Scribe: {e['card']})",
        "drew": lambda e: f"{who(e['seat'])} drew {e['count']}",
        "drew_cards": lambda e: f"  (you drew {', '.join(e['cards'])})",
        "dealt": lambda e: f"  (your hand: {', '.join(e['cards'])})",
        "priest": lambda e: f"{who(e['seat'])} paid {e['paid']} for die {e['die']} and looked at {e['drew']} Afterlife card(s)",
        "afterlife_seen": lambda e: f"  (you see: {', '.join(e['cards'])})",
        "afterlife_kept": lambda e: f"{who(e['seat'])} " + ("replaced their Afterlife card" if e["replaced"] else "kept an Afterlife card"),
        "afterlife_card": lambda e: f"  (your Afterlife card: {e['card']})",
        "steal": lambda e: f"{who(e['seat'])}'s Soldier comes for a Farmer of {who(e['victim'])}",
        "tribute": lambda e: f"{who(e['seat'])} paid 1 Deben tribute to {who(e['thief'])}",
        "farmer_stolen": lambda e: f"{who(e['seat'])} took a Farmer from {who(e['victim'])}",
        "bread": lambda e: f"{who(e['seat'])} fed a {e['card']} ({e['price']} Deben(s))",
        "baked": lambda e: f"{who(e['seat'])} baked {e['count']} Bread; dice now {e['dice']}",
        "artisan": lambda e: f"{who(e['seat'])} paid {e['paid']} (Artisans) to place {e['place']} card(s)",
        "placed": lambda e: f"{who(e['seat'])} placed {e['card']} in the Forum",
        "took": lambda e: f"{who(e['seat'])} took {e['card']} from the Forum",
        "revealed": lambda e: f"{e['card']} joins the Forum",
        "forum_removed": lambda e: f"{e['card']} leaves the Forum (Aten)",
        "heliopolis_took": lambda e: f"Heliopolis took {e['card']}",
        "no_card": lambda e: f"{who(e['seat'])} has no card to play",
        "turn_started": lambda e: f"{who(e['seat'])}: turn" + (" (final turn: Dynasty phase only)" if e["final"] else ""),
        "setup": lambda e: f"the Forum: {', '.join(e['forum'])}"
        + (f"; Heliopolis starts with {e['heliopolis']}" if e["heliopolis"] else ""),
        "scribes_revealed": lambda e: "cards under the Scribes: "
        + "; ".join(f"{who(s)}: {', '.join(c) or 'none'}" for s, c in enumerate(e["cards"])),
        "heliopolis_end": lambda e: f"Heliopolis feeds {e['fed'] or 'nobody'}"
        + (f" and reveals {e['afterlife']}" if e["afterlife"] else ""),
        "game_over": lambda e: "game over — winner: " + ", ".join(who(w) for w in e["winners"]),
    }
    fn = simple.get(k)
    return fn(event) if fn is not None else None
