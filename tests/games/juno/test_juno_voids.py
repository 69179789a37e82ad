"""What the other seats infer from public play (`JunoState.voids`) and the determinizations that
use it (the hard bot's and the coach's searches). Not a rule of the rulebook: a belief drawn from
"Let's play" ("If you don't have a card that matches ... you must take a card from the DRAW pile";
"Otherwise, play moves on to the next person in turn"); docs/games/juno.md, "What the bots infer"."""

from __future__ import annotations

import pytest

from cardtable import agents
from cardtable.core.rng import Rng
from cardtable.core.views import need_of, view_for
from cardtable.games.juno.decisions import MATCH
from cardtable.games.juno.state import JunoState

from .scenario import cards, juno, names, position


def test_a_seat_that_draws_is_believed_to_hold_nothing_that_matches() -> None:
    """Seat 1 draws on a red 5 and the drawn card passes unplayed: seen from seat 0, every
    determinization deals seat 1 only cards that match neither red nor 5 nor are wild."""
    state = position(juno(players=2), ["red 1, blue 2", "blue 3, green 7, yellow 8"], discard="red 5",
                     draw="wild, red 9, red 2, green 5, blue 9, yellow 1, green 2", turn=1)
    state.apply("draw")  # seat 1 takes green 2 (the top of the DRAW pile), which cannot be played
    assert state.current_player == 0
    assert [bin(m).count("1") for m in state.voids[1]] == [18] * 4  # red (13), the other 5s (3), two wilds
    held = MATCH[state.color][5]
    for k in range(200):
        view = state.determinize(0, Rng(k))
        assert len(view.hands[1]) == 4
        assert not [c for c in view.hands[1] if held[c]], names(view.hands[1])
        assert sorted(view.hands[0]) == sorted(state.hands[0])


def test_every_seat_sees_what_the_table_infers_and_the_encoder_reads_it() -> None:
    """The observation's `lacking` (and the encoding's piece of that name, docs/rl.md) counts the
    cards of each hand known not to be red, yellow, green, blue, a Wild; the same for every
    observer (public play made it), in rows relative to the observer in the encoding."""
    import numpy as np

    from cardtable.rl.encoders import encoder_for

    state = position(juno(players=2), ["red 1, blue 2", "blue 3, green 7, yellow 8"], discard="red 5",
                     draw="wild, red 9, red 2, green 5, blue 9, yellow 1, green 2", turn=1)
    assert state.observation(0)["lacking"] == [[0] * 5, [0] * 5]
    state.apply("draw")  # green 2, unplayable: all four cards of seat 1 are neither red nor wild
    for seat in (0, 1, None):
        assert state.observation(seat)["lacking"] == [[0] * 5, [4, 0, 0, 0, 4]]
    encoder = encoder_for(state.game)
    lacking = encoder.offsets["lacking"]
    for seat, row in ((0, 1), (1, 0)):  # seat 1's row: relative seat 1 for seat 0, 0 for itself
        x = encoder.encode_state(state, seat)
        assert np.array_equal(x, encoder.encode(state.observation(seat)))
        got = x[lacking].reshape(2, 5)
        assert got[row].tolist() == [4, 0, 0, 0, 4] and not got[1 - row].any()


def test_a_playable_drawn_card_is_not_believed_unplayable() -> None:
    """The drawn card could be played (a decision follows): only the cards held before are constrained."""
    state = position(juno(players=2), ["red 1, blue 2", "blue 3, green 7"], discard="red 5",
                     draw="green 2, red 9", turn=1)
    state.apply("draw")  # red 9: playable, so seat 1 is asked whether to play it
    assert state.current_player == 1
    assert [m != 0 for m in state.voids[1]] == [True, True, False]


def test_a_card_that_breaks_the_belief_drops_it() -> None:
    """A player who drew by choice ("You may also choose NOT to play a playable card") and later
    plays a card it was believed not to hold: what was believed of that hand is dropped, so no
    determinization is dealt against what the table has seen."""
    state = position(juno(players=2), ["red 1, blue 2", "red 3, green 7"], discard="red 5", draw="green 2", turn=1)
    state.voids = ((0, 0), (_mask("red 5"), _mask("red 5")))  # as if seat 1 had drawn on this red 5 by choice
    state.apply("play red 3")
    assert state.voids[1] == (0,)


def test_a_card_that_fits_several_masks_keeps_only_what_they_share() -> None:
    """Which mask left with the card is unknown: the others keep what every candidate forbade."""
    state = position(juno(players=2), ["red 1, blue 2", "blue 3, green 7, yellow 9"], discard="blue 5", turn=1)
    red, green = _mask("red 4"), _mask("green 4")  # red or a 4 or wild; green or a 4 or wild
    state.voids = ((0, 0), (red, green, red))
    state.apply("play blue 3")  # blue 3 fits all three masks
    shared = red & green  # a 4 or a wild
    assert shared and state.voids[1] == (shared, shared)


def _mask(top: str) -> int:
    from cardtable.games.juno.cards import CARD_COLOR, CARD_RANK
    from cardtable.games.juno.decisions import MATCH_MASK
    t = cards(top)[0]
    return MATCH_MASK[CARD_COLOR[t]][CARD_RANK[t]]


def _fits(hand: list[int], masks: tuple[int, ...]) -> bool:
    """Whether the cards of `hand` can be given one mask each that allows them (a matching)."""
    owner: dict[int, int] = {}  # mask index -> card index

    def place(card: int, seen: set[int]) -> bool:
        for k, m in enumerate(masks):
            if k in seen or m >> hand[card] & 1:
                continue
            seen.add(k)
            if k not in owner or place(owner[k], seen):
                owner[k] = card
                return True
        return False

    return len(hand) == len(masks) and all(place(c, set()) for c in range(len(hand)))


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4}, {"players": 3, "variant": "seven-o"},
                                     {"players": 2, "variant": "serious"}])
def test_the_belief_holds_for_players_who_play_when_they_can(options: dict[str, object]) -> None:
    """The medium bot never draws when it can play, as the belief assumes: at every step of its
    games every hand can be matched to its masks (the inference never rules out a card held)."""
    game = juno(**options)
    bot = agents.make("medium", seed=1)
    for seed in range(12):
        state = game.new_state(seed, record_events=False)
        assert isinstance(state, JunoState)
        copies = Rng(seed)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            state.apply(bot.act(view_for(need_of(bot), state, seat, copies.spawn)))
            for hand, masks in zip(state.hands, state.voids, strict=True):
                assert _fits(hand, masks), (names(hand), masks)


def test_beliefs_come_from_public_play_only() -> None:
    """Two deals that differ in the hidden cards but show the same public course give the same
    belief: the masks change only with what every seat sees (a draw and whether a decision
    followed it, the card played)."""
    game = juno(players=2)
    a = position(game, ["red 1, blue 2", "blue 3, green 7"], discard="red 5", draw="green 2, yellow 4", turn=1)
    b = position(game, ["red 1, blue 2", "yellow 3, green 9"], discard="red 5", draw="green 2, blue 4", turn=1)
    for state in (a, b):
        state.apply("draw")  # seat 1 draws a card it cannot play (yellow 4 / blue 4) and the turn passes
        state.apply("play red 1")
    assert a.voids == b.voids and any(a.voids[1])


def test_a_wild_draw_four_shows_a_hand_without_the_color_in_play() -> None:
    """"You may only play this card when you do NOT have another card in your hand that matches the
    COLOR on the DISCARD pile": after seat 1 plays it on red, every determinization seen from seat 0
    deals seat 1 no red card (a wild or a 5 may still be there)."""
    state = position(juno(players=2), ["red 1, blue 2", "wild draw four, green 3, yellow 4, blue 5"],
                     discard="red 5", draw="red 9, red 2, red 7, green 5, blue 9, yellow 1, wild", turn=1)
    state.apply("play wild draw four")
    state.apply("choose green")
    red = cards("red 0, red 2, red 7, red skip, red draw two")
    assert len(state.voids[1]) == 3 and all(m >> c & 1 for m in state.voids[1] for c in red)
    for k in range(100):
        view = state.determinize(0, Rng(k))
        assert not [c for c in view.hands[1] if c in cards("red 2, red 7, red 9")], names(view.hands[1])


def test_with_the_challenge_rule_a_wild_draw_four_shows_nothing() -> None:
    """With the challenge rule a Wild Draw Four may be a bluff: nothing is inferred from it."""
    state = position(juno(players=2, wild_draw_four="challenge"), ["red 1, blue 2", "wild draw four, red 3, yellow 4"],
                     discard="red 5", turn=1)
    state.apply("play wild draw four")
    assert state.voids[1] == (0, 0)


def test_a_determinized_copy_keeps_its_beliefs_until_its_first_move() -> None:
    """A bot's view is a determinized copy that its search determinizes again at every iteration: it
    keeps the masks (its copies are dealt by them). A copy that moves (a playout) drops them, so no
    playout pays for their upkeep; a copy of it believes nothing and is dealt at random."""
    state = position(juno(players=2), ["red 1, blue 2", "blue 3, green 7, yellow 8"], discard="red 5",
                     draw="wild, red 9, red 2, green 5, blue 9, yellow 1, green 2", turn=1)
    state.apply("draw")
    view = state.determinize(0, Rng(1))
    assert view.voids == state.voids
    held = MATCH[state.color][5]
    for k in range(50):  # the view's own copies are dealt by the masks it kept
        assert not [c for c in view.determinize(0, Rng(k)).hands[1] if held[c]]
    copy = view.determinize(0, Rng(2))
    copy.apply(copy.legal_actions()[0])
    assert copy.voids == () and state.voids == view.voids != ()
    assert len(copy.determinize(1, Rng(3)).hands[0]) == len(copy.hands[0])


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3, "variant": "seven-o"},
                                     {"players": 2, "variant": "serious"}, {"players": 2, "match": True}])
def test_playouts_on_determinized_copies_play_the_same_rules(options: dict[str, object]) -> None:
    """A copy that stopped keeping beliefs moves exactly as one that keeps them: the same moves
    from the same deal give the same game (the masks are no rule)."""
    game = juno(**options)
    for seed in range(4):
        state = game.new_state(seed, record_events=False)
        assert isinstance(state, JunoState)
        moves = Rng(seed)
        for step in range(400):
            if state.is_over:
                break
            if step % 7 == 0:
                seat = state.current_player
                assert seat is not None
                dealt = state.determinize(seat, Rng(step))
                assert isinstance(dealt, JunoState)
                kept = dealt.clone()
                assert isinstance(kept, JunoState)
                kept._dealt = False  # the same copy, still keeping its beliefs
                picks = Rng(step + 1)
                while not dealt.is_over and len(dealt.history) < len(state.history) + 60:
                    legal = dealt.legal_actions()
                    action = legal[picks.below(len(legal))]
                    dealt.apply(action)
                    kept.apply(action)
                assert dealt.to_json()["state"] == kept.to_json()["state"] and dealt.voids == ()
            legal = state.legal_actions()
            state.apply(legal[moves.below(len(legal))])
