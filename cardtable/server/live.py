"""Live tables: the true state in memory, rebuilt from the database, and its fan-out to connections.

Sending never holds a table up (issue 20, finding 3). Each connection has its own writer task:
it sends the newest state when the table has moved on since the last one it sent, then the
connection's own messages (acks, errors) from a short queue. A move only marks the table's
revision and wakes the writers; the acknowledgement never waits for anyone's socket. A message
is built and serialized once per revision for all the connections that are at the same point of
the log (all the spectators, as a rule). Spectators are woken together by one task per table, at
most as often as `SPECTATOR_SENDS_PER_S` sends and `SPECTATOR_BYTES_PER_S` bytes per second allow
for their number and the size of the state, so a crowd costs the players a bounded share of the server; a spectator that falls behind simply receives the
newest state (with the log lines it missed, or only the newest `SPECTATOR_TAIL` of them). A socket that does not take a message within
`SEND_TIMEOUT` seconds, or whose queue of own messages overflows, is dropped. Every connection, a
player's too, is paced by bytes (`CONN_BYTES_PER_S`): past its budget its writer waits and then sends
the newest state, never a backlog (issue 31, hole 2: a state made large was sent on every move).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..core import CardtableError, State, make
from ..core.cards import inline_only
from ..core.game import Game
from ..core.secure_rng import KeyedRng, deal
from ..ui.names import seat_names
from .db import TableRecord, hash_token
from .encoding import dumps, encode

#: a socket that has not taken one message after this many seconds is dropped
SEND_TIMEOUT = 10.0
#: a connection's own messages (acks, errors, pongs) waiting to be sent before it is dropped
DIRECT_LIMIT = 64
#: the spectators of one table are sent at most about this many messages per second in all
SPECTATOR_SENDS_PER_S = 1000.0
#: ... and at most about this many bytes per second in all
SPECTATOR_BYTES_PER_S = 8_000_000.0
#: one connection is sent at most about this many bytes a second, in bursts of up to CONN_BYTES_BURST
CONN_BYTES_PER_S = 2_000_000.0
CONN_BYTES_BURST = 1_000_000.0
#: a spectator more events behind than this is sent only the newest this many log lines
SPECTATOR_TAIL = 50


class TableError(Exception):
    """A request the server refuses; nothing changed. `code` is stable for clients."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message



def make_game(name: str, options: dict[str, Any]) -> Game[Any]:
    """The game of a served table: its options as a client sent them, so card data is inline only (a file
    name is refused before the file system is asked, whatever the game: `core.cards.inline_only`)."""
    with inline_only():
        return make(name, **options)


def start_state(rec: TableRecord, record_events: bool = True) -> State:
    """The table's first state: dealt by the keyed generator (served tables), or SplitMix64 for tables
    stored before keyed deals."""
    return first_state(rec.game, rec.options, rec.seed, rec.rng, record_events)


def first_state(name: str, options: dict[str, Any], seed: int, rng: str, record_events: bool = True) -> State:
    """`start_state` from the record's fields that make the deal (`TableRecord.game`, `.options`, `.seed`,
    `.rng`): a worker process is handed these, not the record with its seats' tokens."""
    game = make_game(name, options)
    if rng == "keyed":
        return deal(game, seed, KeyedRng(seed), record_events)
    state: State = game.new_state(seed, record_events=record_events)
    return state


def replay(rec: TableRecord, actions: list[str] | None = None, every: bool = False) -> list[State]:
    """The table's states after `actions` (default: all its actions): the last one, or `every` one.
    Raises TableError("damaged_table") when the stored log does not replay."""
    actions = rec.actions if actions is None else actions
    try:
        state = start_state(rec)
        out = [state]
        for step, text in enumerate(actions, 1):
            if every:
                state = state.clone()
                out.append(state)
            try:
                state.game.replay_step(state, text)
            except CardtableError as exc:
                raise TableError("damaged_table", f"table {rec.id} cannot be replayed at step {step} ({text!r}): {exc}") from None
    except CardtableError as exc:
        raise TableError("damaged_table", f"table {rec.id} cannot be resumed: {exc}") from None
    return out if every else [state]


@dataclass(eq=False)
class Conn:
    """One websocket (or test double): a seat or a spectator, and how much of the log it has.

    `send` takes JSON text and `close` ends the socket; both are async. The connection's writer
    task (`Lobby.attach`) is the only caller of `send`."""

    seat: int | None
    send: Callable[[str], Awaitable[Any]]
    close: Callable[[], Awaitable[Any]] | None = None
    log_sent: int = 0    # visible events already sent
    events_seen: int = 0  # raw events (state.events) already looked at
    rev_sent: int = -1   # the table revision of the last state sent (-1: none yet)
    direct: deque[str] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    writer: asyncio.Task[None] | None = None
    dropped: str | None = None  # why the server dropped it
    #: bytes this connection may be sent now (below 0: its writer waits), and when that was counted
    byte_level: float = CONN_BYTES_BURST
    byte_at: float = field(default_factory=time.monotonic)

    def spend(self, size: int) -> None:
        """Count `size` bytes sent (the budget refills at CONN_BYTES_PER_S, up to CONN_BYTES_BURST)."""
        now = time.monotonic()
        self.byte_level = min(CONN_BYTES_BURST, self.byte_level + (now - self.byte_at) * CONN_BYTES_PER_S) - size
        self.byte_at = now

    def byte_wait(self) -> float:
        """Seconds until this connection may be sent another state (0: now)."""
        level = self.byte_level + (time.monotonic() - self.byte_at) * CONN_BYTES_PER_S
        return 0.0 if level >= 0 else -level / CONN_BYTES_PER_S

    def push(self, msg: dict[str, Any]) -> None:
        """Queue one of this connection's own messages (never waits). A connection that does not
        read while it keeps sending overflows its queue: it is told why and dropped."""
        if self.dropped is not None:
            return
        if len(self.direct) >= DIRECT_LIMIT:
            self.direct.clear()
            self.direct.append(dumps({"type": "error", "code": "too_slow",
                                      "message": "this connection reads too slowly; it is closed, reconnect to go on"}))
            self.dropped = "too_slow"
        else:
            self.direct.append(dumps(msg))
        self.wake.set()


@dataclass(eq=False)
class LiveTable:
    rec: TableRecord
    game: Game[Any]
    state: State
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: list[Conn] = field(default_factory=list)
    seated: list[Conn] = field(default_factory=list)  # the connections of seats: woken on every change
    bot_task: asyncio.Task[None] | None = None
    #: bumped whenever what a connection is sent changes (a move, a person connecting, a rematch)
    rev: int = 0
    spectators: int = 0
    #: the size of the last state message a spectator was sent
    spectator_bytes: int = 0
    _seat_conns: dict[int, int] = field(default_factory=dict)
    _cache: dict[tuple[Any, ...], tuple[str, int]] = field(default_factory=dict)
    _cache_rev: int = -1
    _spectators_due: asyncio.Event = field(default_factory=asyncio.Event)
    _pump: asyncio.Task[None] | None = None
    _replay: list[State] | None = None
    #: when this process last served the table (time.monotonic): idle tables leave memory first
    touched: float = field(default_factory=time.monotonic)

    @property
    def id(self) -> str:
        return self.rec.id

    @property
    def version(self) -> int:
        return len(self.rec.actions)

    @property
    def has_bots(self) -> bool:
        return any(s.get("kind") == "bot" for s in self.rec.seats)

    def seat_of(self, token: Any) -> int | None:
        """The seat a token opens; raises for a wrong token. No token: a spectator (None)."""
        if token is None or token == "":
            return None
        if not isinstance(token, str) or len(token) > 100:
            raise TableError("bad_token", "a token is the text of a join link (at most 100 characters)")
        try:
            h = hash_token(token)
        except UnicodeEncodeError:
            raise TableError("bad_token", "a token is the text of a join link") from None
        for i, s in enumerate(self.rec.seats):
            th = s.get("token_hash")
            if isinstance(th, str) and secrets.compare_digest(th, h):
                return i
        raise TableError("bad_token", "this token opens no seat at this table; check your join link")

    def names(self) -> list[str]:
        """Each seat's name: chosen when the player sat, else "Player 2" / "Bot 3" (`cardtable.ui.names`)."""
        return seat_names(self.rec.seats)

    def public_seats(self) -> list[dict[str, Any]]:
        names = self.names()
        return [
            {"seat": i, "kind": s["kind"], "agent": s.get("agent"), "name": names[i], "named": bool(s.get("name")),
             "open": bool(s.get("open")) and not s.get("token_hash"),
             "connected": s["kind"] == "bot" or self._seat_conns.get(i, 0) > 0}
            for i, s in enumerate(self.rec.seats)
        ]

    def status(self) -> dict[str, Any]:
        """What the lobby lists about a live table: whose turn it is and how far the game is."""
        cp = self.state.current_player
        over = self.state.is_over
        return {"turn": None if over or cp is None else self.names()[cp], "moves": self.version,
                "seats": [{k: v for k, v in p.items() if k != "seat"} for p in self.public_seats()]}

    def message(self, seat: int | None, log_from: int = 0, events_from: int | None = None) -> dict[str, Any]:
        """The state message for `seat`. The table's options (a custom deck: card data) are in the whole
        message only, the first a connection gets (or after a `sync`), never in the updates that follow:
        what a client stored in them is sent once per connection, not once per move (issue 31, hole 2)."""
        msg = encode(self.id, self.game, self.state, self.version, seat, self.public_seats(), log_from, events_from)
        if log_from == 0 and events_from is None:
            msg["options"] = self.game.options.to_json()
        msg["rematch"] = self.rec.rematch
        msg["finished"] = self.state.is_over
        return msg

    # -- fan-out -------------------------------------------------------------------------

    def changed(self) -> None:
        """What connections are sent has changed: wake the seats' writers now and the spectators'
        through the table's pump. Never waits."""
        self.rev += 1
        for c in self.seated:  # a few; the spectators (maybe a thousand) are woken by the pump
            c.wake.set()
        self._spectators_due.set()

    def state_text(self, conn: Conn) -> str:
        """The state message for `conn` (its log from where it is), serialized once for every
        connection at the same point; moves the connection's cursors."""
        if self._cache_rev != self.rev:
            self._cache.clear()
            self._cache_rev = self.rev
        incremental = conn.log_sent > 0
        behind = len(self.state.events or []) - conn.events_seen
        if conn.seat is None and incremental and behind > SPECTATOR_TAIL:
            # A spectator far behind (a fast table, a crowd paced to a few updates a second) gets the
            # newest lines only, marked `log_reset`: what every spectator is sent stays bounded.
            key: tuple[Any, ...] = (None, "tail")
            hit = self._cache.get(key)
            if hit is None:
                start = max(0, len(self.state.events_for(None)) - SPECTATOR_TAIL)
                msg = self.message(None, start)
                msg["log_reset"] = True
                hit = self._cache[key] = (dumps(msg), msg["log_total"])
        else:
            key = (conn.seat, conn.log_sent, conn.events_seen if incremental else None)
            hit = self._cache.get(key)
            if hit is None:
                msg = self.message(conn.seat, conn.log_sent, conn.events_seen if incremental else None)
                hit = self._cache[key] = (dumps(msg), msg["log_total"])
        conn.log_sent = hit[1]
        conn.events_seen = len(self.state.events or [])
        conn.rev_sent = self.rev
        if conn.seat is None:
            self.spectator_bytes = len(hit[0])
        return hit[0]

    def spectator_interval(self) -> float:
        """The pause between two wakes of the spectators: their number over the messages, and the
        bytes they are sent over the bytes, that the table's crowd may take a second."""
        return max(self.spectators / SPECTATOR_SENDS_PER_S, self.spectators * self.spectator_bytes / SPECTATOR_BYTES_PER_S)

    async def pump(self) -> None:
        """Wake every spectator's writer when the table has changed, at most once per interval."""
        while self.spectators:
            await self._spectators_due.wait()
            self._spectators_due.clear()
            for c in self.conns:
                if c.seat is None:
                    c.wake.set()
            await asyncio.sleep(self.spectator_interval())

