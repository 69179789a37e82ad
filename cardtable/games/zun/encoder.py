"""Runes of Zun observation encoding (layout in docs/rl.md, "Runes of Zun").

Everything comes from `ZunState.observation(seat)`: my hand (and any Exposed hands), HP and
tiers, hand counts, teams, the runes in play this turn, the (ongoing) runes, the stack of runes
being resolved (the chain of Actions and Reactions), and the pending decision. Seats are
relative to the observer (0 = me, 1 = the next seat in turn order). Runes are in the order of
the game's rune set (`game.rune_set.runes`; the base set: Attack, Banish, ..., Reserve).

The resolving stack is encoded from the top (the rune resolving now) down, `FRAMES` deep, plus
its full depth. Not encoded: `winners`/`by_limit` (end data), `turn_limit` except as the
fraction of turns used, the `legal_actions` texts (the action mask).

The layout is written once, in `write`, from `SeatView` (cardtable/games/zun/state.py). `fill`
reads the observation dict back into that view (`view_of`); `encode_state`, what the environments
call, takes `ZunState.seat_view(seat)`, the same view without rune names: the fast path of
`Encoder.encode_state` (cardtable/core/encoder.py: the whole-number buffer, one conversion),
compiled with the engine. tests/rl/test_encoders.py checks both paths give the same array in every
state of random games, for every seat. Per call, best of many, a loaded machine: Zun 12.7-13.2 us with the dict -> 5.4 us.
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
from .state import MAX_HP, Frame, Ongoing, SeatView, ZunState

DECISIONS = (
    "order_triggers", "mulligan", "action_phase", "modify", "declare_target", "blame", "reaction",
    "redirect", "discard", "recovery",
)
PHASES = ("start", "mulligan", "action", "recovery", "end")
FRAME_KINDS = ("action", "reaction", "trigger")
STAGES = ("modify", "declare", "blame", "window", "resolve", "effects")
TIERS = 4      # tier 0 (Defeated), 1 (HP 1-4), 2 (5-8), 3 (9-12)
FRAMES = 3     # resolving runes encoded, from the top of the stack
DEPTH_CAP = 20
COUNT_MAX = 99   # boosts and shares beyond 99 (never seen in play) are written as 99
COUNT_CAP = float(COUNT_MAX)
_DECISION = {k: i for i, k in enumerate(DECISIONS)}
_PHASE = {k: i for i, k in enumerate(PHASES)}
_FRAME_KIND = {k: i for i, k in enumerate(FRAME_KINDS)}
_STAGE = {k: i for i, k in enumerate(STAGES)}
# the pieces `write` writes at
_WRITTEN = (
    "hand", "exposed", "exposed_hands", "hp", "tiers", "hand_counts", "allies", "deck", "discard", "turn",
    "decision_seat", "decision_count", "in_play", "in_play_returns", "played_this_turn", "ongoing_by_owner",
    "ongoing_affects", "ongoing_boosts", "resolving_depth", "resolving",
)


# a plain Python class in the compiled build (cardtable/_native.py), as the core's `Encoder` it
# extends is; its methods are compiled
@mypyc_attr(native_class=False)
class ZunEncoder(Encoder):
    """Seats are relative to the observer: seat s is written at (s - me) % players. Runes are
    written at their index in the game's rune set (whose names are unique)."""

    private = ("hand",)  # what only I see: the information state records how it changes

    def pieces(self, game: Game[Any]) -> list[Piece]:
        n = game.players
        runes = game.rune_set.runes  # type: ignore[attr-defined]
        r = len(runes)
        self.runes = {rune.name: i for i, rune in enumerate(runes)}
        copies = float(max(game.counts))  # type: ignore[attr-defined]
        deck = float(sum(game.counts))  # type: ignore[attr-defined]
        # one resolving rune: kind, card, played as, player, actor, targets, current target,
        # boosts, shares, fizzled, stage
        self.frame_size = len(FRAME_KINDS) + 2 * r + 4 * n + 3 + len(STAGES)
        return [
            Piece("hand", (r,), copies, "my hand: how many of each rune I hold"),
            Piece("exposed_hands", (n, r), copies, "the Exposed hands of relative seats, per rune (zeros if not Exposed)"),
            Piece("exposed", (n,), 1, "1 if the relative seat's hand is Exposed"),
            Piece("hp", (n,), float(MAX_HP), "each relative seat's HP"),
            Piece("tiers", (n, TIERS), 1, "one-hot per relative seat: HP tier 0 (Defeated) to 3 (9-12)"),
            Piece("hand_counts", (n,), deck, "runes in each relative seat's hand"),
            Piece("allies", (n,), 1, "1 for relative seats on my team (me included; free-for-all: only me)"),
            Piece("deck", (1,), deck, "runes left in the deck"),
            Piece("discard", (r,), copies, "the discard pile, per rune"),
            Piece("turn", (n,), 1, "one-hot: the relative seat whose turn it is"),
            Piece("turns_used", (1,), 1, "turns begun / the turn limit"),
            Piece("phase", (len(PHASES),), 1, "one-hot: the turn phase: " + ", ".join(PHASES)),
            Piece("decision", (len(DECISIONS),), 1, "one-hot: the pending decision: " + ", ".join(DECISIONS)),
            Piece("decision_seat", (n,), 1, "one-hot: the relative seat that must decide now"),
            Piece("decision_count", (1,), deck, "discard decision: how many runes to discard"),
            Piece("in_play", (n, r), copies, "runes played this turn, per relative owner and rune"),
            Piece("in_play_returns", (r,), copies, "runes played this turn that return to hand (Reserve), per rune"),
            Piece("played_this_turn", (r,), copies, "Actions played this turn (as the runes whose effects they used)"),
            Piece("ongoing_by_owner", (n, r), copies, "(ongoing) runes in play, per relative owner and rune played as"),
            Piece("ongoing_affects", (n, r), copies, "(ongoing) runes in play, per relative seat affected and rune played as"),
            Piece("ongoing_boosts", (n,), COUNT_CAP, "boosts on the (ongoing) runes affecting each relative seat"),
            Piece("resolving_depth", (1,), float(DEPTH_CAP), "runes on the resolving stack (capped at 20)"),
            Piece(
                "resolving",
                (FRAMES, self.frame_size),
                # every field a one-hot or a flag but boosts and shares, counts up to 99
                (1.0,) * (self.frame_size - 3 - len(STAGES)) + (COUNT_CAP, COUNT_CAP) + (1.0,) * (1 + len(STAGES)),
                "the top runes of the resolving stack, top first; each: one-hot kind (action, reaction, trigger), "
                "one-hot rune, one-hot rune played as, one-hot relative player, one-hot relative actor, relative "
                "targets, one-hot current target, boosts, shares, fizzled, one-hot stage ("
                + ", ".join(STAGES) + ")",
            ),
        ]

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        n = game.players
        at = self.at
        # the offsets `write` writes at, looked up once; _seats[me][s]: seat s's relative seat
        self._offsets = tuple(at[name] for name in _WRITTEN)
        self._turns_used = at["turns_used"]
        self._seats = [[(s - me) % n for s in range(n)] for me in range(n)]
        self._decision_at = {kind: at["decision"] + i for kind, i in _DECISION.items()}
        self._phase_at = {phase: at["phase"] + i for phase, i in _PHASE.items()}

    def encode_state(self, state: State, seat: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """`encode(state.observation(seat))`, written from `state.seat_view(seat)` (module docstring):
        the whole numbers into the whole-number buffer, then the fraction of turns used."""
        v = cast(ZunState, state).seat_view(seat)  # compiled, a call of ZunState's own method
        self.write(v, self.cleared_counts())
        x = self.counts_result(out)
        x[self._turns_used] = _turns_used(v)
        return x

    def fill(self, obs: dict[str, Any], buf: MutableSequence[float]) -> None:
        v = self.view_of(obs)
        self.write(v, buf)
        buf[self._turns_used] = _turns_used(v)

    def view_of(self, obs: dict[str, Any]) -> SeatView:
        """The observation dict's numbers: the `SeatView` that `ZunState.seat_view` gives of the
        same state for the same seat (each field names the entry it reads)."""
        runes = self.runes
        d = obs["decision"] or {}
        exposed = obs["exposed_hands"]
        return SeatView(
            obs["players"],
            obs["seat"],
            obs["team_of"],
            [runes[name] for name in obs.get("hand", ())],
            [int(s) for s in exposed],
            [[runes[name] for name in hand] for hand in exposed.values()],
            obs["hp"],
            obs["tiers"],
            obs["hand_counts"],
            obs["deck"],
            [runes[name] for name in obs["discard"]],
            obs["turn"],
            obs["turn_number"],
            obs["turn_limit"],
            obs["phase"],
            d.get("kind"),
            d.get("seat", -1),
            d.get("count", 0),
            [(runes[e["card"]], e["player"], e["returns"]) for e in obs["in_play"]],
            [Ongoing(runes[o["card"]], runes[o["as"]], o["player"], o["affects"], o["boosts"]) for o in obs["ongoing"]],
            [
                Frame(f["kind"], runes[f["card"]], runes[f["as"]] if f["as"] is not None else -1, f["player"], f["actor"],
                      tuple(f["targets"]), f["current_target"], f["boosts"], f["shares"], f["fizzled"], f["stage"])
                for f in obs["resolving"]
            ],
            [runes[name] for name in obs["played_this_turn"]],
        )

    def write(self, v: SeatView, buf: MutableSequence[Any]) -> None:
        """Write the view's whole numbers into `buf`, `size` zeros: the layout (docs/rl.md, "Runes of
        Zun"), but for the fraction of turns used (`_turns_used`)."""
        (n, seat, team_of, hand, exposed, exposed_hands, hp, tiers, hand_counts, deck, discard, turn, _turn_number,
         _turn_limit, phase, kind, decider, to_discard, in_play, ongoing, frames, played) = v
        (hand_at, exposed_at, exposed_hands_at, hp_at, tiers_at, hand_counts_at, allies_at, deck_at, discard_at,
         turn_at, seat_at, count_at, in_play_at, returns_at, played_at, by_owner_at, affects_at, boosts_at,
         depth_at, resolving_at) = self._offsets
        me = seat if seat is not None else 0
        rel = self._seats[me]
        r = len(self.runes)
        write_counts(buf, hand_at, hand, r)
        for s, held in zip(exposed, exposed_hands, strict=True):
            i = rel[s]
            buf[exposed_at + i] = 1
            write_counts(buf, exposed_hands_at + i * r, held, r)
        mine = team_of[me]
        for s in range(n):
            i = rel[s]
            buf[hp_at + i] = hp[s]
            buf[tiers_at + i * TIERS + tiers[s]] = 1
            buf[hand_counts_at + i] = hand_counts[s]
            if team_of[s] == mine:
                buf[allies_at + i] = 1
        buf[deck_at] = deck
        write_counts(buf, discard_at, discard, r)
        if turn is not None:
            buf[turn_at + rel[turn]] = 1
        buf[self._phase_at[phase]] = 1
        if kind is not None:
            buf[self._decision_at[kind]] = 1
            buf[seat_at + rel[decider]] = 1
            buf[count_at] = to_discard
        for rune, player, returns in in_play:
            buf[in_play_at + rel[player] * r + rune] += 1
            if returns:
                buf[returns_at + rune] += 1
        write_counts(buf, played_at, played, r)
        for _card, rune, owner, affects, boosts in ongoing:  # written as the rune played as
            buf[by_owner_at + rel[owner] * r + rune] += 1
            for s in affects:
                i = rel[s]
                buf[affects_at + i * r + rune] += 1
                buf[boosts_at + i] = min(buf[boosts_at + i] + boosts, COUNT_MAX)
        buf[depth_at] = min(len(frames), DEPTH_CAP)
        kinds, stages = _FRAME_KIND, _STAGE
        size = self.frame_size
        for k, f in enumerate(reversed(frames[-FRAMES:])):
            (frame_kind, card, played_as, player, actor, targets, current_target, frame_boosts, shares, fizzled,
             stage) = f
            i = resolving_at + k * size
            buf[i + kinds[frame_kind]] = 1
            i += len(FRAME_KINDS)
            buf[i + card] = 1
            i += r
            if played_as >= 0:
                buf[i + played_as] = 1
            i += r
            buf[i + rel[player]] = 1
            i += n
            buf[i + rel[actor]] = 1
            i += n
            for t in targets:
                buf[i + rel[t]] = 1
            i += n
            if current_target >= 0:
                buf[i + rel[current_target]] = 1
            i += n
            buf[i] = min(frame_boosts, COUNT_MAX)
            buf[i + 1] = min(shares, COUNT_MAX)
            if fizzled:
                buf[i + 2] = 1
            i += 3
            buf[i + stages[stage]] = 1


def _turns_used(v: SeatView) -> float:
    """Turns begun / the turn limit, at most 1: the layout's one fraction."""
    return min(v.turn_number / v.turn_limit, 1.0)
