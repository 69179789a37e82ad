"""The pages: the lobby and a table's page with its game's view."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

from .context import AppContext
from .live import TableError

WEB = Path(__file__).resolve().parent.parent / "web"
#: where table.html takes the script of the table's game view
GAME_VIEW = "<!-- the game's view (server/pages.py, table_page) -->"


def router(ctx: AppContext) -> APIRouter:
    api = APIRouter()

    @api.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    # The table page with the view of the table's game, found through the game's registration
    # (its spec's `web_view`); an unknown table gets the generic view and the page says why.
    table_html = (WEB / "table.html").read_text()

    @api.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> HTMLResponse:
        try:
            view = (await ctx.lobby.open(table_id)).game.spec.web_view
        except TableError:
            view = "generic.js"
        return HTMLResponse(table_html.replace(GAME_VIEW, f'<script src="/static/views/{view}"></script>'))

    return api
