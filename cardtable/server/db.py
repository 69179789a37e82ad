"""Persistence: every table is (game, options, seed, seats) plus its action log.

A table is never stored as a state: it is rebuilt by replaying its seed and its actions
(DESIGN.md, "Replays"), so a server restart resumes every table exactly. SQLite by default,
PostgreSQL by URL; SQLAlchemy 2 Core keeps the two the same.

A served table's seed is a secret of 128 bits or more (core/secure_rng.py), too large for an
integer column: it is kept as decimal text in `seed_text`, with `rng` = "keyed". Tables written
before (`rng` NULL) keep their integer `seed` and SplitMix64, so they resume exactly as before;
an older database gets the two columns added when it is opened.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
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
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", Integer, nullable=False),  # SplitMix64 tables only (rng NULL); 0 for keyed ones
    Column("seed_text", String(160), nullable=True),  # the keyed generator's seed, decimal
    Column("rng", String(16), nullable=True),  # "keyed", or NULL: SplitMix64 from `seed`
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
    rng: str = "keyed"  # or "splitmix" (tables stored before keyed deals)
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


#: the PostgreSQL channel on which every process sharing the database hears of every change to a table
CHANNEL = "cardtable_tables"


#: words that mark a secret among a database URL's query parameters (`?password=...`, `sslpassword`, keys)
SECRET_PARAMS = ("pass", "secret", "token", "key")


def shown_url(url: str) -> str:
    """The database URL to print: without its password, in the user part or in the query (issue 31, hole 4)."""
    u = make_url(database_url(url))
    hidden = {k: ("***" if any(w in k.lower() for w in SECRET_PARAMS) else v) for k, v in u.query.items()}
    return u.set(query=hidden).render_as_string(hide_password=True)


class Store:
    """The database: create tables, append actions (committed before anyone is told), load.

    `clock` gives the wall-clock time (seconds since the epoch) of a table's creation and of each move;
    the lobby measures how long a table has been idle by it (tests pass a fake one)."""

    def __init__(self, url: str | None = None, clock: Callable[[], float] = time.time) -> None:
        self.url = database_url(url)
        self.clock = clock
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
        self._add_missing_columns()
        self._insert_action = insert(actions_t)
        #: several processes share a PostgreSQL database live: each change is announced (NOTIFY) on CHANNEL
        self.shared = self.engine.dialect.name == "postgresql"

    def _announce(self, conn: Any, change: dict[str, Any]) -> None:
        """Tell every process listening on CHANNEL of `change`, when this transaction commits (PostgreSQL
        delivers a NOTIFY only then, so nobody hears of a move that was not stored)."""
        if self.shared:
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": CHANNEL, "payload": json.dumps(change, separators=(",", ":"))})

    def listen_conninfo(self) -> str:
        """The database as psycopg connects to it (for the connection that LISTENs)."""
        return make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)

    def _add_missing_columns(self) -> None:
        """A database made before keyed deals lacks `seed_text` and `rng`: add them (both nullable)."""
        have = {c["name"] for c in inspect(self.engine).get_columns("tables")}
        with self.engine.begin() as conn:
            for name, sql_type in (("seed_text", "VARCHAR(160)"), ("rng", "VARCHAR(16)")):
                if name not in have:
                    conn.execute(text(f"ALTER TABLE tables ADD COLUMN {name} {sql_type}"))

    def close(self) -> None:
        self.engine.dispose()

    def create(self, rec: TableRecord) -> None:
        with self.engine.begin() as conn:
            keyed = rec.rng == "keyed"
            conn.execute(insert(tables_t).values(
                id=rec.id, game=rec.game, options=rec.options, seed=0 if keyed else rec.seed,
                seed_text=str(rec.seed) if keyed else None, rng="keyed" if keyed else None, seats=rec.seats,
                created=rec.created, finished=False, rematch_of=rec.rematch_of, rematch=None,
            ))

    def append(self, table_id: str, n: int, action: str, seat: int) -> None:
        """Write action number `n` and commit. A duplicate `n` fails (primary key): two
        processes sharing a database cannot both append the same move."""
        with self.engine.begin() as conn:
            conn.execute(self._insert_action, {"table_id": table_id, "n": n, "action": action, "seat": seat, "at": self.clock()})
            self._announce(conn, {"table": table_id, "n": n, "action": action})

    def finish(self, table_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(finished=True))
            self._announce(conn, {"table": table_id, "seats": True})

    def set_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        """A seat was taken or named: the seats (kind, agent, name, open, token_hash) as they are now."""
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(seats=seats))
            self._announce(conn, {"table": table_id, "seats": True})

    def set_rematch(self, table_id: str, rematch: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(rematch=rematch))
            self._announce(conn, {"table": table_id, "seats": True})

    def header(self, table_id: str) -> tuple[list[dict[str, Any]], str | None] | None:
        """A table's seats and rematch as stored now (None: no such table)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t.c.seats, tables_t.c.rematch).where(tables_t.c.id == table_id)).first()
        return None if row is None else (list(row[0]), row[1])

    def count(self, table_id: str) -> int:
        """How many actions the database holds for a table (a cheap look at whether it is ahead)."""
        with self.engine.connect() as conn:
            n = conn.execute(select(func.count()).select_from(actions_t).where(actions_t.c.table_id == table_id)).scalar()
        return int(n or 0)

    def load(self, table_id: str) -> TableRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if row is None:
                return None
            acts = conn.execute(
                select(actions_t.c.action).where(actions_t.c.table_id == table_id).order_by(actions_t.c.n)
            ).scalars().all()
        keyed = row["rng"] == "keyed"
        return TableRecord(
            id=row["id"], game=row["game"], options=dict(row["options"]),
            seed=int(row["seed_text"]) if keyed else int(row["seed"]), rng="keyed" if keyed else "splitmix",
            seats=list(row["seats"]), created=float(row["created"]), finished=bool(row["finished"]),
            rematch_of=row["rematch_of"], rematch=row["rematch"], actions=list(acts),
        )

    def list(self, limit: int = 50, unfinished_only: bool = False, active_since: float | None = None) -> list[dict[str, Any]]:
        """The newest tables, each with its number of moves and the time of its last move (None before
        the first). `active_since`: leave out unfinished tables with no move (nor creation) since then,
        abandoned ones; they stay stored and their links keep working."""
        of_table = actions_t.c.table_id == tables_t.c.id  # per listed table, on the actions' primary key
        moves = select(func.count()).select_from(actions_t).where(of_table).scalar_subquery()
        last_move = select(func.max(actions_t.c.at)).where(of_table).scalar_subquery()
        # Not the options: a custom deck may be 128 KB, and parsing 50 of them held up the listing (issue 31, hole 6).
        q = select(tables_t.c.id, tables_t.c.game, tables_t.c.seats, tables_t.c.created,
                   tables_t.c.finished, moves.label("moves"), last_move.label("last_move")).order_by(tables_t.c.created.desc())
        if unfinished_only:
            q = q.where(tables_t.c.finished.is_(False))
        if active_since is not None:
            q = q.where(tables_t.c.finished.is_(True) | (func.coalesce(last_move, tables_t.c.created) >= active_since))
        if limit:
            q = q.limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(q).mappings().all()
        out = []
        for r in rows:
            try:
                out.append(_listing(r))
            except Exception:  # a damaged row (written by hand, or by an older server) must not hide the others
                continue
        return out


def _text(value: Any) -> str | None:
    """Text that can be sent as UTF-8: a lone surrogate (never valid Unicode text) becomes U+FFFD."""
    if value is None:
        return None
    s = str(value)
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        s = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in s)
    return s


def _listing(r: Any) -> dict[str, Any]:
    seats = r["seats"]
    if not isinstance(seats, list):
        raise ValueError("seats is not a list")
    return {
        "id": _text(r["id"]), "game": _text(r["game"]), "created": float(r["created"]), "finished": bool(r["finished"]),
        "moves": int(r["moves"] or 0), "last_move": None if r["last_move"] is None else float(r["last_move"]),
        "seats": [{"kind": _text(s["kind"]), "agent": _text(s.get("agent")), "name": _text(s.get("name")),
                   "open": bool(s.get("open")) and not s.get("token_hash")} for s in seats],
    }
