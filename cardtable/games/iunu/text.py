"""IUNU in the terminal: the Forum, the dice, each Dynasty as columns, Debens and Bread, and the
final score table broken down by source. Everything shown comes from one seat's observation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...ui.names import name, player, prompt
from .cards import CITIZENS, Afterlife

DIE_FACES = {None: "✗", 1: "1", 2: "2", 3: "3", 4: "4"}


def _seat_name(s: int, viewer: int | None) -> str:
    """A column head: the seat's name, marked when it is the viewer's."""
    return player(s, viewer)


def _dice(values: list[int | None]) -> str:
    """Dice as a person reads them: "3, 2 and 1" (a die out of play is left out)."""
    shown = [str(v) for v in values if v]
    if not shown:
        return "none"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _n(count: int, one: str, many: str | None = None) -> str:
    """ "1 card", "3 cards": a count with its noun in the right number."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


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
    for owner, _ in owners:
        table.add_column(owner, justify="center")
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


def render(obs: dict[str, Any], game: Any = None) -> RenderableType:
    seat = obs["seat"]
    head = Text(f"IUNU {obs['variant']} — round {obs['round']}, starting player {name(obs['starter'])}")
    if obs["final_turns"]:
        head.append("   FINAL TURNS (Dynasty phase only)", style="bold red")
    dice = Text("Dice: ")
    for i, v in enumerate(obs["dice"], 1):
        dice.append(f"die {i} ")
        dice.append(f" {DIE_FACES[v]} ", style="bold black on white" if v else "dim")
        dice.append("  ")
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
        line = prompt(d["seat"], seat, d["text"])
        if "drawn" in d:
            line += f" — drawn: {', '.join(d['drawn'])}"
        parts.append(Text(line, style="italic"))
    if obs["is_over"]:
        parts.append(_score_table(obs))
        text = f"Game over. Winner: {' and '.join(_seat_name(w, seat) for w in obs['winners'])}"
        if obs["heliopolis"] is not None and obs["heliopolis"]["first"]:
            text += " — but Heliopolis scored more than both dynasties"
        parts.append(Text(text, style="bold"))
    return Panel(Group(*parts), expand=False)


def die_name(i: int, dice: list[int | None]) -> str:
    """"die 2 (a 3)": a die by its position and its face."""
    v = dice[i - 1] if 1 <= i <= len(dice) else None
    return f"die {i} ({'out of play' if v is None else f'a {v}'})"


def choices(obs: dict[str, Any], texts: list[str]) -> list[tuple[int, str]]:
    """The moves with every die named by its position and its face ("reroll die 2 (a 3)") and the
    Citizen whose ability is offered named ("use the Merchant's ability")."""
    d = obs["decision"] or {}
    citizen = d.get("citizen")
    out = []
    for i, t in enumerate(texts):
        words = t.split()
        if len(words) >= 2 and words[-2] == "die" and words[-1].isdigit():
            t = " ".join(words[:-2]) + " " + die_name(int(words[-1]), obs["dice"])
        elif citizen and t in ("use ability", "skip ability"):
            t = f"{t.split()[0]} the {citizen}'s ability"
        out.append((i, t))
    return out


def narrate(event: dict[str, Any], viewer: int | None, obs: dict[str, Any] | None = None) -> str | None:
    """One line for an event the viewer may see (None: not worth a line)."""
    k = event["kind"]

    def who(s: int) -> str:  # "seat N": the table's names replace it (cardtable.ui.names)
        return f"seat {s}"

    simple: dict[str, Callable[[dict[str, Any]], str]] = {
        "played": lambda e: f"{who(e['seat'])} played {e['card']}" + (" (a second one, for 1 Deben)" if e["count"] == 2 else ""),
        "round_started": lambda e: f"— round {e['round']}: seat {e['starter']} rolls {_dice(e['rolled'])}"
        + (f", reduced to {_dice(e['dice'])}" if e["rolled"] != e["dice"] else "") + " —",
        "game_end_triggered": lambda e: "the Citizen deck is empty: final turns (Dynasty phase only) until the round ends",
        "rerolled": lambda e: f"{who(e['seat'])} rerolled die {e['die']}: {e['old']} → {e['new']} (Pharaoh)",
        "noble": lambda e: f"{who(e['seat'])} gained {e['gained']} Debens (Noble); dice now {_dice(e['dice'])}",
        "merchant": lambda e: f"{who(e['seat'])} gained {e['gained']} Debens (Merchant); dice now {_dice(e['dice'])}",
        "ability_skipped": lambda e: f"{who(e['seat'])} did not use the {e['card']}",
        "scribed": lambda e: f"{who(e['seat'])} put a card under the Scribe",
        "scribed_card": lambda e: f"  (under your Scribe: {e['card']})",
        "drew": lambda e: f"{who(e['seat'])} drew {e['count']}",
        "drew_cards": lambda e: f"  (you drew {', '.join(e['cards'])})",
        "dealt": lambda e: f"  (your hand: {', '.join(e['cards'])})",
        "priest": lambda e: f"{who(e['seat'])} paid {e['paid']} for die {e['die']} and looked at {_n(e['drew'], 'Afterlife card')}",
        "afterlife_seen": lambda e: f"  (you see: {', '.join(e['cards'])})",
        "afterlife_kept": lambda e: f"{who(e['seat'])} " + ("replaced their Afterlife card" if e["replaced"] else "kept an Afterlife card"),
        "afterlife_card": lambda e: f"  (your Afterlife card: {e['card']})",
        "steal": lambda e: f"{who(e['seat'])}'s Soldier comes for a Farmer of {who(e['victim'])}",
        "tribute": lambda e: f"{who(e['seat'])} paid 1 Deben tribute to {who(e['thief'])}",
        "farmer_stolen": lambda e: f"{who(e['seat'])} took a Farmer from {who(e['victim'])}",
        "bread": lambda e: f"{who(e['seat'])} fed a {e['card']} ({_n(e['price'], 'Deben')})",
        "baked": lambda e: f"{who(e['seat'])} baked {e['count']} Bread; dice now {_dice(e['dice'])}",
        "artisan": lambda e: f"{who(e['seat'])} paid {e['paid']} (Artisans) to place {_n(e['place'], 'card')}",
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
        "game_over": lambda e: "game over — " + " and ".join(who(w) for w in e["winners"])
        + (" wins" if len(e["winners"]) == 1 else " win"),
    }
    fn = simple.get(k)
    return fn(event) if fn is not None else None


# The Citizens' abilities are rules (iunu.txt, "Citizen abilities"); their numbers are data (cards.toml).
ABILITY = {
    "Pharaoh": "No effect when played. For the rest of the game, you may roll one of the dice again at the start "
               "of your turn, before you play any cards (not a die that has been removed).",
    "Scribe": "Pay 1 Deben to place 1 card from your hand under the Scribe (you may look at it), then draw 1 card. "
              "At the end of the game the cards under the Scribe join your Dynasty.",
    "Noble": "Gain Debens equal to the total value of all dice in play, then reduce each die by 1.",
    "Priest": "Choose a die: pay its value in Debens and draw that many Afterlife cards; keep one face down "
              "(you may replace the one you have), shuffle the rest back, then reduce that die by 1.",
    "Artisan": "No effect when played. In the Rejuvenation phase, for each Artisan you may pay 1 Deben to place "
               "one fewer card in the Forum (then take 1 more card than you placed).",
    "Soldier": "You may steal 1 Farmer without Bread from another player, unless they pay you 1 Deben tribute. "
               "Each of your Soldiers protects 2 of your Farmers from being stolen.",
    "Baker": "Buy up to 3 Bread and put each on a different Citizen of yours; each costs the highest die value "
             "(at least 1 Deben). Then reduce that die by 1.",
    "Merchant": "Take the highest die: gain Debens equal to its value +1 per Merchant you have (with the ones "
                "just played), then reduce that die by 1.",
    "Farmer": "No effect when played. For every 2 Farmers you have, each Bread you bake with a Baker costs 1 Deben less.",
}


def afterlife_text(card: Afterlife) -> str:
    """An Afterlife card's text, generated from its effect and parameters (cards.toml)."""
    if card.effect == "double_majority":
        return "Receive 2x the Majority VP of one Citizen type of which you have more cards than any other player."
    if card.effect == "sets":
        names = [CITIZENS[t] for t in card.types]
        listed = ", ".join(f"1 {n}" for n in names[:-1]) + f" and 1 {names[-1]}" if len(names) > 1 else f"1 {names[0]}"
        return f"For each set of {listed} in your Dynasty, gain {card.vp} VP."
    if card.effect == "guardians":
        return ("If you have at least 1 Soldier for each Farmer in your Dynasty, score Citizen VP a second time "
                "for every one of your Soldiers.")
    if card.effect == "debens_per_vp":
        return f"You receive 1 VP for each {card.debens} Deben{'s' if card.debens != 1 else ''} instead of 1 for each 3."
    if card.effect == "most_fed":
        return f"Gain {card.vp} VP if you have fed more Citizens with Bread than any other player."
    return f"Gain {card.vp} VP if you have more different Citizen types in your Dynasty than any other player."


def card_catalog(game: Any) -> list[dict[str, Any]]:
    """Every Citizen type (its ability and its numbers) and every Afterlife card of the game's card set."""
    out: list[dict[str, Any]] = []
    for c in game.cards.citizens:
        numbers = (f"Each scores {c.citizen_vp} Citizen VP, +{c.bread_vp} VP with Bread on it; "
                   f"the majority of {c.name}s scores {c.majority_vp} VP.")
        out.append({"name": c.name, "kind": "citizen", "text": ABILITY[c.name] + " " + numbers, "copies": c.cards})
    for a in game.cards.afterlife:
        out.append({"name": a.name, "kind": "afterlife", "text": afterlife_text(a), "copies": 1})
    return out
