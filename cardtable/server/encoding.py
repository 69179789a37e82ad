"""What a seat is sent: its state message, built only from what it may see, and JSON for a socket.

The server only encodes and transports (DESIGN.md: "Adapters only encode and transport"). What a
seat receives is built from `state.observation(seat)`, `state.events_for(seat)` (narrated by the
game's text module) and, when that seat must decide, its legal actions — nothing else of the
state, so a seat is never sent what its observation would not show.
"""

from __future__ import annotations

import json
from typing import Any

from ..core import State
from ..core.game import Game
from ..ui.names import question, rename, seated
from ..ui.text import choices, narrate, standings


def narrate_lines(game: Game[Any], events: list[Any], seat: int | None, names: list[str] | None = None) -> list[str]:
    """Log lines for `events` as `seat` sees them: each game's text.py through `cardtable.ui.text`,
    every player called by the name in `names` (`cardtable.ui.names`)."""
    out = []
    with seated(names):
        for e in events:
            line = narrate(game, e.to_json(), seat)  # (named by `ui.text.narrate`)
            if line:
                out.append(line)
    return out


#: how far back the log is searched for each seat's last play
LAST_PLAY_SCAN = 300
#: events about a seat that are not something it did
NOT_PLAYS = frozenset({"turn", "turn_started", "round_started", "setup", "dealt", "round_over", "game_over"})


def last_plays(game: Game[Any], state: State, seat: int | None, names: list[str]) -> dict[str, str]:
    """Each seat's most recent log line about something it did (events with its `seat`), as `seat` sees them."""
    found: dict[str, str] = {}
    events = state.events or []
    for e in reversed(events[-LAST_PLAY_SCAN:]):
        who = e.data.get("seat")
        # public events only: a line only one seat reads ("you drew red 7") is not a play the others see
        if not isinstance(who, int) or str(who) in found or e.to is not None or e.kind in NOT_PLAYS:
            continue
        line = narrate_lines(game, [e], seat, names)
        if line:
            found[str(who)] = line[0]
            if len(found) >= game.players:
                break
    return found


def _named(why: str | None) -> str | None:
    """A rule's reason with the seats called by their names (None: the move is legal)."""
    return None if why is None else rename(why)


def encode(
    table_id: str,
    game: Game[Any],
    state: State,
    version: int,
    seat: int | None,
    seats: list[dict[str, Any]],
    log_from: int = 0,
    events_from: int | None = None,
) -> dict[str, Any]:
    """The message a seat (None: a spectator) receives at `version`.

    Built only from observation(seat), events_for(seat) and, for the seat that must decide,
    legal_actions(): the leak test checks this by comparing it with the same message built from
    `state.determinize(seat)`, whose hidden cards are resampled."""
    if events_from is None:  # the whole log from visible event `log_from`
        visible = state.events_for(seat)
        new, total = visible[log_from:], len(visible)
    else:  # only events recorded since raw index `events_from` (a connection's cursor), `log_from` seen before
        new = [e for e in (state.events or [])[events_from:] if e.visible_to(seat)]
        total = log_from + len(new)
    decides = seat is not None and state.current_player == seat
    names = [str(s.get("name")) for s in seats]
    obs = state.observation(seat)
    legal = state.legal_actions() if decides else []
    pending = obs.get("decision") if isinstance(obs, dict) and not state.is_over else None
    with seated(names):
        labels = dict(choices(game, obs, [a.text for a in legal])) if legal else {}
        # the decision's own question (its `text`), addressed to this viewer, with the seats' names
        asked = (None if not isinstance(pending, dict) or "text" not in pending else
                 {"seat": pending["seat"], "kind": pending["kind"], "text": question(pending["seat"], seat, pending["text"])})
        # each card the deciding seat holds: the move that plays it and, when refused, the rule's reason
        cards = {name: {**status, "why": _named(status["why"]),
                        "moves": [{"move": m["move"], "why": _named(m["why"])} for m in status["moves"]]}
                 for name, status in state.card_status(seat).items()}
    out: dict[str, Any] = {
        "type": "state",
        "table": table_id,
        "game": game.spec.name,
        "title": game.spec.title,
        "version": version,
        "seat": seat,
        "seats": seats,
        "current_player": state.current_player,
        "observation": obs,
        "log_from": log_from,
        "log_total": total,
        "log": narrate_lines(game, new, seat, names),
        "legal": [{"index": a.index, "text": a.text, "label": labels.get(k, a.text)} for k, a in enumerate(legal)],
        "prompt": asked,
        "cards": cards,
        "over": state.is_over,
        "last_plays": last_plays(game, state, seat, names),
    }
    if state.is_over:
        out["winners"] = state.winners()
        out["standings"] = standings(game, state, seat)
    return out


def dumps(msg: dict[str, Any]) -> str:
    """JSON text for a socket. Text that is not valid Unicode (a lone surrogate in an old row) is escaped."""
    text = json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(msg, separators=(",", ":"))
    return text

