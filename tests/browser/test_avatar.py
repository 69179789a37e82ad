"""Iuno Avatar in the browser (issues 19 and 29): a whole game against the heuristic bot played by
clicking, at a laptop's 1280x800 and a phone's 390x844. After every move the table is on one
screen: your Heaven, the question and your moves are inside the window without scrolling, and no
card overlaps another card or a label; the dock holds at most a few move buttons. Along the way: a
choice of a card among many in Hell made on the card itself, drawn at the top of the table, and once
through the dock's compact chooser; an effect's "also do …?" / "instead do …?"
question answered, a cost paid through the payment chooser, a roll that says what it allows and why
the rest is not possible (the server's `cards`: State.card_status), an overpayment refused, Hell as a compact pile
whose every card a dialog shows, pictograms that name themselves on hover and on tap, the Rules
panel's legend of every pictogram (the server's list) and the "show text" switch. Screenshots at
both sizes with CARDTABLE_SCREENSHOTS set."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from .conftest import CARDS_LANDED, SHOTS, Server, shot
from .test_play import WAIT, check_the_end, click, click_move, create_table, version

# Whole games at both sizes (a game plays the same at both). Each reaches choices of a card from
# Hell among many (a card fetched from Hell, an opponent's card replaced by one): the chooser and
# the cards of Hell at the top of the table, which must leave your Heaven on the screen (12 and 15
# once made a button per card of Hell); 18 is a long game whose questions word effects of four steps.
GAMES = [(1280, 800, 12), (1280, 800, 15), (390, 844, 12), (390, 844, 15), (390, 844, 18)]
#: most move buttons in the dock (the view's BUTTONS): more moves fold into one chooser
BUTTONS = 6

# The boxes a person reads, as they are on the screen: each clipped by the boxes that scroll it
# (what a scrolling box hides is not on the screen) and by the window; none of them may cross
# another, but for a box inside another (a card's own labels).
LAYOUT = """() => {
  const W = innerWidth, H = innerHeight;
  function shown(e) {
    let r = e.getBoundingClientRect();
    let box = {l: r.left, t: r.top, r: r.right, b: r.bottom};
    if (!r.width || !r.height || getComputedStyle(e).visibility === "hidden") return null;
    for (let p = e.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX !== "visible" || s.overflowY !== "visible") {
        const q = p.getBoundingClientRect();
        box = {l: Math.max(box.l, q.left), t: Math.max(box.t, q.top), r: Math.min(box.r, q.right), b: Math.min(box.b, q.bottom)};
      }
    }
    box = {l: Math.max(box.l, 0), t: Math.max(box.t, 0), r: Math.min(box.r, W), b: Math.min(box.b, H)};
    return box.r - box.l > 1 && box.b - box.t > 1 ? box : null;
  }
  // wholly on the screen: inside the window and cut by no scrolling box
  const inside = (e) => {
    const r = e.getBoundingClientRect(), s = shown(e);
    return !!s && Math.abs(s.l - r.left) < 1 && Math.abs(s.t - r.top) < 1 && Math.abs(s.r - r.right) < 1 && Math.abs(s.b - r.bottom) < 1;
  };
  const name = (e) => (e.dataset.card || e.dataset.legal || e.id || e.className || e.tagName) + ": " + (e.innerText || "").slice(0, 30).replace(/\\n/g, " ");
  const must = [...document.querySelectorAll("#hand .av-card, #prompt, #dock [data-legal], #dock #choices button")];
  const missing = must.filter((e) => !inside(e)).map(name);
  const things = [...document.querySelectorAll("#view .av-card, #view h2, #view .meta, #view .prompt, #view button:not(.info-btn), #view .seat-name, #view .av-row > span, #view label")]
    .filter((e) => !e.closest(".overlay"));
  const boxes = things.map((e) => [e, shown(e)]).filter(([, b]) => b);
  const crossing = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, p] = boxes[i], [b, q] = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    if (Math.min(p.r, q.r) - Math.max(p.l, q.l) > 1 && Math.min(p.b, q.b) - Math.max(p.t, q.t) > 1) crossing.push(name(a) + " | " + name(b));
  }
  return {missing, crossing, hand: document.querySelectorAll("#hand .av-card").length,
          scrollX: document.documentElement.scrollWidth > W + 1};
}"""


def pick(page: Any) -> Any:
    """What a keen player clicks: answer an effect with yes, pay with a gem card, play a card of the
    Heaven, activate a figure, roll; end the turn or discard the die only when nothing else is legal.
    A card is clicked on its name (a tap on a pictogram names the pictogram and plays nothing)."""
    for sel in ("#dock [data-legal=yes]", "#hell-choice [data-legal] .av-head b", "#hand [data-legal^='pay with'] .av-head b", "#dock [data-legal='pay the rest with gems']",
                "#hand [data-legal] .av-head b", "#dock [data-legal^='activate']", "#dock [data-legal^='level up']",
                "#dock [data-legal='roll a die']",
                "#dock #choices [data-legal]:not([data-legal='end turn']):not([data-legal='discard the die'])", "#dock [data-legal]"):
        node = page.query_selector(sel)
        if node is not None:
            return node
    return None


def check_layout(page: Any, where: str) -> None:
    got = page.evaluate(LAYOUT)
    buttons = page.locator("#dock #choices button:not(#chooser-go)").count()
    assert buttons <= BUTTONS, f"{where}: {buttons} move buttons in the dock"  # (the chooser holds the rest)
    if SHOTS and (got["missing"] or got["crossing"] or got["scrollX"]):
        shot(page, f"failed-{where.split(',')[0]}")
    assert not got["missing"], f"{where}: not on the screen without scrolling: {got['missing']}"
    assert not got["crossing"], f"{where}: boxes crossing: {got['crossing']}"
    assert not got["scrollX"], f"{where}: the page scrolls sideways"


def server_cards(server: Server, table: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/tables/{table}/cards", timeout=10) as r:
        data: dict[str, Any] = json.loads(r.read())
    return data


def check_pictograms_legend_and_text(page: Any, server: Server, table: str, name: str) -> None:
    """Each pictogram names itself (title and accessible label; a tap shows the name and plays
    nothing); the Rules panel's legend holds every pictogram the server lists; "show text" is on
    for a first game, prints each card's text, and is remembered."""
    cell = page.locator("#hand .picto-cell").first
    label = cell.get_attribute("aria-label")
    assert label and cell.get_attribute("title") == label and cell.get_attribute("role") == "img"
    v = version(page)
    cell.click()
    page.wait_for_selector(".picto-said")
    assert page.locator(".picto-said").inner_text() == label
    assert version(page) == v  # the tap named the symbol and played nothing
    data = server_cards(server, table)
    by_name = {c["name"]: c for c in data["cards"]}
    assert all(p["label"] for c in data["cards"] for p in c["pictograms"])
    # the switch: on for a first game, each card's generated text under its pictograms
    assert page.locator("#show-text").is_checked()
    first = page.locator("#hand .av-card").first
    assert first.locator(".av-text").inner_text() == by_name[first.get_attribute("data-card")]["text"]
    page.click("#rules-link")
    page.wait_for_selector("#guide:not(.hidden) #legend")
    rows = page.locator("#legend .legend-row")
    assert rows.count() == len(data["legend"]) > 20
    assert [rows.nth(i).inner_text() for i in range(rows.count())] == [p["label"] for p in data["legend"]]
    assert page.locator("#legend [data-legend='marker:rhombus'] .picto-cell").get_attribute("aria-label").startswith("exclusive")
    if SHOTS:
        page.eval_on_selector("#legend", "n => n.scrollIntoView()")
        shot(page, f"{name}-legend")
    page.keyboard.press("Escape")
    page.uncheck("#show-text")
    assert page.locator("#hand .av-text").count() == 0
    page.reload()
    page.wait_for_function("document.body.dataset.cards === 'loaded'", timeout=WAIT)
    page.wait_for_selector("#hand .av-card")
    assert not page.locator("#show-text").is_checked() and page.locator("#hand .av-text").count() == 0  # remembered
    page.check("#show-text")


def check_hell_choice(page: Any, where: str) -> int:
    """A choice of a card in Hell: the cards of Hell the legal moves name (the side list's, the
    server's) are drawn at the top of the table as clickable cards, and when the dock would hold too
    many buttons the chooser offers exactly the moves drawn as cards. Returns how many were offered."""
    hell = set(page.locator("#hell-all .av-card").evaluate_all("ns => ns.map(n => n.dataset.card)"))
    moves = page.locator("#actions [data-action]").evaluate_all("ns => ns.map(n => n.dataset.action)")
    named = {m.removeprefix("choose ") for m in moves if m.startswith("choose ") and m.removeprefix("choose ") in hell}
    drawn = page.locator("#hell-choice .av-card[data-legal]").evaluate_all("ns => ns.map(n => n.dataset.card)")
    assert set(drawn) == named and len(drawn) == len(named), f"{where}: Hell's cards to choose {drawn}, the moves {sorted(named)}"
    if page.locator("#chooser").count():
        options = page.locator("#chooser-pick option").evaluate_all("ns => ns.map(n => n.value)")
        on_table = page.locator("#av-table .av-card[data-legal]").evaluate_all("ns => ns.map(n => n.dataset.legal)")
        assert sorted(options) == sorted(set(on_table)), f"{where}: the chooser's moves {options}, the cards' {on_table}"
    return len(named)


def choose_in_chooser(page: Any) -> None:
    """Pick the chooser's last move and press its button: that move is made."""
    v = version(page)
    last = page.locator("#chooser-pick option").last.get_attribute("value")
    page.select_option("#chooser-pick", last)
    assert page.get_attribute("#chooser-go", "data-legal") == last
    page.click("#chooser-go")
    page.wait_for_function(f"document.body.dataset.version !== '{v}'", timeout=WAIT)  # the server took the move


def check_hell(page: Any) -> None:
    """Hell on the table: its count and its top cards; every card in a dialog."""
    n = int(page.get_attribute("#hell", "data-count"))
    assert f"Hell · {n}" in page.locator("#hell").inner_text()
    assert page.locator("#hell .av-card").count() == min(n, 3)
    page.click("#hell-see")
    page.wait_for_selector("#hell-all:not(.hidden)")
    assert page.locator("#hell-all .av-card").count() == n
    assert page.locator("#hell-all .av-card").first.get_attribute("data-card") == page.locator("#hell .av-card").first.get_attribute("data-card")
    page.click("#hell-all .close")
    page.wait_for_selector("#hell-all", state="hidden")


# the table's box has most of the window, and the first Earth (in turn order) is in it without scrolling it
TABLE_OPEN = """() => {
  const q = document.getElementById("av-table").getBoundingClientRect();
  const e = document.querySelector("#earths .earth > .meta");
  const r = e.getBoundingClientRect();
  return q.height >= 0.55 * innerHeight && r.height > 0 && r.top >= q.top && r.bottom <= Math.min(q.bottom, innerHeight);
}"""


def check_table_first(page: Any, name: str) -> None:
    """On a phone, "see the table" folds your Heaven away: the table's box takes most of the window,
    the Earths in it; "see your Heaven" brings the hand back, and nothing was played."""
    v = version(page)
    page.eval_on_selector("#av-table", "n => n.scrollTo(0, 0)")
    assert not page.evaluate(TABLE_OPEN)  # (the reason for the switch: with your Heaven, the table is a strip)
    page.click("#table-first")
    page.wait_for_selector("#view.table-first")
    assert page.locator("#hand").is_hidden() and page.get_attribute("#table-first", "aria-pressed") == "true"
    page.eval_on_selector("#av-table", "n => n.scrollTo(0, 0)")
    assert page.evaluate(TABLE_OPEN), "the table's box is not most of the window with the first Earth in it"
    shot(page, f"{name}-table-first")
    page.click("#table-first")
    page.wait_for_selector("#view:not(.table-first) #hand .av-card")
    assert page.get_attribute("#table-first", "aria-pressed") == "false"
    assert version(page) == v
    check_layout(page, f"{name}, back to your Heaven")


@pytest.mark.parametrize(("width", "height", "seed"), GAMES)
def test_a_full_iuno_avatar_game_on_one_screen(browser: Any, server: Server, width: int, height: int, seed: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = f"avatar-{width}-{seed}"
    table = create_table(page, server, "iuno_avatar", seed=seed, setup=lambda p: p.select_option(".seat-agent", "medium"))
    page.wait_for_function("document.body.dataset.cards === 'loaded'", timeout=WAIT)
    page.wait_for_selector("#hand .av-card")
    first = page.query_selector("#hand .av-card")
    assert first.get_attribute("data-element") in ("fire", "earth", "light", "life", "water", "dark")
    assert first.get_attribute("title").startswith(first.get_attribute("data-card"))  # the generated text on hover
    assert page.locator("#dice .av-die").count() == 6  # the six dice, all in the middle at the start
    if width > 800:
        check_pictograms_legend_and_text(page, server, table, name)
    check_hell(page)
    shot(page, f"{name}-start")

    seen: dict[str, int] = {"use_ability": 0, "pay": 0, "why_roll": 0, "can": 0, "refused_pay": 0, "checked": 0,
                            "hell_choice": 0, "most_in_hell": 0, "chooser": 0, "table_first": 0}
    moves = 0
    while True:
        page.wait_for_function("document.body.dataset.over === 'true' || document.body.dataset.decides === 'true'", timeout=WAIT)
        if page.evaluate("document.body.dataset.over") == "true":
            break
        page.wait_for_function(CARDS_LANDED, timeout=WAIT)
        kind = page.get_attribute("#prompt", "data-kind")
        check_layout(page, f"{name}, move {moves} ({kind})")
        seen["checked"] += 1
        if width < 800 and moves >= 30 and not seen["table_first"] and not page.locator("#hell-choice").count():
            check_table_first(page, name)  # (once, mid-game, where no choice of Hell's cards tops the table)
            seen["table_first"] += 1
        if kind == "use_ability":
            text = page.locator("#prompt").inner_text()
            assert text.startswith("You: also ") or text.startswith("You: instead "), text  # naming the card
            assert "? (" in text and text.endswith(")"), text
            yes = page.locator("#dock [data-legal=yes]").inner_text()
            source = text.rsplit("(", 1)[1].removesuffix(")")  # the question words the effect; the answers name its card
            assert yes in (f"Yes: also {source}'s effect", f"Yes: instead {source}'s effect"), yes
            assert page.locator("#dock [data-legal=no]").inner_text() == f"No, not {source}'s effect"
            if not seen["use_ability"]:
                shot(page, f"{name}-trigger")
            seen["use_ability"] += 1
        if kind == "use_roll":
            assert page.locator("#dice .av-die").count() == 6 and page.locator("#dice .av-die.rolled").count() == 1
            for ok in page.query_selector_all("#hand [data-can]"):  # a card the roll plays says what a click does
                assert ok.inner_text() == f"✓ {ok.evaluate('n => n.closest(`.av-card`).dataset.legal')}"
                seen["can"] += 1
            why = page.query_selector("#hand [data-why]")
            if why is not None:  # and why the rest cannot (a gem card: it pays only while a cost is owed)
                text = why.get_attribute("title")
                assert "roll" in text or "paid" in text or text.startswith("a gem card pays only"), text
                if not seen["why_roll"]:
                    shot(page, f"{name}-roll")
                seen["why_roll"] += 1
        if kind == "pay":
            assert page.locator("#prompt").inner_text().startswith("You: pay for ")
            refused = page.query_selector("#hand .av-card.gem.dim[data-refusable] [data-why]")
            if refused is not None and not seen["refused_pay"]:
                # a gem card that would overpay: the view says the server's reason, and the engine refuses the click
                why = refused.text_content()
                assert "must not overpay" in why or "could not be paid" in why, why
                v = version(page)
                click(page, page.locator("#hand .av-card.gem.dim[data-refusable] .av-head b").first)
                page.wait_for_selector("#toast:not(.hidden)", timeout=WAIT)
                assert why in page.locator("#toast").inner_text()  # the engine refuses it with the words on the card
                assert version(page) == v
                page.evaluate("window.scrollTo(0, 0)")  # (the click helper scrolled its target to the middle)
                seen["refused_pay"] += 1
                shot(page, f"{name}-refused")
                page.wait_for_selector("#toast", state="hidden", timeout=WAIT)
            if not seen["pay"]:
                shot(page, f"{name}-pay")
            seen["pay"] += 1
        if kind == "choose_card":
            offered = check_hell_choice(page, f"{name}, move {moves}")
            if offered:
                if offered > seen["most_in_hell"]:
                    shot(page, f"{name}-hell-choice")
                seen["hell_choice"] += 1
                seen["most_in_hell"] = max(seen["most_in_hell"], offered)
            if page.locator("#chooser").count() and not seen["chooser"]:
                seen["chooser"] += 1
                choose_in_chooser(page)  # once by the chooser; the other times by the card in Hell
                moves += 1
                continue
        click_move(page, pick)
        # (the click helper scrolls its target to the middle of the window, which on a phone
        # scrolls the page down to the log; a person who plays on does not scroll)
        page.evaluate("window.scrollTo(0, 0)")
        moves += 1
        if moves in (30, 80):
            shot(page, f"{name}-mid{moves}")
    assert seen["use_ability"] >= 1 and seen["pay"] >= 1, seen
    assert seen["why_roll"] >= 1 and seen["can"] >= 1, seen
    assert seen["checked"] == moves > 20, seen  # the layout was checked before every move
    assert seen["hell_choice"] >= 1 and seen["most_in_hell"] > BUTTONS and seen["chooser"] == 1, seen
    assert seen["table_first"] == (width < 800), seen
    check_the_end(page, name)
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
