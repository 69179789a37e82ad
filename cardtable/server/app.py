"""The web app: lobby and table pages, a JSON API and one websocket per seat or spectator.

`create_app` makes one `AppContext` (the lobby, the limits on clients, the checks every request
passes) and mounts a router per part over it: the pages (`pages.py`), the games' API
(`api_games.py`), the tables' API (`api_tables.py`) and the websocket (`ws.py`, whose docstring
is the protocol). Every refusal is an error with a stable `code` and a sentence a person can act on.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from fastapi.staticfiles import StaticFiles

from . import api_games, api_tables, coaching, pages, shared, ws
from .context import (
    ABANDONED_AFTER,
    MESSAGE_LIMITS,
    UNKNOWN_HOST,
    AppContext,
    RateLimit,
    SafeJSONResponse,
    error_response,
)
from .db import Store
from .live import TableError
from .lobby import Lobby
from .pages import WEB
from .workers import Workers

SECURITY_HEADERS = {
    # Scripts only from this server (no inline script); style attributes are used by the views.
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",  # a seat's link never leaves in a Referer header
}


#: `cardtable serve --workers N` hands each worker process create_app's arguments here, as JSON
SETTINGS_ENV = "CARDTABLE_SERVE_SETTINGS"


def from_environment() -> FastAPI:
    """The app of one of several worker processes (uvicorn's factory), from the settings in SETTINGS_ENV."""
    settings = json.loads(os.environ[SETTINGS_ENV])
    for key in ("allowed_origins", "allowed_hosts"):
        if settings.get(key) is not None:
            settings[key] = tuple(settings[key])
    return create_app(**settings)


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
    allowed_hosts: tuple[str, ...] | None = None,
    message_limits: dict[str, tuple[float, float]] | None = None,
    bot_processes: int = 0,
) -> FastAPI:
    """The app. `database`: a SQLAlchemy URL or a SQLite path (default ./cardtable.db);
    `bot_time`: each bot's time cap per move (seconds); `bot_delay`: a pause before each bot
    move so people can follow the table; `max_spectators` per table; `max_bot_tables` running at
    once; `max_live_tables` kept in memory (beyond it, tables nobody uses are dropped and loaded
    again from the database when asked for); `create_per_minute`: tables one client (address) may create a minute (0: no limit);
    `allowed_origins`: other sites (like "https://games.example") whose pages may use this API;
    `api_docs`: serve /docs and /openapi.json (off by default); `abandoned_after`: seconds without a
    move after which an unfinished table leaves the lobby's list (0: never); it stays stored, and its
    links and replay keep working; `allowed_hosts`: the names the server answers to (the Host of every
    request and websocket; None: any, `cardtable serve` passes the bind address and localhost by default).
    `message_limits`: what one websocket may send per message kind, {kind: (per second, at once)} over
    `context.MESSAGE_LIMITS` (a benchmark's bots act faster than people); `bot_processes`: bots think in
    that many worker processes (0: in a thread of this process). The store's clock (`Store.clock`)
    tells the time."""
    store = store or Store(database)
    lobby = Lobby(store, bot_time=bot_time, bot_delay=bot_delay, max_spectators=max_spectators,
                  max_bot_tables=max_bot_tables, max_live_tables=max_live_tables, bot_processes=bot_processes)
    coach_workers = Workers()  # the coach's reviews and hints think here (coaching.py says why not in the bots')

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lobby.bots.closed = False  # an app served again after a shutdown (its lifespan runs once more)
        lobby.resume_all()  # bots at unfinished tables carry on after a restart
        listener = None
        if store.shared:  # other processes on this database: hear their moves (shared.py)
            app.state.listening = asyncio.Event()
            listener = asyncio.get_running_loop().create_task(shared.listen(lobby, app.state.listening))
        yield
        if listener is not None:
            listener.cancel()
        lobby.bots.close()
        coach_workers.close()
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
    app.state.coach_workers = coach_workers

    ctx = AppContext(lobby, store, RateLimit(create_per_minute), allowed_origins, abandoned_after, allowed_hosts,
                     {**MESSAGE_LIMITS, **(message_limits or {})})

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        if not ctx.host_ok(request.headers.get("host")):
            response: Response = error_response(TableError("unknown_host", UNKNOWN_HOST))
        else:
            response = await call_next(request)
        path = request.url.path
        for k, v in SECURITY_HEADERS.items():
            if k == "content-security-policy" and api_docs and path.startswith(("/docs", "/redoc")):
                continue  # FastAPI's documentation pages load their scripts from a CDN
            response.headers.setdefault(k, v)
        return response

    app.include_router(pages.router(ctx))
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    app.include_router(api_games.router(ctx))
    app.include_router(api_tables.router(ctx))
    app.include_router(coaching.router(ctx, coach_workers))
    app.include_router(ws.router(ctx))
    return app
