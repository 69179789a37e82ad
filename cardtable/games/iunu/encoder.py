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

The layout is written once, in `write`, from `SeatView` (cardtable/games/iunu/state.py). `fill`
reads the observation dict back into that view (`view_of`); `encode_state`, what the environments
call, takes `IunuState.seat_view(seat)`, the same view without card names: the fast path of
`Encoder.encode_state` (cardtable/core/encoder.py: the whole-number buffer, one conversion),
compiled with the engine. tests/rl/test_encoders.py checks both paths give the same array in every
state of random games, for every seat. Per call, best of many, a loaded machine: IUNU 9.8 us with the dict -> 3.7-3.8 us.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any, cast

import numpy as np
from mypy_extensions import mypyc_attr

from ...core.encoder import Encoder, Piece
from ...core.game import Game
from ...core.state import State
from ...core.tally import write_counts
from .cards import CITIZENS, NUM_TYPES
from .state import BREAD_TOKENS, HELIOPOLIS, IunuState, SeatView

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
NUMBERS = ("price", "baked", "least", "most", "remaining", "die", "drawn_count")  # as in SeatView
# the pieces `write` writes at one offset (the per-seat pieces have rows of their own)
_WRITTEN = (
    "hand", "scribed", "afterlife", "forum", "forum_oldest", "forum_fresh", "dice", "deck", "afterlife_deck",
    "bread_supply", "removed", "round", "starter", "turn", "final_turns", "decision_seat", "decision_citizen",
    "decision_numbers", "decision_thief", "decision_drawn",
)


def _per_type(counts: dict[str, int]) -> list[int]:
    """A dict's `{Citizen name: count}` as a count per type."""
    out = [0] * NUM_TYPES
    for name, count in counts.items():
        out[_TYPE[name]] = count
    return out


# a plain Python class in the compiled build (cardtable/_native.py), as the core's `Encoder` it
# extends is; its methods are compiled
@mypyc_attr(native_class=False)
class IunuEncoder(Encoder):
    """Seats are relative to the observer: seat s is written at (s - me) % players. Afterlife cards
    are written at their index in `game.afterlife_names` (the card file's names are unique)."""

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
        at = self.at
        # the offsets `write` writes at, looked up once (a dict lookup per write is a good part of
        # the encoding's cost); _rows[me][s]: relative seat s's first index in each per-seat piece
        self._offsets = tuple(at[name] for name in _WRITTEN)
        self._rows = [
            [
                (
                    at["dynasty"] + r * NUM_TYPES, at["fed"] + r * NUM_TYPES, at["debens"] + r,
                    at["hand_size"] + r, at["scribe_cards"] + r, at["has_afterlife"] + r,
                )
                for r in ((s - me) % n for s in range(n))
            ]
            for me in range(n)
        ]
        self._decision_at = {kind: at["decision"] + i for kind, i in _DECISION.items()}
        helio = ("heliopolis_dynasty", "heliopolis_fed", "heliopolis_afterlife")
        self._heliopolis_at = tuple(at[name] for name in helio) if self.heliopolis else None

    def encode_state(self, state: State, seat: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """`encode(state.observation(seat))`, written from `state.seat_view(seat)` (module docstring):
        every value is a whole number, so into the whole-number buffer."""
        # cast: compiled, a call of IunuState's own method, not a look-up by name
        self.write(cast(IunuState, state).seat_view(seat), self.cleared_counts())
        return self.counts_result(out)

    def fill(self, obs: dict[str, Any], buf: MutableSequence[float]) -> None:
        self.write(self.view_of(obs), buf)

    def view_of(self, obs: dict[str, Any]) -> SeatView:
        """The observation dict's numbers: the `SeatView` that `IunuState.seat_view` gives of the
        same state for the same seat (each field names the entry it reads)."""
        types = _TYPE
        cards = self.names
        d = obs["decision"] or {}
        h = obs["heliopolis"]
        seats = obs["dynasties"]
        afterlife = obs.get("afterlife")
        turn = obs["turn"]
        return SeatView(
            obs["players"],
            obs["seat"],
            [types[name] for name in obs.get("hand", ())],
            [types[name] for name in obs.get("scribed", ())],
            cards[afterlife] if afterlife is not None else -1,
            [types[name] for name in obs["forum"]],
            [value or 0 for value in obs["dice"]],
            obs["deck"],
            obs["afterlife_deck"],
            obs["bread_supply"],
            [types[name] for name in obs["removed"]],
            [_per_type(p["dynasty"]) for p in seats],
            [_per_type(p["fed"]) for p in seats],
            [p["debens"] for p in seats],
            [p["hand_size"] for p in seats],
            [p["scribe_cards"] for p in seats],
            [p["has_afterlife"] for p in seats],
            obs["round"],
            obs["starter"],
            HELIOPOLIS if turn == "heliopolis" else turn,
            obs["final_turns"],
            d.get("kind"),
            d.get("seat", -1),
            types[d["citizen"]] if "citizen" in d else -1,
            d.get("price", 0),
            d.get("baked", 0),
            d.get("least", 0),
            d.get("most", 0),
            d.get("remaining", 0),
            d.get("die", 0),
            d.get("drawn_count", 0),
            d.get("thief", -1),
            [cards[name] for name in d.get("drawn", ())],
            d.get("fresh", 0),
            _per_type(h["dynasty"]) if h is not None else None,
            _per_type(h["fed"]) if h is not None else None,
            cards[h["afterlife"]] if h is not None and h["afterlife"] is not None else -1,
        )

    def write(self, v: SeatView, buf: MutableSequence[Any]) -> None:
        """Write the view into `buf`, `size` zeros: the layout (docs/rl.md, "IUNU")."""
        (n, seat, hand, scribed, afterlife, forum, dice, deck, afterlife_deck, bread_supply, removed, dynasties,
         fed_types, debens_list, hand_sizes, scribe_counts, afterlife_shown, round_, starter, turn, final_turns,
         kind, decider, citizen, price, baked, least, most, remaining, die, drawn_count, thief, drawn, fresh,
         helio_dynasty, helio_fed, helio_afterlife) = v
        (hand_at, scribed_at, afterlife_at, forum_at, oldest_at, fresh_at, dice_at, deck_at, afterlife_deck_at,
         bread_at, removed_at, round_at, starter_at, turn_at, final_at, seat_at, citizen_at, numbers_at, thief_at,
         drawn_at) = self._offsets
        me = seat if seat is not None else 0
        write_counts(buf, hand_at, hand, NUM_TYPES)
        write_counts(buf, scribed_at, scribed, NUM_TYPES)
        if afterlife >= 0:
            buf[afterlife_at + afterlife] = 1
        write_counts(buf, forum_at, forum, NUM_TYPES)
        if forum:
            buf[oldest_at + forum[0]] = 1
        for i, value in enumerate(dice):
            buf[dice_at + i * (DIE_FACES + 1) + value] = 1
        buf[deck_at] = deck
        buf[afterlife_deck_at] = afterlife_deck
        buf[bread_at] = bread_supply
        write_counts(buf, removed_at, removed, NUM_TYPES)
        for s, (dynasty, fed, debens, hand_size, scribe_cards, has_afterlife) in enumerate(self._rows[me]):
            for t, count in enumerate(dynasties[s]):
                if count:
                    buf[dynasty + t] = count
            for t, count in enumerate(fed_types[s]):
                if count:
                    buf[fed + t] = count
            buf[debens] = min(debens_list[s], DEBENS_CAP)
            buf[hand_size] = hand_sizes[s]
            buf[scribe_cards] = scribe_counts[s]
            if afterlife_shown[s]:
                buf[has_afterlife] = 1
        buf[round_at] = min(round_, ROUND_CAP)
        buf[starter_at + (starter - me) % n] = 1
        if turn == HELIOPOLIS:
            buf[turn_at + n] = 1
        elif turn is not None:
            buf[turn_at + (turn - me) % n] = 1
        if final_turns:
            buf[final_at] = 1
        if kind is not None:
            buf[self._decision_at[kind]] = 1
            buf[seat_at + (decider - me) % n] = 1
            if citizen >= 0:
                buf[citizen_at + citizen] = 1
            for i, number in enumerate((price, baked, least, most, remaining, die, drawn_count)):
                if number:
                    buf[numbers_at + i] = number
            if thief >= 0:
                buf[thief_at + (thief - me) % n] = 1
            for card in drawn:
                buf[drawn_at + card] = 1
            if fresh:
                for t in forum[-fresh:]:
                    buf[fresh_at + t] += 1
        helio_at = self._heliopolis_at
        if helio_at is not None and helio_dynasty is not None and helio_fed is not None:
            dynasty_at, fed_at, helio_afterlife_at = helio_at
            for t, count in enumerate(helio_dynasty):
                if count:
                    buf[dynasty_at + t] = count
            for t, count in enumerate(helio_fed):
                if count:
                    buf[fed_at + t] = count
            if helio_afterlife >= 0:
                buf[helio_afterlife_at + helio_afterlife] = 1
