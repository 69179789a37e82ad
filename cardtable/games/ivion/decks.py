"""Deck building, exactly as the rulebook says (sections "Herocrafting" and "Make Your Own Hero").

`build(hero, library)` turns a hero table (cards.py, `HeroData`) into a `Deck` — its 45 cards, its
three feats (the ultimate first) and its relic pile — or refuses it with a `DeckError` naming the
rule it breaks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ...core.cards import read_card_file, validate
from ...core.errors import CardFileError
from .cards import HeroData, Library

DECK_SIZE = 45
CLASS_CARDS = 30
SPEC_CARDS = 15


class DeckError(CardFileError):
    """A deck the rules refuse; the message names the rule."""


@dataclass(frozen=True)
class Deck:
    hero: str
    cards: tuple[str, ...]        # the 45-card deck
    feats: tuple[str, ...]        # ultimate, trait, trait
    relics: tuple[str, ...]       # the relic pile, if the deck can gain relics
    hp: int                       # starting and maximum HP (from the ultimate)

    def to_toml(self, hero: HeroData) -> str:
        """The hero table that builds this deck (what `cardtable deck ivion --save` writes)."""
        def q(s: str) -> str:
            return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
        lines = ["[[hero]]", f"name = {q(hero.name)}", f"mode = {q(hero.mode)}",
                 f"classes = [{', '.join(q(c) for c in hero.classes)}]", f"specialization = {q(hero.specialization)}",
                 f"traits = [{', '.join(q(t) for t in hero.traits)}]"]
        if hero.ultimate:
            lines.append(f"ultimate = {q(hero.ultimate)}")
        if hero.mode == "custom":
            lines.append("[hero.cards]")
            lines += [f"{q(n)} = {k}" for n, k in sorted(Counter(self.cards).items())]
        return "\n".join(lines) + "\n"


def _refuse(hero: HeroData, rule: str, why: str) -> DeckError:
    return DeckError(f"hero {hero.name!r}: {why} (rule: {rule})")


def build(hero: HeroData, lib: Library) -> Deck:
    for c in hero.classes:
        if c not in lib.classes:
            why = (f"{c!r} is a specialization, not a class" if c in lib.specializations
                   else f"{c!r} is no class (classes: {', '.join(lib.classes)})")
            raise _refuse(hero, "a hero's classes are classes", why)
    if hero.specialization not in lib.specializations:
        raise _refuse(hero, "one specialization", f"{hero.specialization!r} is no specialization "
                      f"(specializations: {', '.join(lib.specializations)})")
    class_colours = [lib.classes[c] for c in hero.classes]
    spec_colours = lib.specializations[hero.specialization]
    if not set(spec_colours) & set(class_colours):
        step = "Herocrafting step 2" if hero.mode == "herocrafting" else "Make Your Own Hero step 2"
        raise _refuse(hero, f"{step}: the specialization must share a colour with at least one of your classes",
                      f"{hero.specialization} is {'/'.join(spec_colours)}, your classes are "
                      f"{', '.join(class_colours)}")
    ultimate = lib.ultimate_of(hero.specialization)
    assert ultimate is not None  # Library.check_marked
    if hero.ultimate and hero.ultimate != ultimate.name:
        raise _refuse(hero, "the ultimate comes from your specialization",
                      f"{hero.ultimate!r} is not {hero.specialization}'s ultimate ({ultimate.name})")
    if len(hero.traits) != 2 or len(set(hero.traits)) != 2:
        raise _refuse(hero, "two traits", f"a hero has two different traits (got {hero.traits})")
    for t in hero.traits:
        card = lib.cards.get(t)
        if card is None or card.feat != "trait":
            raise _refuse(hero, "two traits", f"{t!r} is not a trait")
    if hero.mode == "herocrafting":
        cards = _herocraft(hero, lib, class_colours)
    else:
        cards = _custom(hero, lib, [*class_colours, *spec_colours])
    feats = (ultimate.name, *hero.traits)
    # "if your deck can gain relics": a relic in an effect, an unleash or an ability
    uses_relics = any(e.verb == "relic" for n in (*cards, *feats) for e in lib.cards[n].every_effect())
    relics = tuple(c.name for c in lib.relics()) if uses_relics else ()
    return Deck(hero.name, tuple(cards), feats, relics, ultimate.hp)


def _herocraft(hero: HeroData, lib: Library, class_colours: list[str]) -> list[str]:
    if len(hero.classes) != 2:
        raise _refuse(hero, "Herocrafting step 1: choose two classes (the same class twice takes two copies of its "
                      "marked cards)", f"{len(hero.classes)} class given")
    if hero.cards:
        raise _refuse(hero, "Herocrafting step 3: the deck is the 45 Herocrafting-marked cards of your archetypes",
                      "a Herocrafted hero lists no cards (use mode = \"custom\" to choose them)")
    for t in hero.traits:
        card = lib.cards[t]
        # Herocrafting step 3: "Based on the color of your two class choices, you'll find
        # Herocrafting-marked trait cards for each."
        if not card.marked:
            raise _refuse(hero, "Herocrafting step 3: the traits are Herocrafting-marked traits of your classes' colours",
                          f"{t!r} bears no Herocrafting icon")
        if not set(card.pips) <= set(class_colours):
            raise _refuse(hero, "Herocrafting step 3: the traits are Herocrafting-marked traits of your classes' colours",
                          f"{t!r} is {'/'.join(card.pips)}, your classes are {', '.join(class_colours)}")
    cards: list[str] = []
    for archetype in (*hero.classes, hero.specialization):  # the same class twice: its marked cards twice
        for c in lib.archetype_cards(archetype):
            cards += [c.name] * c.marked
    return cards


def _custom(hero: HeroData, lib: Library, archetype_colours: list[str]) -> list[str]:
    if not 1 <= len(hero.classes) <= 2 or len(set(hero.classes)) != len(hero.classes):
        # "One or two classes": only Herocrafting takes the same class twice
        twice = [c for c in dict.fromkeys(hero.classes) if hero.classes.count(c) > 1]
        raise _refuse(hero, "Make Your Own Hero: one or two different classes (30 class cards in all)",
                      f"{twice[0]!r} is listed twice" if twice else f"{len(hero.classes)} classes given")
    for t in hero.traits:
        need = Counter(lib.cards[t].pips)
        have = Counter(archetype_colours)
        short = [c for c, k in need.items() if have[c] < k]
        if short:
            raise _refuse(hero, "Make Your Own Hero step 3: for each pip of a trait, one of your archetypes is that "
                          "colour (two pips of a colour: two archetypes)",
                          f"{t!r} needs {', '.join(f'{need[c]} {c}' for c in short)}; your archetypes give "
                          f"{', '.join(f'{k} {c}' for c, k in sorted(have.items()))}")
    classes = set(hero.classes)
    class_n = spec_n = 0
    for name, n in hero.cards.items():
        card = lib.cards.get(name)
        if card is None:
            raise _refuse(hero, "Make Your Own Hero step 4: cards from your classes and specialization",
                          f"no card named {name!r}")
        if card.feat or card.relic:
            raise _refuse(hero, "Make Your Own Hero: feats are not in the 45-card deck",
                          f"{name!r} is a {card.feat or 'relic'}")
        if card.archetype in classes:
            class_n += n
        elif card.archetype == hero.specialization:
            spec_n += n
        else:
            raise _refuse(hero, "Make Your Own Hero step 4: cards from your classes and specialization",
                          f"{name!r} is a {card.archetype} card")
        # our collection is one box: a card's copies in its archetype's pool are all there are
        if n < 1 or n > card.copies:
            raise _refuse(hero, "Make Your Own Hero step 4: cards from your collection",
                          f"{n} copies of {name!r}; the collection has {card.copies}")
    if class_n != CLASS_CARDS:
        raise _refuse(hero, "Make Your Own Hero step 1: one or two classes give 30 class cards", f"{class_n} class cards")
    if spec_n != SPEC_CARDS:
        raise _refuse(hero, "Make Your Own Hero step 4: 15 specialization cards", f"{spec_n} specialization cards")
    return [name for name, n in hero.cards.items() for _ in range(n)]


def hero_from(value: Any, lib: Library, source: str = "hero") -> HeroData:
    """A hero from a starter's name, a hero table, or a file with one `[[hero]]` table."""
    if isinstance(value, str):
        if value in lib.heroes:
            return lib.heroes[value]
        if value.endswith((".toml", ".json")):
            raw = read_card_file(value, "hero file")
            heroes = raw.get("hero") if isinstance(raw, dict) else None
            if not isinstance(heroes, list) or len(heroes) != 1 or not isinstance(heroes[0], dict):
                raise CardFileError(f"hero file {value}: field 'hero': exactly one [[hero]] table")
            return validate(heroes[0], HeroData, f"hero file {value}: hero {heroes[0].get('name', '?')!r}")
        raise CardFileError(f"{source}: no starter hero {value!r} (starters: {', '.join(lib.heroes)}; or a .toml file)")
    return validate(value, HeroData, f"{source} {value.get('name', '?') if isinstance(value, dict) else ''!r}")


# -- the lobby's deck builder (GET/POST /api/games/ivion/decks) ------------------------------------

def builder_info(lib: Library | None = None) -> dict[str, Any]:
    """What a deck builder offers: the classes and specializations with their colours, the traits
    with their pips (marked: a Herocrafting trait), the starters. Only the base content: over the
    web, a deck is built from the content everyone has."""
    lib = lib or _base()
    ultimates = {c.archetype: c.name for c in lib.cards.values() if c.feat == "ultimate"}
    d = lib.descriptions
    return {
        "classes": [{"name": n, "colour": c, "description": d.get(n, "")} for n, c in lib.classes.items()],
        "specializations": [{"name": n, "colours": list(c), "ultimate": ultimates.get(n, ""), "description": d.get(n, ""),
                             "ultimate_description": lib.cards[ultimates[n]].description if n in ultimates else ""}
                            for n, c in lib.specializations.items()],
        "traits": [{"name": t.name, "pips": list(t.pips), "marked": bool(t.marked), "description": t.description}
                   for t in lib.traits()],
        "starters": list(lib.heroes),
        "starter_descriptions": {h.name: h.description for h in lib.heroes.values()},
        "modes": ["herocrafting"],
    }


def check_deck(table: Any, lib: Library | None = None) -> dict[str, Any]:
    """Build a hero table the way a table would: its deck (45 cards by name and count, feats, HP)
    or the rule it breaks. Only tables: a name of a file is refused (the server never reads one)."""
    lib = lib or _base()
    if not isinstance(table, dict):
        return {"ok": False, "rule": "send a hero table: name, mode, classes, specialization, traits"}
    try:
        deck = build(hero_from(table, lib, "hero"), lib)
    except CardFileError as exc:
        return {"ok": False, "rule": str(exc)}
    counts = Counter(deck.cards)
    return {"ok": True, "hero": deck.hero, "hp": deck.hp, "feats": list(deck.feats), "size": len(deck.cards),
            "cards": [{"name": n, "count": k, "archetype": lib.cards[n].archetype} for n, k in sorted(counts.items())],
            "relics": len(deck.relics)}


def _base() -> Library:
    from .cards import library

    return library([])
