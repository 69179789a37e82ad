"""Issue 21, item 3: one identity per seat and no Python in any text a person reads.

Every game's log lines, terminal board and move labels, for every seat and a spectator, over whole
random games, with the players' names (`cardtable.ui.names.seated`): no list or dict written out,
no "card(s)", no second person with a third-person verb, no "seat N" left where a name belongs,
no "(target 1)"."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

import cardtable
from cardtable.ui import names
from cardtable.ui.text import choices, narrate, render

NAMES = ["Ann", "Bo", "Cyd", "Dee", "Eve"]

LEAKS = [
    (re.compile(r"[\[\]{}]"), "a list or dict written out"),
    (re.compile(r"\w\(s\)"), "a plural written as (s)"),
    (re.compile(r"\bNone\b|\bTrue\b|\bFalse\b"), "a Python value"),
    # "you ends the turn", "you has", "you is": any word after "you" ending in a single s, but for the
    # few that are no verb (a narrator that writes "you" for the viewer must also change its verb)
    (re.compile(r"\b[Yy]ou (?!(?:always|perhaps|afterwards|towards|unless|thus|yes|plus)\b)(?:is|\w+[^\Wsu]s)\b"),
     "you with a third-person verb"),
    (re.compile(r"\b[Yy]ou['’]s\b"), "you with a possessive 's (your)"),
    (re.compile(r"\b[Ss]eat \d+\b"), "a seat number where its name belongs"),
    (re.compile(r"\(target \d+\)"), "an internal target index"),
    (re.compile(r"\bboosts 0\b|\btargets \["), "the engine's frame fields"),
]

GAMES = [
    ("juno", {"players": 3}),
    ("juno", {"players": 4, "variant": "seven-o"}),
    ("iunu", {"players": 2}),
    ("iunu", {"players": 3}),
    ("zun", {"players": 3}),
    ("zun", {"players": 4, "teams": 2}),
    ("ivion", {}),
    ("iuno_avatar", {"players": 2}),
    ("iuno_avatar", {"players": 3}),
]


def random_moves(state: Any, seed: int, limit: int) -> Iterator[int]:
    """Plays `state` on with random legal moves (at most `limit`): yields each step's number before
    its move is made, so the caller looks at the position the move is chosen in."""
    rnd = random.Random(seed)
    steps = 0
    while not state.is_over and steps < limit:
        yield steps
        state.apply(rnd.choice(state.legal_actions()))
        steps += 1


def leaks(text: str) -> list[str]:
    return [f"{why}: {text!r}" for pattern, why in LEAKS if pattern.search(text)]


def shown(renderable: Any) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize(("game_name", "options"), GAMES)
def test_no_python_and_every_seat_by_its_name(game_name: str, options: dict[str, Any]) -> None:
    game = cardtable.make(game_name, **options)
    table = NAMES[: game.players]
    found: list[str] = []
    lines = questions = 0
    with names.seated(table):
        for seed in range(3):
            state = game.new_state(seed)
            for step in random_moves(state, seed, 400):
                if step % 7 == 0:
                    obs = state.observation(state.current_player)
                    found += leaks(shown(render(game, obs)))
                    for _, label in choices(game, obs, [a.text for a in state.legal_actions()]):
                        found += leaks(label)
                    for viewer in [None, *range(game.players)]:  # the question as every seat and a spectator read it
                        d = state.observation(viewer).get("decision")
                        if isinstance(d, dict) and "text" in d:
                            questions += 1
                            found += leaks(names.prompt(d["seat"], viewer, d["text"]))
            for viewer in [None, *range(game.players)]:
                obs = state.observation(viewer)
                for e in state.events_for(viewer):
                    line = narrate(game, e.to_json(), viewer, obs)
                    if line:
                        lines += 1
                        found += leaks(line)
                if state.is_over:
                    found += leaks(shown(render(game, obs)))
    assert lines > 100
    if "decision" in game.new_state(0).observation(None):  # (JUNO's observation carries no question)
        assert questions > 10
    assert not found, "\n".join(dict.fromkeys(found))


def test_names_replace_seat_numbers_and_come_back_when_typed() -> None:
    with names.seated(["Ann", "Bo"]):
        assert names.rename("seat 1 traded hands with seat 0; Seat 1 wins") == "Bo traded hands with Ann; Bo wins"
        assert names.rename("seat 7 is not at this table") == "seat 7 is not at this table"
        assert names.unname("swap with bo") == "swap with seat 1"
        assert names.name(0) == "Ann"
    assert names.rename("seat 1 played") == "seat 1 played"  # outside a table: the engine's words
    assert names.seat_names([{"kind": "person", "name": "Ann"}, {"kind": "bot"}, {"kind": "person", "name": "ann"}]) \
        == ["Ann", "Bot 2", "ann (3)"]
    assert names.valid_name("  Ann   Lee ") == "Ann Lee"
    for bad in ("", " ", "x" * 25, "seat 2", "You", "a\nb", "[bold]", "<b>", 3, None):
        assert names.valid_name(bad) is None


@pytest.mark.parametrize(("game_name", "options"), GAMES)
def test_every_front_end_asks_what_the_decision_asks(game_name: str, options: dict[str, Any]) -> None:
    """A decision's question is written once (`Decision.question`): the observation, the terminal
    board and the web table's prompt all say it, to the deciding seat as an instruction and to
    everyone else after the seat's name, with their names; it begins with "must" or "may" and says
    "their" only of the seat that decides (never "they" or "them", which could mean anyone, nor "you":
    a card's text quoted in a question is worded for it, `wording="question"`)."""
    from cardtable.server.encoding import encode

    game = cardtable.make(game_name, **options)
    table = NAMES[: game.players]
    seats = [{"kind": "person", "name": n} for n in table]
    kinds = set()
    with names.seated(table):
        for seed in range(2):
            state = game.new_state(seed)
            for step in random_moves(state, seed, 300):
                d = state.decision
                asked = d.question(state)
                assert asked.startswith(("must ", "may ")), asked
                assert not re.search(r"\b(they|them|themselves|you|your|yourself)\b", asked, re.IGNORECASE), asked
                if step % 5 == 0:
                    for viewer in (d.seat, (d.seat + 1) % game.players, None):
                        obs = state.observation(viewer)
                        assert obs["decision"]["text"] == f"seat {d.seat} {asked}"
                        line = names.prompt(d.seat, viewer, obs["decision"]["text"])
                        mine = viewer == d.seat
                        assert line == (f"You: {names.rename(names.addressed(asked))}" if mine
                                        else f"{table[d.seat]} {names.rename(asked)}")
                        board = " ".join(shown(render(game, obs)).replace("│", " ").split())
                        assert " ".join(line.split()) in board
                        msg = encode("t", game, state, 0, viewer, seats)
                        assert msg["prompt"] == {"seat": d.seat, "kind": d.kind, "text": line.split(": ", 1)[1] if mine
                                                 else line[len(table[d.seat]) + 1:]}
                    kinds.add(d.kind)
    assert len(kinds) >= 2


@pytest.mark.parametrize("game_name", ["juno", "iunu", "zun"])
def test_card_texts_hold_no_python(game_name: str) -> None:
    from cardtable.ui.cards import catalog

    found = []
    for card in catalog(cardtable.make(game_name)):
        for key in ("text", "when", "note"):
            found += leaks(str(card.get(key) or ""))
    assert not found, found


# -- Ivion: every hero named (issue 34, part 3) ------------------------------------------------------

#: a hero or player written as an engine's number ("at hero 0", "on player 1"), a card as its id
#: ("22 is countered"): heroes and cards are named in every text
HERO_NUMBER = re.compile(r"\b(hero|player) \d+\b|(^|[^#\w])\d+ (is countered|is meta-countered|resolves)\b",
                         re.IGNORECASE)

#: every starter hero, in several pairings (the second cast's: cards that ask to choose, two targets,
#: cards in front of a player), and one hero against itself
IVION_PAIRINGS = [["Sir Edda Vane", "Lio Marrow"], ["Lio Marrow", "Lio Marrow"], ["Brother Aldous", "Vesk the Quiet"],
                  ["Marshal Kaida", "Wren Ashgrove"], ["Wren Ashgrove", "Brother Aldous"],
                  ["Vesk the Quiet", "Marshal Kaida"]]


@pytest.mark.parametrize("decks", IVION_PAIRINGS)
def test_ivion_names_every_hero_in_the_log_the_stack_and_every_question(decks: list[str]) -> None:
    """Random Ivion games read as each seat and a spectator, with the players' names: every log line,
    the terminal board (its stack), every question and move label, and what the server sends each
    seat (log, prompt, moves, each card's why-not) name heroes by name, never "hero 0"; a card played
    at a hero says the hero's name, or "you" to that hero's own player. Two seats playing the same
    hero are told apart by their seat ("Lio Marrow (2)")."""
    from cardtable.server.encoding import encode

    game = cardtable.make("ivion", decks=decks)
    heroes = game.hero_names
    assert len(set(heroes)) == 2 and all(h.startswith(d) for h, d in zip(heroes, decks, strict=True))
    table = NAMES[:2]
    seats = [{"kind": "person", "name": n} for n in table]
    texts: list[str] = []
    at_hero: dict[int | None, set[str]] = {None: set(), 0: set(), 1: set()}  # how each viewer read a hero target
    seen: set[str] = set()
    with names.seated(table):
        for seed in range(4):
            state = game.new_state(seed)
            for step in random_moves(state, seed, 500):
                d = state.decision
                texts.append(d.question(state))
                seen.add(d.kind)
                seen.update("two targets" for it in state.chain.items if len(it.targets) > 1)
                seen.update("in front" for host in state.attached if host.kind == "player" and state.attached[host])
                if step % 3 == 0 or d.kind in ("choose_mode", "choose_target"):
                    for viewer in (None, 0, 1):
                        obs = state.observation(viewer)
                        texts.append(shown(render(game, obs)))
                        msg = encode("t", game, state, 0, viewer, seats)
                        texts += [msg["prompt"]["text"], *(a["label"] for a in msg["legal"])]
                        texts += [str(c["why"]) for c in msg.get("cards", {}).values()]
            for viewer in (None, 0, 1):
                obs = state.observation(viewer)
                for e in state.events_for(viewer):
                    line = narrate(game, e.to_json(), viewer, obs)
                    if line:
                        texts.append(line)
                        if e.kind == "played" and e.data.get("hero") is not None:
                            hero = e.data["hero"]
                            said = ("yourself" if e.data["seat"] == viewer else "you") if hero == viewer else heroes[hero]
                            assert f" at {said}" in line, (line, viewer)
                            at_hero[viewer].add(said)
    found = [t for t in dict.fromkeys(texts) if HERO_NUMBER.search(t)]
    assert not found, "\n".join(found[:20])
    # the random games reach the second cast's features their decks hold, so their words were read
    lib = game.library
    held = {lib.cards[n] for d in game.decks for n in d.cards}
    wanted = {"choose_mode": any(c.modes for c in held), "two targets": any(c.targets > 1 for c in held),
              "in front": any(c.attach and c.target == "none" for c in held)}
    assert {k for k, v in wanted.items() if v} <= seen, (wanted, seen)
    # spectators read each hero's name; a seat reads its enemy's name and "you"/"yourself" for its own hero
    assert at_hero[None] == set(heroes)
    for seat in (0, 1):
        assert heroes[1 - seat] in at_hero[seat] and at_hero[seat] & {"you", "yourself"}
