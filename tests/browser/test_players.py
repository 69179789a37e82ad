"""Issue 21 in the browser: joining an open seat from the lobby, watching any table, the replay
controls, a refused or out-of-turn click with its reason in every game, names everywhere, the tab
title on your turn, and screenshots at a phone's width (390 px)."""

from __future__ import annotations

import time
from typing import Any

from cardtable.agents import DIFFICULTY
from cardtable.sim.ladder import published

from .conftest import Server, api, shot
from .test_play import WAIT, click, create_table, play, version

PHONE = {"width": 390, "height": 844}


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1


def toast(page: Any) -> str:
    page.wait_for_selector("#toast:not(.hidden)", timeout=WAIT)
    return str(page.locator("#toast").inner_text())


def test_join_an_open_seat_from_the_lobby_and_play_under_your_name(browser: Any, server: Server) -> None:
    ann = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True).new_page()
    bo = browser.new_context(viewport=PHONE, bypass_csp=True).new_page()
    try:
        # Ann creates a table: herself, an open seat for anyone in the lobby, a bot
        ann.goto(server.url + "/")
        ann.click(".game-pick[data-game=juno]")
        ann.fill("[data-seat-name='0']", "Ann")
        ann.click("#add-seat")
        ann.select_option(".seat-kind[data-seat='1']", "open")
        ann.select_option(".seat-agent", "random")
        ann.uncheck("input[name=match]")
        ann.fill("#seed", "11")
        ann.click("#create-btn")
        ann.click("[data-join='0']")
        ann.wait_for_function("document.body && document.body.dataset.version !== undefined", timeout=WAIT)
        table = ann.url.split("/t/")[1].split("?")[0]
        # Bo, on a phone, finds it in the lobby with its status and takes the open seat
        bo.goto(server.url + "/")
        row = bo.locator(f"li[data-table='{table}']")
        row.wait_for(timeout=WAIT)
        text = row.inner_text()
        assert "JUNO" in text and "2 seated, 1 open" in text and "Ann" in text and "Bot 3 (bot, random)" in text
        # an open seat: the table waits for a player, whoever's turn it is (issue 36)
        assert "waiting for a player" in text and "to play" not in text
        assert "no move yet, created" in text and ("just now" in text or "min ago" in text)
        shot(bo, "lobby-390px")
        fits(bo)
        row.locator("[data-open-seat='1']").click()
        bo.fill(".join-name", "Bo")
        bo.click("[data-sit='1']")
        bo.wait_for_function("document.body && document.body.dataset.version !== undefined", timeout=WAIT)
        assert "Bo" in bo.locator("#title").inner_text() and "?token=" not in bo.url
        assert bo.locator("#hand .card").count() == 7  # Bo's own hand
        # Ann's table now calls seat 2 by Bo's name; the seat is no longer open in the lobby
        ann.wait_for_function("[...document.querySelectorAll('.seat .seat-name')].some(n => n.textContent === 'Bo')",
                              timeout=WAIT)
        listing = next(t for t in api(server, "/api/tables")["tables"] if t["id"] == table)
        assert listing["open_seats"] == [] and [s["name"] for s in listing["seats"]] == ["Ann", "Bo", "Bot 3"]
        # taking it again is refused with a reason
        bo.goto(server.url + "/")
        assert bo.locator(f"li[data-table='{table}'] [data-open-seat]").count() == 0
        # everyone plays on; the log names players, never "seat N"
        for page in (ann, bo):
            page.goto(f"{server.url}/t/{table}")
            page.wait_for_function("document.body.dataset.version !== undefined", timeout=WAIT)
        for _ in range(6):
            for page in (ann, bo):
                if page.evaluate("document.body.dataset.decides") == "true" and page.evaluate("document.body.dataset.over") != "true":
                    play(page, 1)
            time.sleep(0.2)
        log = ann.locator("#log").inner_text()
        assert "Bo" in log and "seat 1" not in log and "seat 0" not in log
    finally:
        ann.context.close()
        bo.context.close()


def test_watch_from_the_lobby_does_not_sit_you_down(page: Any, server: Server) -> None:
    # this browser holds the token of seat 0 (it created the table): "watch" must still only watch
    table = create_table(page, server, "juno", seed=17, setup=lambda p: p.uncheck("input[name=match]"))
    page.goto(server.url + "/")
    page.click(f"[data-watch='{table}']")
    page.wait_for_function("document.body && document.body.dataset.version !== undefined", timeout=WAIT)
    assert "watching" in page.locator("#title").inner_text()
    assert page.locator("#hand").count() == 0 and page.locator("#view [data-legal]").count() == 0
    assert "spectators" in page.locator("#actions").inner_text()
    # a click on the table says why nothing happens
    page.locator("#draw-pile").click()
    page.evaluate("window.CT.api.attempt('draw')")
    assert "watching" in toast(page)


def finished_bot_table(server: Server, game: str, seed: int, **options: Any) -> str:
    if game == "juno":
        options.setdefault("match", False)
    t = api(server, "/api/tables", {"game": game, "options": options, "seed": seed,
                                     "seats": [{"kind": "bot", "agent": "random", "name": "Ada"},
                                               {"kind": "bot", "agent": "random", "name": "Cleo"}]})
    deadline = time.monotonic() + 60
    while not api(server, f"/api/tables/{t['id']}")["over"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.3)
    return str(t["id"])


def test_replay_controls_step_back_and_forward_and_say_who_moved(page: Any, server: Server) -> None:
    table = finished_bot_table(server, "juno", 4)
    page.goto(f"{server.url}/t/{table}?spectate&replay=0")
    page.wait_for_selector("#replay:not(.hidden)", timeout=WAIT)
    steps = api(server, f"/api/tables/{table}/replay?step=0")["steps"]
    said = page.locator("#replay-said")
    assert f"Move 0 of {steps}" in said.inner_text() and "the deal" in said.inner_text()
    assert page.locator("#replay-prev").is_disabled() and page.locator("#replay-first").is_disabled()
    assert not page.locator("#moves-panel").is_visible()  # "Your moves" is hidden in a replay
    # the controls are plain text: nothing an emoji font is needed for
    labels = "".join(page.locator("#replay .replay-bar button").all_inner_texts())
    assert labels and all(ord(c) < 0x2000 for c in labels), labels
    for n in (1, 2, 3):
        page.click("#replay-next")
        page.wait_for_function(f"document.querySelector('#replay-said').innerText.startsWith('Move {n} of')", timeout=WAIT)
        actor = api(server, f"/api/tables/{table}/replay?step={n}")["actor"]
        assert actor in ("Ada", "Cleo") and said.inner_text().split(" · ", 1)[1].startswith(actor)  # who moved
    page.click("#replay-prev")
    page.wait_for_function("document.querySelector('#replay-said').innerText.startsWith('Move 2 of')", timeout=WAIT)
    assert page.locator("#status").inner_text() == f"Replay: move 2 of {steps}"
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#replay-said').innerText.startsWith('Move 1 of')", timeout=WAIT)
    page.click("#replay-last")
    page.wait_for_function(f"document.querySelector('#replay-said').innerText.startsWith('Move {steps} of')", timeout=WAIT)
    assert page.locator("#replay-next").is_disabled()
    page.set_viewport_size(PHONE)
    page.click("#replay-first")
    page.wait_for_function("document.querySelector('#replay-said').innerText.startsWith('Move 0 of')", timeout=WAIT)
    page.click("#replay-next")
    page.wait_for_function("document.querySelector('#replay-said').innerText.startsWith('Move 1 of')", timeout=WAIT)
    fits(page)
    shot(page, "replay-390px")
    page.click("#replay-close")
    assert page.locator("#replay").is_hidden()


def test_the_end_shows_places_and_points_not_returns(page: Any, server: Server) -> None:
    table = finished_bot_table(server, "juno", 6)
    page.goto(f"{server.url}/t/{table}?spectate")
    page.wait_for_selector("#end:not(.hidden)", timeout=WAIT)
    text = page.locator("#standings").inner_text()
    assert "1st" in text and "2nd" in text and "points" in text and "Ada" in text and "Cleo" in text
    assert "+1.00" not in text and "-1.00" not in text and "0.50" not in text


def test_out_of_turn_click_says_whose_turn_it_is_and_the_tab_title_says_yours(page: Any, server: Server) -> None:
    # two people: when Ann has moved it is Player 2's turn (nobody sits there yet) until they come
    def setup(p: Any) -> None:
        p.uncheck("input[name=match]")
        p.select_option(".seat-kind[data-seat='1']", "person")

    create_table(page, server, "juno", seed=7, setup=setup)  # seed 7: Ann (seat 1) plays first
    page.wait_for_function("document.body.dataset.decides === 'true'", timeout=WAIT)
    assert page.title().startswith("● Your turn") and page.locator("#status").inner_text() == "Your move"
    for _ in range(5):  # Ann's turn (a Wild asks her for a color too)
        if page.evaluate("document.body.dataset.decides") != "true":
            break
        play(page, 1)
    page.wait_for_function("!document.title.startsWith('●')", timeout=WAIT)
    assert page.locator("#status").inner_text() == "Player 2 to decide…"
    assert "waiting for Player 2" in page.locator("#actions").inner_text()
    v = version(page)
    click(page, page.locator("#hand .card").first)
    assert "it is not your turn: Player 2 must decide now" in toast(page)
    page.evaluate("document.querySelector('#toast').classList.add('hidden')")
    click(page, page.locator("#draw-pile"))  # the DRAW pile too
    assert "it is not your turn" in toast(page)
    assert version(page) == v


def test_iunu_refused_click_says_why(page: Any, server: Server) -> None:
    create_table(page, server, "iunu", seed=3)
    page.wait_for_function("document.body.dataset.decides === 'true'", timeout=WAIT)
    page.wait_for_selector("#forum .citizen")
    # a Forum card when the decision is not to take one: refused with the engine's reason
    for _ in range(60):
        if page.locator("#forum .citizen[data-refusable]").count() and page.evaluate("document.body.dataset.decides") == "true":
            break
        play(page, 1)
    v = version(page)
    click(page, page.locator("#forum .citizen[data-refusable]").first)
    reason = toast(page)  # e.g. "'take soldier' is not possible now: Ann must play a Citizen card from hand"
    assert "is not possible now" in reason and "Ann must" in reason, reason
    assert version(page) == v
    assert page.locator("#card-detail").is_visible()  # and what the card is


def test_each_game_mid_play_at_a_phones_width(browser: Any, server: Server) -> None:
    """Screenshots for people (and the issue's closing note): every game mid-play, 390 px wide, with
    names, last plays and the page fitting the width."""
    for game, seed, moves in (("juno", 5, 6), ("iunu", 3, 6), ("zun", 4, 4)):
        context = browser.new_context(viewport=PHONE, bypass_csp=True)
        page = context.new_page()
        try:
            create_table(page, server, game, seed)
            play(page, moves)
            page.wait_for_function("document.body.dataset.decides === 'true' || document.body.dataset.over === 'true'",
                                   timeout=WAIT)
            page.wait_for_selector("[data-last-play]", timeout=WAIT)  # each seat's last play, highlighted
            assert "seat " not in page.locator(".seats").inner_text()
            fits(page)
            shot(page, f"{game}-mid-play-390px")
        finally:
            context.close()


def test_cards_do_not_move_for_people_who_ask_for_reduced_motion(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True, reduced_motion="reduce")
    page = context.new_page()
    try:
        create_table(page, server, "juno", seed=5, setup=lambda p: p.uncheck("input[name=match]"))
        play(page, 3)
        assert page.evaluate("document.body.dataset.moved") is None  # no card was ever animated
    finally:
        context.close()
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    page = context.new_page()
    try:
        create_table(page, server, "juno", seed=5, setup=lambda p: p.uncheck("input[name=match]"))
        moved = []
        for _ in range(4):
            play(page, 1)
            moved.append(int(page.evaluate("document.body.dataset.moved || '0'")))
        assert max(moved) > 0  # without the preference, played cards move to their new place
    finally:
        context.close()


def test_a_bot_is_seen_thinking(page: Any, tmp_path: Any) -> None:
    # bots pausing 2 s before each move (cardtable serve --bot-delay), as people would see them
    slow = Server(tmp_path / "slow.db", bot_delay=2.0)
    slow.start()
    try:
        create_table(page, slow, "juno", seed=7, setup=lambda p: p.uncheck("input[name=match]"))  # Ann plays first
        for _ in range(5):
            page.wait_for_function("document.body.dataset.decides === 'true' || document.querySelector('[data-thinking]')",
                                   timeout=WAIT)
            if page.locator("[data-thinking='1']").count():
                break
            play(page, 1)
        page.wait_for_selector("[data-thinking='1']", timeout=WAIT)
        assert page.locator("[data-thinking='1']").inner_text() == "thinking…"
        assert page.locator("#status").inner_text() == "Bot 2 is thinking…"
        assert not page.title().startswith("●")
        page.wait_for_function("!document.querySelector('[data-thinking]') || document.body.dataset.decides === 'true'",
                               timeout=WAIT)
    finally:
        slow.stop()


def test_the_lobby_names_each_levels_rating_from_the_games_published_ladder(page: Any, server: Server) -> None:
    """Issue 32: a bot seat's levels carry their Elo from the game's published ladder
    (cardtable/agents/ladders.json); a level that ladder has not rated says so, and a game without
    a ladder shows the plain names."""
    page.goto(server.url + "/")
    seen = {"rated": 0, "unrated": 0, "plain": 0}
    for game in [g["name"] for g in api(server, "/api/games")["games"]]:
        page.click(f".game-pick[data-game={game}]")
        labels = page.locator(".seat-agent").first.locator("option").all_inner_texts()
        ratings = (published(game) or {}).get("ratings", {})
        for level in DIFFICULTY:
            if level in ratings:
                expected, kind = f"{level} (Elo {ratings[level]['elo']:+d})", "rated"
            elif ratings:
                expected, kind = f"{level} (not yet rated)", "unrated"
            else:
                expected, kind = level, "plain"
            assert expected in labels, (game, labels)
            seen[kind] += 1
    assert seen["rated"] >= 4  # at least one game's ladder is published (JUNO's rates all four levels)
    # and what they were measured on: JUNO's levels in single rounds, where the lobby's table is a match
    page.click(".game-pick[data-game=juno]")
    assert "one round each" in page.locator("#rated-on").inner_text()
