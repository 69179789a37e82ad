"""Play in the browser by clicking: full JUNO and IUNU games against bots, a refused move shown with
the engine's reason, reconnecting mid-game, a server restart mid-game, the end and the replay."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .conftest import CARDS_LANDED, Server, assert_fits, playwright_api, shot

WAIT = 20_000  # ms: a generous bound for the next state to arrive (not a timing assertion)


def create_table(page: Any, server: Server, game: str, seed: int, setup: Callable[[Any], None] | None = None) -> str:
    """Through the lobby: pick the game, a random bot in seat 1, a seed; sit at seat 0."""
    page.goto(server.url + "/")
    page.click(f".game-pick[data-game={game}]")
    page.fill("[data-seat-name='0']", "Ann")  # a player chooses a name when they sit (issue 21)
    page.select_option(".seat-agent", "random")
    if setup:
        setup(page)
    page.fill("#seed", str(seed))
    page.click("#create-btn")
    page.click("[data-join='0']")
    # (the body is briefly absent while the table page loads)
    page.wait_for_function("document.body && document.body.dataset.version !== undefined", timeout=WAIT)
    return str(page.url.split("/t/")[1].split("?")[0])


def version(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.version"))


# Cards in a fan overlap and are rotated: find a point of the element that is really on top there.
VISIBLE_POINT = """el => {
  el.scrollIntoView({block: "center", inline: "center"});
  const r = el.getBoundingClientRect();
  for (let fy = 0.5; fy > 0.1; fy -= 0.1) {
    for (let fx = 0.1; fx < 0.95; fx += 0.1) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      const hit = document.elementFromPoint(x, y);
      // not on the card's (i) button: that opens the card's text and plays nothing
      if (hit && (hit === el || el.contains(hit)) && !(hit !== el && hit.closest(".info-btn"))) return [x, y];
    }
  }
  return null;
}"""


def click(page: Any, target: Any) -> None:
    """A real mouse click on the part of `target` a person can see.

    A state that arrives just before the click redraws the hand: an element handle found before it is
    then detached and has no visible point. Pass a locator (it finds the element anew each time) where
    that can happen; the point is looked for again a few times while the new layout settles."""
    for _ in range(5):
        page.wait_for_function(CARDS_LANDED, timeout=WAIT)
        point = target.evaluate(VISIBLE_POINT)
        if point is not None:
            page.mouse.click(point[0], point[1])
            return
        page.wait_for_timeout(200)
    raise Covered("the element is entirely covered")


class Covered(AssertionError):
    """No point of the element is on top: it is hidden, or it left the page with a redraw."""


REFUSED = "!document.querySelector('#toast').classList.contains('hidden') && !document.querySelector('#toast').classList.contains('info')"


def click_move(page: Any, find: Callable[[Any], Any]) -> None:
    """Click the legal move `find(page)` returns and wait for the next state.

    A state can arrive between finding the move and the click without the game moving (another player
    connects: the seats bar changes and the fan shifts under the pointer, so the click lands on the
    neighbouring card, which the server refuses, or on a card that is no move at all, which opens its
    text and sends nothing). The click is then made again on the new layout; a move refused or
    unanswered three times is a failure, with the server's reason."""
    v = version(page)
    reason = ""
    for _ in range(3):
        page.evaluate("document.querySelector('#toast').classList.add('hidden')")
        page.keyboard.press("Escape")  # a card's text left open covers part of the table
        target = find(page)
        assert target is not None, "the seat must decide but the view highlights no legal move"
        try:
            click(page, target)
        except Covered:  # the handle left the page with a redraw: find the move again
            reason = "the move was covered or redrawn"
            continue
        try:
            page.wait_for_function(f"document.body.dataset.version !== '{v}' || ({REFUSED})", timeout=WAIT // 2)
        except playwright_api.TimeoutError:  # the click reached nothing that answers
            reason = "no answer to the click"
            continue
        if version(page) != v:
            return
        reason = page.locator("#toast").inner_text()
    raise AssertionError(f"a highlighted legal move was refused three times: {reason}")


def first_legal(page: Any) -> Any:
    """The first highlighted legal move: a card of the hand if any, else whatever the view offers."""
    return page.query_selector("#hand [data-legal]") or page.query_selector("#view [data-legal]")


def play(page: Any, moves: int | None = None) -> int:
    """Click legal moves until the game ends (or `moves` were made). Returns the moves made."""
    made = 0
    while moves is None or made < moves:
        page.wait_for_function("document.body.dataset.over === 'true' || document.body.dataset.decides === 'true'",
                               timeout=WAIT)
        if page.evaluate("document.body.dataset.over") == "true":
            break
        click_move(page, first_legal)
        made += 1
    return made


def check_the_end(page: Any, name: str) -> None:
    page.wait_for_selector("#end:not(.hidden)", timeout=WAIT)
    assert page.locator("#status").inner_text() == "Game over"
    rows = page.locator("#end table tr")
    assert rows.count() == 3  # the header and two seats
    assert page.locator("#end tr.win").count() >= 1
    assert page.locator("#rematch").is_visible()
    shot(page, f"{name}-end")
    # the finished game replays move by move
    page.click("#replay-btn")
    page.wait_for_selector("#replay:not(.hidden)")
    page.click("#replay-next")
    page.wait_for_function("document.querySelector('#status').innerText.startsWith('Replay: move 1 of')", timeout=WAIT)
    shot(page, f"{name}-replay")


def test_a_full_juno_game_by_clicking(page: Any, server: Server) -> None:
    create_table(page, server, "juno", seed=5, setup=lambda p: p.uncheck("input[name=match]"))
    page.wait_for_selector("#hand .card")
    shot(page, "juno-start")
    # A card that does not match is refused with the engine's reason, and nothing changes.
    page.wait_for_function("document.body.dataset.decides === 'true'", timeout=WAIT)
    for _ in range(200):
        dim = page.query_selector("#hand .card.dim")
        if dim is not None and page.evaluate("document.body.dataset.decides") == "true":
            break
        play(page, 1)
    else:
        raise AssertionError("never held a card that cannot be played")
    v = version(page)
    name = dim.get_attribute("data-card")
    why = dim.get_attribute("data-why")  # the server's reason, on the card before it is clicked (issue 30)
    # its title says what the card does, then why it cannot be played now
    assert why and dim.get_attribute("title").endswith(f"\n{why}") and dim.get_attribute("title").startswith(name), (name, why)
    click(page, page.locator(f"#hand .card.dim[data-card={json.dumps(name)}]").first)
    page.wait_for_selector("#toast:not(.hidden)", timeout=WAIT)
    reason = page.locator("#toast").inner_text()
    assert why in reason, (why, reason)  # the click is refused in the same words
    assert version(page) == v
    made = play(page)
    assert made > 0
    check_the_end(page, "juno")


def test_a_full_iunu_game_by_clicking(page: Any, server: Server) -> None:
    create_table(page, server, "iunu", seed=3)
    page.wait_for_function("document.body.dataset.decides === 'true'", timeout=WAIT)
    shot(page, "iunu-start")
    play(page)
    check_the_end(page, "iunu")


def test_reconnect_mid_game(page: Any, server: Server) -> None:
    table = create_table(page, server, "juno", seed=7, setup=lambda p: p.uncheck("input[name=match]"))
    play(page, 3)
    v = version(page)
    log = page.locator("#log div").count()
    # Leave: the page goes away; come back by the table's address (the token is remembered).
    page.goto(server.url + "/")
    page.goto(f"{server.url}/t/{table}")
    page.wait_for_function(f"Number(document.body.dataset.version) >= {v}", timeout=WAIT)
    assert "Ann" in page.locator("#title").inner_text()  # the seat, by the name its player chose
    assert page.locator("#log div").count() >= log  # the whole log again
    play(page, 3)
    assert version(page) > v


def test_server_restart_mid_game(page: Any, server: Server) -> None:
    create_table(page, server, "juno", seed=11, setup=lambda p: p.uncheck("input[name=match]"))
    play(page, 4)
    page.wait_for_function("document.body.dataset.decides === 'true' || document.body.dataset.over === 'true'", timeout=WAIT)
    v = version(page)
    hand = page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    server.restart()
    # The page reconnects by itself to the new process, which rebuilt the table from the database.
    page.wait_for_function("document.querySelector('#conn').innerText === 'connected'", timeout=WAIT)
    page.wait_for_function(f"Number(document.body.dataset.version) >= {v}", timeout=WAIT)
    assert version(page) == v
    assert page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)") == hand
    play(page)
    check_the_end(page, "juno-restarted")


def test_phone_width_fits_and_plays(browser: Any, server: Server) -> None:
    """At 390 px the page does not scroll sideways, the whole hand is on screen and cards can be clicked."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True)
    page = context.new_page()
    try:
        create_table(page, server, "juno", seed=13, setup=lambda p: p.uncheck("input[name=match]"))
        page.wait_for_selector("#hand .card")
        shot(page, "juno-phone")
        assert_fits(page, "#hand .card")
        assert play(page, 3) == 3
    finally:
        context.close()


def test_runes_of_zun_is_playable_by_clicking(page: Any, server: Server) -> None:
    create_table(page, server, "zun", seed=2)
    page.wait_for_selector("#hand .rune")
    assert page.locator(".seat .hp").count() == 2  # an HP tracker per seat
    shot(page, "zun-start")
    assert play(page, 6) >= 1


def test_a_spectator_sees_no_hand_and_cannot_act(page: Any, server: Server) -> None:
    table = create_table(page, server, "juno", seed=17, setup=lambda p: p.uncheck("input[name=match]"))
    spectator = page.context.browser.new_page(bypass_csp=True)
    try:
        spectator.goto(f"{server.url}/t/{table}?spectate")
        spectator.wait_for_function("document.body.dataset.version !== undefined", timeout=WAIT)
        assert "watching" in spectator.locator("#title").inner_text()
        assert spectator.locator("#hand").count() == 0
        assert spectator.locator("#view [data-legal]").count() == 0
        assert spectator.locator("#draw-pile").count() == 1
    finally:
        spectator.close()


def test_pages_run_under_the_content_security_policy_and_drop_the_token_from_the_address(browser: Any,
                                                                                        server: Server) -> None:
    """The policy on (no bypass): the lobby and a table work, nothing is blocked, and the seat's token
    leaves the address bar once the page has read it (issue 20, finding 8)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: blocked.append(str(e)))
    try:
        page.goto(server.url + "/")
        page.click(".game-pick[data-game=juno]", timeout=WAIT)
        page.select_option(".seat-agent", "random")
        page.click("#create-btn")
        page.click("[data-join='0']", timeout=WAIT)
        page.wait_for_selector("body[data-version]", state="attached", timeout=WAIT)
        page.wait_for_selector(".legal, #view *", state="attached", timeout=WAIT)
        assert "/t/" in page.url and "token" not in page.url
        assert page.evaluate("Object.keys(localStorage).some(k => k.startsWith('cardtable:token:'))")
        assert not blocked, blocked
    finally:
        context.close()
