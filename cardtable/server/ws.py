"""The websocket: one per seat or spectator.

Protocol (docs/server.md): a client opens `/ws/{table}?token=T` (no token: a spectator) and
receives `state` messages; it sends `{"type": "act", "action": index-or-text, "version": v}`
(plus, optionally, `"token"`), `{"type": "rematch"}`, `{"type": "sync"}` or `{"type": "ping"}`.
Every refusal is an `error` message with a stable `code` and a sentence a person can act on;
nothing changes.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .context import MAX_MESSAGE, UNKNOWN_HOST, AppContext, MessageLimits, parse_json
from .encoding import dumps
from .live import SEND_TIMEOUT, Conn, LiveTable, TableError
from .lobby import printable


def router(ctx: AppContext) -> APIRouter:
    api = APIRouter()

    @api.websocket("/ws/{table_id}")
    async def ws_table(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()

        async def refuse_and_close(code: str, message: str, close_code: int) -> None:
            await websocket.send_text(dumps({"type": "error", "code": code, "message": message}))
            await websocket.close(code=close_code)

        if not ctx.host_ok(websocket.headers.get("host")):
            await refuse_and_close("unknown_host", UNKNOWN_HOST, 4421)
            return
        if not ctx.origin_ok(websocket.headers.get("origin"), websocket.headers.get("host")):
            await refuse_and_close("forbidden_origin", "connections from pages of another site are refused", 4403)
            return
        try:
            table = await ctx.lobby.open(table_id)
            seat = table.seat_of(websocket.query_params.get("token"))
            conn = Conn(seat, websocket.send_text, websocket.close)
            ctx.lobby.attach(table, conn)
        except TableError as exc:
            close = {"unknown_table": 4404, "table_full": 4429, "unavailable": 4503}.get(exc.code, 4403)
            await refuse_and_close(exc.code, exc.message, close)
            return
        limits = MessageLimits(ctx.message_limits)
        try:
            while conn.dropped is None:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    if limit(conn, limits, "other"):
                        conn.push({"type": "error", "code": "malformed", "version": table.version,
                                   "message": "messages are JSON text frames, not binary"})
                    continue
                await handle(table, conn, raw, limits)
        except (WebSocketDisconnect, RuntimeError):  # the client went away (RuntimeError: receiving after close)
            pass
        finally:
            if conn.dropped not in (None, "closed") and conn.writer is not None and not conn.writer.done():
                # The server dropped it (too slow, too many messages): its writer first sends why, then
                # closes (cancelled here, the error was lost: issue 31, hole 5).
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(conn.writer), SEND_TIMEOUT)
            ctx.lobby.detach(table, conn)

    def limit(conn: Conn, limits: MessageLimits, kind: str) -> bool:
        """True when the connection may send this message now; else it is told why and dropped."""
        if limits.take(kind):
            return True
        conn.push({"type": "error", "code": "rate_limited", "message": limits.refusal(kind)})
        conn.dropped = conn.dropped or "rate_limited"
        return False

    async def handle(table: LiveTable, conn: Conn, raw: str, limits: MessageLimits) -> None:
        def refuse(code: str, message: str) -> None:
            conn.push({"type": "error", "code": code, "message": message, "version": table.version})

        if len(raw) > MAX_MESSAGE:
            if limit(conn, limits, "other"):
                refuse("too_large", f"a message is at most {MAX_MESSAGE // 1024} KB")
            return
        try:
            msg = parse_json(raw)
        except TableError:
            if limit(conn, limits, "other"):
                refuse("malformed", "messages are JSON objects such as {\"type\": \"act\", \"action\": 3, \"version\": 12}")
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            if limit(conn, limits, "other"):
                refuse("malformed", "every message is a JSON object with a \"type\" (act, rematch, sync, ping)")
            return
        kind = msg["type"]
        if not limit(conn, limits, kind):
            return
        try:
            if "token" in msg and table.seat_of(msg["token"]) != conn.seat:
                raise TableError("bad_token", "this token does not belong to the seat of this connection")
            if kind == "act":
                text = await ctx.lobby.act(table, conn.seat, msg.get("action"), msg.get("version"))
                conn.push({"type": "ack", "action": text, "version": table.version})
            elif kind == "rematch":
                new = await ctx.lobby.rematch(table, conn.seat)
                conn.push({"type": "rematch", "table": new})
            elif kind == "sync":
                await ctx.lobby.catch_up(table)
                ctx.lobby.resend(table, conn)
            elif kind == "ping":
                conn.push({"type": "pong"})
            elif kind == "name":
                chosen = await ctx.lobby.rename_seat(table, conn.seat, msg.get("name"))
                conn.push({"type": "named", "name": chosen})
            else:
                shown = kind[:40] if printable(kind) else "?"
                refuse("malformed", f"unknown message type {shown!r}; use act, name, rematch, sync or ping")
        except TableError as exc:
            refuse(exc.code, exc.message)
            if exc.code == "stale":
                ctx.lobby.resend(table, conn)

    return api
