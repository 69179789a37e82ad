"""An Ivion card as the rules read it: its data, checked and parsed once when its content is read
(cards.py builds it), and what follows from that data, worked out once per card here (its cost,
the power it grants, its statuses), since the rules ask these of every card in hand at every
decision.

Compiled (cardtable/_native.py): the rules read a card's fields at every decision, and a compiled
class's fields are read in place where an interpreted dataclass's go through its `__dict__`. The
content files' schemas (pydantic models) stay interpreted in cards.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.verbs import Effect
from .verbs import VERBS


@dataclass(frozen=True)
class Ability:
    """What a card does while attached or in the feat zone: a status, or a trigger on `when`."""

    when: str          # "" for a status
    #: a status: its one verb; a trigger: what it does, top to bottom (one firing: the loop rule
    #: lets a card's abilities fire once per effect sequence, so two triggers of one moment could not)
    effects: tuple[Effect, ...]

    @property
    def effect(self) -> Effect:
        return self.effects[0]


@dataclass(frozen=True)
class Card:
    name: str
    archetype: str
    copies: int
    marked: int
    feat: str
    relic: bool
    hp: int
    pips: tuple[str, ...]
    passive: bool
    actions: int
    power: int
    range: int | None
    banner: tuple[str, ...]
    heroic: bool
    instant: bool
    cantrip: bool
    attach: bool
    target: str
    effects: tuple[Effect, ...]
    unleash: tuple[Effect, ...]
    abilities: tuple[Ability, ...]
    description: str = ""
    #: how many targets of its kind it takes
    targets: int = 1
    #: the effects the player chooses between when playing it (none: nothing to choose)
    modes: tuple[tuple[Effect, ...], ...] = ()

    # -- what follows from the data, worked out once (`__post_init__`; `dataclasses.replace` too) --
    #: what playing it spends: its actions, and its power when the value is "-N" (read only)
    cost: dict[str, int] = field(init=False, repr=False, compare=False)
    #: power gained when it resolves ("+N")
    grants: int = field(init=False, repr=False, compare=False)
    #: the statuses it holds while attached or in the feat zone (its abilities without a `when`)
    statuses: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: its first `travel` effect, if any: a tile it targets must be one the traveller may enter
    travel: Effect | None = field(init=False, repr=False, compare=False)
    #: whether it copies a card (it needs a free copy slot to have a target)
    copies_card: bool = field(init=False, repr=False, compare=False)
    #: the damage its effects deal to others (each `damage` effect not aimed at its own player),
    #: hit by hit: of its effects, of its unleash, of each effect it asks to choose
    hits: tuple[int, ...] = field(init=False, repr=False, compare=False)
    unleash_hits: tuple[int, ...] = field(init=False, repr=False, compare=False)
    mode_hits: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # a frozen dataclass sets its own fields through object.__setattr__
        object.__setattr__(self, "cost", {"actions": self.actions, "power": max(0, -self.power)})
        object.__setattr__(self, "grants", max(0, self.power))
        object.__setattr__(self, "statuses", tuple(a.effect.verb for a in self.abilities if not a.when))
        object.__setattr__(self, "travel", next((e for e in self.effects if e.verb == "travel"), None))
        object.__setattr__(self, "copies_card", any(e.verb == "copy" for e in self.effects))
        object.__setattr__(self, "hits", _hits(self.effects))
        object.__setattr__(self, "unleash_hits", _hits(self.unleash))
        object.__setattr__(self, "mode_hits", tuple(_hits(m) for m in self.modes))

    def may_unleash(self, power: int, free: bool) -> bool:
        """Glossary "Unleash": only if one or more extra power is available. A card played free
        (cantrip) costs no power, so any power is extra: "play it for free, and choose to Unleash with
        all of your remaining power" (the publisher on a free play, playivion.com, Invoker mechanics)."""
        return bool(self.unleash) and power > (0 if free else self.cost["power"])

    def every_effect(self) -> tuple[Effect, ...]:
        """All the card can ever do: its effects, its modes, its unleash and its abilities' effects."""
        return (*self.effects, *(e for m in self.modes for e in m), *self.unleash, *(e for a in self.abilities for e in a.effects))

    def resolved_effects(self, mode: int, unleashed: bool) -> tuple[Effect, ...]:
        """What it does when it resolves, top to bottom: its effects, the chosen mode, its unleash."""
        return (*self.effects, *(self.modes[mode] if self.modes else ()), *(self.unleash if unleashed else ()))

    def mode_text(self, mode: int, wording: Any = None) -> str:
        """One of the effects to choose between: as a sentence on the card, or (wording QUESTION)
        as words inside a question ("the target receives 2 slow and deal 1 damage to the target")."""
        if wording is not None:
            return " and ".join(VERBS.text(e, wording) for e in self.modes[mode])
        return " ".join(VERBS.text(e) + "." for e in self.modes[mode])

    def header(self) -> str:
        if self.passive:
            kind = "Ultimate" if self.feat == "ultimate" else "Trait"
            return f"{kind} (passive)" + (f" · {' '.join(self.pips)} pips" if self.pips else "")
        bits = [f"{self.actions} action{'s' if self.actions != 1 else ''}"]
        if self.power:
            bits.append(f"{'+' if self.power > 0 else '−'}{abs(self.power)} power")
        if self.range is not None:
            bits.append(f"range {self.range}")
        bits.append("heroic" if self.heroic else f"banner: {', '.join(self.banner) or 'none'}")
        for flag in ("instant", "cantrip", "attach"):
            if getattr(self, flag):
                bits.append(flag)
        if self.feat:
            bits.append(self.feat + (f" ({self.hp} HP)" if self.hp else "") + (f" · {' '.join(self.pips)} pips" if self.pips else ""))
        if self.relic:
            bits.append("relic")
        return " · ".join(bits)

    def text(self) -> str:
        """The card's rules text, generated from its data."""
        if self.targets > 1:
            kinds = {"tile": "tiles", "empty_tile": "empty tiles", "attached": "attached cards"}[self.target]
            target = f"Targets: {NUMBERS[self.targets]} different {kinds} (each effect acts on each target)."
        else:
            target = {
                "none": "", "self": "Target: yourself.", "enemy": "Target: an enemy.", "tile": "Target: a tile.",
                "empty_tile": "Target: an empty tile.", "attached": "Target: an attached card.",
                "stack": "Target: an unresolved card.",
            }[self.target]
        lines = [target] if target else []
        if self.attach:
            lines.append("Attach it to the target." if self.target != "none" else
                         "Attach it in front of you (it has no tile: it is in your hero's tile).")
        lines += [VERBS.text(e) + "." for e in self.effects]
        if self.modes:
            lines.append("Choose one: " + " Or: ".join(self.mode_text(i) for i in range(len(self.modes))))
        if self.unleash:
            lines.append("Unleash: " + " ".join(VERBS.text(e) + "." for e in self.unleash))
        for a in self.abilities:
            when = {"": "", "host_turn_start": "At the start of its host's turn: ",
                    "your_turn_start": "At the start of your turn: ",
                    "enemy_enters": "When an enemy enters this tile: "}[a.when]
            lines.append(when + " ".join(VERBS.text(e) + "." for e in a.effects))
        return " ".join(lines)


def _hits(effects: tuple[Effect, ...]) -> tuple[int, ...]:
    """The amounts of the `damage` effects among `effects` that are not aimed at their own player."""
    out: list[int] = []
    for e in effects:
        p: Any = e.params
        if e.verb == "damage" and p.to != "self":
            out.append(p.amount)
    return tuple(out)


NUMBERS = {2: "two", 3: "three"}
#: the place of a target among a card's targets, as its question says it ("the second target")
ORDINALS = ("first", "second", "third")
