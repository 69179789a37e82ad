"""Typed, validated game options (STYLE.md principle 9).

Each game declares a pydantic model; `validate_options` turns pydantic's errors into one
`OptionError` that names the game, the option, what is allowed and what was given.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import OptionError


class GameOptions(BaseModel):
    """Base of every game's options: frozen, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)

    players: int

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


OptionsT = TypeVar("OptionsT", bound=GameOptions)


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
