"""The closed registry of effect verbs a rune may use, with typed parameters.

A rune's effects are data: a list of `{verb = "...", <params>}` tables (runes.toml). Each
verb declares its parameters (type, default, allowed values) and how it reads in English;
the rules (state.py) run exactly one handler per verb. A rune file naming an unknown verb or
a bad parameter is refused on load with the file, the rune and the field (STYLE.md 7).

Where a verb may appear:
- `effects`: when the rune resolves against a target (Actions and Reactions);
- `while_in_play`: statuses of an (ongoing) rune while it affects a player (`ward`, `expose`);
- `at_start_of_next_turn`: what an (ongoing) rune does when the affected player's turn starts.
Reactions that act on the Action they answer use the reaction verbs (`cancel`, `absorb`,
`redirect`), and only those.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Param:
    type: type
    default: Any = None
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None


WHO = Param(str, "target", ("target", "self"))


@dataclass(frozen=True)
class Verb:
    name: str
    params: dict[str, Param] = field(default_factory=dict)
    where: tuple[str, ...] = ("effects", "at_start_of_next_turn")
    #: a verb whose amount grows with Boost modifiers
    boostable: bool = False


VERBS: dict[str, Verb] = {
    v.name: v
    for v in (
        Verb("lose_hp", {"amount": Param(int, 1, low=1, high=12), "per_boost": Param(int, 0, low=0, high=6), "who": WHO},
             boostable=True),
        Verb("gain_hp", {"amount": Param(int, 1, low=1, high=12), "per_boost": Param(int, 0, low=0, high=6), "who": WHO,
                         "revive": Param(bool, False)}, boostable=True),
        Verb("draw", {"count": Param(int, 1, low=1, high=10), "per_boost": Param(int, 0, low=0, high=6), "who": WHO},
             boostable=True),
        Verb("discard", {"count": Param(int, 1, low=1, high=10), "per_boost": Param(int, 0, low=0, high=6), "who": WHO},
             boostable=True),
        Verb("steal", {"count": Param(int, 1, low=1, high=10), "per_boost": Param(int, 0, low=0, high=6)},
             boostable=True),
        Verb("banish_ongoing", {}),
        Verb("mimic", {}, where=("effects",)),
        Verb("ward", {}, where=("while_in_play",)),
        Verb("expose", {}, where=("while_in_play",)),
        Verb("cancel", {}, where=("reaction",)),
        Verb("absorb", {}, where=("reaction",)),
        Verb("redirect", {}, where=("reaction",)),
    )
}

#: modifier verbs: what a Modifier rune does to the Action or Reaction it modifies
MODIFIER_VERBS = ("boost", "share", "blame", "reserve")


def amount_of(params: dict[str, Any], boosts: int) -> int:
    """The verb's number after `boosts` Boost modifiers."""
    base = params.get("amount", params.get("count", 0))
    return int(base) + int(params.get("per_boost", 0)) * boosts


def describe(verb: str, params: dict[str, Any], all_players: bool = False) -> str:
    """The English text of one effect, generated from its data."""
    who = params.get("who", "target")
    subj = "Every player" if all_players and who == "target" else ("You" if who == "self" else "Target")
    plus = f" (+{params['per_boost']} per Boost)" if params.get("per_boost") else ""
    s = "" if subj == "You" else "s"
    if verb == "lose_hp":
        return f"{subj} lose{s} {params['amount']} HP{plus}."
    if verb == "gain_hp":
        text = f"{subj} gain{s} {params['amount']} HP{plus}."
        if params.get("revive"):
            text += " A Defeated target comes back into the game with that HP."
        return text
    if verb == "draw":
        n = params["count"]
        return f"{subj} draw{s} {n} card{'s' if n != 1 else ''}{plus}."
    if verb == "discard":
        n = params["count"]
        owner = "your" if subj == "You" else "their"
        return f"{subj} discard{s} {n} card{'s' if n != 1 else ''} of {owner} choice{plus}."
    if verb == "steal":
        n = params["count"]
        return f"Take {n} random card{'s' if n != 1 else ''}{plus} from target's hand into yours."
    if verb == "banish_ongoing":
        return "Discard every (ongoing) rune in play." if all_players else "Discard every (ongoing) rune affecting target."
    if verb == "mimic":
        return "Repeat on target the effects of the last other Action played this turn."
    if verb == "ward":
        return "HP reductions from card effects to the affected player are prevented."
    if verb == "expose":
        return "The affected player's hand is face up."
    if verb == "cancel":
        return "The Action has no effect on you."
    if verb == "absorb":
        return "HP this Action would make you lose, you gain instead."
    if verb == "redirect":
        return "Choose another player: they become the Action's target instead of you."
    raise KeyError(verb)


MODIFIER_TEXT = {
    "boost": "The modified rune's numbers grow by its Boost amount.",
    "share": "The modified Action gets one more target (a different player).",
    "blame": "Choose another player: Reactions to the modified Action treat them as its player.",
    "reserve": "At the end of the turn, the modified rune returns to its player's hand (this Reserve is discarded).",
}
