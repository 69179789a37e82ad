"""`cardtable serve`: the web app (lobby, tables, bots in seats) on localhost."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import typer


def hosts_for(host: str, extra: list[str]) -> tuple[str, ...]:
    """The names the server answers to (the Host of each request; DNS rebinding is refused): the address
    it listens on, localhost and each `--allowed-host`. Listening on every interface (0.0.0.0, ::) adds the
    machine's name and its addresses, so a player on the network may use either."""
    names = [host, "localhost", "127.0.0.1", "::1", *extra]
    if host in ("0.0.0.0", "::", ""):
        import socket

        names.append(socket.gethostname())
        with contextlib.suppress(OSError):
            names += [str(a[4][0]) for a in socket.getaddrinfo(socket.gethostname(), None)]
    return tuple(dict.fromkeys(n for n in names if n))


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: str = typer.Option("127.0.0.1", "--host", help="interface to listen on (0.0.0.0 to share on a network)"),
        port: int = typer.Option(8000, "--port", help="TCP port"),
        database: str = typer.Option(
            "cardtable.db", "--database", help="a SQLite file, or a URL such as postgresql://user@host/db"
        ),
        bot_time: float = typer.Option(1.0, "--bot-time", min=0.05, help="time cap per bot move, seconds"),
        bot_delay: float = typer.Option(0.6, "--bot-delay", min=0.0, help="pause before each bot move, seconds"),
        max_spectators: int = typer.Option(1000, "--max-spectators", min=0, help="spectators per table"),
        max_bot_tables: int = typer.Option(20, "--max-bot-tables", min=0, help="unfinished tables with bots at once"),
        max_live_tables: int = typer.Option(
            1000, "--max-live-tables", min=1, help="tables kept in memory; unused ones beyond it are reloaded when asked for"
        ),
        create_per_minute: float = typer.Option(
            30, "--create-per-minute", min=0, help="tables one address may create a minute (0: no limit)"
        ),
        allow_origin: list[str] = typer.Option(
            [], "--allow-origin", help="another site whose pages may use this server, e.g. https://games.example"
        ),
        api_docs: bool = typer.Option(False, "--api-docs", help="also serve /docs and /openapi.json (public)"),
        allowed_host: list[str] = typer.Option(
            [], "--allowed-host", help="a name this server answers to, e.g. games.example (repeatable); always: the "
            "--host address and localhost"
        ),
        workers: int = typer.Option(
            1, "--workers", min=1, help="server processes sharing the port; more than one needs a PostgreSQL --database"
        ),
        bot_processes: int = typer.Option(1, "--bot-processes", min=0, help="worker processes bots think in (0: a thread)"),
        abandoned_after: float = typer.Option(
            24, "--abandoned-after", min=0, help="hours without a move after which an unfinished table leaves the "
            "lobby's list (it stays stored, its links work); 0: list every table"
        ),
        lab: bool = typer.Option(False, "--lab", help="also serve the designers' lab at /lab (simulations: CPU)"),
        lab_password: str = typer.Option(
            "", "--lab-password", envvar="CARDTABLE_LAB_PASSWORD", help="the lab's own password (required with --lab)"
        ),
        lab_runs: Path = typer.Option(Path("runs/lab"), "--lab-runs", help="the lab's results folders and card files"),
        lab_workers: int | None = typer.Option(None, "--lab-workers", min=1, help="the lab's worker processes"),
        ray_address: str | None = typer.Option(None, "--ray-address", help="play the lab's games on this Ray cluster"),
        lab_max_games: int = typer.Option(5000, "--lab-max-games", min=1, help="games a side in one lab run, at most"),
        lab_max_seconds: float = typer.Option(600, "--lab-max-seconds", min=1, help="a lab run stops after this long"),
    ) -> None:
        """Serve the web app: open http://HOST:PORT/ and create a table."""
        import uvicorn

        from ..server import create_app
        from ..server.app import SETTINGS_ENV
        from ..server.context import MAX_MESSAGE
        from ..server.db import database_url, shown_url

        if lab and not lab_password:
            raise typer.BadParameter("the lab needs a password of its own: --lab-password or CARDTABLE_LAB_PASSWORD")
        if lab and workers > 1:
            # a lab run lives in the process that started it (its workers, its stop button)
            raise typer.BadParameter("the lab runs in one process: serve it without --workers", param_hint="--lab")
        settings: dict[str, Any] = {
            "database": database, "bot_time": bot_time, "bot_delay": bot_delay, "max_spectators": max_spectators,
            "max_bot_tables": max_bot_tables, "max_live_tables": max_live_tables, "create_per_minute": create_per_minute,
            "allowed_origins": tuple(allow_origin), "api_docs": api_docs, "abandoned_after": abandoned_after * 3600,
            "allowed_hosts": hosts_for(host, allowed_host), "bot_processes": bot_processes,
        }
        # A websocket frame larger than a message may be is refused by the protocol layer itself.
        run: dict[str, Any] = {"host": host, "port": port, "log_level": "warning", "ws": "websockets-sansio", "ws_max_size": 4 * MAX_MESSAGE}
        if workers > 1:
            url = database_url(database)
            if not url.startswith("postgresql"):
                raise typer.BadParameter("several workers share one PostgreSQL database (--database postgresql://...); "
                                         "SQLite serves one process", param_hint="--workers")
            os.environ[SETTINGS_ENV] = json.dumps(settings)  # each worker process makes its app from these
            typer.echo(f"cardtable: http://{host}:{port}/  ({workers} workers, database: {shown_url(url)})")
            uvicorn.run("cardtable.server.app:from_environment", factory=True, workers=workers, **run)
            return
        web = create_app(**settings)
        if lab:
            from ..server.lab import Lab, router

            web.include_router(router(Lab(lab_password, lab_runs, workers=lab_workers, address=ray_address,
                                          max_games=lab_max_games, max_seconds=lab_max_seconds)))
            typer.echo(f"cardtable: the designers' lab at http://{host}:{port}/lab (runs in {lab_runs})")
        # never print the password (in the user part or as ?password=)
        typer.echo(f"cardtable: http://{host}:{port}/  (database: {shown_url(web.state.store.url)})")
        uvicorn.run(web, **run)
