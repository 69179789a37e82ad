"""Several server processes on one PostgreSQL database, live (issue 31; docs/server.md).

Every change a process stores (a move, a seat taken or named, a game over, a rematch) is announced in
the same transaction with `pg_notify` on `db.CHANNEL`, so it is heard only once it is committed. Each
process LISTENs on one connection of its own: a move of a table it holds in memory is applied there at
once (its connections are sent the new state as if the move were taken here), a gap is read from the
database, and a seat change reloads the seats. So every client sees every move within a moment,
whichever process took it; no other server is needed. Bots are scheduled only by the process that
took the move before theirs, so two processes never think for the same bot.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from ..core import CardtableError
from .db import CHANNEL
from .live import LiveTable
from .lobby import Lobby

log = logging.getLogger("cardtable.server")

#: after the listening connection is lost, wait this long before connecting again
RECONNECT_AFTER = 1.0


async def listen(lobby: Lobby, ready: asyncio.Event | None = None) -> None:
    """Hear every change announced on the database and apply it to this process's live tables. Runs until
    cancelled; a lost connection is opened again and every live table is caught up (it may have missed
    some)."""
    import psycopg

    while True:
        try:
            async with await psycopg.AsyncConnection.connect(lobby.store.listen_conninfo(), autocommit=True) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                for table in list(lobby.tables.values()):  # what was missed while not listening
                    await lobby.catch_up(table)
                if ready is not None:
                    ready.set()
                async for note in conn.notifies():
                    try:
                        change = json.loads(note.payload)
                    except ValueError:
                        continue
                    if isinstance(change, dict):
                        await heard(lobby, change)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the database restarted or the connection broke: listen again
            log.warning("cardtable: listening for other processes' moves failed (%s); again in %g s",
                        type(exc).__name__, RECONNECT_AFTER)
            await asyncio.sleep(RECONNECT_AFTER)


async def heard(lobby: Lobby, change: dict[str, Any]) -> None:
    """Apply one announced change to the table, when this process holds it in memory."""
    table_id = change.get("table")
    table = lobby.tables.get(table_id) if isinstance(table_id, str) else None
    if table is None:
        return  # not loaded here: it is read from the database when someone asks for it
    n, action = change.get("n"), change.get("action")
    if isinstance(n, int) and isinstance(action, str):
        async with table.lock:
            if n < table.version:
                return  # this process took it, or has it already
            if n == table.version and _apply(table, action):
                return
        await lobby.catch_up(table, schedule=False)  # a gap, or a move that does not apply: read the database
    elif change.get("seats"):
        header = await asyncio.to_thread(lobby.store.header, table.id)
        if header is not None:
            table.rec.seats, rematch = header
            table.rec.rematch = table.rec.rematch or rematch
            table.changed()


def _apply(table: LiveTable, action: str) -> bool:
    """Apply a move another process stored (it was legal there, on the same state). False: it does not
    apply here, so the table is read again from the database."""
    if table.state.is_over:
        return False
    try:
        table.game.replay_step(table.state, action)
    except CardtableError:
        return False
    table.rec.actions.append(action)
    if table.state.is_over:
        table.rec.finished = True
    table.changed()
    return True
