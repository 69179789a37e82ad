"""The web app: lobby and table pages, a JSON API and one websocket per seat or spectator.

Protocol (docs/server.md): a client opens `/ws/{table}?token=T` (no token: a spectator) and
receives `state` messages; it sends `{"type": "act", "action": index-or-text, "version": v}`
(plus, optionally, `"token"`), `{"type": "rematch"}` or `{"type": "sync"}`. Every refusal is
an `error` message with a stable `code` and a sentence a person can act on; nothing changes.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from .. import agents
from ..core import Replay, game_class, games
from ..ui.cards import catalog, guide
from .db import Store
from .tables import Conn, Lobby, TableError, agent_choices, encode

WEB = Path(__file__).resolve().parent.parent / "web"

STATUS = {"unknown_table": 404, "bad_token": 403, "not_seated": 403, "stale": 409, "not_your_turn": 409,
          "game_over": 409, "not_over": 409, "not_saved": 503}


def _error(exc: TableError) -> JSONResponse:
    return JSONResponse({"error": exc.code, "message": exc.message}, status_code=STATUS.get(exc.code, 400))


def game_catalog() -> list[dict[str, Any]]:
    """Every registered game that loads, with its options schema (a broken game is skipped)."""
    out = []
    for name in games():
        try:
            cls = game_class(name)
            spec = cls.spec
            schema = cls.Options.model_json_schema()
        except Exception:  # a teammate's game that does not import must not break the lobby
            continue
        out.append({
            "name": name, "title": spec.title, "min_players": spec.min_players, "max_players": spec.max_players,
            "variants": list(spec.variants), "summary": spec.summary, "options": schema,
        })
    return out


def create_app(
    database: str | None = None,
    bot_time: float = 1.0,
    bot_delay: float = 0.0,
    store: Store | None = None,
) -> FastAPI:
    """The app. `database`: a SQLAlchemy URL or a SQLite path (default ./cardtable.db);
    `bot_time`: each bot's time cap per move (seconds); `bot_delay`: a pause before each bot
    move so people can follow the table."""
    store = store or Store(database)
    lobby = Lobby(store, bot_time=bot_time, bot_delay=bot_delay)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lobby.resume_all()  # bots at unfinished tables carry on after a restart
        yield
        for t in lobby.tables.values():
            if t.bot_task is not None:
                t.bot_task.cancel()

    app = FastAPI(title="cardtable", lifespan=lifespan)
    app.state.lobby = lobby
    app.state.store = store

    # -- pages ---------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "table.html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    # -- API -----------------------------------------------------------------------------

    @app.get("/api/games")
    async def api_games() -> dict[str, Any]:
        return {"games": game_catalog(), "bots": agent_choices(), "difficulties": list(agents.DIFFICULTY)}

    @app.get("/api/tables")
    async def api_tables() -> dict[str, Any]:
        return {"tables": store.list(limit=50)}

    @app.post("/api/tables")
    async def api_create(request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return JSONResponse({"error": "bad_request", "message": "the request body must be JSON"}, status_code=400)
        if not isinstance(body, dict) or not isinstance(body.get("game"), str):
            return JSONResponse(
                {"error": "bad_request", "message": 'send {"game": name, "options": {...}, "seats": [...]}'}, status_code=400
            )
        if not isinstance(body.get("options", {}), dict):
            return JSONResponse({"error": "bad_request", "message": "options must be an object"}, status_code=400)
        try:
            table, tokens = lobby.create(body["game"], body.get("options") or {}, body.get("seats"), body.get("seed"))
        except TableError as exc:
            return _error(exc)
        seats = []
        for i, s in enumerate(table.public_seats()):
            entry = dict(s)
            if i in tokens:
                entry["token"] = tokens[i]
                entry["link"] = f"/t/{table.id}?token={tokens[i]}"
            seats.append(entry)
        return JSONResponse({"id": table.id, "game": table.game.spec.name, "seats": seats,
                             "spectate": f"/t/{table.id}"}, status_code=201)

    @app.get("/api/tables/{table_id}")
    async def api_table(table_id: str, token: str | None = None) -> JSONResponse:
        try:
            table = lobby.get(table_id)
            seat = table.seat_of(token)
        except TableError as exc:
            return _error(exc)
        return JSONResponse(table.message(seat))

    @app.get("/api/tables/{table_id}/cards")
    async def api_cards(table_id: str) -> JSONResponse:
        """Public: every card of this table's game (its options' card set) with its text, and the player's guide."""
        try:
            game = lobby.get(table_id).game
        except TableError as exc:
            return _error(exc)
        return JSONResponse({"game": game.spec.name, "title": game.spec.title, "cards": catalog(game), "guide": guide(game)})

    @app.post("/api/tables/{table_id}/act")
    async def api_act(table_id: str, request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return JSONResponse({"error": "bad_request", "message": "the request body must be JSON"}, status_code=400)
        if not isinstance(body, dict):
            return JSONResponse({"error": "bad_request", "message": 'send {"token", "action", "version"}'}, status_code=400)
        try:
            table = lobby.get(table_id)
            if not body.get("token"):
                raise TableError("not_seated", "every action needs the seat's token")
            seat = table.seat_of(body.get("token"))
            text = await lobby.act(table, seat, body.get("action"), body.get("version"))
        except TableError as exc:
            return _error(exc)
        return JSONResponse({"ok": True, "action": text, "version": table.version})

    @app.get("/api/tables/{table_id}/replay")
    async def api_replay(table_id: str, step: int = 0, token: str | None = None) -> JSONResponse:
        """A finished game, move by move, as the seat of `token` (or a spectator) saw it."""
        try:
            table = lobby.get(table_id)
            seat = table.seat_of(token)
            if not table.state.is_over:
                raise TableError("not_over", "a game can be replayed once it is over")
            actions = table.rec.actions
            if not 0 <= step <= len(actions):
                raise TableError("bad_request", f"step must be between 0 and {len(actions)}")
            state = Replay(table.rec.game, table.rec.options, table.rec.seed, actions[:step]).run()
        except TableError as exc:
            return _error(exc)
        msg = encode(table.id, table.game, state, step, seat, table.public_seats())
        msg["type"] = "replay"
        msg["steps"] = len(actions)
        msg["last_action"] = actions[step - 1] if step else None
        msg["legal"] = []
        return JSONResponse(msg)

    # -- websocket -----------------------------------------------------------------------

    @app.websocket("/ws/{table_id}")
    async def ws_table(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        await websocket.accept()
        try:
            table = lobby.get(table_id)
            seat = table.seat_of(token)
        except TableError as exc:
            await websocket.send_json({"type": "error", "code": exc.code, "message": exc.message})
            await websocket.close(code=4404 if exc.code == "unknown_table" else 4403)
            return
        conn = Conn(seat, websocket.send_json)
        table.conns.append(conn)
        await lobby.broadcast(table)  # the newcomer gets the whole log; the others see them connected
        try:
            while True:
                raw = await websocket.receive_text()
                await handle(table, conn, raw)
        except (WebSocketDisconnect, RuntimeError):  # the client went away (RuntimeError: sending after close)
            pass
        finally:
            if conn in table.conns:
                table.conns.remove(conn)
            await lobby.broadcast(table)

    async def handle(table: Any, conn: Conn, raw: str) -> None:
        async def refuse(code: str, message: str) -> None:
            await conn.send({"type": "error", "code": code, "message": message, "version": table.version})

        try:
            msg = json.loads(raw)
        except json.JSONDecodeError:
            await refuse("malformed", "messages are JSON objects such as {\"type\": \"act\", \"action\": 3, \"version\": 12}")
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            await refuse("malformed", "every message is a JSON object with a \"type\" (act, rematch, sync, ping)")
            return
        kind = msg["type"]
        try:
            if "token" in msg and table.seat_of(msg["token"]) != conn.seat:
                raise TableError("bad_token", "this token does not belong to the seat of this connection")
            if kind == "act":
                text = await lobby.act(table, conn.seat, msg.get("action"), msg.get("version"))
                await conn.send({"type": "ack", "action": text, "version": table.version})
            elif kind == "rematch":
                new = await lobby.rematch(table, conn.seat)
                await conn.send({"type": "rematch", "table": new})
            elif kind == "sync":
                conn.log_sent = conn.events_seen = 0
                await lobby.send_state(table, conn)
            elif kind == "ping":
                await conn.send({"type": "pong"})
            else:
                await refuse("malformed", f"unknown message type {kind!r}; use act, rematch, sync or ping")
        except TableError as exc:
            await refuse(exc.code, exc.message)
            if exc.code == "stale":
                await lobby.send_state(table, conn)

    return app
