"""Nothing shifts: not while a page loads, not in a first paint of part of it, not while the computers play."""

import functools

import pytest
from browsing import SHIFTS, choose
from playwright.sync_api import Page, expect


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
