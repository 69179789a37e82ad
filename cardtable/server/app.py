"""The web app: lobby and table pages, a JSON API and one websocket per seat or spectator.

Protocol (docs/server.md): a client opens `/ws/{table}?token=T` (no token: a spectator) and
receives `state` messages; it sends `{"type": "act", "action": index-or-text, "version": v}`
(plus, optionally, `"token"`), `{"type": "rematch"}`, `{"type": "sync"}` or `{"type": "ping"}`.
Every refusal is an `error` message with a stable `code` and a sentence a person can act on;
nothing changes.

The server trusts no client (issue 20): every request body is bounded, must be
`application/json`, is checked field by field, and a browser request from another site (its
`Origin`) is refused. Card data comes only inline (never a path: no request makes the server
read a file) and is validated off the event loop. Creating tables is rate-limited per client.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from .. import agents
from ..core import CardtableError, game_class, games, make
from ..core.registry import game_part
from ..ui.cards import catalog, guide, legend
from ..ui.names import rename, seat_names, seated
from ..ui.text import player_count
from .db import Store
from .encoding import dumps, encode, narrate_lines
from .live import Conn, LiveTable, TableError
from .lobby import Lobby, agent_choices, printable

WEB = Path(__file__).resolve().parent.parent / "web"
#: where table.html takes the script of the table's game view
GAME_VIEW = "<!-- the game's view (server/app.py, table_page) -->"

STATUS = {"unknown_table": 404, "unknown_game": 404, "bad_token": 403, "not_seated": 403, "stale": 409, "not_your_turn": 409,
          "game_over": 409, "not_over": 409, "not_saved": 503, "unavailable": 503, "busy": 503, "table_full": 503,
          "too_large": 413, "unsupported_media_type": 415, "forbidden_origin": 403, "rate_limited": 429,
          "damaged_table": 503, "seat_taken": 409}

#: request bodies: a table (custom cards included) and everything else
MAX_CREATE_BODY = 256 * 1024
MAX_BODY = 8 * 1024
#: inline card data (a custom deck, card values, a rune set), as JSON
MAX_CARD_DATA = 128 * 1024
#: a websocket message
MAX_MESSAGE = 8 * 1024
#: nesting of any JSON a client sends
MAX_DEPTH = 16
#: validating a table's options (custom cards included) may take this long
MAKE_TIMEOUT = 10.0
#: an unfinished table without a move for this long (seconds) is abandoned: the lobby no longer lists it
#: (`cardtable serve --abandoned-after HOURS`). A day: long enough for a game paused overnight.
ABANDONED_AFTER = 24 * 3600.0

SECURITY_HEADERS = {
    # Scripts only from this server (no inline script); style attributes are used by the views.
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",  # a seat's link never leaves in a Referer header
}


class SafeJSONResponse(JSONResponse):
    """JSON that is always valid UTF-8 (a lone surrogate from an old row is escaped, never a 500)."""

    def render(self, content: Any) -> bytes:
        return dumps(content).encode("utf-8")


def _error(exc: TableError) -> JSONResponse:
    return SafeJSONResponse({"error": exc.code, "message": exc.message}, status_code=STATUS.get(exc.code, 400))


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
            "player_count": player_count(spec.min_players, spec.max_players),
            "variants": list(spec.variants), "summary": spec.summary, "options": schema,
        })
    return out


def check_json(value: Any) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH or holding text that is not valid Unicode."""
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TableError("bad_request", f"the JSON is nested more than {MAX_DEPTH} levels deep")
        if isinstance(v, str):
            if not _unicode(v):
                raise TableError("bad_request", "the JSON holds text that is not valid Unicode (a lone surrogate)")
        elif isinstance(v, dict):
            for k, x in v.items():
                if not _unicode(k):
                    raise TableError("bad_request", "the JSON holds text that is not valid Unicode (a lone surrogate)")
                stack.append((x, depth + 1))
        elif isinstance(v, list):
            stack.extend((x, depth + 1) for x in v)


def _unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(raw: bytes | str) -> Any:
    """A client's JSON, or TableError("bad_request"): never a RecursionError, NaN or a lone surrogate."""
    try:
        value = json.loads(raw, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise TableError("bad_request", "the request body must be JSON (an object)") from None
    check_json(value)
    return value


def card_data_options(game_name: str) -> set[str]:
    """The options of a game whose schema wants data (an object or a list) and whose loader would
    read a file when given text: custom decks, card values, rune sets."""
    try:
        props = game_class(game_name).Options.model_json_schema().get("properties", {})
    except Exception:
        return set()
    out = set()
    for name, prop in props.items():
        kinds = {p.get("type") for p in prop.get("anyOf", [prop])}
        if kinds & {"object", "array"} and "string" not in kinds:
            out.add(name)
    return out


class RateLimit:
    """Per-client token buckets: `per_minute` events a minute, up to `per_minute` at once."""

    def __init__(self, per_minute: float) -> None:
        self.per_minute = per_minute
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str) -> bool:
        if self.per_minute <= 0:
            return True
        now = time.monotonic()
        if len(self.buckets) > 10_000:  # forget clients whose buckets are full again
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < 60}
        level, at = self.buckets.get(client, (self.per_minute, now))
        level = min(self.per_minute, level + (now - at) * self.per_minute / 60)
        if level < 1:
            self.buckets[client] = (level, now)
            return False
        self.buckets[client] = (level - 1, now)
        return True


def create_app(
    database: str | None = None,
    bot_time: float = 1.0,
    bot_delay: float = 0.0,
    store: Store | None = None,
    *,
    max_spectators: int = 1000,
    max_bot_tables: int = 20,
    max_live_tables: int = 1000,
    create_per_minute: float = 30,
    allowed_origins: tuple[str, ...] = (),
    api_docs: bool = False,
    abandoned_after: float = ABANDONED_AFTER,
) -> FastAPI:
    """The app. `database`: a SQLAlchemy URL or a SQLite path (default ./cardtable.db);
    `bot_time`: each bot's time cap per move (seconds); `bot_delay`: a pause before each bot
    move so people can follow the table; `max_spectators` per table; `max_bot_tables` running at
    once; `max_live_tables` kept in memory (beyond it, tables nobody uses are dropped and loaded
    again from the database when asked for); `create_per_minute`: tables one client (address) may create a minute (0: no limit);
    `allowed_origins`: other sites (like "https://games.example") whose pages may use this API;
    `api_docs`: serve /docs and /openapi.json (off by default); `abandoned_after`: seconds without a
    move after which an unfinished table leaves the lobby's list (0: never); it stays stored, and its
    links and replay keep working. The store's clock (`Store.clock`) tells the time."""
    store = store or Store(database)
    lobby = Lobby(store, bot_time=bot_time, bot_delay=bot_delay, max_spectators=max_spectators,
                  max_bot_tables=max_bot_tables, max_live_tables=max_live_tables)
    creations = RateLimit(create_per_minute)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lobby.resume_all()  # bots at unfinished tables carry on after a restart
        yield
        for t in lobby.tables.values():
            if t.bot_task is not None:
                t.bot_task.cancel()
        store.close()  # the pool's connections (a PostgreSQL server keeps them open otherwise)

    # /docs and /openapi.json only when the operator asks (docs/server.md): off, the API is described there.
    app = FastAPI(title="cardtable", lifespan=lifespan, default_response_class=SafeJSONResponse,
                  docs_url="/docs" if api_docs else None, redoc_url=None,
                  openapi_url="/openapi.json" if api_docs else None)
    app.state.lobby = lobby
    app.state.store = store

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        path = request.url.path
        for k, v in SECURITY_HEADERS.items():
            if k == "content-security-policy" and api_docs and path.startswith(("/docs", "/redoc")):
                continue  # FastAPI's documentation pages load their scripts from a CDN
            response.headers.setdefault(k, v)
        return response

    def origin_ok(origin: str | None, host: str | None) -> bool:
        """A request from a page of this server (or of an allowed site), or from no browser at all."""
        if origin is None:
            return True
        if origin in allowed_origins:
            return True
        return bool(host) and urlsplit(origin).netloc.lower() == str(host).lower()

    async def read_body(request: Request, limit: int) -> Any:
        if not origin_ok(request.headers.get("origin"), request.headers.get("host")):
            raise TableError("forbidden_origin", "requests from pages of another site are refused")
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise TableError("unsupported_media_type", "send the body as JSON with content-type: application/json")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise TableError("too_large", f"the request body is larger than {limit // 1024} KB")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise TableError("too_large", f"the request body is larger than {limit // 1024} KB")
            chunks.append(chunk)
        return parse_json(b"".join(chunks))

    # -- pages ---------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    # The table page with the view of the table's game, found through the game's registration
    # (its spec's `web_view`); an unknown table gets the generic view and the page says why.
    table_html = (WEB / "table.html").read_text()

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> HTMLResponse:
        try:
            view = (await lobby.open(table_id)).game.spec.web_view
        except TableError:
            view = "generic.js"
        return HTMLResponse(table_html.replace(GAME_VIEW, f'<script src="/static/views/{view}"></script>'))

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    # -- API -----------------------------------------------------------------------------

    @app.get("/api/games")
    async def api_games() -> dict[str, Any]:
        return {"games": game_catalog(), "bots": agent_choices(), "difficulties": list(agents.DIFFICULTY)}

    def deck_builder(game: str) -> Any:
        """A game's deck builder (`builder_info`, `check_deck`) as its spec names it, or None."""
        return game_part(game, "decks") if game in games() else None

    @app.get("/api/games/{game}/decks")
    async def api_deck_builder(game: str) -> JSONResponse:
        """What the lobby's deck builder offers for a game that builds decks (Ivion)."""
        module = deck_builder(game)
        if module is None:
            return _error(TableError("unknown_game", f"{game[:40]!r} has no deck builder"))
        return SafeJSONResponse(module.builder_info())

    @app.post("/api/games/{game}/decks")
    async def api_deck_check(game: str, request: Request) -> JSONResponse:
        """A hero table built into its deck (its cards) or refused with the rule it breaks."""
        module = deck_builder(game)
        if module is None:
            return _error(TableError("unknown_game", f"{game[:40]!r} has no deck builder"))
        try:
            body = await read_body(request, MAX_CARD_DATA)
        except TableError as exc:
            return _error(exc)
        return SafeJSONResponse(await asyncio.to_thread(module.check_deck, body))

    @app.get("/api/tables")
    async def api_tables() -> JSONResponse:
        """The newest tables with their status: game, seats (open, taken, bots, by name), whose turn
        it is (tables this process has loaded), moves so far, when it was created and when the last move
        was made. Abandoned tables (unfinished, idle for `abandoned_after`) are left out."""
        now = store.clock()
        active_since = now - abandoned_after if abandoned_after > 0 else None
        try:
            tables = await asyncio.to_thread(store.list, 50, False, active_since)
        except Exception as exc:
            return _error(TableError("unavailable", f"the database cannot be reached; try again later ({type(exc).__name__})"))
        titles = {g["name"]: g["title"] for g in game_catalog()}
        for t in tables:
            t["title"] = titles.get(t["game"], t["game"])
            live = lobby.tables.get(t["id"])
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

    @app.post("/api/tables/{table_id}/join")
    async def api_join(table_id: str, request: Request) -> JSONResponse:
        """Take an open seat from the lobby: {"seat": n, "name": "..."} -> the seat's link (its token)."""
        try:
            body = await read_body(request, MAX_BODY)
            if not isinstance(body, dict) or set(body) - {"seat", "name"}:
                raise TableError("bad_request", 'send {"seat": number, "name": "your name"}')
            table = await lobby.open(table_id)
            token = await lobby.join(table, body.get("seat"), body.get("name"))
        except TableError as exc:
            return _error(exc)
        return SafeJSONResponse({"seat": body["seat"], "token": token, "link": f"/t/{table.id}?token={token}"},
                                status_code=201)

    @app.post("/api/tables")
    async def api_create(request: Request) -> JSONResponse:
        try:
            body = await read_body(request, MAX_CREATE_BODY)
            table, tokens = await create(body, request.client.host if request.client else "")
        except TableError as exc:
            return _error(exc)
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
        lobby.check_seats(seats)
        for key in card_data_options(name) & set(options):
            value = options[key]
            named = [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
            if isinstance(value, str) or any(v.lower().endswith((".toml", ".json", ".csv")) or "/" in v or "\\" in v
                                             for v in named):
                raise TableError("bad_options", f"option {key!r}: over the web, custom cards are sent as data "
                                 "(an object or a list, as in the card file), not as a file name")
            if len(dumps(value)) > MAX_CARD_DATA:
                raise TableError("too_large", f"option {key!r}: custom cards are at most {MAX_CARD_DATA // 1024} KB of JSON")
        if not creations.allow(client):
            raise TableError("rate_limited", "too many tables created from this address; wait a minute")
        options = dict(options)
        if "players" in options and options["players"] != len(seats):
            raise TableError("bad_request", f"options say {str(options['players'])[:20]} players but {len(seats)} seats "
                             "were given")
        options["players"] = len(seats)
        try:  # off the event loop: custom cards are validated while other tables go on
            game = await asyncio.wait_for(asyncio.to_thread(make, name, **options), MAKE_TIMEOUT)
        except CardtableError as exc:
            raise TableError("bad_options", str(exc)[:2000]) from None
        except TimeoutError:
            raise TableError("bad_options", f"these options took more than {MAKE_TIMEOUT:g} s to check") from None
        except RecursionError:
            raise TableError("bad_options", "the options are nested too deeply") from None
        # The database write is off the event loop too (a database that does not answer holds up no table).
        table, tokens = await asyncio.to_thread(lobby.create, name, options, seats, body.get("seed"), game=game)
        lobby.bots.schedule(table)
        return table, tokens

    @app.get("/api/tables/{table_id}")
    async def api_table(table_id: str, token: str | None = None) -> JSONResponse:
        try:
            table = await lobby.open(table_id)
            seat = table.seat_of(token)
        except TableError as exc:
            return _error(exc)
        return SafeJSONResponse(table.message(seat))

    @app.get("/api/tables/{table_id}/cards")
    async def api_cards(table_id: str) -> JSONResponse:
        """Public: every card of this table's game (its options' card set) with its text, the player's guide and the
        legend of the game's pictograms (each symbol with its name)."""
        try:
            game = (await lobby.open(table_id)).game
        except TableError as exc:
            return _error(exc)
        return JSONResponse({"game": game.spec.name, "title": game.spec.title, "cards": catalog(game), "guide": guide(game),
                             "legend": legend(game)})

    @app.post("/api/tables/{table_id}/act")
    async def api_act(table_id: str, request: Request) -> JSONResponse:
        try:
            body = await read_body(request, MAX_BODY)
            if not isinstance(body, dict):
                raise TableError("bad_request", 'send {"token", "action", "version"}')
            table = await lobby.open(table_id)
            if not body.get("token"):
                raise TableError("not_seated", "every action needs the seat's token")
            seat = table.seat_of(body.get("token"))
            text = await lobby.act(table, seat, body.get("action"), body.get("version"))
        except TableError as exc:
            return _error(exc)
        return SafeJSONResponse({"ok": True, "action": text, "version": table.version})

    @app.get("/api/tables/{table_id}/replay")
    async def api_replay(table_id: str, step: int = 0, token: str | None = None) -> JSONResponse:
        """A finished game, move by move, as the seat of `token` (or a spectator) saw it."""
        try:
            table = await lobby.open(table_id)
            seat = table.seat_of(token)
            if not table.state.is_over:
                raise TableError("not_over", "a game can be replayed once it is over")
            actions = table.rec.actions
            if not 0 <= step <= len(actions):
                raise TableError("bad_request", f"step must be between 0 and {len(actions)}")
            states = await lobby.replay_states(table)
        except TableError as exc:
            return _error(exc)
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

    # -- websocket -----------------------------------------------------------------------

    @app.websocket("/ws/{table_id}")
    async def ws_table(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()

        async def refuse_and_close(code: str, message: str, close_code: int) -> None:
            await websocket.send_text(dumps({"type": "error", "code": code, "message": message}))
            await websocket.close(code=close_code)

        if not origin_ok(websocket.headers.get("origin"), websocket.headers.get("host")):
            await refuse_and_close("forbidden_origin", "connections from pages of another site are refused", 4403)
            return
        try:
            table = await lobby.open(table_id)
            seat = table.seat_of(websocket.query_params.get("token"))
            conn = Conn(seat, websocket.send_text, websocket.close)
            lobby.attach(table, conn)
        except TableError as exc:
            close = {"unknown_table": 4404, "table_full": 4429, "unavailable": 4503}.get(exc.code, 4403)
            await refuse_and_close(exc.code, exc.message, close)
            return
        try:
            while conn.dropped is None:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    conn.push({"type": "error", "code": "malformed", "version": table.version,
                               "message": "messages are JSON text frames, not binary"})
                    continue
                await handle(table, conn, raw)
        except (WebSocketDisconnect, RuntimeError):  # the client went away (RuntimeError: receiving after close)
            pass
        finally:
            lobby.detach(table, conn)

    async def handle(table: LiveTable, conn: Conn, raw: str) -> None:
        def refuse(code: str, message: str) -> None:
            conn.push({"type": "error", "code": code, "message": message, "version": table.version})

        if len(raw) > MAX_MESSAGE:
            refuse("too_large", f"a message is at most {MAX_MESSAGE // 1024} KB")
            return
        try:
            msg = parse_json(raw)
        except TableError:
            refuse("malformed", "messages are JSON objects such as {\"type\": \"act\", \"action\": 3, \"version\": 12}")
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            refuse("malformed", "every message is a JSON object with a \"type\" (act, rematch, sync, ping)")
            return
        kind = msg["type"]
        try:
            if "token" in msg and table.seat_of(msg["token"]) != conn.seat:
                raise TableError("bad_token", "this token does not belong to the seat of this connection")
            if kind == "act":
                text = await lobby.act(table, conn.seat, msg.get("action"), msg.get("version"))
                conn.push({"type": "ack", "action": text, "version": table.version})
            elif kind == "rematch":
                new = await lobby.rematch(table, conn.seat)
                conn.push({"type": "rematch", "table": new})
            elif kind == "sync":
                await lobby.catch_up(table)
                lobby.resend(table, conn)
            elif kind == "ping":
                conn.push({"type": "pong"})
            elif kind == "name":
                chosen = await lobby.rename_seat(table, conn.seat, msg.get("name"))
                conn.push({"type": "named", "name": chosen})
            else:
                shown = kind[:40] if printable(kind) else "?"
                refuse("malformed", f"unknown message type {shown!r}; use act, name, rematch, sync or ping")
        except TableError as exc:
            refuse(exc.code, exc.message)
            if exc.code == "stale":
                lobby.resend(table, conn)

    return app
