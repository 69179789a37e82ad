"""The tables' API: list, create, join, a table's state, its cards, act, and its replay."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..core import CardtableError, games
from ..ui.cards import catalog, guide, legend
from ..ui.names import rename, seat_names, seated
from .api_games import game_catalog
from .context import (
    MAKE_TIMEOUT,
    MAX_BODY,
    MAX_CARD_DATA,
    MAX_CREATE_BODY,
    AppContext,
    SafeJSONResponse,
    card_data_options,
    check_option_text,
    error_response,
)
from .encoding import dumps, encode, narrate_lines
from .live import LiveTable, TableError, make_game


def router(ctx: AppContext) -> APIRouter:
    api = APIRouter()

    @api.get("/api/tables")
    async def api_tables() -> JSONResponse:
        """The newest tables with their status: game, seats (open, taken, bots, by name), whose turn
        it is (tables this process has loaded), moves so far, when it was created and when the last move
        was made. Abandoned tables (unfinished, idle for `ctx.abandoned_after`) are left out."""
        now = ctx.store.clock()
        active_since = now - ctx.abandoned_after if ctx.abandoned_after > 0 else None
        try:
            tables = await asyncio.to_thread(ctx.store.list, 50, False, active_since)
        except Exception as exc:
            return error_response(TableError("unavailable", f"the database cannot be reached; try again later ({type(exc).__name__})"))
        titles = {g["name"]: g["title"] for g in game_catalog()}
        for t in tables:
            t["title"] = titles.get(t["game"], t["game"])
            live = ctx.lobby.tables.get(t["id"])
            if live is not None:
                t.update(live.status())
                t["finished"] = live.state.is_over
            else:
                names = seat_names(t["seats"])
                for i, seat in enumerate(t["seats"]):
                    seat["name"] = names[i]
                t["turn"] = None
            t["open_seats"] = [i for i, seat in enumerate(t["seats"]) if seat.get("open")]
        return SafeJSONResponse({"tables": tables, "now": now})

    @api.post("/api/tables/{table_id}/join")
    async def api_join(table_id: str, request: Request) -> JSONResponse:
        """Take an open seat from the lobby: {"seat": n, "name": "..."} -> the seat's link (its token)."""
        try:
            body = await ctx.read_body(request, MAX_BODY)
            if not isinstance(body, dict) or set(body) - {"seat", "name"}:
                raise TableError("bad_request", 'send {"seat": number, "name": "your name"}')
            table = await ctx.lobby.open(table_id)
            token = await ctx.lobby.join(table, body.get("seat"), body.get("name"))
        except TableError as exc:
            return error_response(exc)
        return SafeJSONResponse({"seat": body["seat"], "token": token, "link": f"/t/{table.id}?token={token}"},
                                status_code=201)

    @api.post("/api/tables")
    async def api_create(request: Request) -> JSONResponse:
        try:
            body = await ctx.read_body(request, MAX_CREATE_BODY)
            table, tokens = await create(body, request.client.host if request.client else "")
        except TableError as exc:
            return error_response(exc)
        seats = []
        for i, s in enumerate(table.public_seats()):
            entry = dict(s)
            if i in tokens:
                entry["token"] = tokens[i]
                entry["link"] = f"/t/{table.id}?token={tokens[i]}"
            seats.append(entry)
        return SafeJSONResponse({"id": table.id, "game": table.game.spec.name, "seats": seats,
                                 "spectate": f"/t/{table.id}"}, status_code=201)

    async def create(body: Any, client: str) -> tuple[LiveTable, dict[int, str]]:
        if not isinstance(body, dict) or not isinstance(body.get("game"), str):
            raise TableError("bad_request", 'send {"game": name, "options": {...}, "seats": [...]}')
        extra = sorted(str(k)[:40] for k in body if k not in ("game", "options", "seats", "seed"))
        if extra:
            raise TableError("bad_request", f"unknown field {extra[0]!r}; a table has game, options, seats and seed")
        name, options, seats = body["game"], body.get("options") or {}, body.get("seats")
        if not isinstance(seats, list):
            raise TableError("bad_request", "a table needs a list of seats, each a person or a bot")
        if name not in games():
            raise TableError("bad_options", f"no game named {name[:40]!r}; games: {', '.join(games())}")
        if not isinstance(options, dict):
            raise TableError("bad_request", "options must be an object")
        ctx.lobby.check_seats(seats)
        for key in card_data_options(name) & set(options):
            value = options[key]
            named = [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
            if isinstance(value, str) or any(v.lower().endswith((".toml", ".json", ".csv")) or "/" in v or "\\" in v
                                             for v in named):
                raise TableError("bad_options", f"option {key!r}: over the web, custom cards are sent as data "
                                 "(an object or a list, as in the card file), not as a file name")
            if len(dumps(value)) > MAX_CARD_DATA:
                raise TableError("too_large", f"option {key!r}: custom cards are at most {MAX_CARD_DATA // 1024} KB of JSON")
        check_option_text(options)
        if not ctx.creations.allow(client):
            raise TableError("rate_limited", "too many tables created from this address; wait a minute")
        options = dict(options)
        if "players" in options and options["players"] != len(seats):
            raise TableError("bad_request", f"options say {str(options['players'])[:20]} players but {len(seats)} seats "
                             "were given")
        options["players"] = len(seats)
        try:  # off the event loop: custom cards are validated while other tables go on
            game = await asyncio.wait_for(asyncio.to_thread(make_game, name, options), MAKE_TIMEOUT)
        except CardtableError as exc:
            raise TableError("bad_options", str(exc)[:2000]) from None
        except TimeoutError:
            raise TableError("bad_options", f"these options took more than {MAKE_TIMEOUT:g} s to check") from None
        except RecursionError:
            raise TableError("bad_options", "the options are nested too deeply") from None
        # The database write is off the event loop too (a database that does not answer holds up no table).
        table, tokens = await asyncio.to_thread(ctx.lobby.create, name, options, seats, body.get("seed"), game=game)
        ctx.lobby.bots.schedule(table)
        return table, tokens

    @api.get("/api/tables/{table_id}")
    async def api_table(table_id: str, token: str | None = None) -> JSONResponse:
        try:
            table = await ctx.lobby.open(table_id)
            seat = table.seat_of(token)
        except TableError as exc:
            return error_response(exc)
        return SafeJSONResponse(table.message(seat))

    @api.get("/api/tables/{table_id}/cards")
    async def api_cards(table_id: str) -> JSONResponse:
        """Public: every card of this table's game (its options' card set) with its text, the player's guide and the
        legend of the game's pictograms (each symbol with its name)."""
        try:
            game = (await ctx.lobby.open(table_id)).game
        except TableError as exc:
            return error_response(exc)
        return JSONResponse({"game": game.spec.name, "title": game.spec.title, "cards": catalog(game), "guide": guide(game),
                             "legend": legend(game)})

    @api.post("/api/tables/{table_id}/act")
    async def api_act(table_id: str, request: Request) -> JSONResponse:
        try:
            body = await ctx.read_body(request, MAX_BODY)
            if not isinstance(body, dict):
                raise TableError("bad_request", 'send {"token", "action", "version"}')
            table = await ctx.lobby.open(table_id)
            if not body.get("token"):
                raise TableError("not_seated", "every action needs the seat's token")
            seat = table.seat_of(body.get("token"))
            text = await ctx.lobby.act(table, seat, body.get("action"), body.get("version"))
        except TableError as exc:
            return error_response(exc)
        return SafeJSONResponse({"ok": True, "action": text, "version": table.version})

    @api.get("/api/tables/{table_id}/replay")
    async def api_replay(table_id: str, step: int = 0, token: str | None = None) -> JSONResponse:
        """A finished game, move by move, as the seat of `token` (or a spectator) saw it."""
        try:
            table = await ctx.lobby.open(table_id)
            seat = table.seat_of(token)
            if not table.state.is_over:
                raise TableError("not_over", "a game can be replayed once it is over")
            actions = table.rec.actions
            if not 0 <= step <= len(actions):
                raise TableError("bad_request", f"step must be between 0 and {len(actions)}")
            states = await ctx.lobby.replay_states(table)
        except TableError as exc:
            return error_response(exc)
        state = states[step]
        msg = encode(table.id, table.game, state, step, seat, table.public_seats())
        msg["type"] = "replay"
        msg["steps"] = len(actions)
        msg["last_action"] = None
        msg["actor"] = None
        if step:
            # What this viewer saw of the move: its own move in full, another seat's only as its
            # events showed it (a face-down choice stays face down). Who made it is public.
            before = states[step - 1]
            names = table.names()
            if before.current_player is not None:
                msg["actor"] = names[before.current_player]
            if seat is not None and before.current_player == seat:
                with seated(names):
                    msg["last_action"] = rename(actions[step - 1])
            else:
                seen = [e for e in (state.events or [])[len(before.events or []):] if e.visible_to(seat)]
                msg["last_action"] = " ".join(narrate_lines(table.game, seen, seat, names)) or None
        msg["legal"] = []
        return SafeJSONResponse(msg)

    return api
