"""Runes of Zun observation encoding (layout in docs/rl.md, "Runes of Zun").

Everything comes from `ZunState.observation(seat)`: my hand (and any Exposed hands), HP and
tiers, hand counts, teams, the runes in play this turn, the (ongoing) runes, the stack of runes
being resolved (the chain of Actions and Reactions), and the pending decision. Seats are
relative to the observer (0 = me, 1 = the next seat in turn order). Runes are in the order of
the game's rune set (`game.rune_set.runes`; the base set: Attack, Banish, ..., Reserve).

The resolving stack is encoded from the top (the rune resolving now) down, `FRAMES` deep, plus
its full depth. Not encoded: `winners`/`by_limit` (end data), `turn_limit` except as the
fraction of turns used, the `legal_actions` texts (the action mask).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

from ...core.encoder import Encoder, Piece
from ...core.game import Game
from .state import MAX_HP

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
COUNT_CAP = 99.0
_DECISION = {k: i for i, k in enumerate(DECISIONS)}
_PHASE = {k: i for i, k in enumerate(PHASES)}
_FRAME_KIND = {k: i for i, k in enumerate(FRAME_KINDS)}
_STAGE = {k: i for i, k in enumerate(STAGES)}


class ZunEncoder(Encoder):
    """Seats are relative to the observer: seat s is written at (s - me) % players."""

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
                COUNT_CAP,
                "the top runes of the resolving stack, top first; each: one-hot kind (action, reaction, trigger), "
                "one-hot rune, one-hot rune played as, one-hot relative player, one-hot relative actor, relative "
                "targets, one-hot current target, boosts, shares, fizzled, one-hot stage ("
                + ", ".join(STAGES) + ")",
            ),
        ]

    def fill(self, obs: dict[str, Any], buf: MutableSequence[float]) -> None:
        at = self.at
        n = obs["players"]
        me = obs["seat"] if obs["seat"] is not None else 0
        runes = self.runes
        r = len(runes)
        base = at["hand"]
        for name in obs.get("hand", ()):
            buf[base + runes[name]] += 1
        for s_text, names in obs["exposed_hands"].items():
            rel = (int(s_text) - me) % n
            buf[at["exposed"] + rel] = 1
            row = at["exposed_hands"] + rel * r
            for name in names:
                buf[row + runes[name]] += 1
        team_of = obs["team_of"]
        for s in range(n):
            rel = (s - me) % n
            hp = obs["hp"][s]
            buf[at["hp"] + rel] = hp
            buf[at["tiers"] + rel * TIERS + obs["tiers"][s]] = 1
            buf[at["hand_counts"] + rel] = obs["hand_counts"][s]
            if team_of[s] == team_of[me]:
                buf[at["allies"] + rel] = 1
        buf[at["deck"]] = obs["deck"]
        base = at["discard"]
        for name in obs["discard"]:
            buf[base + runes[name]] += 1
        if obs["turn"] is not None:
            buf[at["turn"] + (obs["turn"] - me) % n] = 1
        buf[at["turns_used"]] = min(obs["turn_number"] / obs["turn_limit"], 1.0)
        buf[at["phase"] + _PHASE[obs["phase"]]] = 1
        d = obs["decision"]
        if d is not None:
            buf[at["decision"] + _DECISION[d["kind"]]] = 1
            buf[at["decision_seat"] + (d["seat"] - me) % n] = 1
            buf[at["decision_count"]] = d.get("count", 0)
        for e in obs["in_play"]:
            buf[at["in_play"] + ((e["player"] - me) % n) * r + runes[e["card"]]] += 1
            if e["returns"]:
                buf[at["in_play_returns"] + runes[e["card"]]] += 1
        base = at["played_this_turn"]
        for name in obs["played_this_turn"]:
            buf[base + runes[name]] += 1
        for o in obs["ongoing"]:
            rune = runes[o["as"]]
            buf[at["ongoing_by_owner"] + ((o["player"] - me) % n) * r + rune] += 1
            for s in o["affects"]:
                rel = (s - me) % n
                buf[at["ongoing_affects"] + rel * r + rune] += 1
                buf[at["ongoing_boosts"] + rel] = min(buf[at["ongoing_boosts"] + rel] + o["boosts"], COUNT_CAP)
        frames = obs["resolving"]
        buf[at["resolving_depth"]] = min(len(frames), DEPTH_CAP)
        for k, f in enumerate(reversed(frames[-FRAMES:])):
            self._frame(f, buf, at["resolving"] + k * self.frame_size, me, n, r)

    def _frame(self, f: dict[str, Any], buf: MutableSequence[float], i: int, me: int, n: int, r: int) -> None:
        runes = self.runes
        buf[i + _FRAME_KIND[f["kind"]]] = 1
        i += len(FRAME_KINDS)
        buf[i + runes[f["card"]]] = 1
        i += r
        if f["as"] is not None:
            buf[i + runes[f["as"]]] = 1
        i += r
        buf[i + (f["player"] - me) % n] = 1
        i += n
        buf[i + (f["actor"] - me) % n] = 1
        i += n
        for t in f["targets"]:
            buf[i + (t - me) % n] = 1
        i += n
        if f["current_target"] >= 0:
            buf[i + (f["current_target"] - me) % n] = 1
        i += n
        buf[i] = min(f["boosts"], COUNT_CAP)
        buf[i + 1] = min(f["shares"], COUNT_CAP)
        buf[i + 2] = 1 if f["fizzled"] else 0
        i += 3
        buf[i + _STAGE[f["stage"]]] = 1
