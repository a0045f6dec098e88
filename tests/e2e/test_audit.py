"""Audits on every page and state, light and dark, phone and desktop: axe-core finds nothing, the
layout never shifts, and no page scrolls sideways."""

import functools
import re

import pytest
from browsing import choose, click_cell, lose_to_the_computer, next_held, start, win_in_a_row
from playwright.sync_api import Page, expect


@pytest.mark.parametrize("width", [320, 1280])
def test_axe_finds_nothing_in_any_state_of_the_game(audit_page, live_server, axe, width):
    page = audit_page(width)
    page.goto(live_server + "/")
    axe(page, "a fresh game")
    start(page, live_server, Mode="hvc", Difficulty="minimax")
    axe(page, "the settings open")
    # A reply that takes its time: the player's mark, and the status saying the computer is thinking.
    held = []
    page.route("**/move", lambda route: held.append(route))
    page.get_by_role("button", name="Row 2, column 2, empty").click()
    expect(page.get_by_role("status")).to_have_text("Computer is thinking…")
    axe(page, "the computer thinking")
    next_held(page, held).continue_()
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    page.unroute("**/move")
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")
    click_cell(page, 4)
    expect(page.get_by_role("list", name="Moves").get_by_role("link")).to_have_count(2)
    axe(page, "mid-game, with the moves")
    choose(page, Mode="hvh")
    expect(page.get_by_role("alert")).to_contain_text("Start a new Human vs Human game?")
    axe(page, "a question before a new game")
    page.get_by_role("link", name="Keep playing").click()
    expect(page.get_by_role("alert")).to_have_count(0)
    page.get_by_role("button", name="Hint").click()
    expect(page.get_by_text(re.compile(r"^Hint: "))).to_be_visible()
    axe(page, "a hint")
    page.get_by_role("button", name="Move values").click()
    expect(page.locator(".value")).not_to_have_count(0)
    axe(page, "move values")
    page.locator("#board .cell[aria-disabled='true']").first.click(force=True)
    expect(page.get_by_role("alert")).to_be_visible()
    axe(page, "a refused move")
    lose_to_the_computer(page)
    axe(page, "a loss")
    choose(page, Mode="hvh")
    for cell in (0, 3, 1, 4, 2):
        click_cell(page, cell)
    expect(page.get_by_role("status")).to_have_text("X wins!")
    expect(page.get_by_role("link", name="Review", exact=True)).to_be_visible()
    axe(page, "a win, with the moves and the review's link")
    page.get_by_role("button", name="Play again", exact=True).click()
    for cell in (0, 4, 8, 1, 7, 6, 2, 5, 3):
        click_cell(page, cell)
    expect(page.get_by_role("status")).to_have_text("It's a draw.")
    axe(page, "a draw")
    choose(page, Mode="cvc")
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("status")).to_contain_text("Paused.")
    axe(page, "computer vs computer, paused")


@pytest.mark.parametrize("width", [320, 1280])
@pytest.mark.parametrize("key", ["5x5", "15x15"])
def test_axe_finds_nothing_in_a_game_on_a_bigger_board(audit_page, live_server, axe, key, width):
    page = audit_page(width, has_touch=width == 320)
    # On a phone a 15×15 board's squares are about 20 px: the essential-presentation exception of the
    # target-size rule (WCAG 2.2, 2.5.8), and the rule alone, for those squares alone.
    squares = "#cells-form" if key == "15x15" and width == 320 else None
    axe = functools.partial(axe, essential_targets=squares)
    start(page, live_server, Board=key, Mode="hvh")
    axe(page, f"{key}: a fresh game, the settings open")
    # On 5×5 a position the solver answers at once, with wins to show; on 15×15 one with nothing proved.
    for cell in (12, 7) if key == "5x5" else (5, 6):
        click_cell(page, cell)
    expect(page.get_by_role("list", name="Moves").get_by_role("link")).to_have_count(2)
    axe(page, f"{key}: mid-game, with the moves")
    # Short values (W3, L2, D) and the hint's badges, whose words each square's name must hold (WCAG 2.5.3).
    page.get_by_role("button", name="Hint").click()
    expect(page.get_by_text(re.compile(r"^Hint: "))).to_be_visible()
    axe(page, f"{key}: a hint")
    page.get_by_role("button", name="Move values").click()
    expect(page.locator(".value")).not_to_have_count(0)
    axe(page, f"{key}: move values")
    page.get_by_role("button", name="Move values").click()
    expect(page.locator(".value")).to_have_count(0)
    if key == "15x15" and width == 320:
        # A finger's tap on a square too small for it opens the squares around it, magnified.
        page.evaluate("window.scrollTo(0, 0)")
        square = page.locator("#cell-112").bounding_box()
        page.touchscreen.tap(square["x"] + square["width"] / 2, square["y"] + square["height"] / 2)
        expect(page.get_by_role("dialog")).to_be_visible()
        axe(page, f"{key}: the magnifier")
        page.keyboard.press("Escape")
        expect(page.get_by_role("dialog")).to_have_count(0)
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")
    win_in_a_row(page, key)
    axe(page, f"{key}: a win, struck through")


LOST = "4.1.0.8.6.3.2"  # O answers the centre on an edge and loses to a fork
PAGES = [
    "/tree?path=0&board=.........",  # a node open
    "/tree?board=X...O....&path=8&pruning=1",  # pruning on, with skipped replies
    "/numbers/figures",
    "/tournament",
    "/no-such-page",
    # The live game's move list is in the states above; these are the review and the links.
    f"/review?moves={LOST}",  # a finished game's review, at its turning point
    f"/review?moves={LOST}&at=7",  # its end
    "/?moves=4.0.8&at=2",  # a read-only position from a link
    "/play-from?moves=4.0.8",  # the question before playing from it
    "/?moves=4.4",  # a malformed link
    # Bigger boards, near their end: the 4×4 tree, a 7×7 review, a 15×15 position, a bad board in a link.
    "/tree?board=XOXOOXOX........&path=8",
    "/review?board=7x7&moves=0.7.1.8.2.9.3.10.4",
    "/?board=15x15&moves=112.0.113&at=2",
    "/?board=9x9&moves=4",
]


@pytest.mark.parametrize("width", [320, 1280])
def test_axe_finds_nothing_on_the_other_pages(audit_page, live_server, axe, width):
    page = audit_page(width)
    for path in PAGES:
        page.goto(live_server + path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        axe(page, path)


SHIFTS = """() => {
  window.layoutShift = 0;
  window.shifted = [];  // what moved, to say so when a test fails
  // From a moment on: entries reach the observer a little after their frame, so a reset alone could
  // still count a shift from before it; each entry's own time decides instead.
  window.shiftsFrom = 0;
  window.countShiftsFromNow = () => {
    window.shiftsFrom = performance.now();
    window.layoutShift = 0;
    window.shifted = [];
    window.shiftedAtAll = [];
  };
  // Also every shift within half a second of a click, which a browser excuses as the click's doing: a slow
  // answer comes later, and then the same shift counts (shiftedAtAll, for the tests that must not depend on that).
  window.shiftedAtAll = [];
  const words = text => text.replace(/\\s+/g, " ").trim().slice(0, 40);
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) if (entry.startTime >= window.shiftsFrom) {
      const moved = entry.sources.map(s =>
        Math.round(entry.startTime) + " ms, " +
        (s.node && (s.node.id || s.node.className || s.node.nodeName)) +
        (s.node && s.node.textContent ? " (" + words(s.node.textContent) + ")" : "") + ": " +
        JSON.stringify(s.previousRect) + " -> " + JSON.stringify(s.currentRect));
      window.shiftedAtAll.push(...moved);
      if (entry.hadRecentInput) continue;
      window.layoutShift += entry.value;
      window.shifted.push(...moved);
    }
  }).observe({type: 'layout-shift', buffered: true});
}"""


def test_nothing_shifts_while_a_page_loads(browser, live_server):
    for width in (1280, 320):
        # A context of its own, not a kept page (open_page): what is measured is the page loading, from a cold cache.
        context = browser.new_context(viewport={"width": width, "height": 800})
        context.add_init_script(script=f"({SHIFTS})()")
        page = context.new_page()
        for path in ["/numbers", "/", "/tree?board=X...O....&path=8&pruning=1", "/tournament"]:
            page.goto(live_server + path)
            expect(page.get_by_role("heading", level=1)).to_be_attached()
            if path == "/numbers":
                figures = page.get_by_role("table", name="Games and positions of tic-tac-toe")
                expect(figures).to_be_visible(timeout=20_000)  # counted on the first visit, in this server
            page.wait_for_load_state("networkidle")
            assert page.evaluate("layoutShift") == 0, f"{path} at {width} px: {page.evaluate('shifted')}"
        context.close()


# Where a page is cut for a first paint that comes before the rest: evenly through it, inside its menu (links
# spread over their row), and just before the game's mode dropdown (which decides which fields show).
CUT_MARKS = ['<nav class="site-nav"', '<a href="/tree">', '<a href="/tournament">', '<details class="setup-panel"']
SHOWN = """() => {
  // Each element shown, by its place in the document, with its box: what a first paint drew, and where.
  const place = el => {
    const path = [];
    for (; el.parentElement; el = el.parentElement)
      path.unshift(el.tagName + ':' + Array.prototype.indexOf.call(el.parentElement.children, el));
    return path.join('/');
  };
  const shown = {};
  for (const el of document.body.querySelectorAll('*'))
    if (el.checkVisibility({visibilityProperty: true, opacityProperty: true}))
      shown[place(el)] = JSON.stringify(el.getBoundingClientRect());
  return shown;
}"""


@pytest.mark.parametrize("width", [320, 1280])
@pytest.mark.parametrize("path", ["/", "/numbers", "/tournament"])
def test_nothing_a_first_paint_shows_moves_when_the_rest_of_the_page_arrives(open_page, live_server, path, width):
    # A browser may paint a page before it has all of it (on a busy machine it did: a menu's links spread over
    # their row moved as the next came, a table's columns widened as its longest row came, the fields of every
    # mode showed until the mode's dropdown came). Here the page is cut in many places: whatever a first paint
    # of the part shows must be shown, at the same place, on the whole page.
    page = open_page(viewport={"width": width, "height": 800})
    page.goto(live_server + path)
    whole = page.evaluate(SHOWN)
    html = page.request.get(live_server + path).text()
    body = html.index("<body")
    cuts = {body + (len(html) - body) * i // 8 for i in range(1, 8)}
    cuts |= {html.index(mark) for mark in CUT_MARKS if mark in html}
    for cut in sorted(cuts):
        page.route(live_server + "/first-paint", functools.partial(serve, html[:cut]))
        page.goto(live_server + "/first-paint")
        moved = {place: box for place, box in page.evaluate(SHOWN).items() if whole.get(place) != box}
        assert moved == {}, f"{path} at {width} px, cut before {html[cut : cut + 40]!r}"
        page.unroute(live_server + "/first-paint")


def serve(body: str, route) -> None:
    route.fulfill(body=body, content_type="text/html")


def test_in_a_browser_that_draws_as_it_parses_the_fields_are_those_of_the_mode_drawn(page: Page, live_server):
    # A browser without :has() draws a page as it parses it (the page-end mark cannot hide it). Which fields
    # show is chosen by the mode's dropdown, which comes after the game's buttons; until it arrives, the mode the
    # server drew decides, or a first paint shows every mode's fields and the buttons then jump up.
    def first_paint() -> None:
        html = page.request.get(live_server + "/").text()
        head = html[: html.index('<details class="setup-panel"')]
        page.route(live_server + "/first-paint", lambda route: route.fulfill(body=head, content_type="text/html"))
        page.goto(live_server + "/first-paint")
        expect(page.locator("#mode")).to_have_count(0)
        page.add_style_tag(content="body { visibility: visible !important; }")  # as if :has() were unknown

    first_paint()
    expect(page.get_by_role("combobox", name="Difficulty")).to_be_visible()
    expect(page.get_by_role("combobox", name="X plays")).to_be_hidden()
    page.goto(live_server + "/")
    choose(page, Mode="cvc")
    first_paint()
    expect(page.get_by_role("combobox", name="X plays")).to_be_visible()
    expect(page.get_by_role("combobox", name="Difficulty")).to_be_hidden()


def test_a_computer_game_shifts_nothing(open_page, live_server):
    page = open_page(init_script=f"({SHIFTS})()")
    page.goto(live_server + "/")
    choose(page, Mode="cvc")
    # Choosing the mode changes the fields and the buttons: asked for, and on a slow machine its answer can
    # come later than the half second a browser excuses. What is measured is the game that then plays itself.
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    page.evaluate("countShiftsFromNow()")
    expect(page.locator("#board")).not_to_have_attribute("data-status", "playing", timeout=15_000)
    assert page.evaluate("layoutShift") == 0, page.evaluate("shifted")


@pytest.mark.parametrize("path", ["/numbers/figures", "/tournament"])
def test_chart_text_is_never_smaller_than_12px(open_page, live_server, path):
    page = open_page(viewport={"width": 320, "height": 640})
    page.goto(live_server + path)
    sizes = page.locator(".chart text").evaluate_all(
        """texts => texts.map(t => {
          const svg = t.ownerSVGElement;
          const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          return parseFloat(getComputedStyle(t).fontSize) * scale;
        })"""
    )
    assert sizes and min(sizes) >= 12
