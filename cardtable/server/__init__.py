"""The web server: lobby, tables, seats for people and bots, persistence (docs/server.md)."""

from .app import create_app
from .db import Store
from .live import TableError
from .lobby import Lobby

__all__ = ["Lobby", "Store", "TableError", "create_app"]
