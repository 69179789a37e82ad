"""IUNU observation encoding (layout in docs/rl.md, "IUNU").

Everything comes from `IunuState.observation(seat)`: my hand, my Scribe cards and my Afterlife
card; the Forum, dice, decks and supply; every Dynasty (cards and Bread per Citizen type,
Debens, hand and Scribe counts); and the pending decision. Seats are relative to the observer
(0 = me, 1 = the next seat clockwise); Heliopolis (Memphis and Thebes) has pieces of its own.
Citizen types are in the rulebook's order (`cardtable.games.iunu.cards.CITIZENS`: Pharaoh,
Scribe, Noble, Priest, Artisan, Soldier, Baker, Merchant, Farmer); Afterlife cards in the
order of the game's card file (`game.afterlife_names`).

The Forum is encoded as counts per type, plus the type of its oldest (leftmost) card — the
one Rise of Aten removes — and the counts of the cards just placed (a take decision's
`fresh` cards, the last ones in the row). Not encoded: `round_results`-style end data
(`scores`, `winners`, the cards revealed at game end), `variant` and `players` (fixed for
one game), the `legal_actions` texts (that is the action mask).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

from ...core.encoder import Encoder, Piece
from ...core.game import Game
from .cards import CITIZENS, NUM_TYPES
from .state import BREAD_TOKENS

DECISIONS = (
    "pharaoh_reroll", "play", "second_card", "use_ability", "scribe", "priest_die", "priest_keep",
    "soldier", "tribute", "bake", "artisan", "place", "take",
)
_DECISION = {k: i for i, k in enumerate(DECISIONS)}
_TYPE = {c: i for i, c in enumerate(CITIZENS)}
DICE = 3         # "3 four-sided (d4) dice"
DIE_FACES = 4
DEBENS_CAP = 99  # Debens have no printed limit; beyond 99 (never seen in play) the value is capped
ROUND_CAP = 99
# decision numbers, each written as is: Bake's price and Bread baked so far, Artisan's least
# and most, Place/Take's cards remaining, the Priest's die (1-3) and cards drawn
NUMBERS = ("price", "baked", "least", "most", "remaining", "die", "drawn_count")


class IunuEncoder(Encoder):
    """Seats are relative to the observer: seat s is written at (s - me) % players."""

    private = ("hand", "scribed", "afterlife")  # what only I see: the information state records how it changes

    def pieces(self, game: Game[Any]) -> list[Piece]:
        n = game.players
        cs = game.cards  # type: ignore[attr-defined]
        most = float(max(c.cards for c in cs.citizens))
        deck = float(cs.deck_size)
        afterlife = len(game.afterlife_names)  # type: ignore[attr-defined]
        self.names = {name: i for i, name in enumerate(game.afterlife_names)}  # type: ignore[attr-defined]
        self.heliopolis = bool(game.heliopolis)  # type: ignore[attr-defined]
        pieces = [
            Piece("hand", (NUM_TYPES,), most, "my hand: cards of each Citizen type"),
            Piece("scribed", (NUM_TYPES,), most, "my cards under my Scribe, per type"),
            Piece("afterlife", (afterlife,), 1, "one-hot: the Afterlife card I hold"),
            Piece("forum", (NUM_TYPES,), most, "Forum cards of each type"),
            Piece("forum_oldest", (NUM_TYPES,), 1, "one-hot: the type of the oldest (leftmost) Forum card"),
            Piece("forum_fresh", (NUM_TYPES,), most, "take decision: the cards just placed in the Forum, per type"),
            Piece("dice", (DICE, DIE_FACES + 1), 1, "one-hot per die: its value 1-4, or 0 when removed from play"),
            Piece("deck", (1,), deck, "cards left in the Citizen deck"),
            Piece("afterlife_deck", (1,), float(afterlife), "face-down Afterlife cards left to deal"),
            Piece("bread_supply", (1,), float(BREAD_TOKENS), "Bread tokens left in the supply"),
            Piece("removed", (NUM_TYPES,), most, "cards removed from the game, per type"),
            Piece("dynasty", (n, NUM_TYPES), most, "each relative seat's Dynasty: cards per type"),
            Piece("fed", (n, NUM_TYPES), most, "each relative seat's Citizens with a Bread token, per type"),
            Piece("debens", (n,), float(DEBENS_CAP), "each relative seat's Debens (capped at 99)"),
            Piece("hand_size", (n,), deck, "cards in each relative seat's hand"),
            Piece("scribe_cards", (n,), deck, "cards under each relative seat's Scribe"),
            Piece("has_afterlife", (n,), 1, "1 if the relative seat holds an Afterlife card"),
            Piece("round", (1,), float(ROUND_CAP), "the round number (capped at 99)"),
            Piece("starter", (n,), 1, "one-hot: the relative seat of the Starting Player"),
            Piece("turn", (n + 1,), 1, "one-hot: whose turn: a relative seat, or (last) Heliopolis"),
            Piece("final_turns", (1,), 1, "1 once the Citizen deck ran out (each player's last turn)"),
            Piece("decision", (len(DECISIONS),), 1, "one-hot: the pending decision: " + ", ".join(DECISIONS)),
            Piece("decision_seat", (n,), 1, "one-hot: the relative seat that must decide now"),
            Piece("decision_citizen", (NUM_TYPES,), 1, "one-hot: the Citizen the decision is about (second_card, use_ability)"),
            Piece("decision_numbers", (len(NUMBERS),), deck, "the decision's " + ", ".join(NUMBERS) + " (0 when absent)"),
            Piece("decision_thief", (n,), 1, "one-hot: tribute decision: the relative seat of the Soldier's owner"),
            Piece("decision_drawn", (afterlife,), 1, "my priest_keep decision: the Afterlife cards I drew"),
        ]
        if self.heliopolis:
            pieces += [
                Piece("heliopolis_dynasty", (NUM_TYPES,), most, "Heliopolis' Dynasty: cards per type"),
                Piece("heliopolis_fed", (NUM_TYPES,), most, "Heliopolis' Citizens with Bread, per type"),
                Piece("heliopolis_afterlife", (afterlife,), 1, "one-hot: Heliopolis' Afterlife card, when shown"),
            ]
        return pieces

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        n = game.players
        # the offsets `fill` writes at, looked up once (a dict lookup per write is a good part of
        # the encoding's cost); _rows[me][s]: relative seat s's first index in each per-seat piece
        self._pos = {name: self.at[name] for name in self.at}
        self._rows = [
            [
                (
                    self.at["dynasty"] + r * NUM_TYPES, self.at["fed"] + r * NUM_TYPES, self.at["debens"] + r,
                    self.at["hand_size"] + r, self.at["scribe_cards"] + r, self.at["has_afterlife"] + r,
                )
                for r in ((s - me) % n for s in range(n))
            ]
            for me in range(n)
        ]

    def fill(self, obs: dict[str, Any], buf: MutableSequence[float]) -> None:
        at = self._pos
        n = obs["players"]
        me = obs["seat"] if obs["seat"] is not None else 0
        types = _TYPE
        base = at["hand"]
        for name in obs.get("hand", ()):
            buf[base + types[name]] += 1
        base = at["scribed"]
        for name in obs.get("scribed", ()):
            buf[base + types[name]] += 1
        if obs.get("afterlife") is not None:
            buf[at["afterlife"] + self.names[obs["afterlife"]]] = 1
        forum = obs["forum"]
        base = at["forum"]
        for name in forum:
            buf[base + types[name]] += 1
        if forum:
            buf[at["forum_oldest"] + types[forum[0]]] = 1
        base = at["dice"]
        for i, value in enumerate(obs["dice"]):
            buf[base + i * (DIE_FACES + 1) + (value or 0)] = 1
        buf[at["deck"]] = obs["deck"]
        buf[at["afterlife_deck"]] = obs["afterlife_deck"]
        buf[at["bread_supply"]] = obs["bread_supply"]
        base = at["removed"]
        for name in obs["removed"]:
            buf[base + types[name]] += 1
        for (dynasty, fed, debens, hand_size, scribe_cards, has_afterlife), p in zip(
            self._rows[me], obs["dynasties"], strict=True
        ):
            for name, count in p["dynasty"].items():
                buf[dynasty + types[name]] = count
            for name, count in p["fed"].items():
                buf[fed + types[name]] = count
            buf[debens] = min(p["debens"], DEBENS_CAP)
            buf[hand_size] = p["hand_size"]
            buf[scribe_cards] = p["scribe_cards"]
            if p["has_afterlife"]:
                buf[has_afterlife] = 1
        buf[at["round"]] = min(obs["round"], ROUND_CAP)
        buf[at["starter"] + (obs["starter"] - me) % n] = 1
        turn = obs["turn"]
        if turn == "heliopolis":
            buf[at["turn"] + n] = 1
        elif turn is not None:
            buf[at["turn"] + (turn - me) % n] = 1
        if obs["final_turns"]:
            buf[at["final_turns"]] = 1
        d = obs["decision"]
        if d is not None:
            buf[at["decision"] + _DECISION[d["kind"]]] = 1
            buf[at["decision_seat"] + (d["seat"] - me) % n] = 1
            if len(d) > 2:  # more than kind and seat
                if "citizen" in d:
                    buf[at["decision_citizen"] + types[d["citizen"]]] = 1
                base = at["decision_numbers"]
                for i, key in enumerate(NUMBERS):
                    if key in d:
                        buf[base + i] = d[key]
                if "thief" in d:
                    buf[at["decision_thief"] + (d["thief"] - me) % n] = 1
                base = at["decision_drawn"]
                for name in d.get("drawn", ()):
                    buf[base + self.names[name]] = 1
                fresh = d.get("fresh")
                if fresh:
                    base = at["forum_fresh"]
                    for name in forum[-fresh:]:
                        buf[base + types[name]] += 1
        h = obs.get("heliopolis")
        if self.heliopolis and h is not None:
            for name, count in h["dynasty"].items():
                buf[at["heliopolis_dynasty"] + types[name]] = count
            for name, count in h["fed"].items():
                buf[at["heliopolis_fed"] + types[name]] = count
            if h["afterlife"] is not None:
                buf[at["heliopolis_afterlife"] + self.names[h["afterlife"]]] = 1
