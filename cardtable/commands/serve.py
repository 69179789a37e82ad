"""`cardtable serve`: the web app (lobby, tables, bots in seats) on localhost."""

from __future__ import annotations

import typer


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
    ) -> None:
        """Serve the web app: open http://HOST:PORT/ and create a table."""
        import uvicorn

        from ..server import create_app

        web = create_app(database, bot_time=bot_time, bot_delay=bot_delay)
        typer.echo(f"cardtable: http://{host}:{port}/  (database: {web.state.store.url})")
        uvicorn.run(web, host=host, port=port, log_level="warning", ws="websockets-sansio")
