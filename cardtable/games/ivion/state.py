"""Ivion's rules (rulebook ivion.txt; shared/rules/NOTES.md; docs/games/ivion.md for our readings).

The state holds the board (hero tiles, terrain, cards attached to heroes, tiles and cards), each
hero's HP, resources (`core.resources.Pools`: actions and power, at most 5 each), initiative,
control, feats and zones. Playing a card puts it on the core's response stack (`ResponseStack`);
its effects run through the core's effect layer (`Effects`), one verb handler each (verbs.py), so
what answers them (a snare on a tile, a brand on a hero, chivalry, a passive feat) fires by the
same rules, in turn order. The state answers both (`EffectHost`, `StackHost`: its hooks below);
the actions their decisions offer are the game's action space's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple, Self, TypeVar, cast

from ...core.actions import Action
from ...core.effects import Ability, Attempt, Chain, Context, EffectActions, GameEvent, Sequence, StackItem
from ...core.state import State, zero_sum_returns
from ...core.verbs import Effect
from ...core.zones import HostKeys, Layout, Order, Pool, StateLayout, Visibility, Zone
from .actions import CONTROLS, COPY_BASE, COPY_SLOTS, DIRECTIONS, STEP, IvionAction, Kind, copy_words, tile_name
from .card import Card
from .decisions import (
    DECISIONS,
    EFFECTS,
    STACK,
    DiscardDown,
    LoseResource,
    Main,
    Play,
    SecondWindKeep,
    card_moves,
    plays,
    refusal,
    start_play,
)
from .verbs import BEGIN, POOLS, VERBS, TerrainKind

if TYPE_CHECKING:
    from collections.abc import Collection, Iterator

    from ...core.game import Game
    from ...core.rng import Rng
    from .game import Ivion

MAX_CONTROL = 5                                 # "up to a maximum of five for each type"
TURN_ACTIONS = 3                                # "You gain three actions at the start of each of your turns"
OPENING_HAND = 5
HAND_LIMIT = 7
EXHAUSTION_DAMAGE = 5
CHIVALRY_HEAL = 2
SECOND_WIND_LOOK = 5
SECOND_WIND_KEEP = 2
CHIVALRY_CARD = 2000   # the ability "heal 2 at the start of your turn" of a chivalrous hero: card 2000 + seat
HEAL_2 = VERBS.parse({"verb": "heal", "amount": CHIVALRY_HEAL}, "chivalry", "effects")


def zones() -> tuple[Zone, ...]:
    """Cards never change owner, so a seat's hidden cards are dealt anew among that owner's hidden
    places only (`Pool.OWNER`); relics are a pile of their own until removed from the game."""
    per = Layout.PER_SEAT
    own = Pool.OWNER
    return (
        Zone("deck", Visibility.HIDDEN, Order.PILE, per, pool=own),
        Zone("hand", Visibility.OWNER, Order.SET, per, pool=own),
        Zone("shown", Visibility.PUBLIC, Order.SET, per),
        Zone("discard", Visibility.PUBLIC, Order.PILE, per),
        Zone("feats", Visibility.PUBLIC, Order.SET, per),
        Zone("relics", Visibility.HIDDEN, Order.PILE, per, group="relics", pool=own),
        Zone("looking", Visibility.OWNER, Order.SET, per, pool=own),
        Zone("played", Visibility.PUBLIC, Order.PILE),
        Zone("attached", Visibility.PUBLIC, Order.SET, Layout.HOSTED, host="host",
             keys=HostKeys(Host.to_json, Host.from_json)),
        Zone("removed", Visibility.PUBLIC, Order.SET, group="relics"),
    )


#: what a card is attached to ("Attach"): a hero, a tile, a card, or in front of a player (no target)
HostKind = Literal["hero", "tile", "card", "player"]
#: a host's kind as its saved key begins ("h0", "t5", "c17", "p0": the recorded games' JSON)
_LETTER: dict[HostKind, str] = {"hero": "h", "tile": "t", "card": "c", "player": "p"}
_KIND: dict[str, HostKind] = {letter: kind for kind, letter in _LETTER.items()}
#: what a card that attaches attaches to, by its target ("Attach": a card with no target is put
#: in front of its controller)
_HOST_OF_TARGET: dict[str, HostKind] = {"self": "hero", "enemy": "hero", "empty_tile": "tile", "attached": "card",
                                        "none": "player"}


class Host(NamedTuple):
    """A host of attached cards: its kind and which one (a hero's or a player's seat, a tile's
    number, a card's id)."""

    kind: HostKind
    id: int

    def to_json(self) -> str:
        return _LETTER[self.kind] + str(self.id)

    @staticmethod
    def from_json(key: str) -> Host:
        kind = _KIND.get(key[:1])
        if kind is None or not key[1:].isdigit():
            raise ValueError(f"attached: host {key!r} is not a hero, tile, card or player "
                             f"(h<seat>, t<tile>, c<card>, p<seat>)")
        return Host(kind, int(key[1:]))


#: every host key made so far (`host_key`), by kind and id: a key is a NamedTuple, made by an
#: interpreted `__new__`
_HOSTS: dict[str, dict[int, Host]] = {kind: {} for kind in _LETTER}


def host_key(kind: HostKind, id: int) -> Host:
    """The key of a host, made once: the rules and the bots look hosts up at every decision."""
    made = _HOSTS[kind]
    found = made.get(id)
    if found is None:
        found = made[id] = Host(kind, id)
    return found


V = TypeVar("V")


class IntKeyed(dict[int, V]):
    """A map keyed by a number (a tile, a card id) whose JSON keys are the numbers as text (JSON's
    keys are strings): a typed layout field, copied by each clone (it changes in place)."""

    def to_json(self) -> dict[str, V]:
        return {str(key): value for key, value in self.items()}

    @classmethod
    def from_json(cls, data: dict[str, V]) -> Self:
        return cls((int(key), value) for key, value in data.items())

    def copy(self) -> Self:
        return type(self)(self)


class TerrainMap(IntKeyed[TerrainKind]):
    """The board's terrain: tile number -> its kind (new terrain replaces the old)."""


class Modes(IntKeyed[int]):
    """Card on the stack (its id) -> the effect its player chose ("Choose", decided on play)."""


class Tokens(IntKeyed[int]):
    """Attached card (its id) -> the turn tokens a fading card carries (verb `fade`); gone with the card."""


class HeroView:
    """A hero in `IvionView`: each field says which entry of `observation(seat)["heroes"][s]` it
    stands for. Cards are the ids whose names the dict shows (never a copy's: a copy exists on the
    stack only). A list the dict shows as it is is the state's own, not a copy: a view is read at
    once, never changed or kept. (A plain class, not a NamedTuple: compiled, it is made and read
    natively.)"""

    def __init__(self, hp: int, max_hp: int, actions: int, power: int, initiative: int, control: list[int],
                 chivalrous: bool, wounded: bool, exhausted: bool, deck: int, hand_size: int, relics: int,
                 feats_used: int, tile: int, discard: list[int], revealed_in_hand: list[int]) -> None:
        self.hp: Final = hp                              # "hp"
        self.max_hp: Final = max_hp                      # "max_hp"
        self.actions: Final = actions                    # "actions"
        self.power: Final = power                        # "power"
        self.initiative: Final = initiative              # "initiative"
        self.control: Final = control                    # "control", in CONTROLS order
        self.chivalrous: Final = chivalrous              # "chivalrous"
        self.wounded: Final = wounded                    # "wounded"
        self.exhausted: Final = exhausted                # "exhausted"
        self.deck: Final = deck                          # "deck"
        self.hand_size: Final = hand_size                # "hand_size"
        self.relics: Final = relics                      # "relics"
        self.feats_used: Final = feats_used              # how many of "feats" are "used"
        self.tile: Final = tile                          # "tile" (a1 0, b1 1, ..., row by row)
        self.discard: Final = discard                    # "discard"
        self.revealed_in_hand: Final = revealed_in_hand  # "revealed_in_hand", unordered


class IvionView:
    """Part of `IvionState.observation(seat)` as numbers (`seat_view`); each field says which dict
    entry it stands for, as `HeroView`'s do. Cards are the ids whose names the dict shows (on the
    stack, a copy's: the card it copies), tiles numbered as `HeroView.tile`."""

    def __init__(self, seat: int | None, heroes: list[HeroView], terrain: list[tuple[int, str]],
                 attached: list[tuple[int, int, HostKind, int]], hand: list[int], looking: list[int],
                 stack: list[tuple[int, int, bool, bool]], decision: str | None, decision_seat: int, turn: int) -> None:
        self.seat: Final = seat                    # "seat"
        self.heroes: Final = heroes                # "heroes"
        self.terrain: Final = terrain              # "terrain": (tile, kind), unordered
        #: "attached": (card, controller, host, the host's seat, tile or card), unordered
        self.attached: Final = attached
        self.hand: Final = hand                    # "hand" (empty for a spectator), unordered
        self.looking: Final = looking              # "looking" (empty for a spectator), unordered
        self.stack: Final = stack                  # "stack": (card, controller, copy, countered), bottom first
        self.decision: Final = decision            # "decision"["kind"]
        self.decision_seat: Final = decision_seat  # "decision"["seat"] (-1 without a decision)
        self.turn: Final = turn                    # "turn"


class Fixed:
    """What never changes in one game and the rules read at every decision: each card id's name,
    card and owner (a copy's id, `k * COPY_BASE + id`, is the card it copies) and the board's size.
    The game makes it once and every state of the game holds it (`IvionState.fixed`), so the rules
    read these in place rather than through the interpreted game object."""

    def __init__(self, names: list[str], cards: list[Card], owners: list[int], size: int) -> None:
        self.names: Final = names
        self.cards: Final = cards
        self.owners: Final = owners
        self.size: Final = size


class IvionState(State):
    layout = StateLayout(
        zones=zones(),
        values=("turn", "turn_number", "first"),
        lists=("hp", "max_hp", "wounded", "initiative", "chivalrous", "pos", "unleashed", "free", "winner_seats",
               "revealed"),
        nested=("feats_used",),
        records=("pools", "controls"),
        typed=(("sequence", EFFECTS.record), ("chain", Chain), ("staged", Play), ("terrain", TerrainMap), ("chosen", Modes),
               ("tokens", Tokens)),
        decisions=(*DECISIONS, *EFFECTS.decisions, STACK.Priority),
    )
    __slots__ = (
        "deck", "hand", "shown", "discard", "feats", "relics", "looking", "played", "attached", "removed",
        "turn", "turn_number", "first", "hp", "max_hp", "wounded", "initiative", "chivalrous",
        "pos", "pools", "controls", "terrain", "feats_used", "staged", "unleashed", "free", "chosen", "sequence", "chain",
        "winner_seats", "revealed", "tokens", "fixed",
    )

    game: Ivion
    deck: list[list[int]]            # per seat; the top is the end of the list
    hand: list[list[int]]            # per seat, private
    shown: list[list[int]]           # per seat: revealed cards in hand (rulebook "Revealing Cards")
    discard: list[list[int]]
    feats: list[list[int]]           # the feat zone
    relics: list[list[int]]          # the relic pile
    looking: list[list[int]]         # second wind: the top five, seen by their owner only
    played: list[int]                # unresolved cards (the response stack's cards)
    attached: dict[Host, list[int]]  # host (a hero, a tile, a card, in front of a player) -> cards
    removed: list[int]               # relics removed from the game
    turn: int
    turn_number: int
    first: int
    hp: list[int]
    max_hp: list[int]
    wounded: list[bool]
    initiative: list[int]
    chivalrous: list[bool]
    pos: list[int]
    pools: list[dict[str, int]]
    controls: list[dict[str, int]]
    terrain: TerrainMap              # tile -> "difficult" | "enchanted"
    feats_used: list[list[int]]      # feats played since their controller's turn began
    staged: Play | None              # a card being played: chosen, targeted, not yet on the stack
    unleashed: list[int]             # cards on the stack that were unleashed
    free: list[int]                  # cards on the stack played for free (cantrip)
    chosen: Modes                    # card on the stack -> the effect its player chose ("choose", decided on play)
    tokens: Tokens                   # attached card -> its turn tokens (a fading card, verb `fade`)
    winner_seats: list[int]
    revealed: list[int]              # face-up cards in a deck or a second-wind look ("Revealing Cards")
    sequence: Any                    # the effect layer's running sequence (EFFECTS.record)
    chain: Chain                     # the response stack
    fixed: Fixed                     # the game's card ids and board (`Ivion.fixed`): not state, held for speed

    def _init_base(self, game: Game[Any], seed: int | None, rng: Rng, record_events: bool) -> None:
        super()._init_base(game, seed, rng, record_events)
        self.fixed = self.game.fixed

    def _copy_base_into(self, new: State) -> None:
        super()._copy_base_into(new)
        cast(IvionState, new).fixed = self.fixed

    # -- facts --------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return self.fixed.size

    def card(self, card: int) -> Card:
        return self.fixed.cards[card % COPY_BASE]

    def name(self, card: int) -> str:
        return self.fixed.names[card % COPY_BASE]

    def card_name(self, card: int) -> str:
        """A card as the effect layer's questions and the stack's log name it (never its id): a
        copy says so, and a chivalrous hero's heal (CHIVALRY_CARD + seat, no card of the game: its
        id would name another card) is "chivalry"."""
        if card - CHIVALRY_CARD in (0, 1):
            return "chivalry"
        return self.name(card) + (" (copy)" if card >= COPY_BASE else "")

    def owner(self, card: int) -> int:
        return self.fixed.owners[card % COPY_BASE]

    def distance(self, a: int, b: int) -> int:
        """Tiles apart, counted orthogonally ("Tiles that are diagonal to one another are not adjacent")."""
        n = self.fixed.size
        return abs(a // n - b // n) + abs(a % n - b % n)

    def near(self, a: int, b: int) -> bool:
        """Glossary "Near": the same tile or an adjacent one."""
        return self.distance(a, b) <= 1

    def neighbour(self, tile: int, direction: str) -> int:
        n = self.size
        dr, dc = STEP[direction]
        r, c = tile // n + dr, tile % n + dc
        return r * n + c if 0 <= r < n and 0 <= c < n else -1

    def exhausted(self, seat: int) -> bool:
        """"A player is exhausted while they have no cards in their deck." """
        return not self.deck[seat]

    def empty_tile(self, tile: int) -> bool:
        """Glossary "Empty tile": no cards attached and no heroes in it (terrain allowed)."""
        return tile not in self.pos and not self.attached.get(host_key("tile", tile))

    def hero_meant(self, ctx: Context, to: str) -> int:
        if to == "self":
            return ctx.controller
        if to == "enemy":
            return 1 - ctx.controller
        return ctx.targets[0]

    def host_of(self, card: int) -> Host | None:
        for host, cards in self.attached.items():
            if card in cards:
                return host
        return None

    def location(self, card: int) -> int:
        """The tile an attached card is in (rulebook "Destroy"): the tile it is attached to, the
        tile of the hero or card it is attached to, or else its controller's tile (a card attached in
        front of its player has no tile of its own)."""
        host = self.host_of(card)
        if host is None:
            return self.pos[self.owner(card)]
        if host.kind == "tile":
            return host.id
        if host.kind == "card":
            return self.location(host.id)
        return self.pos[host.id]  # a hero, or a player

    def sealed(self, card: int) -> bool:
        """An attached card with a seal on it has no abilities: a seal that is itself sealed has
        none either, so it seals nothing."""
        return any("seal" in self.card(c).statuses and not self.sealed(c) for c in self.attached.get(host_key("card", card), ()))

    def statuses_on(self, seat: int) -> list[str]:
        """Statuses that hold for a hero: of cards attached to it and of its passive feats."""
        out: list[str] = []
        for c in self.attached.get(host_key("hero", seat), ()):
            if not self.sealed(c):
                out += self.card(c).statuses
        for c in self.feats[seat]:
            if self.card(c).passive:
                out += self.card(c).statuses
        return out

    def prevented_by(self, seat: int, card: Card) -> list[str]:
        """The controls on `seat` that its banner names ("If you have any control of those kinds
        applied to you, you cannot play that card"); heroic cards ignore control."""
        if card.heroic:
            return []
        return [k for k in card.banner if self.controls[seat][k] > 0]

    # -- changing the board and the heroes --------------------------------------------------------

    def deal_damage(self, seat: int, amount: int) -> None:
        if not self.exhausted(seat):  # Exhaustion: "damage you take can't be reduced"
            amount -= 1 if "ward" in self.statuses_on(seat) else 0  # wards do not add up (our reading)
        if amount <= 0:
            return
        self.hp[seat] -= amount
        self.emit("damage", seat=seat, amount=amount, hp=self.hp[seat])
        if self.hp[seat] <= 0:  # "a player is defeated when their HP is reduced to zero"
            self.hp[seat] = 0
            self._end([1 - seat])
            return
        if not self.wounded[seat] and self.hp[seat] <= self.max_hp[seat] // 2:
            self.wounded[seat] = True
            self.emit("wounded", seat=seat)
            self._second_wind(seat)

    def heal(self, seat: int, amount: int) -> None:
        if self.exhausted(seat):  # Exhaustion: "you can't gain HP"
            return
        gained = min(amount, self.max_hp[seat] - self.hp[seat])
        self.hp[seat] += gained
        if gained:
            self.emit("heal", seat=seat, amount=gained, hp=self.hp[seat])

    def draw(self, seat: int) -> None:
        if self.exhausted(seat):  # "if you would draw a card, instead take 5 damage"
            self.emit("exhausted_draw", seat=seat)
            self.deal_damage(seat, EXHAUSTION_DAMAGE)
            return
        card = self.deck[seat].pop()
        if card in self.revealed:  # it stays face up, now in the hand
            self.revealed.remove(card)
            self.shown[seat].append(card)
            self.emit("drew_revealed", seat=seat, card=self.name(card))
            return
        self.hand[seat].append(card)
        self.emit("draw", to=(seat,), seat=seat, card=self.name(card))
        self.emit("drew", seat=seat)

    def gain(self, seat: int, resource: str, n: int) -> None:
        got = POOLS.gain(self.pools[seat], resource, n)
        self.emit("gain", seat=seat, resource=resource, n=got)

    def add_control(self, seat: int, kind: str, n: int) -> None:
        self.controls[seat][kind] = min(MAX_CONTROL, self.controls[seat][kind] + n)
        self.emit("control", seat=seat, control=kind, n=self.controls[seat][kind])

    def stun(self, seat: int, n: int) -> None:
        """Glossary "Stun": the hero loses a resource of their choice (lost, not spent)."""
        for left in range(n, 0, -1):
            have = [r for r in ("actions", "power") if self.pools[seat][r] > 0]
            if len(have) == 2:
                self.pending.append(LoseResource(seat, left))
                return
            if have:
                POOLS.lose(self.pools[seat], have[0], 1)

    def travel(self, seat: int, tile: int, cause: int) -> None:
        self.enter(seat, tile, cause)

    def enter(self, seat: int, tile: int, cause: int) -> None:
        """`seat` leaves its tile and enters `tile` (moving or travelling)."""
        old = self.pos[seat]
        enemy = self.pos[1 - seat]
        self.pos[seat] = tile
        self.emit("enter", seat=seat, tile=tile_name(tile, self.size))
        # Chivalry: dishonoured when "a game action or effect you control causes you to leave a tile
        # near an enemy and enter a tile that is not near an enemy"
        if cause == seat and self.near(old, enemy) and not self.near(tile, enemy):
            self.dishonour(seat, "left a tile near the enemy")
        if self.terrain.get(tile) == "enchanted":  # "they gain 1 power, and the terrain is removed"
            del self.terrain[tile]
            POOLS.gain(self.pools[seat], "power", 1)

    def make_terrain(self, tile: int, kind: TerrainKind) -> None:
        self.terrain[tile] = kind  # new terrain replaces the old

    def _detach(self, card: int) -> None:
        """Take `card` off its host; whatever is attached to it goes to its owner's discard."""
        host = self.host_of(card)
        assert host is not None
        self.attached[host].remove(card)
        if not self.attached[host]:
            del self.attached[host]
        self.tokens.pop(card, None)  # a card that leaves its host leaves its tokens
        for sub in list(self.attached.get(host_key("card", card), ())):
            self._detach(sub)
            self.to_discard(sub)

    def _feat_returns(self, card: int) -> bool:
        """"If a feat would be sent to the discard, hand, or deck, it is instead returned to the feat
        zone" (rulebook, Feats): True when `card` is a feat, now back in its owner's feat zone."""
        if not self.card(card).feat:
            return False
        self.feats[self.owner(card)].append(card)
        return True

    def to_discard(self, card: int) -> None:
        """To its owner's discard (a feat: to the feat zone instead)."""
        if not self._feat_returns(card):
            self.discard[self.owner(card)].append(card)

    def destroy(self, card: int) -> None:
        self._detach(card)
        self.to_discard(card)
        self.emit("destroyed", card=self.name(card))

    def fade(self, card: int, turns: int) -> None:
        """Verb `fade` (our shape of a lasting card, docs/games/ivion.md): a turn token on the
        attached card; with `turns` of them it is destroyed (rulebook "Destroy")."""
        if self.host_of(card) is None:  # destroyed or recalled before its trigger resolved
            return
        n = self.tokens.get(card, 0) + 1
        if n >= turns:
            self.destroy(card)
            return
        self.tokens[card] = n
        self.emit("faded", card=self.name(card), tokens=n, turns=turns)

    def recall(self, card: int, to: str) -> None:
        """Back to its owner's hand or the top of their deck, revealed: "The card then remains face up
        for the rest of the game, even if in a private zone" (rulebook "Revealing Cards")."""
        self._detach(card)
        if self._feat_returns(card):
            self.emit("recalled", card=self.name(card), place="feat zone")
            return
        owner = self.owner(card)
        if to == "hand":
            self.shown[owner].append(card)
        else:
            self.deck[owner].append(card)
            self.revealed.append(card)
        self.emit("recalled", card=self.name(card), place=to)

    def shuffle_deck(self, seat: int) -> None:
        """"When a player's deck is shuffled, any revealed cards in that deck are no longer revealed." """
        self.rng.shuffle(self.deck[seat])
        self.revealed = [c for c in self.revealed if c not in self.deck[seat]]
        self.emit("shuffled", seat=seat)

    def counter(self, card: int) -> None:
        STACK.counter(self, card)

    def copy_card(self, card: int, seat: int) -> None:
        """Glossary "Copy": play an identical version; it does not attach and goes to no discard. We
        read it as played for free by the copier (no cost, no power gained), aimed as the original:
        "an enemy" and "yourself" are the copier's. A copy the copier could not play (control, range)
        is not played."""
        item = next(i for i in reversed(self.chain.items) if i.card == card)
        c = self.card(card)
        targets = (1 - seat,) if c.target == "enemy" else (seat,) if c.target == "self" else item.targets
        slot = self.copy_slot()
        assert slot is not None  # targets_for offers no card to copy when every slot is taken
        copy = slot * COPY_BASE + card % COPY_BASE
        played = StackItem(copy, seat, seat, targets, None)
        # "In all other ways, treat it like playing a normal card": the copier must be able to play it
        # (no control its banner names, the target in the copier's range); otherwise there is no copy
        if not self.still_legal(played):
            why = "control prevents it" if self.prevented_by(seat, c) else "no valid target for the copier"
            self.emit("copy_not_played", seat=seat, card=self.name(card), why=why)
            return
        if card in self.chosen:  # an identical version: what its player chose, it does
            self.chosen[copy] = self.chosen[card]
        self.emit("copied", seat=seat, card=self.name(card))
        self.check_chivalry_on_play(seat, c, targets)
        STACK.play(self, played)

    def copy_slot(self) -> int | None:
        """The lowest copy number no unresolved copy has (None: COPY_SLOTS copies are unresolved)."""
        taken = {i.card // COPY_BASE for i in self.chain.items}
        return next((k for k in range(1, COPY_SLOTS + 1) if k not in taken), None)

    def become_chivalrous(self, seat: int) -> None:
        self.chivalrous[seat] = True
        self.emit("chivalrous", seat=seat)

    def dishonour(self, seat: int, why: str) -> None:
        if self.chivalrous[seat]:
            self.chivalrous[seat] = False
            self.emit("dishonoured", seat=seat, why=why)

    def check_chivalry_on_play(self, seat: int, card: Card, targets: tuple[int, ...]) -> None:
        if card.target == "enemy" and any(self.controls[targets[0]].values()):
            self.dishonour(seat, "targeted an enemy affected by control")
        if self.turn != seat:
            self.dishonour(seat, "played a card during the enemy's turn")

    def gain_relic(self, seat: int) -> None:
        """Glossary "Relics": the top of the relic pile, its effects at once; then out of the game."""
        if not self.relics[seat]:
            return
        relic = self.relics[seat].pop()
        self.removed.append(relic)
        self.emit("relic", seat=seat, card=self.name(relic))
        ctx = Context(seat, relic)
        seq: Sequence = self.sequence
        self.sequence = seq.with_work(seq.work + tuple(Attempt(e, ctx) for e in reversed(self.card(relic).effects)))

    def _second_wind(self, seat: int) -> None:
        """Look at the top five, two into the hand, the rest to the bottom in the order chosen."""
        look = min(SECOND_WIND_LOOK, len(self.deck[seat]))
        if not look:
            return
        for _ in range(look):
            self.looking[seat].append(self.deck[seat].pop())
        self.emit("second_wind", seat=seat)
        self.pending.append(SecondWindKeep(seat, min(SECOND_WIND_KEEP, look)))

    def _end(self, winners: list[int]) -> None:
        self.winner_seats = sorted(winners)
        self.is_over = True
        self.emit("game_over", winners=self.winner_seats)

    # -- setup ---------------------------------------------------------------------------------

    def _setup(self) -> None:
        g = self.game
        n = g.options.board
        self.deck, self.hand, self.shown, self.discard = [[], []], [[], []], [[], []], [[], []]
        self.feats, self.relics, self.looking = [[], []], [[], []], [[], []]
        self.played, self.attached, self.removed = [], {}, []
        for seat, (deck, feats, relics) in enumerate(g.start_ids):
            self.deck[seat] = list(deck)
            self.rng.shuffle(self.deck[seat])
            self.feats[seat] = list(feats)
            self.relics[seat] = list(relics)
            self.rng.shuffle(self.relics[seat])
        self.turn = 0
        self.turn_number = 0
        self.first = self.rng.below(2)  # the rulebook does not say who starts: chosen at random
        self.max_hp = [d.hp for d in g.decks]   # "determines the starting and maximum HP of the hero"
        self.hp = list(self.max_hp)
        self.wounded = [False, False]
        self.initiative = [0, 0]
        self.chivalrous = [False, False]
        self.pos = [n - 1, (n - 1) * n]             # each hero on the corner at its player's bottom right
        self.pools = [POOLS.empty(), POOLS.empty()]
        self.controls = [{"slow": 0, "silence": 0, "disarm": 0} for _ in range(2)]
        self.terrain = TerrainMap()
        self.feats_used = [[], []]
        self.staged = None
        self.unleashed, self.free, self.winner_seats, self.revealed = [], [], [], []
        self.chosen = Modes()
        self.tokens = Tokens()
        self.sequence = EFFECTS.idle
        self.chain = Chain()
        for seat in range(2):  # opening hands of 5, no mulligan
            for _ in range(OPENING_HAND):
                self.hand[seat].append(self.deck[seat].pop())
        self.emit("setup", heroes=list(g.hero_names), first=self.first, board=n)
        self.start_turn(self.first)

    # -- the turn -----------------------------------------------------------------------------

    def begin_turn(self, seat: int) -> None:
        """Each turn: gain 3 actions and 1 initiative, draw 1 (not the first player's first turn)."""
        POOLS.gain(self.pools[seat], "actions", TURN_ACTIONS)
        self.initiative[seat] = 1
        self.emit("turn", seat=seat, number=self.turn_number)
        if not (self.turn_number == 1 and seat == self.first):
            self.draw(seat)

    def start_turn(self, seat: int) -> None:
        self.turn = seat
        self.turn_number += 1
        if self.turn_number > self.game.options.turn_limit:  # our bound (docs/games/ivion.md)
            best = max(self.hp)
            self._end([s for s in range(2) if self.hp[s] == best])
            return
        self.feats_used[seat] = []  # a feat "cannot be played again until the start of its controller's next turn"
        EFFECTS.start(self, BEGIN, Context(seat))

    def end_turn(self) -> None:
        seat = self.turn
        self.initiative[seat] = 0  # unused initiative is lost
        if len(self.hand[seat]) + len(self.shown[seat]) > HAND_LIMIT:
            self.pending.append(DiscardDown(seat))
            return
        self.start_turn(1 - seat)

    # -- playing cards -------------------------------------------------------------------------

    def range_ok(self, seat: int, card: Card, tile: int) -> bool:
        return card.range is None or self.distance(self.pos[seat], tile) <= card.range

    def has_target(self, seat: int, card: Card) -> bool:
        """Whether `card` has a legal target for `seat` now (the common cases without listing them)."""
        t = card.target
        if t in ("none", "self"):
            return True
        if t == "enemy":
            return self.range_ok(seat, card, self.pos[1 - seat])
        if t == "stack":
            return any(not i.countered for i in self.chain.items)
        if t in ("tile", "empty_tile"):  # "one or more targets": as many tiles as it takes, counted no further
            for found, _ in enumerate(self._tile_targets(seat, card), 1):
                if found >= card.targets:
                    return True
            return False
        return len(self.targets_for(seat, card)) >= card.targets  # "one or more targets": all of them chosen

    def targets_for(self, seat: int, card: Card) -> list[int]:
        """The legal targets of `card` for `seat` now (rulebook "Playing Cards": in range)."""
        t = card.target
        if t == "none":
            return [-1]
        if t == "self":
            return [seat]
        if t == "enemy":
            return [1 - seat] if self.range_ok(seat, card, self.pos[1 - seat]) else []
        if t in ("tile", "empty_tile"):
            return list(self._tile_targets(seat, card))
        if t == "attached":
            return sorted(c for cards in self.attached.values() for c in cards
                          if self.range_ok(seat, card, self.location(c)))
        if card.copies_card and self.copy_slot() is None:
            return []  # (COPY_SLOTS copies unresolved: no room for another)
        return [i.card for i in self.chain.items if not i.countered]  # "stack": an unresolved card

    def _tile_targets(self, seat: int, card: Card) -> Iterator[int]:
        """The tiles `card` may target for `seat` now, in order: in range, empty if it asks an empty
        tile, and one its traveller may enter."""
        empty = card.target == "empty_tile"
        travel = card.travel
        for tile in range(self.size * self.size):
            if not self.range_ok(seat, card, tile):
                continue
            if empty and not self.empty_tile(tile):
                continue
            if travel is not None and not self.travel_ok(seat, travel, tile):
                continue
            yield tile

    def travel_ok(self, seat: int, effect: Effect, tile: int) -> bool:
        """"Occupied Tiles": a hero can't enter a tile with their opponent; a hero travels to another tile."""
        who = seat if effect.params.who == "self" else 1 - seat  # type: ignore[attr-defined]
        return tile != self.pos[who] and tile != self.pos[1 - who]

    def still_legal(self, item: StackItem) -> bool:
        """Meta-counters: control that would now prevent it, or "none of your card's targets are
        valid" (with two targets, one still valid is enough)."""
        c = self.card(item.card)
        if self.prevented_by(item.controller, c):
            return False
        return c.target == "none" or any(self.target_valid(item, t) for t in item.targets)

    def valid_targets(self, item: StackItem) -> tuple[int, ...]:
        """The targets of an unresolved card still valid as it resolves: its effects act on these."""
        return tuple(t for t in item.targets if self.target_valid(item, t))

    def target_valid(self, item: StackItem, t: int) -> bool:
        c = self.card(item.card)
        seat = item.controller
        if c.target in ("self", "enemy"):
            return self.range_ok(seat, c, self.pos[t])
        if c.target in ("tile", "empty_tile"):
            if c.attach and item.card < COPY_BASE and not self.empty_tile(t):
                return False
            return t in self.targets_for(seat, c)
        if c.target == "attached":
            return self.host_of(t) is not None and self.range_ok(seat, c, self.location(t))
        return any(i.card == t and not i.countered for i in self.chain.items)

    def resolve_item(self, item: StackItem) -> None:
        c = self.card(item.card)
        seat = item.controller
        copy = item.card >= COPY_BASE
        self.emit("resolves", card=self.name(item.card), seat=seat, copy=copy)
        if c.grants and not copy and item.card not in self.free:  # "Gain resources"; free: no power
            POOLS.gain(self.pools[seat], "power", c.grants)
        # with two targets, the effects act on those still valid (one may have gone: "none of your
        # card's targets are valid" is what meta-counters it)
        targets = self.valid_targets(item) if c.targets > 1 else item.targets
        if c.attach and not copy:
            t = targets[0] if targets else seat
            host = host_key(_HOST_OF_TARGET[c.target], t)
            self.played.remove(item.card)
            self.attached.setdefault(host, []).append(item.card)
        effects = c.resolved_effects(self.chosen.get(item.card, 0), item.card in self.unleashed)
        # within the stack's resolution: if the effects are over at once, the stack resolves on
        # (`ResponseStack.resolve_next`); else `effects_done` comes when they are
        EFFECTS.carry_out(self, effects, Context(seat, item.card, targets))

    def discard_item(self, item: StackItem) -> None:
        card = item.card
        for flags in (self.unleashed, self.free):
            if card in flags:
                flags.remove(card)
        self.chosen.pop(card, None)
        if card >= COPY_BASE or card not in self.played:  # copies go nowhere; attached cards stay
            return
        self.played.remove(card)
        self.to_discard(card)

    # -- the effect layer's hooks (EffectHost) ---------------------------------------------------------

    def effects_done(self) -> None:
        """An effect sequence is over: the unresolved cards resolve on, or the turn goes on."""
        if self.chain.items:
            STACK.resolve_next(self)
        else:
            self.pending.append(Main(self.turn))

    def effect_actions(self) -> EffectActions:
        return self.game.answers

    def abilities(self, event: GameEvent) -> list[Ability]:
        out: list[Ability] = []
        if event.kind == "begin_turn":
            s = event.seat
            if self.chivalrous[s]:
                out.append(Ability(CHIVALRY_CARD + s, 0, s, "begin_turn", (HEAL_2,), Context(s), optional=False))
            for c in self.feats[s]:
                out += self._card_abilities(c, "your_turn_start", s, Context(s, c, (s,)))
            hero = host_key("hero", s)
            for host, cards in self.attached.items():
                for c in cards:
                    if host == hero:
                        out += self._card_abilities(c, "host_turn_start", self.owner(c), Context(self.owner(c), c, (s,)))
                    if self.owner(c) == s:
                        out += self._card_abilities(c, "your_turn_start", s, Context(s, c, (s,)))
        elif event.kind == "enter":
            for c in self.attached.get(host_key("tile", event.target), ()):
                if self.owner(c) != event.seat:
                    out += self._card_abilities(c, "enemy_enters", self.owner(c), Context(self.owner(c), c, (event.seat,)))
        return out

    def _card_abilities(self, card: int, when: str, controller: int, ctx: Context) -> list[Ability]:
        c = self.card(card)
        if not c.abilities or self.sealed(card) or (c.feat and not c.passive):
            return []
        return [Ability(card, i, controller, when, a.effects, ctx, optional=False)
                for i, a in enumerate(c.abilities) if a.when == when]

    def event_of(self, effect: Effect, ctx: Context) -> GameEvent:
        if effect.verb == "step":
            return GameEvent("enter", seat=ctx.controller, target=effect.params.tile)  # type: ignore[attr-defined]
        if effect.verb == "travel":
            who = ctx.controller if effect.params.who == "self" else 1 - ctx.controller  # type: ignore[attr-defined]
            return GameEvent("enter", seat=who, target=ctx.targets[0])
        return GameEvent(effect.verb, seat=ctx.controller)

    def turn_order(self) -> list[int]:
        return [self.turn, 1 - self.turn]

    # -- the response stack's hooks (StackHost; still_legal, resolve_item, discard_item above) ------

    def responses(self, seat: int) -> list[Action]:
        return plays(self, seat, responding=True)

    def respond(self, seat: int, action: Action) -> None:
        a: IvionAction = action  # type: ignore[assignment]
        start_play(self, seat, "feat" if a.kind == Kind.FEAT else "play", a.name)

    def pass_action(self) -> Action:
        return self.game.space.pass_

    def next_priority(self, seat: int) -> int:
        return 1 - seat

    def priority_question(self, seat: int) -> str:
        """The response window's question: which card it answers."""
        top = self.chain.items[-1]
        at = f" at {', '.join(self.target_name(top.card, t) for t in top.targets)}" if top.targets else ""
        return (f"may answer {self.name(top.card)}{' (a copy)' if top.card >= COPY_BASE else ''}{at} "
                f"with an instant, or pass (then the unresolved cards resolve, the last played first)")

    def priority_refusal(self, seat: int, action: Action) -> str:
        """The response window says which rule refuses an action (rulebook "Playing Cards", Important)."""
        assert isinstance(action, IvionAction)
        if action.kind in (Kind.PLAY, Kind.FEAT):
            how = "feat" if action.kind == Kind.FEAT else "play"
            return refusal(self, seat, how, action.name, True) or f"{action.text!r} is not possible now"
        return (f"{action.text!r}: while cards are unresolved, players only respond with instants or pass (no moving, "
                f"removing control or expending initiative)")

    def pools_of(self, seat: int) -> dict[str, int]:
        return self.pools[seat]

    def stack_done(self) -> None:
        """The stack is empty again: the turn goes on."""
        self.pending.append(Main(self.turn))

    # -- the contract -----------------------------------------------------------------------------

    def _returns(self) -> list[float]:
        return zero_sum_returns(self.winner_seats, 2)

    def _winners(self) -> list[int]:
        return list(self.winner_seats)

    def _names(self, cards: list[int]) -> list[str]:
        return [self.name(c) for c in cards]

    def seen_hand(self, seat: int) -> list[int]:
        """The cards in `seat`'s hand as its player sees them: the hidden ones and the revealed ones."""
        return self.hand[seat] + self.shown[seat]

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What `seat` sees as a JSON dict (`seat_view`: the part an encoder reads, as numbers)."""
        d = self.decision
        heroes = []
        for s in range(2):
            heroes.append({
                "hero": self.game.hero_names[s], "hp": self.hp[s], "max_hp": self.max_hp[s], "wounded": self.wounded[s],
                "tile": tile_name(self.pos[s], self.size),
                # the tiles next to the hero, by the direction a move takes (the view binds clicks to them)
                "steps": {d: tile_name(t, self.size) for d in DIRECTIONS if (t := self.neighbour(self.pos[s], d)) >= 0},
                "actions": self.pools[s]["actions"],
                "power": self.pools[s]["power"], "initiative": self.initiative[s], "control": dict(self.controls[s]),
                "chivalrous": self.chivalrous[s], "exhausted": self.exhausted(s), "deck": len(self.deck[s]),
                "hand_size": len(self.hand[s]) + len(self.shown[s]), "revealed_in_hand": sorted(self._names(self.shown[s])),
                "discard": self._names(self.discard[s]),
                "feats": [{"name": self.name(c), "used": c in self.feats_used[s]} for c in self.feats[s]],
                "relics": len(self.relics[s]), "looking": len(self.looking[s]),
                "revealed_in_deck": [[self.name(c), len(self.deck[s]) - 1 - i] for i, c in enumerate(self.deck[s])
                                     if c in self.revealed],
                "revealed_looking": sorted(self.name(c) for c in self.looking[s] if c in self.revealed),
            })
        out: dict[str, Any] = {
            # no "content": the table's options (its own content, inline over the web) reach a client once,
            # not in every update (issue 31, hole 2); the terminal reads the cards from the game
            "seat": seat, "players": 2, "board": self.size, "turn": self.turn, "turn_number": self.turn_number,
            "heroes": heroes,
            "terrain": {tile_name(t, self.size): k for t, k in sorted(self.terrain.items())},
            # "on": where it is, in words; "host" what kind of place, with the hero's seat or the tile
            "attached": [{"card": self.name(c), "id": c, "controller": self.owner(c), **self._host(h),
                          **({"tokens": self.tokens[c]} if c in self.tokens else {})}
                         for h, cards in sorted(self.attached.items()) for c in cards],
            # "ref": how a move names the item as a target ("target copy 2 of Arc Bolt #17")
            "stack": [{"card": self.name(i.card), "id": i.card, "ref": self.card_ref(i.card), "controller": i.controller,
                       "copy": i.card >= COPY_BASE, "targets": [self.target_name(i.card, t) for t in i.targets],
                       "countered": i.countered, "unleashed": i.card in self.unleashed} for i in self.chain.items],
            "removed": self._names(self.removed),
            "decision": None if d is None else d.view(self, seat),
            "winners": list(self.winner_seats) if self.is_over else [],
        }
        if seat is not None:
            out["hand"] = sorted(self._names(self.seen_hand(seat)))
            out["looking"] = sorted(self._names(self.looking[seat]))
        return out

    def seat_view(self, seat: int | None) -> IvionView:
        """`observation(seat)`'s numbers for an encoder, without names, texts or tile names
        (cardtable/games/ivion/encoder.py): nothing the dict does not show (`IvionView`)."""
        owners = self.fixed.owners
        copies: int = COPY_BASE  # (a local: compiled, the loop below then reads no module global)
        heroes = []
        for s in range(2):
            pools, controls, used, deck = self.pools[s], self.controls[s], self.feats_used[s], self.deck[s]
            heroes.append(HeroView(
                self.hp[s], self.max_hp[s], pools["actions"], pools["power"], self.initiative[s],
                [controls[k] for k in CONTROLS], self.chivalrous[s], self.wounded[s], not deck, len(deck),
                len(self.hand[s]) + len(self.shown[s]), len(self.relics[s]), len([c for c in self.feats[s] if c in used]),
                self.pos[s], self.discard[s], self.shown[s]))
        attached = []
        for (kind, key), cards in self.attached.items():
            for c in cards:
                attached.append((c, owners[c], kind, key))
        d = self.decision
        return IvionView(
            seat, heroes, list(self.terrain.items()), attached, self.seen_hand(seat) if seat is not None else [],
            self.looking[seat] if seat is not None else [],
            [(i.card % copies, i.controller, i.card >= copies, i.countered) for i in self.chain.items],
            None if d is None else d.kind, -1 if d is None else d.seat, self.turn)

    def card_moves(self, seat: int) -> dict[str, list[Action]]:
        return card_moves(self, seat)

    def card_status(self, seat: int | None) -> dict[str, dict[str, Any]]:
        """The core's why-not for each card, and for a card with a range the tiles it reaches from
        the hero's tile now ("reach": the view lights them while the card is hovered)."""
        out = super().card_status(seat)
        for name, status in out.items():
            c = self.game.library.cards[name]
            if c.range is not None and seat is not None:
                status["reach"] = [tile_name(t, self.size) for t in range(self.size * self.size)
                                   if self.range_ok(seat, c, t)]
        return out

    def _host(self, host: Host) -> dict[str, Any]:
        """Where an attached card is, as the texts name it: on a hero ("Lio Marrow"), in front of a
        player (no tile: "in front of Lio Marrow"), on a tile, on a card (its ref)."""
        kind, key = host
        if kind == "hero":
            return {"on": self.game.hero_names[key], "host": "hero", "seat": key}
        if kind == "player":
            return {"on": f"in front of {self.game.hero_names[key]}", "host": "player", "seat": key}
        if kind == "tile":
            return {"on": tile_name(key, self.size), "host": "tile", "tile": tile_name(key, self.size)}
        return {"on": self.card_ref(key), "host": "card"}

    def target_name(self, card: int, t: int) -> str:
        """Target `t` of `card` as every text names it: a hero by its name, a tile, a card by its ref."""
        kind = self.card(card).target
        if kind in ("self", "enemy"):
            return self.game.hero_names[t]
        if kind in ("tile", "empty_tile"):
            return tile_name(t, self.size)
        return self.card_ref(t)

    def card_ref(self, card: int) -> str:
        """A card as a target names it: "Arc Bolt #17", "copy 2 of Arc Bolt #17"."""
        return f"{copy_words(card // COPY_BASE)}{self.name(card)} #{card % COPY_BASE}"

    def zone_visible(self, zone: Zone, owner: int | str | None, seat: int) -> bool:
        return zone.owned and owner == seat

    def known_positions(self, seat: int) -> dict[tuple[str, int | str | None], Collection[int]]:
        """What the deal of hidden cards leaves in place for `seat`: revealed cards, where everyone
        saw them ("Revealing Cards"), and the bottom of its own deck after its second wind, whose
        order it chose ("put the other three on the bottom of your deck in any order")."""
        face_up = self.revealed
        out: dict[tuple[str, int | str | None], Collection[int]] = {}
        for s in range(2):
            bottom = self._known_bottom(s) if s == seat else 0
            if bottom or face_up:
                deck = self.deck[s]
                out["deck", s] = {*range(min(bottom, len(deck))), *(k for k, c in enumerate(deck) if c in face_up)}
            if face_up:
                out["hand", s] = {k for k, c in enumerate(self.hand[s]) if c in face_up}
                out["looking", s] = {k for k, c in enumerate(self.looking[s]) if c in face_up}
        return out

    def _known_bottom(self, seat: int) -> int:
        """How many cards at the bottom of `seat`'s deck its player knows: the rest of the top five
        its second wind looked at ("put the other three on the bottom of your deck in any order")."""
        return SECOND_WIND_LOOK - SECOND_WIND_KEEP if self.wounded[seat] else 0


__all__ = ["DIRECTIONS", "CONTROLS", "IvionState", "POOLS", "zones"]
