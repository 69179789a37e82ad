"""Terminal rendering shared by every game.

A game's spec may name a `text` module of its package (core/spec.py, `PARTS` and `OPTIONAL`) with
`render(observation, game=None) -> RenderableType` (`game` for card data the observation does not
repeat: Ivion's own content is in the table's options, which reach a client once) and
`narrate(event_json, viewer, obs=None) -> str | None` (obs: the viewer's observation just after the
event, when the caller has it); a game without one is shown generically. The module may also give
`choices(observation, move_texts) -> [(index, label)]`: the order and labels in which the terminal
lists the moves (a player's name marked "you", a die with its face), and `points(observation)`.
Each is found through the registry (`part_member`), the one way every front end finds a game's parts.

Players are named through `cardtable.ui.names`: a text module says "seat N" (never "you" about a
player, except in lines only that player receives) and, inside `names.seated(...)`, every line,
move label and refusal comes out with the names the players chose; `names.name(N)` gives one for a
table cell. A game that does nothing gets its players' names.
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import RenderableType
from rich.pretty import Pretty

from ..core.game import Game
from ..core.registry import part_member
from .names import rename


def text_part(game: Game[Any], name: str) -> Any:
    """The function `name` of the game's text module (`core.spec`: `render`, `narrate`, `choices`,
    `points`, `card_catalog`, `pictogram_legend`), or None where the game has none."""
    return part_member(type(game), "text", name)


def render(game: Game[Any], obs: dict[str, Any]) -> RenderableType:
    draw = text_part(game, "render")
    return Pretty(obs) if draw is None else draw(obs, game)  # type: ignore[no-any-return]


def narrate(game: Game[Any], event: dict[str, Any], viewer: int | None, obs: dict[str, Any] | None = None) -> str | None:
    tell = text_part(game, "narrate")
    if tell is not None:
        line = tell(event, viewer, obs)
        return None if line is None else rename(str(line))
    data = {k: v for k, v in event.items() if k not in ("kind", "to")}
    return rename(f"{event['kind']}: {json.dumps(data)}")


def player_count(low: int, high: int) -> str:
    """A game's player count in words: "2 players", "2–10 players" (the lobby and `cardtable games`)."""
    return f"{low} player{'' if low == 1 else 's'}" if low == high else f"{low}–{high} players"


def choices(game: Game[Any], obs: dict[str, Any], texts: list[str]) -> list[tuple[int, str]]:
    """The moves as the terminal lists them: (index into `texts`, label), in the game's order."""
    order = text_part(game, "choices")
    if order is not None:
        return [(i, rename(label)) for i, label in order(obs, texts)]
    return [(i, rename(t)) for i, t in enumerate(texts)]


def points(game: Game[Any], obs: dict[str, Any]) -> list[int | None]:
    """Each seat's points at the end, as the game counts them: its text module's `points(obs)`, else
    the observation's `scores` (a number, or a breakdown with a `total`), else none."""
    count = text_part(game, "points")
    if count is not None:
        return list(count(obs))
    scores = obs.get("scores")
    out: list[int | None] = []
    for k in range(game.players):
        v = scores[k] if isinstance(scores, list) and k < len(scores) else None
        if isinstance(v, dict):
            v = v.get("total")
        out.append(v if isinstance(v, int) and not isinstance(v, bool) else None)  # points are whole
    return out


def place_name(place: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th"."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def standings(game: Game[Any], state: Any, viewer: int | None = None) -> list[dict[str, Any]]:
    """A finished game as places and points: [{seat, place, place_name, points}], best first. Places
    follow the game's outcome (its returns) and, between seats the outcome ranks equal, the points;
    seats equal in both share a place."""
    returns = state.returns()
    pts = points(game, state.observation(viewer))
    key = [(returns[k], pts[k] if pts[k] is not None else 0) for k in range(game.players)]
    order = sorted(range(game.players), key=lambda k: key[k], reverse=True)
    out = []
    for k in order:
        place = 1 + sum(1 for j in range(game.players) if key[j] > key[k])
        out.append({"seat": k, "place": place, "place_name": place_name(place), "points": pts[k]})
    return out
