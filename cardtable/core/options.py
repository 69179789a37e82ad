"""Typed, validated game options (STYLE.md principle 9).

Each game declares a pydantic model; `validate_options` turns pydantic's errors into one
`OptionError` that names the game, the option, what is allowed and what was given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from .errors import CardFileError, OptionError


class GameOptions(BaseModel):
    """Base of every game's options: frozen, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)

    players: int

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


OptionsT = TypeVar("OptionsT", bound=GameOptions)


@dataclass(frozen=True)
class CardTable:
    """One table of a card file whose cards are keyed by name (IUNU's `[afterlife."The Glory of
    Khufu"]`): `schema` is the type of one card's fields (a model, or a union of models told apart
    by one field, as pydantic's TypeAdapter takes it), `noun` how one card is called; `fixed`, when
    given, says why no card of the table is added or taken out (IUNU's nine Citizen types)."""

    schema: Any
    noun: str
    fixed: str = ""


@dataclass(frozen=True, slots=True)
class CardFileOption(BeforeValidator):
    """An option that holds cards (see `card_file`). When its cards are a list of `[[noun]]`
    tables, `noun` names them and `base` is the game's own card file: what the designers' lab
    (cardtable/sim/lab.py) lists, edits and saves; `schema` is the model one card is checked
    against, whose fields give the lab's form its kinds of input. When its cards are instead a
    mapping of tables keyed by name, `tables` declares each (by its key in the file)."""

    noun: str = ""
    base: Path | None = None
    schema: type[BaseModel] | None = None
    tables: tuple[tuple[str, CardTable], ...] = ()


def card_file(read: Callable[[str], Any], check: Callable[[Any], Any], *, noun: str = "", base: Path | None = None,
              schema: type[BaseModel] | None = None, tables: dict[str, CardTable] | None = None) -> CardFileOption:
    """An option that holds cards (a deck, a rune set, card values): given a file path, `read`
    reads and checks the file and the option keeps its cards (so a saved game needs no file);
    given the cards inline, `check` checks them (and may put them in canonical form). A bad card
    file becomes the option's error, naming the file, the card and the field.
    Use: `runes: Annotated[list[dict[str, Any]] | None, card_file(read_file, check)] = Field(...)`;
    `noun`, `base`, `schema`, `tables`: see `CardFileOption`."""

    def load(value: Any) -> Any:
        if value is None:
            return None
        try:
            return read(value) if isinstance(value, str) else check(value)
        except CardFileError as exc:
            raise ValueError(str(exc)) from None

    return CardFileOption(load, noun=noun, base=base, schema=schema, tables=tuple((tables or {}).items()))


def validate_options(game: str, model: type[OptionsT], values: dict[str, Any]) -> OptionsT:
    try:
        return model(**values)
    except ValidationError as exc:
        known = ", ".join(model.model_fields)
        lines = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err["loc"]) or "options"
            if err["type"] == "extra_forbidden":
                lines.append(f"unknown option {where!r} (known options: {known})")
            else:
                msg = err["msg"]
                if msg.startswith("Value error, "):
                    msg = msg[len("Value error, "):]
                got = err.get("input")
                shown = "" if isinstance(got, dict) or got is None else f" (got {got!r})"
                lines.append(f"option {where!r}: {msg}{shown}")
        raise OptionError(f"{game}: " + "; ".join(lines)) from None
