"""JUNO in the terminal: a seat's observation and its events, drawn with rich."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ...ui.names import name as seat_name
from ...ui.names import player, prompt
from .cards import (
    CARD_COLOR,
    CARD_NAME,
    CARD_POINTS,
    CARD_RANK,
    COLORS,
    DRAW_TWO,
    NO_COLOR,
    RANK_NAMES,
    REVERSE,
    SKIP,
    WILD_DRAW_FOUR_RANK,
    WILD_RANK,
)

STYLE = {"red": "bold white on red3", "yellow": "bold black on yellow3", "green": "bold white on green4",
         "blue": "bold white on blue3", None: "bold white on grey23"}


def card(name: str) -> Text:
    # The color word stays in the label: the card must read right without color, too.
    color = name.split()[0] if name.split()[0] in STYLE else None
    return Text(f" {name} ", style=STYLE[color]) if color else Text(f" {name} ", style="bold black on white")


def cards(names: list[str]) -> Text:
    out = Text()
    for i, n in enumerate(names):
        if i:
            out.append(" ")
        out.append_text(card(n))
    return out


def render(obs: dict[str, Any], game: Any = None) -> RenderableType:
    seat = obs["seat"]
    table = Table(title=f"JUNO {obs['variant']} — round {obs['round']}", expand=False)
    table.add_column("seat")
    table.add_column("cards", justify="right")
    table.add_column("score", justify="right")
    table.add_column("")
    for s, count in enumerate(obs["hand_counts"]):
        marks = []
        if s == obs["dealer"]:
            marks.append("dealer")
        if s == obs["turn"]:
            marks.append("to play")
        if count == 1:
            marks.append("UNO!")
        name = player(s, seat)
        table.add_row(f"[bold]{name}[/]" if s == seat else name, str(count), str(obs["scores"][s]), ", ".join(marks))
    pile = Text("Discard: ")
    if obs["top_card"]:
        pile.append_text(card(obs["top_card"]))
    pile.append(f"   color in play: {obs['color'] or '(to be chosen)'}   draw pile: {obs['draw_pile']}   "
                f"play goes {obs['direction']}")
    if obs["penalty"]:
        pile.append(f"   stacked draw: {obs['penalty']}", style="bold red")
    parts: list[RenderableType] = [table, pile]
    if seat is not None and "hand" in obs:
        parts.append(Text("Your hand: ").append_text(cards(obs["hand"])))
    d = obs["decision"]
    if d is not None:
        parts.append(Text(prompt(d["seat"], seat, d["text"]) + (f" (drew {d['drawn']})" if "drawn" in d else ""),
                          style="italic"))
    if obs["is_over"]:
        parts.append(Text(f"Game over. {' and '.join(seat_name(w) for w in obs['winners'])} "
                          f"win{'s' if len(obs['winners']) == 1 else ''}.", style="bold"))
    return Panel(Group(*parts), expand=False)


def narrate(event: dict[str, Any], viewer: int | None, obs: dict[str, Any] | None = None) -> str | None:
    """One line for an event the viewer may see (None: not worth a line). `obs`, the viewer's
    observation just after the event, lets a line name who a Skip skipped."""
    k = event["kind"]

    def who(s: int) -> str:  # "seat N": the table's names replace it (cardtable.ui.names)
        return f"seat {s}"

    if k == "played":
        call = " and calls UNO!" if event["uno"] else ""
        skipped = ""
        if event["card"].endswith(" skip") and obs is not None:
            # "The next person in line to play after this card is played is skipped" (juno.txt, Skip).
            nxt = (event["seat"] + (1 if obs["direction"] == "left" else -1)) % len(obs["hand_counts"])
            skipped = f": seat {nxt} is skipped"
        return f"{who(event['seat'])} played {event['card']}{call}{skipped}"
    if k == "drew":
        if event["count"] < event["wanted"]:
            return f"{who(event['seat'])} drew {event['count']} (the piles ran out)"
        return f"{who(event['seat'])} drew {event['count']}"
    if k == "drew_cards":
        return f"  (you drew {', '.join(event['cards'])})"
    if k == "kept":
        return f"{who(event['seat'])} kept the drawn card"
    if k == "color_chosen":
        return f"{who(event['seat'])} chose {event['color']}"
    if k == "swapped":
        return f"{who(event['seat'])} traded hands with {who(event['other'])}"
    if k == "hands_passed":
        return f"every hand passes to the {event['direction']}"
    if k == "uno_missed":
        return f"{who(event['seat'])} did not call UNO!"
    if k == "caught":
        return f"{who(event['seat'])} caught {who(event['target'])}: draw 2"
    if k == "challenged":
        verdict = "guilty: draws 4" if event["guilty"] else "innocent: the challenger draws 6"
        return f"{who(event['seat'])} challenged {who(event['offender'])}'s Wild Draw Four — {verdict}"
    if k == "hand_shown":
        return f"  (seat {event['seat']} shows you: {', '.join(event['cards'])})"
    if k == "challenge_declined":
        return f"{who(event['seat'])} accepts the Wild Draw Four"
    if k == "reshuffled":
        return f"the discard pile is reshuffled into a new draw pile ({event['cards']} cards)"
    if k == "start_card":
        return f"the start card is {event['card']}"
    if k == "start_card_returned":
        return f"{event['card']} turned up: it goes back into the deck"
    if k == "round_started":
        return f"— round {event['round']}: seat {event['dealer']} deals {event['hand_size']} cards each —"
    if k == "dealt":
        return f"  (your hand: {', '.join(event['cards'])})"
    if k == "dealer_draw":
        drawn = ", ".join(f"seat {s}: {c}" for s, c in event["draws"])
        return f"drawing for the deal: {drawn}"
    if k == "went_out":
        return f"{who(event['seat'])} went out!"
    if k == "round_over":
        how = " (blocked round)" if event["blocked"] else ""
        return f"round {event['round']} to {who(event['winner'])}: {event['points']} points{how}"
    if k == "could_not_draw":
        return f"{who(event['seat'])} could not draw: no cards left"
    if k == "game_over":
        ranked = sorted(range(len(event["scores"])), key=lambda s: -event["scores"][s])
        return "game over — " + ", ".join(f"seat {s} {event['scores'][s]} point{'' if event['scores'][s] == 1 else 's'}"
                                          for s in ranked)
    return None


#: what declining ("pass") means in each decision that offers it: the terminal and both of the web
#: table's places for it (the decision's own button and "Your moves") say it in these words
PASS_LABEL = {
    "after_draw": "keep the card",  # "If the card is playable ... otherwise keep it" (juno.txt: drawing)
    "stack": "end the play here",  # serious: add no more cards of the same value
    "catch": "let it go",  # not catching the player who did not call UNO
    "challenge": "accept the Wild Draw Four",  # not challenging: draw the 4 cards
}


def choices(obs: dict[str, Any], texts: list[str]) -> list[tuple[int, str]]:
    """The moves' labels, one wording wherever a move is offered: "pass" says what it declines, a
    trade, a catch and a challenge name the player (seat N: the table's names replace it)."""
    d = obs["decision"] or {}
    out = []
    for i, t in enumerate(texts):
        if t == "pass":
            t = PASS_LABEL.get(d.get("kind", ""), t)
        elif t.startswith("swap with seat "):
            t = f"trade hands with seat {t.split()[-1]}"
        elif t == "catch" and "target" in d:
            t = f"catch seat {d['target']}: 2 cards for not calling UNO"
        elif t == "challenge" and "offender" in d:
            t = f"challenge seat {d['offender']}'s Wild Draw Four"
        out.append((i, t))
    return out


def card_text(rank: int, points: int, variant: str) -> str:
    """What a card does (juno.txt, "Action cards"; NOTES.md for seven-o and serious), and its points."""
    worth = f" Worth {points} point{'' if points == 1 else 's'} in a hand at the end of a round."
    if rank == SKIP:
        text = "The next player in turn is skipped. Play it on the same color or on another Skip."
    elif rank == REVERSE:
        text = "The direction of play reverses. Play it on the same color or on another Reverse."
    elif rank == DRAW_TWO:
        text = "The next player draws 2 cards and misses their turn. Play it on the same color or on another Draw Two."
    elif rank == WILD_RANK:
        text = "Play it on any card; you choose the color in play."
    elif rank == WILD_DRAW_FOUR_RANK:
        text = ("You choose the color in play; the next player draws 4 cards and misses their turn. Only when you hold "
                "no card of the color in play.")
    else:
        text = f"A number card: play it on the same color or on another {rank}."
        if variant == "seven-o" and rank == 7:
            text += " Seven-o: you swap hands with a player of your choice."
        elif variant == "seven-o" and rank == 0:
            text += " Seven-o: every hand passes to the next player in the direction of play."
    if variant == "serious" and rank in (DRAW_TWO, WILD_DRAW_FOUR_RANK):
        text += " Serious: the next player may answer with the same card; the first who cannot draws the whole sum."
    return text + worth


def card_catalog(game: Any) -> list[dict[str, Any]]:
    """Every card of the game's deck (the rule set's or a custom deck), with what it does, and its
    colour ("wild" for a wild), rank and points as fields, so that a view draws the card without
    reading its name."""
    variant = game.options.variant
    out = []
    for t, copies in enumerate(game.counts):
        if copies:
            rank = CARD_RANK[t]
            kind = "number" if rank < 10 else "wild" if rank >= WILD_RANK else "action"
            color = "wild" if CARD_COLOR[t] == NO_COLOR else COLORS[CARD_COLOR[t]]
            out.append({"name": CARD_NAME[t], "kind": kind, "text": card_text(rank, CARD_POINTS[t], variant),
                        "copies": copies, "color": color, "rank": RANK_NAMES[rank], "points": CARD_POINTS[t]})
    return out
