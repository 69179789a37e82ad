"""Card text for players, the same for every game and every front end.

A game's `text` module may give (core/spec.py, `OPTIONAL`, found through the registry) `card_catalog(game) -> [{name, kind, text, copies, when?, note?}]`: every
card of that game's (possibly custom) set, its text generated from the card data; `when` says when a
card of its kind can be played, `note` adds a fact about this card (what a modifier can modify). The terminal's `info`,
`cardtable rules` and the browser's card detail all read this one catalogue. The player's guide is
the game package's `guide.md` (setup, a turn, how to win) followed by the catalogue.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

from ..core.game import Game
from .text import text_part


def catalog(game: Game[Any]) -> list[dict[str, Any]]:
    """Every card of the game with its text; empty for a game whose text module has none."""
    cards = text_part(game, "card_catalog")
    return [] if cards is None else list(cards(game))


def legend(game: Game[Any]) -> list[dict[str, Any]]:
    """Every symbol a game draws on its cards, each with its name (its text module's
    `pictogram_legend(game)`); empty for a game without pictograms."""
    symbols = text_part(game, "pictogram_legend")
    return [] if symbols is None else list(symbols(game))


def find(cards: list[dict[str, Any]], words: str) -> dict[str, Any] | None:
    """The card that `words` names ("Boost", "play red 7", "take merchant"): the longest card name
    found in it as whole words, case-insensitive."""
    padded = f" {' '.join(words.lower().split())} "
    best = None
    for c in cards:
        if f" {c['name'].lower()} " in padded and (best is None or len(c["name"]) > len(best["name"])):
            best = c
    return best


def describe(card: dict[str, Any]) -> str:
    """One paragraph: name, kind and copies, text, and when it can be played."""
    copies = f", {card['copies']} in the deck" if card.get("copies") else ""
    extra = "".join(f" {card[k]}" for k in ("when", "note") if card.get(k))
    return f"{card['name']} ({card['kind']}{copies}): {card['text']}{extra}"


def card_list(cards: list[dict[str, Any]]) -> str:
    """Markdown: the cards grouped by kind; cards with the same text (a JUNO number in four colors) share a line."""
    out: list[str] = []
    kinds = list(dict.fromkeys(c["kind"] for c in cards))
    for kind in kinds:
        of_kind = [c for c in cards if c["kind"] == kind]
        out.append(f"\n### {kind.capitalize()} cards\n")
        whens = {c.get("when") for c in of_kind}
        if len(whens) == 1 and None not in whens:
            out.append(f"*{whens.pop()}*\n")
        groups: dict[str, list[dict[str, Any]]] = {}
        for c in of_kind:
            groups.setdefault(c["text"] + c.get("note", ""), []).append(c)
        for group in groups.values():
            names = ", ".join(f"**{c['name']}** (×{c['copies']})" for c in group)
            note = f" *{group[0]['note']}*" if group[0].get("note") else ""
            out.append(f"- {names}: {group[0]['text']}{note}")
    return "\n".join(out)


def guide(game: Game[Any]) -> str:
    """The player's guide as Markdown: how to play, then every card of this game's set."""
    spec = game.spec
    text = _how_to_play(type(game).__module__.rsplit(".", 1)[0]) or f"# {spec.title}\n\n{spec.summary}\n"
    cards = catalog(game)
    if cards:
        text = text.rstrip() + f"\n\n## Every card ({sum(c.get('copies', 1) for c in cards)} in the deck)\n" + card_list(cards) + "\n"
    return text


@functools.cache
def _how_to_play(package: str) -> str | None:
    """The `guide.md` of a game's package (read once: it ships with the package)."""
    page = resources.files(package) / "guide.md"
    return page.read_text() if page.is_file() else None
