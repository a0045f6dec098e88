"""What the browser tests do again and again: choose the settings, start a game, click a square, put a page
back for the next test, and measure where things are and whether they moved."""

import re
import time

from playwright.sync_api import Page, Route, expect

from webapp.engine.boards import BY_KEY, board_for
from webapp.engine.rules import cell_name

FOLDED = ("Mode", "You play")  # the dropdowns in the folded line under the game's buttons
# A phone held in the hand and a desktop, each in one colour scheme (a test checks what it sees in the other too).
DEVICES = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "color_scheme": "dark"},
    "desktop": {"viewport": {"width": 1280, "height": 800}, "color_scheme": "light"},
}
HANDOVER_SECONDS = 15  # as long as expect() waits (conftest)


def next_held(page: Page, held: list[Route]) -> Route:
    """The first request a route of ``page`` holds (its handler appends to ``held``), once Playwright has handed it
    over. That comes by way of the browser's network process, so on a loaded machine it can come after the page has
    drawn what the click did: taken at once, the list was once still empty."""
    deadline = time.monotonic() + HANDOVER_SECONDS
    while not held:
        assert time.monotonic() < deadline, "no request reached the route"
        page.evaluate("0")  # a round trip, in which Playwright hands over what came before its answer
    return held.pop(0)


def choose(page: Page, **choices) -> None:
    """Set the settings' dropdowns to ``choices`` (label: value), opening the folded ones first if need be."""
    scripted = page.locator("html.js").count() == 1
    for label, value in choices.items():
        if label in FOLDED and page.locator("details.setup-panel").get_attribute("open") is None:
            unfold(page)
        # By role: the board itself is also labelled "Board", and it is no dropdown.
        field = page.get_by_role("combobox", name=label, exact=True)
        if scripted and field.input_value() != value:
            # With JavaScript each change is posted at once and its answer redraws the settings: wait
            # for that drawing, or it would put back the value of a dropdown changed in the meantime.
            page.evaluate(SETTLED)
            field.select_option(value)
            page.evaluate("window.settled")
        else:
            field.select_option(value)


def unfold(page: Page) -> None:
    """Open (or close) the folded settings: mode and side."""
    page.locator("details.setup-panel > summary").click()


def fold(page: Page) -> None:
    """Close the folded settings if they are open: the page as a player sees it."""
    if page.locator("details.setup-panel").get_attribute("open") is not None:
        unfold(page)
    expect(page.locator("details.setup-panel:not([open])")).to_have_count(1)


SETTLED = """() => {
  window.settled = new Promise(done => document.body.addEventListener('htmx:afterSettle', done, {once: true}));
}"""


def start(page: Page, live_server: str, **choices) -> None:
    """Open the game and start a new one with the dropdowns set to ``choices`` (label: value)."""
    page.goto(live_server + "/")
    choose(page, **choices)
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", re.compile(r"[01]"))
    # The dropdowns' requests and the new game's come one after another: wait for the last answer.
    page.wait_for_load_state("networkidle")


def board(page: Page) -> str:
    return page.locator("#board").get_attribute("data-board")


def settled(page: Page) -> None:
    """Wait until htmx has no answer on its way, swapping or settling, and the move it drew is no longer too new to
    answer: till then the page holds a click for after the answer (app.js), and drops a tap on a square, as a
    person's tap is never that fast."""
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling, #board.is-fresh")).to_have_count(0)


def click_cell(page: Page, cell: int) -> None:
    """Click an empty square once the board takes taps, and wait for the server's board to have it played."""
    n = board_for(board(page)).n
    settled(page)
    page.get_by_role("button", name=f"{cell_name(cell, n)}, empty").click()
    expect(page.locator("#board")).to_have_attribute("data-board", re.compile(f"^.{{{cell}}}[XO]"))
    expect(page.locator("#board.is-pending")).to_have_count(0)


def finished(page: Page) -> bool:
    return page.locator("#board").get_attribute("data-status") != "playing"


def play_out(page: Page, pick=lambda empty: empty[0]) -> str:
    """Play ``pick`` of the empty squares until the game ends; the status the board ends with."""
    while not finished(page):
        click_cell(page, pick([i for i, c in enumerate(board(page)) if c == "."]))
    return page.locator("#board").get_attribute("data-status")


def lose_to_the_computer(page: Page, tries: int = 5) -> None:
    """Play the first empty square until the computer (playing O) wins, starting again as often as it takes."""
    for _ in range(tries):
        if play_out(page) == "o-won":
            break
        page.get_by_role("button", name="Play again", exact=True).click()
        expect(page.locator("#board")).to_have_attribute("data-ply", "0")
    expect(page.get_by_role("status")).to_have_text("The computer wins.")


def win_in_a_row(page: Page, key: str) -> None:
    """Between two people on board ``key``: X fills the top row's first k squares while O answers below."""
    spec = BY_KEY[key]
    for i in range(spec.k - 1):
        click_cell(page, i)
        click_cell(page, spec.n + i)
    click_cell(page, spec.k - 1)
    expect(page.get_by_role("status")).to_have_text("X wins!")


def put_back(page: Page, attributes: set[str], options: dict) -> bool:
    """Undo what a test did to ``page`` and its context (see open_page); False if it could not be done."""
    context = page.context
    try:
        for other in context.pages:
            if other != page:
                other.close()
        page.unroute_all(behavior="ignoreErrors")
        context.unroute_all(behavior="ignoreErrors")
        if page.url.startswith("http"):
            page.evaluate("() => { sessionStorage.clear(); localStorage.clear(); }")
        page.goto("about:blank")
        context.clear_cookies()
        context.clear_permissions()
        page.emulate_media(
            color_scheme=options.get("color_scheme", "light"),
            reduced_motion=options.get("reduced_motion", "no-preference"),
        )
        for name in set(vars(page)) - attributes:  # what a test wrote on the page object (expects_400)
            delattr(page, name)
    except Exception:  # whatever went wrong, the page is closed instead of kept
        return False
    return True


def box(page: Page, selector: str) -> dict:
    """Where an element is on the page (not in the window, which scrolls)."""
    expect(page.locator(selector)).to_be_visible()
    # Found and measured in one script, in one task: a locator's element can be swapped out by htmx between
    # being found and being measured, and a detached element measures 0 × 0 at the window's top.
    return page.evaluate(
        "s => { const r = document.querySelector(s).getBoundingClientRect();"
        " return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}; }",
        selector,
    )


def on_first_screen(page: Page, selector: str) -> bool:
    """Whether the element lies wholly on the first screen of the page, before any scrolling."""
    found, height = box(page, selector), page.viewport_size["height"]
    return found["width"] > 0 and found["y"] >= 0 and found["y"] + found["height"] <= height


# Counts the page's layout shifts, as an init script: `open_page(init_script=f"({SHIFTS})()")`.
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
