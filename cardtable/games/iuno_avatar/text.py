"""Iuno Avatar in the terminal: your Heaven (yours only), every Earth with the gems on each figure,
the shared Hell, the dice and gems of each player, the middle and the purse; each card with the
text generated from its data; an effect that offers itself asks "also do ...?" or "instead do ...?".
Everything shown comes from one seat's observation."""

from __future__ import annotations

import itertools
import types
import typing
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...core.errors import CardFileError
from ...ui.names import player, prompt
from .language import ELEMENTS, VERBS, pictograms


def _who(s: int, viewer: int | None) -> str:
    return "you" if s == viewer else f"seat {s}"


def _whose(s: int, viewer: int | None) -> str:
    """A seat's, for the line the viewer reads: "your" for the viewer, "seat N's" for the others."""
    return "your" if s == viewer else f"seat {s}'s"


def _gems(n: int) -> str:
    return f"{n} gem" if n == 1 else f"{n} gems"


def _gem_slots(on: int, level: int) -> str:
    """The gems on a figure out of its level: "◆◇◇ 1/3" ("Figure cards can be leveled up with at
    most as many gems as their level"); active with one."""
    return f"{'◆' * on}{'◇' * (level - on)} {on}/{level}"


def render(obs: dict[str, Any], game: Any = None) -> RenderableType:
    seat = obs["seat"]
    texts = obs.get("card_texts", {})
    facts = _facts(obs)
    head = Text(f"Iuno Avatar — turn {obs['turns']} (limit {obs['turn_limit']}) — middle: {obs['middle']} dice, "
                f"purse: {obs['purse']} gems, stack: {obs['stack']} cards")
    table = Table(title="Players (turn order)", expand=False)
    for col in ("player", "avatar", "Heaven", "dice", "gems", "figures on Earth"):
        table.add_column(col)
    for s in obs["order"]:
        p = obs["seats"][s]
        name = player(s, seat) + (" ◀" if s == obs["turn"] else "")
        figures = sum(1 for f in p["earth"] if f["type"] == "figure")
        table.add_row(f"[bold]{name}[/]" if s == seat else name, p["avatar"].title(), f"{p['heaven_size']} cards",
                      str(p["dice"]), str(p["gems"]), str(figures))
    parts: list[RenderableType] = [head, table]
    parts.append(Text("Hell (face up, top last): " + (", ".join(obs["hell"]) or "(empty)")))
    if obs["announced"]:
        parts.append(Text("Being played: " + ", ".join(obs["announced"]), style="cyan"))
    if seat is not None and "heaven" in obs:
        mine = Table(title="Your Heaven", expand=False)
        for col in ("card", "type", "element", "cost", "level", "text"):
            mine.add_column(col)
        for name in obs["heaven"]:
            f = facts(name)
            mine.add_row(name, f["type"], f["element"], f["cost"], f["level"], texts.get(name, ""))
        parts.append(mine)
    on_earth = [(s, f) for s in obs["order"] for f in obs["seats"][s]["earth"]]
    if on_earth:
        lines = Table(title="Earth", expand=False)
        for col in ("player", "card", "element", "cost", "level", "gems on it", "text"):
            lines.add_column(col)
        for s, f in on_earth:
            c = facts(f["name"])
            gems = _gem_slots(f["gems"], f["level"]) + (" active" if f["gems"] else " inactive") if f["type"] == "figure" else "-"
            lines.add_row(player(s, seat), f["name"], c["element"], c["cost"], c["level"], gems, texts.get(f["name"], ""))
        parts.append(lines)
    d = obs["decision"]
    if d is not None:
        parts.append(Text(prompt(d["seat"], seat, d["text"]), style="italic"))
    if obs["is_over"]:
        parts.append(Text(f"Game over. Winners: {', '.join(player(w, seat) for w in obs['winners'])}", style="bold"))
    return Panel(Group(*parts), expand=False)


def _facts(obs: dict[str, Any]) -> Any:
    """A card's element, cost and level as the terminal shows them, from the observation's public
    `card_facts` (every card shown to this seat)."""
    known = obs.get("card_facts", {})

    def facts(name: str) -> dict[str, str]:
        c = known.get(name, {})
        cost = " ".join(e.title() for e in c.get("cost", [])) or "-"
        return {"type": c.get("type", ""), "element": str(c.get("element", "")).title(), "cost": cost,
                "level": str(c["level"]) if c.get("level") else "-"}

    return facts


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
    """Every card of the deck with its text and pictograms generated from its data (each pictogram
    with the name it says on hover and on tap)."""
    out = []
    for c in game.cards:
        entry: dict[str, Any] = {"name": c.name, "kind": c.type, "text": c.text(), "copies": 1,
                                 "pictograms": [named(p) for p in c.pictograms()], "element": c.element,
                                 "cost": [e for e, n in zip(ELEMENTS, c.cost, strict=False) for _ in range(n)],
                                 "level": c.level, "symbols": c.symbols, "effect_kind": c.kind}
        entry["when"] = WHEN[c.type]
        if not c.gem:
            entry["note"] = f"Cost: {c.cost_text()}." + (f" Level {c.level}." if c.figure else "")
        out.append(entry)
    return out


# -- pictograms by name: what each symbol says on hover and tap, and the legend of all of them --------

#: the words for a symbol whose kind alone does not say it (the effect's marker: rulebook "inclusive
#: effects (represented by a circle)", "exclusive effects (represented by a rhombus)")
_MARKERS = {"circle": "inclusive: also do", "rhombus": "exclusive: instead do"}
_OWNERS = {"white": "yours", "black": "an opponent's, of your choice"}


def pictogram_name(p: dict[str, Any]) -> str:
    """A pictogram's name for a person: "take", "Heaven (yours)", "figure card (an opponent's, of
    your choice)", "gem card (Fire)". A kind this module does not know is named by its name."""
    kind, name = str(p.get("kind", "")), str(p.get("name", ""))
    if kind == "marker":
        words = _MARKERS.get(name, name)
    elif kind == "area":
        words = name.title()
    elif kind == "card type" and name != "card":
        words = f"{name} card"
    else:
        words = name
    if p.get("owner") in _OWNERS:
        words += f" ({_OWNERS[p['owner']]})"
    if p.get("element"):  # a gem card's symbols: "gem cards can be used to pay for spell or figure cards"
        words = f"{str(p['element']).title()} symbol (this gem card pays one {str(p['element']).title()})"
    return words


def named(p: dict[str, Any]) -> dict[str, Any]:
    return {**p, "label": pictogram_name(p)}


def _field_values(field: Any) -> list[Any]:
    """The values a verb parameter can take, where they are a closed list (a Literal, or one with
    None); otherwise its default only (a count does not change which symbols are drawn)."""
    ann = field.annotation
    options = typing.get_args(ann) if typing.get_origin(ann) in (typing.Union, types.UnionType) else (ann,)
    out: list[Any] = []
    for option in options:
        if option is type(None):
            out.append(None)
        elif typing.get_origin(option) is typing.Literal:
            out += list(typing.get_args(option))
        else:
            return [] if field.is_required() else [field.default]
    return out


def _every_effect_pictogram() -> list[dict[str, Any]]:
    """The pictograms of every effect the language can write: each verb with every combination of
    its parameters that the language accepts."""
    out: list[dict[str, Any]] = []
    for verb in VERBS.names():
        fields = VERBS.verb(verb).params.model_fields
        values = {k: _field_values(f) for k, f in fields.items()}
        if any(not v for v in values.values()):
            continue
        for combo in itertools.product(*values.values()):
            raw = {"verb": verb, **{k: v for k, v in zip(values, combo, strict=True) if v is not None}}
            try:
                effect = VERBS.parse(raw, "the legend")
            except CardFileError:
                continue  # a combination the language refuses draws nothing
            out += pictograms(effect)
    return out


def pictogram_legend(game: Any) -> list[dict[str, Any]]:
    """Every pictogram, once, with its name, in the order first drawn: those the language can write
    and those on this game's cards (the effect markers, the gem cards' element symbols)."""
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    every = _every_effect_pictogram() + [p for c in game.cards for p in c.pictograms()]
    for p in every:
        key = (p.get("kind"), p.get("name"), p.get("owner"), "element" in p)
        if key not in seen:
            seen[key] = named(p)
            if "element" in p:  # one entry stands for the six elements
                seen[key]["label"] = "element symbol (a gem card pays one symbol of its element)"
    return list(seen.values())
