"""How a decent person plays Runes of Zun (rulebook runes-of-zun.txt: "On Your Turn",
"Playing cards", "Changing your HP", Overdraw, Underdraw).

- Target the weakest opponent: harmful Actions go to the living opponent (another team) with
  the least HP, first one it would defeat, avoiding a warded one for HP loss (Defend).
- Keep reactions: they are used only against a harmful Action aimed at you (Absorb or Fizzle a
  loss of HP, Fizzle or Redirect a Steal, Daze or Expose, Trap when nothing prevents it), never
  discarded while other cards can go.
- Respect HP tiers ("Changing your HP": the tracker never moves up into a higher tier): heal only
  when there is room in your tier; do not pay HP yourself (Punish) when it would drop you into a
  lower tier, unless it defeats the target.
- Mind Overdraw: draw (Channel) only with room in hand; Expose an opponent whose hand is nearly
  full.

Reads only the deciding seat's own hand and public facts (HP, runes in play, the discard pile).
"""

from __future__ import annotations

import math
from typing import cast

from ...core.actions import Action
from ...core.rng import Rng
from ...core.state import State
from ...core.verbs import Effect
from .actions import Kind, ZunAction
from .decisions import (
    ActionPhase,
    ChooseBlamed,
    ChooseDiscard,
    ChooseRedirect,
    DeclareTarget,
    Modify,
    Mulligan,
    Recovery,
)
from .runes import Rune
from .state import OVERDRAW_AT, STACK, TIER, ZunState, tier_of

HARM = {"lose_hp", "steal", "discard"}


class _Facts:
    """What a rune's data says, worked out once per rune (ISMCTS rollouts ask again and again)."""

    __slots__ = ("rune", "harmful", "damage", "heal", "statuses", "verbs", "self_cost", "reaction_kind")

    def __init__(self, rune: Rune) -> None:
        self.rune = rune  # keeps the rune alive, so its id is not reused while cached
        self.statuses = frozenset(e.verb for e in rune.while_in_play)
        verbs = {e.verb for e in rune.effects if _who(e) != "self"} | {e.verb for e in rune.at_start}
        self.harmful = bool(verbs & HARM) or "expose" in self.statuses
        self.damage = sum(_amount(e) for e in rune.effects if e.verb == "lose_hp" and _who(e) != "self")
        self.heal = sum(_amount(e) for e in rune.effects if e.verb == "gain_hp")
        self.verbs = frozenset(e.verb for e in rune.effects)
        self.self_cost = sum(_amount(e) for e in rune.effects if e.verb == "lose_hp" and _who(e) == "self")
        self.reaction_kind = next((k for k in ("absorb", "cancel", "redirect") if k in self.verbs), "trap")


_FACTS: dict[int, _Facts] = {}


def _facts(rune: Rune) -> _Facts:
    f = _FACTS.get(id(rune))
    if f is None or f.rune is not rune:
        f = _FACTS[id(rune)] = _Facts(rune)
    return f


def _is_harmful(rune: Rune) -> bool:
    return _facts(rune).harmful


def _damage(rune: Rune) -> int:
    return _facts(rune).damage


def _heal(rune: Rune) -> int:
    return _facts(rune).heal


def _room(s: ZunState, seat: int) -> int:
    """HP a heal can still add: up to the top of the current tier (HP Tier rules)."""
    hp = s.hp[seat]
    return 0 if hp <= 0 else tier_of(hp) * TIER - hp


def _warded(s: ZunState, seat: int) -> bool:
    runes = s.runes
    return any(seat in o["affects"] and "ward" in _facts(runes[o["as"]]).statuses for o in s.ongoing)


def _opponents(s: ZunState, seat: int) -> list[int]:
    return [o for o in s.living() if s.team(o) != s.team(seat)]


def _friends(s: ZunState, seat: int) -> list[int]:
    return [o for o in range(s.game.players) if s.team(o) == s.team(seat)]


def _weakest(s: ZunState, seat: int, among: list[int], rune: Rune | None = None) -> int | None:
    """The opponent to hit: one this rune defeats, else the least HP (unwarded for HP loss)."""
    opponents = _opponents(s, seat)
    foes = [o for o in among if o in opponents]
    if not foes:
        return None
    dmg = _damage(rune) if rune is not None else 0

    def key(o: int) -> tuple[int, int, int, int, int]:
        blocked = 1 if dmg and _warded(s, o) else 0
        kills = 0 if dmg and s.hp[o] <= dmg and not blocked else 1
        return (kills, blocked, s.hp[o], len(s.hands[o]), o)

    return min(foes, key=key)


def _who(e: Effect) -> str:
    return str(getattr(e.params, "who", "target"))


def _amount(e: Effect) -> int:
    return int(getattr(e.params, "amount", 0))


def _action_value(s: ZunState, seat: int, rune: Rune) -> float:
    """How much playing this Action now is worth (0 or less: keep it)."""
    foes = _opponents(s, seat)
    if not foes:
        return 0.0
    facts = _facts(rune)
    name_verbs = facts.verbs
    if rune.all_players:  # Banish: worth it when it removes more good for them than for us
        theirs = sum(1 for o in s.ongoing if any(a in foes for a in o["affects"])
                     and "ward" in _facts(s.runes[o["as"]]).statuses)
        mine = sum(1 for o in s.ongoing if seat in o["affects"] and _is_harmful(s.runes[o["as"]]))
        return 1.0 if theirs + mine > 0 else -1.0
    if "mimic" in name_verbs:
        last = s.played[-1] if s.played else -1
        return 2.0 if last >= 0 and _is_harmful(s.runes[last]) else -1.0
    if "expose" in facts.statuses:
        return 1.0 if any(len(s.hands[o]) >= OVERDRAW_AT - 2 for o in foes) else -1.0
    if facts.harmful:
        self_cost = facts.self_cost
        target = _weakest(s, seat, foes, rune)
        assert target is not None
        kills = facts.damage >= s.hp[target] and not _warded(s, target)
        if self_cost:
            hp = s.hp[seat]
            if hp - self_cost <= 0 or (tier_of(hp - self_cost) < tier_of(hp) and not kills):
                return -1.0
        if facts.damage and all(_warded(s, o) for o in foes):
            return -1.0
        return 3.0 + (5.0 if kills else 0.0)
    if "gain_hp" in name_verbs:
        friends = _friends(s, seat)
        if rune.revives and any(s.hp[f] <= 0 for f in friends):
            return 4.0
        return 2.0 if any(_room(s, f) > 0 for f in friends if s.hp[f] > 0) else -1.0
    if "ward" in facts.statuses:
        return 1.5 if not _warded(s, seat) else -1.0
    if "draw" in name_verbs:
        return 1.0 if len(s.hands[seat]) + 2 <= 7 else -1.0
    return 0.0


def _card_value(s: ZunState, seat: int, r: int) -> float:
    """How much a card in hand is worth keeping (for discards)."""
    rune = s.runes[r]
    if rune.kind == "reaction":
        return 5.0
    if rune.modifier is not None:
        return {"boost": 2.0, "reserve": 2.0, "share": 1.5}.get(rune.modifier.verb, 0.5)
    return max(0.5, _action_value(s, seat, rune))


def _frame_rune(s: ZunState) -> Rune:
    f = s.top()
    return s.runes[f.copy if f.copy >= 0 else f.rune]


def _of(legal: list[ZunAction], k: Kind) -> list[ZunAction]:
    return [a for a in legal if a.kind == k]


def choose(view: State, rng: Rng) -> Action:
    s = view
    assert isinstance(s, ZunState)
    d = s.pending[-1]
    seat = d.seat
    legal = cast(list[ZunAction], s.legal_actions())
    kind = type(d)
    if kind is ActionPhase or kind is Mulligan or kind is STACK.Priority or kind is ChooseBlamed \
            or kind is ChooseRedirect or kind is Recovery:
        return _choose_plain(s, kind, seat, legal)
    return _choose_rest(s, kind, seat, legal)


def _choose_plain(s: ZunState, kind: type, seat: int, legal: list[ZunAction]) -> Action:
    """`choose` for the decisions that need no key function of their own, most of a rollout's (a
    nested function would be made at every decision)."""
    if kind is ActionPhase:
        plays = _of(legal, Kind.PLAY)
        if plays:
            scored = [(_action_value(s, seat, s.runes[a.card]), -a.card) for a in plays]
            best = max(range(len(plays)), key=scored.__getitem__)
            if scored[best][0] > 0:
                return plays[best]
        return _of(legal, Kind.END_PHASE)[0]
    if kind is Mulligan:
        has_harm = any(s.runes[r].kind == "action" and _is_harmful(s.runes[r]) for r in s.hands[seat])
        return _of(legal, Kind.KEEP)[0] if has_harm else _of(legal, Kind.MULLIGAN)[0]
    if kind is STACK.Priority:  # the reaction window
        rune = _frame_rune(s)
        if not _is_harmful(rune) or s.team(s.top().player) == s.team(seat):
            return _of(legal, Kind.NO_REACTION)[0]  # keep reactions for real threats
        reacts = {_reaction_kind(s.runes[a.card]): a for a in _of(legal, Kind.REACT)}
        order = ["absorb", "cancel", "redirect", "trap"] if _damage(rune) else ["cancel", "redirect", "trap"]
        for k in order:
            if k in reacts:
                return reacts[k]
        return _of(legal, Kind.NO_REACTION)[0]
    if kind is ChooseBlamed or kind is ChooseRedirect:
        seats = [a.n for a in legal]
        pick = _weakest(s, seat, seats)
        return legal[seats.index(pick)] if pick is not None else legal[0]
    # Recovery
    cheap = [a for a in _of(legal, Kind.DISCARD) if _card_value(s, seat, a.card) <= 0.5]
    return cheap[0] if cheap else _of(legal, Kind.DONE_DISCARDING)[0]


def _choose_rest(s: ZunState, kind: type, seat: int, legal: list[ZunAction]) -> Action:
    """`choose` for modifiers and targets, discards, and the order of Start of Turn triggers."""
    if kind is Modify or kind is DeclareTarget:
        rune = _frame_rune(s)
        mods = {m.verb: a for a in _of(legal, Kind.MODIFY) if (m := s.runes[a.card].modifier) is not None}
        useful = _is_harmful(rune) or _heal(rune) > 0
        if useful and "boost" in mods:
            return mods["boost"]
        if "reserve" in mods and _is_harmful(rune):
            return mods["reserve"]
        if "share" in mods and _is_harmful(rune) and len(_opponents(s, seat)) >= 2:
            return mods["share"]
        targets = [a.n for a in _of(legal, Kind.TARGET)]
        if not targets:
            done = _of(legal, Kind.DONE_MODIFYING)
            return done[0] if done else legal[0]
        if _is_harmful(rune):
            pick = _weakest(s, seat, targets, rune)
        elif _heal(rune):
            friends = [t for t in targets if s.team(t) == s.team(seat)]
            pick = max(friends, key=lambda t: (s.hp[t] <= 0, _room(s, t), t == seat), default=None)
        else:
            pick = seat if seat in targets else None
        if pick is None:
            pick = _weakest(s, seat, targets, rune)
        if pick is None:
            pick = seat if seat in targets else targets[0]
        return next(a for a in _of(legal, Kind.TARGET) if a.n == pick)
    if kind is ChooseDiscard:
        return min(legal, key=lambda a: (_card_value(s, seat, a.card), a.card))
    return legal[0]  # the order of Start of Turn triggers


def _reaction_kind(rune: Rune) -> str:
    return _facts(rune).reaction_kind


def evaluate(state: State) -> list[float]:
    """Estimated `returns()` from each team's living HP (and cards in hand, a little)."""
    s = state
    assert isinstance(s, ZunState)
    n = s.game.players
    teams = sorted({s.team(x) for x in range(n)})
    strength = {t: sum(s.hp[x] + 0.2 * len(s.hands[x]) for x in range(n) if s.team(x) == t and s.hp[x] > 0)
                for t in teams}
    alive = {t: any(s.hp[x] > 0 for x in range(n) if s.team(x) == t) for t in teams}
    w = {t: math.exp(strength[t] / 3.0) if alive[t] else 0.0 for t in teams}
    total = sum(w.values()) or 1.0
    p = {t: w[t] / total for t in teams}
    size = {t: sum(1 for x in range(n) if s.team(x) == t) for t in teams}
    out = []
    for x in range(n):
        mine = s.team(x)
        lose = sum(p[t] * size[t] / (n - size[t]) for t in teams if t != mine)
        out.append(p[mine] - lose)
    return out
