"""IUNU's pending decisions. The top of the stack owns the current player and the legal actions.

Each decision owns its behaviour (cardtable/core/state.py, `Decision`): its legal actions, how
an action resolves it (through the rules of `IunuState`), what it asks and why an action is
refused. Each is immutable (clones share them) and knows its JSON form. Rule references are to
../shared/rules/iunu.txt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...core.actions import Action
from ...core.state import Decision
from .actions import IunuAction, Kind
from .cards import CITIZENS, MERCHANT, NOBLE

if TYPE_CHECKING:
    from .state import IunuState


def _holds_no(seat: int, action: IunuAction) -> str:
    return f"seat {seat} holds no {CITIZENS[action.arg]}"


class PharaohReroll(Decision):
    """PHARAOH: "you may roll one of the dice again at the start of your turn"."""

    __slots__ = ()
    kind = "pharaoh_reroll"
    asks = "may reroll one die in play (Pharaoh), or keep the dice"

    def legal_actions(self, state: IunuState) -> list[Action]:
        L = state.game.lookup
        return [L.reroll[i] for i, v in enumerate(state.dice) if v > 0] + [L.keep_dice]

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        if action.kind == Kind.REROLL:
            old = state.dice[action.arg]
            state.dice[action.arg] = state.rng.below(4) + 1
            state.emit("rerolled", seat=self.seat, die=action.arg + 1, old=old, new=state.dice[action.arg])
        state._dynasty_phase(self.seat)

    def why_illegal(self, state: IunuState, action: IunuAction) -> str:
        if action.kind == Kind.REROLL:
            return f"die {action.arg + 1} is out of play until the next round and cannot be rolled"
        return super().why_illegal(state, action)


class PlayCitizen(Decision):
    """DYNASTY PHASE: the active player must play 1 Citizen card."""

    __slots__ = ()
    kind = "play"
    asks = "must play a Citizen card from hand"

    def legal_actions(self, state: IunuState) -> list[Action]:
        play = state.game.lookup.play
        return [play[t] for t in sorted(set(state.hands[self.seat]))]

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        seat, t = self.seat, action.arg
        state._play(seat, t)
        state.emit("played", seat=seat, card=CITIZENS[t], count=1)
        if t in state.hands[seat] and state.debens[seat] >= 1:
            state.pending.append(SecondCard(seat, t))
            return
        state._ability(seat, t)

    def why_illegal(self, state: IunuState, action: IunuAction) -> str:
        if action.kind == Kind.PLAY:
            return _holds_no(self.seat, action)
        return super().why_illegal(state, action)


class SecondCard(Decision):
    """DYNASTY PHASE: "may then also play exactly 1 additional card of the same type" for 1 Deben."""

    __slots__ = ("citizen",)
    kind = "second_card"
    fields = ("citizen",)

    def details(self, state: IunuState, viewer: int | None) -> dict[str, Any]:
        return {"citizen": CITIZENS[self.citizen]}

    def question(self, state: IunuState) -> str:
        return f"may play a second {CITIZENS[self.citizen]} for 1 Deben, or not"

    def __init__(self, seat: int, citizen: int) -> None:
        super().__init__(seat)
        self.citizen = citizen

    def legal_actions(self, state: IunuState) -> list[Action]:
        L = state.game.lookup
        return [L.second, L.no_second]

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        seat = self.seat
        if action.kind == Kind.SECOND:
            state.debens[seat] -= 1  # "they must first pay 1 Deben back to the common supply"
            state._play(seat, self.citizen)
            state.emit("played", seat=seat, card=CITIZENS[self.citizen], count=2)
        state._ability(seat, self.citizen)

    def why_illegal(self, state: IunuState, action: IunuAction) -> str:
        if action.kind == Kind.SECOND:
            return "a second card costs 1 Deben"
        return super().why_illegal(state, action)


class UseAbility(Decision):
    """Noble or Merchant: use the Special Ability or not."""

    __slots__ = ("citizen",)
    kind = "use_ability"
    fields = ("citizen",)

    def details(self, state: IunuState, viewer: int | None) -> dict[str, Any]:
        return {"citizen": CITIZENS[self.citizen]}

    def question(self, state: IunuState) -> str:
        # what the ability would do now, with this position's numbers (NOBLE, MERCHANT)
        dice = [v for v in state.dice if v]
        if self.citizen == MERCHANT:
            high, n = max(dice, default=0), state.dynasty[self.seat][MERCHANT]
            does = (f"take Debens equal to the highest die ({high}) +1 per Merchant in their dynasty ({n}): "
                    f"{high + n} Debens, then that die goes down by 1")
        else:
            does = f"take Debens equal to the dice total ({sum(dice)}), then every die goes down by 1"
        return f"may use the {CITIZENS[self.citizen]}'s ability: {does}; or skip it"

    def __init__(self, seat: int, citizen: int) -> None:
        super().__init__(seat)
        self.citizen = citizen

    def legal_actions(self, state: IunuState) -> list[Action]:
        L = state.game.lookup
        return [L.use, L.skip]

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        seat = self.seat
        if action.kind != Kind.USE:
            state.emit("ability_skipped", seat=seat, card=CITIZENS[self.citizen])
        elif self.citizen == NOBLE:
            # NOBLE: Debens equal to all dice in play, then each die down by 1.
            gain = sum(state.dice)
            state.debens[seat] += gain
            for i in range(3):
                state._reduce(i)
            state.emit("noble", seat=seat, gained=gain, dice=list(state.dice))
        else:
            # MERCHANT: the highest die's value +1 per Merchant (including those just played).
            best = state._highest_die()
            gain = (state.dice[best] if best >= 0 else 0) + state.dynasty[seat][MERCHANT]
            state.debens[seat] += gain
            if best >= 0:
                state._reduce(best)
            state.emit("merchant", seat=seat, gained=gain, dice=list(state.dice))
        state._rejuvenation(seat)


class ScribeTuck(Decision):
    """SCRIBE: pay 1 Deben to put a card from hand under the Scribe, then draw 1."""

    __slots__ = ()
    kind = "scribe"
    asks = "may put a card from hand under the Scribe for 1 Deben (then draw 1), or skip"

    def legal_actions(self, state: IunuState) -> list[Action]:
        L = state.game.lookup
        return [L.scribe[t] for t in sorted(set(state.hands[self.seat]))] + [L.skip]

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        seat = self.seat
        if action.kind == Kind.SCRIBE:
            state.debens[seat] -= 1
            state.hands[seat].remove(action.arg)
            state.scribed[seat].append(action.arg)
            state.emit("scribed", seat=seat)
            state.emit("scribed_card", to=(seat,), seat=seat, card=CITIZENS[action.arg])
            if state.deck:
                card = state.deck.pop()
                state.hands[seat].append(card)
                state.emit("drew", seat=seat, count=1)
                state.emit("drew_cards", to=(seat,), seat=seat, cards=[CITIZENS[card]])
        else:
            state.emit("ability_skipped", seat=seat, card="Scribe")
        state._rejuvenation(seat)

    def why_illegal(self, state: IunuState, action: IunuAction) -> str:
        if action.kind == Kind.SCRIBE:
            return _holds_no(self.seat, action)
        return super().why_illegal(state, action)


class PriestDie(Decision):
    """PRIEST: choose one die; draw that many Afterlife cards, paying its value in Debens."""

    __slots__ = ()
    kind = "priest_die"
    asks = "may choose a die for the Priest (pay its value, draw that many Afterlife cards), or skip"

    def legal_actions(self, state: IunuState) -> list[Action]:
        L = state.game.lookup
        return [L.priest_die[i] for i in state._priest_dice(self.seat)] + [L.skip]

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        seat = self.seat
        if action.kind == Kind.SKIP:
            state.emit("ability_skipped", seat=seat, card="Priest")
            state._rejuvenation(seat)
            return
        value = state.dice[action.arg]
        state.debens[seat] -= value  # "paying the value of the die in Debens"
        count = min(value, len(state.afterlife_deck))  # "up to the number of cards available"
        drawn = tuple(state.afterlife_deck.pop() for _ in range(count))
        state.emit("priest", seat=seat, die=action.arg + 1, paid=value, drew=count)
        if state.events is not None:
            state.emit("afterlife_seen", to=(seat,), seat=seat, cards=[state.game.afterlife_names[x] for x in drawn])
        state.pending.append(PriestKeep(seat, action.arg, drawn))

    def why_illegal(self, state: IunuState, action: IunuAction) -> str:
        if action.kind == Kind.PRIEST_DIE:
            die = action.arg
            if state.dice[die] == 0:
                return f"die {die + 1} is out of play until the next round"
            return (f"die {die + 1} shows {state.dice[die]}: the Priest would pay that many Debens, "
                    f"seat {self.seat} has {state.debens[self.seat]}")
        return super().why_illegal(state, action)


class PriestKeep(Decision):
    """PRIEST: keep one drawn card, or (holding one) the current card. `drawn` is hidden from others."""

    __slots__ = ("die", "drawn")
    kind = "priest_keep"
    fields = ("die", "drawn")
    asks = "must choose which Afterlife card to keep"

    def details(self, state: IunuState, viewer: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"die": self.die + 1, "drawn_count": len(self.drawn)}
        if viewer == self.seat:
            out["drawn"] = [state.game.afterlife_names[x] for x in self.drawn_seen_by(viewer)]
        return out

    def drawn_seen_by(self, viewer: int | None) -> list[int]:
        """The drawn Afterlife cards `viewer` sees, sorted: all of them for this seat, whose secret
        they are; none for anyone else (the observation dict and `IunuState.seat_view` both ask)."""
        return sorted(self.drawn) if viewer == self.seat else []

    def __init__(self, seat: int, die: int, drawn: tuple[int, ...]) -> None:
        super().__init__(seat)
        self.die = die
        self.drawn = drawn

    def legal_actions(self, state: IunuState) -> list[Action]:
        L = state.game.lookup
        out = [L.keep_afterlife[a] for a in sorted(set(self.drawn))]
        if state.held[self.seat] >= 0:
            out.append(L.keep_current)
        return out

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        seat = self.seat
        back = list(self.drawn)
        if action.kind == Kind.KEEP_AFTERLIFE:
            back.remove(action.arg)
            if state.held[seat] >= 0:  # the replaced card goes back too
                back.append(state.held[seat])
            state.held[seat] = action.arg
            state.emit("afterlife_kept", seat=seat, replaced=len(back) > len(self.drawn) - 1)
            state.emit("afterlife_card", to=(seat,), seat=seat, card=state.game.afterlife_names[action.arg])
        else:
            state.emit("afterlife_kept", seat=seat, replaced=False)
        state.afterlife_deck.extend(back)
        state.rng.shuffle(state.afterlife_deck)  # "shuffled back into the Afterlife deck"
        state._reduce(self.die)
        state._rejuvenation(seat)

    def why_illegal(self, state: IunuState, action: IunuAction) -> str:
        if action.kind == Kind.KEEP_AFTERLIFE:
            return f"{action.text!r} is not one of the Afterlife cards you drew"
        if action.kind == Kind.KEEP_CURRENT:
            return "you hold no Afterlife card yet: keep one of the drawn cards"
        return super().why_illegal(state, action)


class SoldierSteal(Decision):
    """SOLDIER: "You may steal 1 Farmer (without a Bread token on it) from another player"."""

    __slots__ = ()
    kind = "soldier"
    asks = "may steal a Farmer from a player, or skip"

    def legal_actions(self, state: IunuState) -> list[Action]:
        L = state.game.lookup
        return [L.steal[s] for s in state._victims(self.seat)] + [L.skip]

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        seat = self.seat
        if action.kind == Kind.SKIP:
            state.emit("ability_skipped", seat=seat, card="Soldier")
            state._rejuvenation(seat)
            return
        victim = action.arg
        state.emit("steal", seat=seat, victim=victim)
        if state.debens[victim] >= 1:
            state.pending.append(Tribute(victim, seat))  # the victim chooses, out of turn
            return
        state._take_farmer(seat, victim)

    def why_illegal(self, state: IunuState, action: IunuAction) -> str:
        if action.kind == Kind.STEAL:
            if action.arg == self.seat or action.arg >= state.game.players:
                return f"seat {action.arg} is not another player at this table"
            return (f"seat {action.arg} has no Farmer you can steal: Farmers with Bread are safe and each of "
                    "their Soldiers protects 2 Farmers")
        return super().why_illegal(state, action)


class Tribute(Decision):
    """SOLDIER: the victim (this seat, not the active player) may pay 1 Deben to the thief instead."""

    __slots__ = ("thief",)
    kind = "tribute"
    fields = ("thief",)
    shown = ("thief",)

    def question(self, state: IunuState) -> str:
        return f"must pay seat {self.thief} 1 Deben tribute or give up a Farmer to seat {self.thief}'s Soldier"

    def __init__(self, seat: int, thief: int) -> None:
        super().__init__(seat)
        self.thief = thief

    def legal_actions(self, state: IunuState) -> list[Action]:
        L = state.game.lookup
        return [L.tribute, L.give_farmer]

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        if action.kind == Kind.TRIBUTE:
            state.debens[self.seat] -= 1
            state.debens[self.thief] += 1
            state.emit("tribute", seat=self.seat, thief=self.thief)
            state._rejuvenation(self.thief)
            return
        state._take_farmer(self.thief, self.seat)

    def why_illegal(self, state: IunuState, action: IunuAction) -> str:
        if action.kind == Kind.TRIBUTE:
            return "you have no Deben for the tribute"
        return super().why_illegal(state, action)


class Bake(Decision):
    """BAKER: buy up to 3 Bread at `price` each, one at a time, each on a Citizen without Bread."""

    __slots__ = ("price", "baked")
    kind = "bake"
    fields = ("price", "baked")
    shown = ("price", "baked")

    def question(self, state: IunuState) -> str:
        debens = "1 Deben" if self.price == 1 else f"{self.price} Debens"
        return (f"may put Bread on a Citizen without Bread ({debens} each, {self.baked} baked), "
                "or stop baking")

    def __init__(self, seat: int, price: int, baked: int) -> None:
        super().__init__(seat)
        self.price = price
        self.baked = baked

    def legal_actions(self, state: IunuState) -> list[Action]:
        L = state.game.lookup
        return [L.bread[t] for t in state._bread_targets(self.seat, self.price, self.baked)] + [L.stop_baking]

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        seat = self.seat
        baked = self.baked
        if action.kind == Kind.BREAD:
            state.debens[seat] -= self.price
            state.bread -= 1
            state.fed[seat][action.arg] += 1
            state.emit("bread", seat=seat, card=CITIZENS[action.arg], price=self.price)
            baked += 1
            if state._bread_targets(seat, self.price, baked):
                state.pending.append(Bake(seat, self.price, baked))
                return
        if baked:
            # "After baking bread, rotate the die with the value that was used down by one value."
            best = state._highest_die()
            if best >= 0:
                state._reduce(best)
        state.emit("baked", seat=seat, count=baked, dice=list(state.dice))
        state._rejuvenation(seat)

    def why_illegal(self, state: IunuState, action: IunuAction) -> str:
        if action.kind == Kind.BREAD:
            seat = self.seat
            if state.debens[seat] < self.price:
                return (f"Bread costs {self.price} Deben{'' if self.price == 1 else 's'} and seat {seat} "
                        f"has {state.debens[seat]}")
            if state.bread <= 0:
                return "the 20 Bread tokens are all in use"
            return f"seat {seat} has no {CITIZENS[action.arg]} without Bread (one Bread per Citizen)"
        return super().why_illegal(state, action)


class ArtisanDiscount(Decision):
    """ARTISAN: pay 1 Deben per Artisan to place one fewer card in the Forum (`least` to `most`)."""

    __slots__ = ("least", "most")
    kind = "artisan"
    fields = ("least", "most")
    shown = ("least", "most")
    asks = "must choose how many cards to place in the Forum (Artisans)"

    def __init__(self, seat: int, least: int, most: int) -> None:
        super().__init__(seat)
        self.least = least
        self.most = most

    def legal_actions(self, state: IunuState) -> list[Action]:
        place_count = state.game.lookup.place_count
        return [place_count[k] for k in range(self.least, self.most + 1)]

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        place = action.arg
        paid = self.most - place
        state.debens[self.seat] -= paid
        if paid:
            state.emit("artisan", seat=self.seat, paid=paid, place=place)
        state._place(self.seat, place, 0)

    def why_illegal(self, state: IunuState, action: IunuAction) -> str:
        if action.kind == Kind.PLACE_COUNT:
            return (f"you may place {self.least} to {self.most} cards "
                    f"(1 Deben per Artisan for each card fewer than {self.most})")
        return super().why_illegal(state, action)


class PlaceCard(Decision):
    """REJUVENATION 1: place cards from hand face up in the Forum, one at a time."""

    __slots__ = ("remaining", "placed")
    kind = "place"
    fields = ("remaining", "placed")
    shown = ("remaining",)
    asks = "must place a card from hand in the Forum"

    def __init__(self, seat: int, remaining: int, placed: int) -> None:
        super().__init__(seat)
        self.remaining = remaining
        self.placed = placed

    def legal_actions(self, state: IunuState) -> list[Action]:
        place = state.game.lookup.place
        return [place[t] for t in sorted(set(state.hands[self.seat]))]

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        seat = self.seat
        state.hands[seat].remove(action.arg)
        state.forum.append(action.arg)  # newest on the right (Rise of Aten keeps the row in this order)
        state.emit("placed", seat=seat, card=CITIZENS[action.arg])
        state._place(seat, self.remaining - 1, self.placed + 1)

    def why_illegal(self, state: IunuState, action: IunuAction) -> str:
        if action.kind == Kind.PLACE:
            return _holds_no(self.seat, action)
        return super().why_illegal(state, action)


class TakeCard(Decision):
    """REJUVENATION 1: take other cards from the Forum; the last `fresh` Forum cards were just placed."""

    __slots__ = ("remaining", "fresh")
    kind = "take"
    fields = ("remaining", "fresh")
    shown = ("remaining", "fresh")
    asks = "must take a card that was in the Forum before their own were placed"

    def __init__(self, seat: int, remaining: int, fresh: int) -> None:
        super().__init__(seat)
        self.remaining = remaining
        self.fresh = fresh

    def legal_actions(self, state: IunuState) -> list[Action]:
        # Only cards that were in the Forum before this turn's placing.
        take = state.game.lookup.take
        return [take[t] for t in sorted(set(state.forum[: len(state.forum) - self.fresh]))]

    def resolve(self, state: IunuState, action: IunuAction) -> None:
        seat = self.seat
        # Of several cards of the type, the oldest (leftmost) is taken.
        state.forum.remove(action.arg)
        state.hands[seat].append(action.arg)
        state.emit("took", seat=seat, card=CITIZENS[action.arg])
        if self.remaining > 1 and len(state.forum) > self.fresh:
            state.pending.append(TakeCard(seat, self.remaining - 1, self.fresh))
            return
        state._refill(seat)

    def why_illegal(self, state: IunuState, action: IunuAction) -> str:
        if action.kind == Kind.TAKE:
            return f"there is no {CITIZENS[action.arg]} in the Forum that you may take (not one you just placed)"
        return super().why_illegal(state, action)


DECISIONS: Final[tuple[type[Decision], ...]] = (
    PharaohReroll, PlayCitizen, SecondCard, UseAbility, ScribeTuck, PriestDie, PriestKeep, SoldierSteal,
    Tribute, Bake, ArtisanDiscount, PlaceCard, TakeCard,
)
