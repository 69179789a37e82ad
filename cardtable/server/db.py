"""Persistence: every table is (game, options, seed, seats) plus its action log.

A table is never stored as a state: it is rebuilt by replaying its seed and its actions
(DESIGN.md, "Replays"), so a server restart resumes every table exactly. SQLite by default,
PostgreSQL by URL; SQLAlchemy 2 Core keeps the two the same.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", Integer, nullable=False),
    Column("seats", JSON, nullable=False),  # [{kind: person|bot, agent, name, token_hash}]
    Column("created", Float, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch", String(32), nullable=True),
)

actions_t = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # 0-based position in the action log
    Column("action", Text, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("at", Float, nullable=False),
)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class TableRecord:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    created: float
    finished: bool = False
    rematch_of: str | None = None
    rematch: str | None = None
    actions: list[str] = field(default_factory=list)


def database_url(url: str | None) -> str:
    """A URL SQLAlchemy understands: a bare path means a SQLite file."""
    if not url:
        return "sqlite:///cardtable.db"
    if "://" not in url:
        return f"sqlite:///{url}"
    if url.startswith(("postgresql://", "postgres://")):
        # psycopg 3 is the driver of the "postgres" extra; SQLAlchemy's default for the bare scheme is psycopg2.
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


class Store:
    """The database: create tables, append actions (committed before anyone is told), load."""

    def __init__(self, url: str | None = None) -> None:
        self.url = database_url(url)
        kwargs: dict[str, Any] = {"future": True}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        try:
            self.engine: Engine = create_engine(self.url, **kwargs)
        except ModuleNotFoundError as exc:
            raise RuntimeError(
                f"the database driver for {self.url.split('://')[0]} is not installed ({exc.name}); "
                "for PostgreSQL: pip install 'cardtable[postgres]'"
            ) from None
        if self.url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _pragmas(conn: Any, _record: Any) -> None:  # durable and fast enough for a lobby
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()
        metadata.create_all(self.engine)
        self._insert_action = insert(actions_t)

    def close(self) -> None:
        self.engine.dispose()

    def create(self, rec: TableRecord) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(tables_t).values(
                id=rec.id, game=rec.game, options=rec.options, seed=rec.seed, seats=rec.seats,
                created=rec.created, finished=False, rematch_of=rec.rematch_of, rematch=None,
            ))

    def append(self, table_id: str, n: int, action: str, seat: int) -> None:
        """Write action number `n` and commit. A duplicate `n` fails (primary key): two
        processes sharing a database cannot both append the same move."""
        with self.engine.begin() as conn:
            conn.execute(self._insert_action, {"table_id": table_id, "n": n, "action": action, "seat": seat, "at": time.time()})

    def finish(self, table_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(finished=True))

    def set_rematch(self, table_id: str, rematch: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(rematch=rematch))

    def load(self, table_id: str) -> TableRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if row is None:
                return None
            acts = conn.execute(
                select(actions_t.c.action).where(actions_t.c.table_id == table_id).order_by(actions_t.c.n)
            ).scalars().all()
        return TableRecord(
            id=row["id"], game=row["game"], options=dict(row["options"]), seed=int(row["seed"]),
            seats=list(row["seats"]), created=float(row["created"]), finished=bool(row["finished"]),
            rematch_of=row["rematch_of"], rematch=row["rematch"], actions=list(acts),
        )

    def list(self, limit: int = 50, unfinished_only: bool = False) -> list[dict[str, Any]]:
        q = select(tables_t.c.id, tables_t.c.game, tables_t.c.options, tables_t.c.seats, tables_t.c.created,
                   tables_t.c.finished).order_by(tables_t.c.created.desc())
        if unfinished_only:
            q = q.where(tables_t.c.finished.is_(False))
        if limit:
            q = q.limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(q).mappings().all()
        return [
            {"id": r["id"], "game": r["game"], "options": r["options"], "created": r["created"],
             "finished": bool(r["finished"]),
             "seats": [{"kind": s["kind"], "agent": s.get("agent"), "name": s.get("name")} for s in r["seats"]]}
            for r in rows
        ]
