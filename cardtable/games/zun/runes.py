"""Rune data: the typed schema, validation on load, and card text generated from the data.

The base set lives in `runes.toml`; users load their own file with
`cardtable.make("zun", runes="my_runes.toml")` (TOML or JSON with a `rune` list). Files are read by
the core's card-file loader and checked against `RuneList` (each rune a `Rune`); every error names
the file, the rune and the field, and says what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import ConfigDict, ValidationInfo, field_validator, model_validator

from ...core.cards import CardSchema, card_list, read_card_file, validate
from ...core.errors import CardFileError
from ...core.verbs import Effect, Kind
from .verbs import MODIFIER, VERBS, Wording

BASE_FILE = Path(__file__).with_name("runes.toml")
KINDS = ("action", "reaction", "modifier")
KEYWORDS = ("forced", "ongoing", "immune")
TARGETS = {"action": ("one", "all_players"), "reaction": ("action", "actor"), "modifier": ()}
EFFECT_LISTS = ("effects", "while_in_play", "at_start_of_next_turn")
FIELDS = {"name", "kind", "copies", "target", "charms", "keywords", "modifier", *EFFECT_LISTS}
MAX_COPIES = 60


class Rune(CardSchema):
    """One rune: a `[[rune]]` table of a rune file (its `at_start_of_next_turn` is `at_start`), and
    its place in the set (`index`). Its name is checked by the set (`RuneList`), where it must be unique.
    Its effects are the core's typed `Effect`s of Zun's verbs (verbs.py)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    index: int
    name: str
    kind: Literal["action", "reaction", "modifier"]
    copies: int
    target: str                     # "" for a modifier
    charms: tuple[str, ...]
    keywords: tuple[str, ...]
    effects: tuple[Effect, ...]
    while_in_play: tuple[Effect, ...]
    at_start: tuple[Effect, ...]
    modifier: Effect | None         # a modifier's verb (verbs.py, slot "modifier"); None unless a modifier

    @model_validator(mode="before")
    @classmethod
    def _read(cls, r: Mapping[str, Any], info: ValidationInfo) -> dict[str, Any]:
        """The table's fields, each checked in turn (the first wrong one is reported)."""
        unknown = sorted(set(r) - FIELDS)
        if unknown:
            raise ValueError(f"unknown field {unknown[0]!r} (allowed: {', '.join(sorted(FIELDS))})")
        kind = r.get("kind")
        if kind not in KINDS:
            raise ValueError(f"field 'kind' must be one of {', '.join(KINDS)} (got {kind!r})")
        copies = r.get("copies", 1)
        if not isinstance(copies, int) or isinstance(copies, bool) or not 0 <= copies <= MAX_COPIES:
            raise ValueError(f"field 'copies' must be a whole number from 0 to {MAX_COPIES} (got {copies!r})")
        keywords = _strings(r.get("keywords", []), "keywords", KEYWORDS)
        charms = _strings(r.get("charms", []), "charms", None)
        rune: dict[str, Any] = {
            "index": (info.context or {}).get("index", 0), "name": r.get("name"), "kind": kind, "copies": copies,
            "target": "", "charms": (), "keywords": (), "effects": (), "while_in_play": (), "at_start": (),
            "modifier": None,
        }
        if kind == "modifier":
            modifier = r.get("modifier")
            verbs = [v for v in VERBS.names() if VERBS.verb(v).slots == MODIFIER]
            if modifier not in verbs:
                raise ValueError(f"field 'modifier' must be one of {', '.join(verbs)} (got {modifier!r})")
            extra = [f for f in ("target", "charms", "keywords", *EFFECT_LISTS) if f in r]
            if extra:
                raise ValueError(f"field {extra[0]!r} is not used on a modifier (only 'modifier' and 'copies')")
            return {**rune, "modifier": VERBS.parse({"verb": modifier}, "its modifier", "modifier")}
        if "modifier" in r:
            raise ValueError("field 'modifier' is only for modifier runes")
        target = r.get("target")
        if target not in TARGETS[kind]:
            raise ValueError(f"field 'target' of a {kind} must be one of {', '.join(TARGETS[kind])} (got {target!r})")
        effects, while_in_play, at_start = (_effects(r.get(f, []), f) for f in EFFECT_LISTS)
        return {**rune, "target": target, "charms": charms, "keywords": keywords, "effects": effects,
                "while_in_play": while_in_play, "at_start": at_start}

    @model_validator(mode="after")
    def _rules(self) -> Rune:
        """What a rune's fields must say together (modifiers have none of them)."""
        if self.kind == "modifier":
            return self
        if self.kind == "reaction":
            if self.ongoing:
                raise ValueError("field 'keywords': a reaction cannot be (ongoing)")
            answers = [e for e in self.effects if VERBS.verb(e.verb).kind is Kind.ANSWER]
            if self.target == "action" and (len(self.effects) != 1 or len(answers) != 1):
                raise ValueError(
                    "field 'effects': a reaction with target 'action' has exactly one of cancel, absorb, redirect"
                )
            if self.target == "actor" and answers:
                raise ValueError(f"field 'effects': verb {answers[0].verb!r} answers an Action: it needs target 'action'")
        elif any(VERBS.verb(e.verb).kind is Kind.ANSWER for e in self.effects):
            raise ValueError("field 'effects': cancel, absorb and redirect are for Reactions (they answer an Action)")
        if (self.while_in_play or self.at_start) and not self.ongoing:
            raise ValueError("fields 'while_in_play' and 'at_start_of_next_turn' need the (ongoing) keyword")
        if self.ongoing and not (self.while_in_play or self.at_start):
            raise ValueError("an (ongoing) rune needs 'while_in_play' or 'at_start_of_next_turn'")
        if not (self.effects or self.while_in_play or self.at_start):
            raise ValueError("field 'effects': the rune does nothing")
        if self.kind == "action" and self.all_players and self.ongoing:
            raise ValueError("an All Players rune cannot be (ongoing) (it affects no target to stay on)")
        return self

    @cached_property
    def forced(self) -> bool:
        return "forced" in self.keywords

    @cached_property
    def ongoing(self) -> bool:
        return "ongoing" in self.keywords

    @cached_property
    def immune(self) -> bool:
        return "immune" in self.keywords

    @cached_property
    def all_players(self) -> bool:
        return self.target == "all_players"

    @cached_property
    def revives(self) -> bool:
        """May target a Defeated player (its text says it brings them back)."""
        return any(getattr(e.params, "revive", False) for e in self.effects)

    @cached_property
    def mimics(self) -> bool:
        """Mimic: played, it takes the effects of the last other Action played this turn."""
        return VERBS.holds(self.effects, "mimic")

    def holds(self, status: str) -> bool:
        """A status (`ward`, `expose`) this (ongoing) rune gives the players it affects."""
        return VERBS.holds(self.while_in_play, status)

    @cached_property
    def answer_verb(self) -> str:
        """What a Reaction answering an Action does to it (`cancel`, `absorb`, `redirect`), or ''."""
        return next((e.verb for e in self.effects if VERBS.verb(e.verb).kind is Kind.ANSWER), "")

    def text(self) -> str:
        """The card text, generated from the data."""
        if self.modifier is not None:
            return VERBS.text(self.modifier)
        parts: list[str] = []
        if self.all_players:
            parts.append("All Players:")
        elif self.kind == "reaction" and self.target == "actor":
            parts.append("Target: the Action's player.")
        wording = Wording(self.all_players)
        parts += [VERBS.text(e, wording) for e in self.effects]
        if self.while_in_play:
            parts.append("While in play: " + " ".join(VERBS.text(e) for e in self.while_in_play))
        if self.at_start:
            parts.append("At the start of target's next turn: " + " ".join(VERBS.text(e) for e in self.at_start))
        if self.ongoing:
            parts.append("Discarded at the start of the affected player's next turn.")
        keys = " ".join(f"({k})" for k in self.keywords)
        charms = f" Charms: {', '.join(self.charms)}." if self.charms else ""
        return (f"{keys} " if keys else "") + " ".join(parts) + charms


@dataclass(frozen=True)
class RuneSet:
    source: str
    runes: tuple[Rune, ...]

    def by_name(self, name: str) -> Rune:
        for r in self.runes:
            if r.name.lower() == name.lower():
                return r
        raise KeyError(name)

    def counts(self) -> list[int]:
        return [r.copies for r in self.runes]

    def key(self) -> str:
        return "|".join(f"{r.kind[0]}:{r.name}" for r in self.runes)


class RuneList(CardSchema):
    """The runes of a rune file (its `rune` list) or of the `runes` option: names unique, charms
    that are modifiers of the set, at least one Action in the deck."""

    rune: tuple[Rune, ...]

    @field_validator("rune", mode="before")
    @classmethod
    def _runes(cls, raw: Any) -> tuple[Rune, ...]:
        return card_list(raw, Rune, "rune")

    @model_validator(mode="after")
    def _charms(self) -> RuneList:
        modifiers = {r.name: r for r in self.rune if r.kind == "modifier"}
        for r in self.rune:
            _check_charms(r, modifiers)
        if not any(r.kind == "action" and r.copies for r in self.rune):
            raise ValueError("the deck needs at least one Action rune with copies > 0")
        return self


def read_file(path: str | Path) -> list[dict[str, Any]]:
    """Read a rune file (TOML or JSON) into its list of rune tables, validated."""
    p = Path(path)
    raw = read_card_file(p, "rune file")
    if not isinstance(raw, Mapping) or not isinstance(raw.get("rune"), list):
        raise CardFileError(f"rune file {p}: expected a list of runes under 'rune' ([[rune]] tables in TOML)")
    runes = [dict(r) if isinstance(r, Mapping) else r for r in raw["rune"]]
    build(runes, f"rune file {p}")  # validate now, so the error names the file
    return runes


def build(raw: list[Any], source: str = "runes") -> RuneSet:
    """Validate rune tables and build the rune set."""
    return RuneSet(source, validate({"rune": raw}, RuneList, source).rune)


def _strings(value: Any, field: str, allowed: tuple[str, ...] | None) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"field {field!r} must be a list of names")
    if allowed is not None:
        for v in value:
            if v not in allowed:
                raise ValueError(f"field {field!r}: {v!r} is not one of {', '.join(allowed)}")
    return tuple(value)


def _effects(value: Any, field: str) -> tuple[Effect, ...]:
    """A list of effects, each parsed by its verb in the registry (verbs.py)."""
    if not isinstance(value, list):
        raise ValueError(f"field {field!r} must be a list of {{verb = ..., ...}} tables")
    try:
        return tuple(VERBS.parse(e, f"field {field!r}", slot=field) for e in value)
    except CardFileError as exc:
        raise ValueError(str(exc)) from None


def _check_charms(r: Rune, modifiers: dict[str, Rune]) -> None:
    where = f"rune {r.name!r}: field 'charms'"
    for c in r.charms:
        m = modifiers.get(c)
        if m is None:
            raise ValueError(f"{where}: {c!r} is not a modifier rune of this set (modifiers: {', '.join(modifiers)})")
        assert m.modifier is not None
        verb = m.modifier.verb
        if verb == "share" and not (r.kind == "action" and r.target == "one"):
            raise ValueError(f"{where}: {c!r} (share) needs an Action that targets a player")
        if verb == "blame" and r.kind != "action":
            raise ValueError(f"{where}: {c!r} (blame) only modifies an Action")
        if verb == "boost" and not any(getattr(e.params, "per_boost", 0) for e in (*r.effects, *r.at_start)):
            raise ValueError(f"{where}: {c!r} (boost) needs an effect with per_boost above 0")
        if verb == "reserve" and r.ongoing:
            raise ValueError(f"{where}: {c!r} (reserve) cannot modify an (ongoing) rune (it must stay in play)")


_BASE: RuneSet | None = None


def base_set() -> RuneSet:
    global _BASE
    if _BASE is None:
        _BASE = build(read_file(BASE_FILE), f"rune file {BASE_FILE.name}")
    return _BASE
