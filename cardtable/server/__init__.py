"""The web server: lobby, tables, seats for people and bots, persistence (docs/server.md)."""

from .app import create_app
from .db import Store
from .tables import Lobby, TableError

__all__ = ["Lobby", "Store", "TableError", "create_app"]
