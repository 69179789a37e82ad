"""Card data, one way: every game's card files (JUNO decks, IUNU values, Zun runes, Ivion heroes,
Iuno Avatar's deck) are read by `read_card_file` and validated by `validate` against the game's
pydantic schema (DESIGN.md, "Card content is data").

An error is a `CardFileError` that names the file, the card, the field and what is allowed:

- a schema's own validators raise `ValueError` with a message that names the card and the field
  in the game's words ("card 'purple 3' is not a JUNO card (examples: ...)"): it is kept as is;
- pydantic's own checks (a missing field, a wrong type, an unknown key) are located from the
  error's path: `afterlife card 'Sun Disk': field 'vp': Input should be a valid integer (got 'x')`.
  A schema names its collections of cards in `CARD_COLLECTIONS` ({field: "afterlife card"}), so a
  path (`afterlife`, `Sun Disk`, `vp`) reads as that card's field.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import CardFileError

#: the largest card file read (a deck of thousands of cards is a few hundred kilobytes)
MAX_FILE_BYTES = 1 << 20

#: False while options come from a client of the web server: card data must then be inline
_FILES_ALLOWED: ContextVar[bool] = ContextVar("card_files_allowed", default=True)
#: the package's own card files (each game's base set) are read in any case
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@contextmanager
def inline_only() -> Iterator[None]:
    """Within it (and in threads started from it), no card file named by options is read: card data
    is inline (a table or a list, as in the file). The web server makes every game in it, so no option
    a client sends is ever a file name (issue 31, hole 1); the games' own files are still read."""
    token = _FILES_ALLOWED.set(False)
    try:
        yield
    finally:
        _FILES_ALLOWED.reset(token)


def _packaged(path: str | Path) -> bool:
    """A file of this package (a game's base set), by its name alone: the file system is not asked."""
    full = os.path.normpath(os.path.abspath(os.fspath(path)))
    return full.startswith(_PACKAGE + os.sep)


class CardSchema(BaseModel):
    """Base of a game's card-file schema: unknown fields are refused, values are not coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    #: field name -> how one card of that collection is called in messages ("afterlife card")
    CARD_COLLECTIONS: ClassVar[dict[str, str]] = {}
    #: the collections whose cards are a union told apart by a field (pydantic puts the chosen
    #: member's tag in an error's path after the card's name: not a field, so not told)
    TAGGED: ClassVar[frozenset[str]] = frozenset()


SchemaT = TypeVar("SchemaT", bound=CardSchema)
CardT = TypeVar("CardT", bound=CardSchema)


def read_card_file(path: str | Path, what: str) -> Any:
    """The parsed content of a TOML file (or JSON, by its `.json` suffix). `what` names the kind
    of file in messages ("deck file", "rune file"). Under `inline_only` only the package's own files are
    read: any other name is refused before the file system is asked, so the refusal tells nothing of it."""
    if not _FILES_ALLOWED.get() and not _packaged(path):
        raise CardFileError(f"{what}: here card data is sent inline (a table or a list, as in the file), "
                            "never as a file name")
    p = Path(path)
    is_json = p.suffix.lower() == ".json"
    try:
        if not p.is_file():
            raise CardFileError(f"{what} {p}: cannot read it (not a regular file)" if p.exists()
                                else f"{what} {p}: cannot read it (No such file or directory)")
        if p.stat().st_size > MAX_FILE_BYTES:
            raise CardFileError(f"{what} {p}: cannot read it (larger than {MAX_FILE_BYTES} bytes)")
        text = p.read_text()
    except OSError as exc:
        raise CardFileError(f"{what} {p}: cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise CardFileError(f"{what} {p}: cannot read it (not UTF-8 text)") from None
    try:
        return json.loads(text) if is_json else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CardFileError(f"{what} {p}: not valid {'JSON' if is_json else 'TOML'}: {exc}") from None


def validate(raw: Any, schema: type[SchemaT], source: str) -> SchemaT:
    """`raw` (a file's content or inline data) checked against `schema`; `source` starts every
    message ("deck file decks/big.toml", "deck")."""
    try:
        return schema.model_validate(raw)
    except ValidationError as exc:
        raise CardFileError(f"{source}: {describe_error(exc, schema)}") from None


def card_list(raw: Any, card: type[CardT], noun: str) -> tuple[CardT, ...]:
    """The cards of a card file's list (its `[[noun]]` tables), each validated by `card` in order:
    a non-empty list of tables, each named with words (letters, digits, spaces, - and '), no name
    twice (case aside). The card's validation gets `{"index": i, "where": "noun 'Name'"}` as its
    context, and its first error is told after `where` (unless it already names the card)."""
    if not isinstance(raw, list) or not raw:
        raise ValueError(f"expected a non-empty list of {noun}s ([[{noun}]] tables)")
    seen: set[str] = set()
    cards: list[CardT] = []
    for i, table in enumerate(raw):
        if not isinstance(table, Mapping):
            raise ValueError(f"{noun} #{i + 1} must be a table")
        name = table.get("name")
        where = f"{noun} {name!r}" if isinstance(name, str) else f"{noun} #{i + 1}"
        if not isinstance(name, str) or not name.strip() or not all(c.isalnum() or c in " -'" for c in name):
            raise ValueError(f"{where}: field 'name' must be a word or words (letters, digits, spaces, - and ')")
        if name.lower() in seen:
            raise ValueError(f"{where}: field 'name': a {noun} of this name is already defined")
        seen.add(name.lower())
        try:
            cards.append(card.model_validate(table, context={"index": i, "where": where}))
        except ValidationError as exc:
            told = describe_error(exc, card)
            raise ValueError(told if told.startswith(where) else f"{where}: {told}") from None
    return tuple(cards)


def describe_error(exc: ValidationError, schema: type[CardSchema]) -> str:
    """The first error of `exc`, located in the words of the schema. A misspelt field shows as an
    unknown field and a missing one: the unknown one is told first, since it is the one to fix."""
    errors = exc.errors(include_url=False)
    err = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    msg = str(err["msg"])
    if err["type"] == "value_error":  # the schema's own wording, which names card and field
        return msg.removeprefix("Value error, ")
    loc = [str(p) for p in err["loc"]]
    where = []
    if len(loc) >= 2 and loc[0] in schema.CARD_COLLECTIONS:
        where.append(f"{schema.CARD_COLLECTIONS[loc[0]]} {loc[1]!r}")
        loc = loc[3:] if loc[0] in schema.TAGGED and len(loc) > 2 else loc[2:]
    if loc:
        where.append(f"field {'.'.join(loc)!r}")
    if err["type"] == "extra_forbidden":
        field = where.pop() if where else "a field"
        allowed = ", ".join(schema.model_fields) if len(where) == 0 else ""
        return f"{': '.join([*where, 'unknown ' + field])}" + (f" (allowed: {allowed})" if allowed else "")
    got = err.get("input")
    shown = "" if err["type"] == "missing" or isinstance(got, dict | list) else f" (got {got!r})"
    return f"{': '.join([*where, msg])}{shown}"
