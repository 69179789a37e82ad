"""Runes of Zun's verbs: the closed registry a rune's effects are written in (the core's
`VerbRegistry`, cardtable/core/verbs.py). Each verb is one entry: its name, typed parameters,
what it does and how it reads; a rune file naming an unknown verb or a bad parameter is refused on
load with the file, the rune, the verb and the field (STYLE.md 7).

Where a verb may stand on a rune (its slots):
- `effects`: when the rune resolves against a target (Actions and Reactions);
- `while_in_play`: statuses of an (ongoing) rune while it affects a player (`ward`, `expose`);
- `at_start_of_next_turn`: what an (ongoing) rune does when the affected player's turn starts.
- `modifier`: what a Modifier rune does to the rune it modifies (`boost`, `share`, `blame`,
  `reserve`), run once when it is played.

The three kinds of the core keep every verb honest: effect verbs run their handler here; `ward`,
`expose` and `mimic` are statuses the rules read (`VERBS.holds`): a ward while its rune affects a
player, an exposed hand likewise, and Mimic from the moment it is played (it takes the effects of
the last other Action); `cancel`, `absorb` and `redirect` are answers: a Reaction with one of them
answers the Action it reacts to on the response stack (state.py, `_answer`).

Handlers get the state, the core `Context` (its controller: the rune's player; its source: the
serial of the rune in play; its one target) and the typed parameters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from ...core.effects import Context
from ...core.verbs import NoParams, Params, VerbRegistry

if TYPE_CHECKING:
    from .state import ZunState

VERBS = VerbRegistry("Runes of Zun")

ON_RESOLVE = ("effects", "at_start_of_next_turn")


class Amount(Params):
    """An HP change: `amount`, plus `per_boost` for each Boost; `who`: the target or the rune's player."""

    amount: int = Field(1, ge=1, le=12)
    per_boost: int = Field(0, ge=0, le=6)
    who: Literal["target", "self"] = "target"

    def total(self, boosts: int) -> int:
        return self.amount + self.per_boost * boosts


class Healing(Amount):
    revive: bool = False


class Count(Params):
    """A number of cards: `count`, plus `per_boost` for each Boost; `who`: the target or the rune's player."""

    count: int = Field(1, ge=1, le=10)
    per_boost: int = Field(0, ge=0, le=6)
    who: Literal["target", "self"] = "target"

    def total(self, boosts: int) -> int:
        return self.count + self.per_boost * boosts


class Theft(Params):
    count: int = Field(1, ge=1, le=10)
    per_boost: int = Field(0, ge=0, le=6)

    def total(self, boosts: int) -> int:
        return self.count + self.per_boost * boosts


class Wording:
    """How an effect reads where it stands: on an All Players rune, "Every player" is the target."""

    def __init__(self, all_players: bool = False) -> None:
        self.all_players = all_players


def _subject(p: Any, w: Wording | None) -> tuple[str, str]:
    """(who, verb ending): "You" / "Target" / "Every player", and the -s of the verb."""
    who = getattr(p, "who", "target")
    if who == "self":
        return "You", ""
    return ("Every player" if w is not None and w.all_players else "Target"), "s"


def _plus(p: Any) -> str:
    return f" (+{p.per_boost} per Boost)" if p.per_boost else ""


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def _who(ctx: Context, p: Any) -> int:
    """The player an effect happens to: its target, or the rune's own player (`who = "self"`)."""
    return ctx.controller if getattr(p, "who", "target") == "self" else ctx.targets[0]


# -- effect verbs ----------------------------------------------------------------------------------


def _lose_text(p: Amount, w: Wording | None) -> str:
    subj, s = _subject(p, w)
    return f"{subj} lose{s} {p.amount} HP{_plus(p)}."


@VERBS.effect("lose_hp", Amount, text=_lose_text, slots=ON_RESOLVE)
def lose_hp(state: ZunState, ctx: Context, p: Amount) -> None:
    src = state.source(ctx.source)
    state._lose_hp(_who(ctx, p), p.total(src.boosts), src)


def _gain_text(p: Healing, w: Wording | None) -> str:
    subj, s = _subject(p, w)
    text = f"{subj} gain{s} {p.amount} HP{_plus(p)}."
    return text + (" A Defeated target comes back into the game with that HP." if p.revive else "")


@VERBS.effect("gain_hp", Healing, text=_gain_text, slots=ON_RESOLVE)
def gain_hp(state: ZunState, ctx: Context, p: Healing) -> None:
    src = state.source(ctx.source)
    state._gain(_who(ctx, p), p.total(src.boosts), p.revive, why=state._name(src.rune))


def _draw_text(p: Count, w: Wording | None) -> str:
    subj, s = _subject(p, w)
    return f"{subj} draw{s} {_cards(p.count)}{_plus(p)}."


@VERBS.effect("draw", Count, text=_draw_text, slots=ON_RESOLVE)
def draw(state: ZunState, ctx: Context, p: Count) -> None:
    state._draw(_who(ctx, p), p.total(state.source(ctx.source).boosts))


def _discard_text(p: Count, w: Wording | None) -> str:
    subj, s = _subject(p, w)
    owner = "your" if subj == "You" else "their"
    return f"{subj} discard{s} {_cards(p.count)} of {owner} choice{_plus(p)}."


@VERBS.effect("discard", Count, text=_discard_text, slots=ON_RESOLVE)
def discard(state: ZunState, ctx: Context, p: Count) -> None:
    state._discard_effect(_who(ctx, p), p.total(state.source(ctx.source).boosts))


def _steal_text(p: Theft, w: Wording | None) -> str:
    return f"Take {p.count} random card{'s' if p.count != 1 else ''}{_plus(p)} from target's hand into yours."


@VERBS.effect("steal", Theft, text=_steal_text, slots=ON_RESOLVE)
def steal(state: ZunState, ctx: Context, p: Theft) -> None:
    state._steal(ctx.controller, ctx.targets[0], p.total(state.source(ctx.source).boosts))


def _banish_text(p: NoParams, w: Wording | None) -> str:
    if w is not None and w.all_players:
        return "Discard every (ongoing) rune in play."
    return "Discard every (ongoing) rune affecting target."


@VERBS.effect("banish_ongoing", NoParams, text=_banish_text, slots=ON_RESOLVE)
def banish_ongoing(state: ZunState, ctx: Context, p: NoParams) -> None:
    state._banish(ctx.targets[0])


# -- statuses: read by the rules while they hold ---------------------------------------------------

VERBS.status("mimic", lambda p, w: "Repeat on target the effects of the last other Action played this turn.",
             slots=("effects",))
VERBS.status("ward", lambda p, w: "HP reductions from card effects to the affected player are prevented.",
             slots=("while_in_play",))
VERBS.status("expose", lambda p, w: "The affected player's hand is face up.", slots=("while_in_play",))

# -- answers: a Reaction answering the Action it reacts to --------------------------------------------

VERBS.answer("cancel", lambda p, w: "The Action has no effect on you.", slots=("effects",))
VERBS.answer("absorb", lambda p, w: "HP this Action would make you lose, you gain instead.", slots=("effects",))
VERBS.answer("redirect", lambda p, w: "Choose another player: they become the Action's target instead of you.",
             slots=("effects",))

# -- modifiers: what a Modifier rune does to the Action or Reaction it modifies (the top of the stack) --
#
# Action Phase 3: a modifier goes next to the rune it modifies. Its verb runs once, when it is
# played (the context's source: the modified rune's serial); what it changes is read as the rune
# resolves (its Boosts, its targets, its Blamed player, its return at the end of the turn).

MODIFIER = ("modifier",)


@VERBS.effect("boost", NoParams, slots=MODIFIER, text=lambda p, w: "The modified rune's numbers grow by its Boost amount.")
def boost(state: ZunState, ctx: Context, p: NoParams) -> None:
    f = state.top()
    state._set(f, boosts=f.boosts + 1)


@VERBS.effect("share", NoParams, slots=MODIFIER,
              text=lambda p, w: "The modified Action gets one more target (a different player).")
def share(state: ZunState, ctx: Context, p: NoParams) -> None:
    f = state.top()
    state._set(f, shares=f.shares + 1)


@VERBS.effect("blame", NoParams, slots=MODIFIER,
              text=lambda p, w: "Choose another player: Reactions to the modified Action treat them as its player.")
def blame(state: ZunState, ctx: Context, p: NoParams) -> None:
    f = state.top()
    state._set(f, blames=f.blames + 1)


@VERBS.effect("reserve", NoParams, slots=MODIFIER, text=lambda p, w: "At the end of the turn, the modified rune "
              "returns to its player's hand (this Reserve is discarded).")
def reserve(state: ZunState, ctx: Context, p: NoParams) -> None:
    for e in state.table:  # the modified rune, as played this turn: it returns at the end of the turn
        if e[3] == ctx.source:
            e[2] = 1
