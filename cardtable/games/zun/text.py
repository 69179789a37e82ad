"""Runes of Zun in the terminal: HP trackers with tiers, hands, cards in play, ongoing runes."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...ui.names import name, player, prompt

TIER_STYLE = {0: "bold white on grey23", 1: "bold white on red3", 2: "bold black on yellow3", 3: "bold white on green4"}
TIER_NAME = {0: "Defeated", 1: "tier 1 (1–4 HP)", 2: "tier 2 (5–8 HP)", 3: "tier 3 (9–12 HP)"}
ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


def _n(count: int, one: str, many: str | None = None) -> str:
    """ "1 card", "3 cards": a count with its noun in the right number."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def team_name(team: int) -> str:
    """Teams are numbered from 1, in the terminal and the browser alike."""
    return f"team {team + 1}"

# When a rune of each kind can be played (runes-of-zun.txt, "Playing Runes", "Reactions", "Modifiers").
WHEN = {
    "action": "Play it in your Action Phase, then declare its targets.",
    "reaction": "Play it when an Action targets you, before that Action resolves on you.",
    "modifier": "Play it right after you play a rune that lists it among its Charms, before its targets are declared.",
}

def choices(obs: dict[str, Any], texts: list[str]) -> list[tuple[int, str]]:
    """The moves in the order the terminal lists them, with labels: when a move names a player
    (target, blame, redirect), opponents come first with their HP, then teammates, then you, marked."""
    seat = obs["seat"]

    def about(text: str) -> int | None:
        words = text.split()
        return int(words[-1]) if len(words) >= 2 and words[-2] == "seat" and words[-1].isdigit() else None

    def rank(i: int) -> tuple[int, int]:
        s = about(texts[i])
        if s is None:
            return (0, i)
        if s == seat:
            return (3, i)
        same_team = obs["teams"] is not None and seat is not None and obs["team_of"][s] == obs["team_of"][seat]
        return (2 if same_team else 1, i)

    out = []
    for i in sorted(range(len(texts)), key=rank):
        s = about(texts[i])
        label = texts[i]
        if s is not None:
            mark = " (you" if s == seat else f" ({obs['hp'][s]} HP"
            if s != seat and obs["teams"] is not None and seat is not None and obs["team_of"][s] == obs["team_of"][seat]:
                mark += ", your teammate"
            label += mark + (", Defeated)" if obs["defeated"][s] else ")")
        out.append((i, label))
    return out


def tracker(hp: int, tier: int) -> Text:
    """The HP Tracker Card: three colored tiers; the token sits on the current HP."""
    out = Text()
    for v in range(1, 13):
        t = (v - 1) // 4 + 1
        mark = "●" if v == hp else "·"
        out.append(mark, style=TIER_STYLE[t] if v == hp else ("red" if t == 1 else "yellow" if t == 2 else "green"))
        if v in (4, 8):
            out.append("|")
    out.append(f" {hp:>2} HP ", style=TIER_STYLE[tier])
    out.append(f" {TIER_NAME[tier]}")
    return out


def render(obs: dict[str, Any], game: Any = None) -> RenderableType:
    seat = obs["seat"]
    n = obs["players"]
    mode = "free-for-all" if obs["teams"] is None else f"{obs['teams']} teams"
    table = Table(title=f"Runes of Zun — {mode} — turn {obs['turn_number']} (limit {obs['turn_limit']})", expand=False)
    for col in ("seat", "team", "HP tracker", "hand", "affected by", ""):
        table.add_column(col)
    exposed = obs["exposed_hands"]
    for s in range(n):
        who = player(s, seat)
        affected = [o["card"] + (f" (as {o['as']})" if o["as"] != o["card"] else "") for o in obs["ongoing"]
                    if s in o["affects"]]
        hand = str(obs["hand_counts"][s])
        if str(s) in exposed and s != seat:
            hand += " (exposed: " + ", ".join(exposed[str(s)]) + ")"
        marks = []
        if s == obs["turn"]:
            marks.append("to play")
        if obs["defeated"][s]:
            marks.append("DEFEATED")
        table.add_row(f"[bold]{who}[/]" if s == seat else who, "" if obs["teams"] is None else team_name(obs["team_of"][s]),
                      tracker(obs["hp"][s], obs["tiers"][s]), hand, ", ".join(affected), ", ".join(marks))
    parts: list[RenderableType] = [table]
    if obs["in_play"]:
        line = Text("In play this turn: ")
        line.append(", ".join(f"{e['card']} ({name(e['player'])}{', returns' if e['returns'] else ''})"
                              for e in obs["in_play"]))
        parts.append(line)
    for f in obs["resolving"]:
        target = f" → {name(f['current_target'])}" if f["current_target"] >= 0 else ""
        as_text = f" as {f['as']}" if f["as"] and f["as"] != f["card"] else ""
        declared = [name(t) for t in f["targets"]]
        extra = [f"targets: {', '.join(declared)}"] if declared else ["no target yet"]
        if f["boosts"]:
            extra.append(f"boosted {f['boosts']}×")
        parts.append(Text(f"Resolving: {name(f['player'])}'s {f['card']}{as_text}{target} ({'; '.join(extra)})",
                          style="cyan"))
    parts.append(Text(f"Deck: {obs['deck']}   Discard pile: {len(obs['discard'])}"
                      + (f" (top: {obs['discard'][-1]})" if obs["discard"] else "")))
    if seat is not None and "hand" in obs:
        parts.append(Text("Your hand: " + (", ".join(obs["hand"]) or "(empty)"), style="bold"))
    d = obs["decision"]
    if d is not None:
        parts.append(Text(prompt(d["seat"], seat, d["text"]), style="italic"))
    if obs["is_over"]:
        how = " (turn limit: most HP)" if obs["by_limit"] else ""
        parts.append(Text(f"Game over{how}. Winners: {' and '.join(name(w) for w in obs['winners'])}",
                          style="bold"))
    return Panel(Group(*parts), expand=False)


def narrate(event: dict[str, Any], viewer: int | None, obs: dict[str, Any] | None = None) -> str | None:
    """One line for an event the viewer may see."""
    k = event["kind"]

    # Every player in the third person as "seat N": the table's names replace it (cardtable.ui.names).
    def who(s: int) -> str:
        return f"seat {s}"

    def does(s: int, verb: str, third: str | None = None) -> str:
        """Subject and verb that agree: "seat 2 loses"."""
        return f"seat {s} {third or verb + 's'}"

    lines = {
        "turn": lambda e: f"— turn {e['number']}: {who(e['seat'])} —",
        "played": lambda e: f"{who(e['seat'])} played {e['card']}" + (f" (mimicking {e['mimics']})" if e["mimics"] else ""),
        "modified": lambda e: f"{who(e['seat'])} modified {e['card']} with {e['modifier']}",
        "declared": lambda e: f"{does(e['seat'], 'target')} "
        + ("themselves" if e["target"] == e["seat"] else who(e["target"])) + f" with {e['card']}"
        + (f" (its {ORDINAL.get(e['order'], str(e['order']) + 'th')} target)" if e["order"] > 1 else ""),
        "blamed": lambda e: f"{does(e['seat'], 'blame')} {who(e['blamed'])}",
        "reacted": lambda e: f"{who(e['seat'])} reacted to {e['against']} with {e['card']}",
        "redirected": lambda e: f"{who(e['seat'])} redirected {e['card']} to {who(e['new_target'])}",
        "fizzled": lambda e: f"{e['card']} fizzled on {who(e['seat'])}",
        "hp": lambda e: f"{does(e['seat'], 'gain' if e['change'] > 0 else 'lose', 'gains' if e['change'] > 0 else 'loses')} {abs(e['change'])} HP ({e['why']}) → {e['hp']}",
        "prevented": lambda e: f"{e['card']}'s {e['amount']} HP loss to {who(e['seat'])} is prevented",
        "absorbed": lambda e: f"{does(e['seat'], 'absorb')} {e['amount']} HP",
        "drew": lambda e: f"{who(e['seat'])} drew {e['count']}" + (" (no cards left)" if e["count"] < e["wanted"] else ""),
        "drew_cards": lambda e: f"  (you drew {', '.join(e['cards'])})",
        "discarded": lambda e: f"{who(e['seat'])} discarded {e['card']}",
        "stole": lambda e: f"{who(e['seat'])} stole {_n(e['count'], 'card')} from {who(e['target'])}",
        "stolen_cards": lambda e: f"  (the stolen cards: {', '.join(e['cards'])})",
        "overdraw": lambda e: f"Overdraw! {who(e['seat'])} holds {e['hand']} cards",
        "underdraw": lambda e: f"Underdraw! {who(e['seat'])} is {_n(e['missing'], 'card')} short",
        "defeated": lambda e: f"{does(e['seat'], 'are', 'is')} Defeated!",
        "revived": lambda e: f"{does(e['seat'], 'come', 'comes')} back!",
        "triggered": lambda e: f"{e['card']} affecting {who(e['seat'])} triggers",
        "expired": lambda e: f"{e['card']} leaves play",
        "banished": lambda e: f"{e['card']} affecting {who(e['seat'])} is banished",
        "reserved": lambda e: f"{e['card']} returns to {who(e['seat'])}'s hand (Reserve)",
        "mulligan": lambda e: f"{does(e['seat'], 'mulligan')}: {', '.join(e['hand']) or 'an empty hand'}",
        "reshuffled": lambda e: f"the discard pile is shuffled into a new deck ({e['cards']} runes)",
        "canceled": lambda e: f"{e['card']} was discarded before it resolved",
        "setup": lambda e: f"{e['players']} players, {e['deck']} runes in the deck, 12 HP each",
        "game_over": lambda e: f"game over — {' and '.join(who(w) for w in e['winners'])} "
        + ("wins" if len(e["winners"]) == 1 else "win")
        + (" (turn limit)" if e["by_limit"] else ""),
    }
    fn = lines.get(k)
    return fn(event) if fn else None


def card_catalog(game: Any) -> list[dict[str, Any]]:
    """Every rune of the game's set with its text generated from the data (`Rune.text()`), its kind,
    copies in the deck, when it can be played, its target, charms and keywords and, for a modifier, the
    runes it can modify (`note`)."""
    runes = game.rune_set.runes
    sets = game.options.deck_sets()
    out = []
    for r in runes:
        # the text, and the rune's data as fields (whom it targets, the modifiers it takes, its
        # keywords), so that a view draws them without reading the text
        entry = {"name": r.name, "kind": r.kind, "text": r.text(), "copies": r.copies * sets, "when": WHEN[r.kind],
                 "target": r.target, "charms": list(r.charms), "keywords": list(r.keywords)}
        if r.kind == "modifier":
            charmed = [o.name for o in runes if r.name in o.charms]
            entry["note"] = f"It can modify: {', '.join(charmed) or 'no rune of this set'}."
        out.append(entry)
    return out


def points(obs: dict[str, Any]) -> list[int]:
    """What each player ends with: HP (the winners are those left standing, or with most HP at the turn limit)."""
    return list(obs["hp"])
