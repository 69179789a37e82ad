"""The games' API: every registered game with its options, and a game's deck builder."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from .. import agents
from ..core import game_class, games
from ..core.cards import inline_only
from ..core.registry import game_part
from ..sim.ladder import published, rated_on
from ..ui.text import player_count
from .context import MAX_CARD_DATA, AppContext, SafeJSONResponse, check_option_text, error_response
from .live import TableError
from .lobby import agent_choices


def game_catalog() -> list[dict[str, Any]]:
    """Every registered game that loads, with its options schema (a broken game is skipped)."""
    out = []
    for name in games():
        try:
            cls = game_class(name)
            spec = cls.spec
            schema = cls.Options.model_json_schema()
            ladder = published(name)
        except Exception:  # a teammate's game that does not import must not break the lobby
            continue
        out.append({
            "name": name, "title": spec.title, "min_players": spec.min_players, "max_players": spec.max_players,
            "player_count": player_count(spec.min_players, spec.max_players),
            "variants": list(spec.variants), "summary": spec.summary, "options": schema,
            # each level's rating in the game's published ladder (the package's data, named by the game)
            "ratings": (ladder or {}).get("ratings", {}),
            "rated_on": rated_on(ladder),
        })
    return out



def router(ctx: AppContext) -> APIRouter:
    api = APIRouter()

    @api.get("/api/games")
    async def api_games() -> dict[str, Any]:
        return {"games": game_catalog(), "bots": agent_choices(), "difficulties": list(agents.DIFFICULTY)}

    def deck_builder(game: str) -> Any:
        """A game's deck builder (`builder_info`, `check_deck`) as its spec names it, or None."""
        return game_part(game, "decks") if game in games() else None

    @api.get("/api/games/{game}/decks")
    async def api_deck_builder(game: str) -> JSONResponse:
        """What the lobby's deck builder offers for a game that builds decks (Ivion)."""
        module = deck_builder(game)
        if module is None:
            return error_response(TableError("unknown_game", f"{game[:40]!r} has no deck builder"))
        return SafeJSONResponse(module.builder_info())

    @api.post("/api/games/{game}/decks")
    async def api_deck_check(game: str, request: Request) -> JSONResponse:
        """A hero table built into its deck (its cards) or refused with the rule it breaks."""
        module = deck_builder(game)
        if module is None:
            return error_response(TableError("unknown_game", f"{game[:40]!r} has no deck builder"))
        try:
            body = await ctx.read_body(request, MAX_CARD_DATA)
            check_option_text({"hero": body})
        except TableError as exc:
            return error_response(exc)
        with inline_only():  # a hero named by a file name is refused, never read
            checked = await asyncio.to_thread(module.check_deck, body)
        return SafeJSONResponse(checked)

    return api
