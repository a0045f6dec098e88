"""axe-core finds nothing in any state of a 3×3 game and on every other page, light and dark, phone and
desktop, its experimental rule of WCAG 2.5.3 too (conftest)."""

import re

import pytest
from browsing import choose, click_cell, lose_to_the_computer, next_held, settled, start
from playwright.sync_api import expect


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
    # A second square meanwhile is not played: the board shows that it waits.
    page.get_by_role("button", name="Row 1, column 1, empty").click()
    expect(page.locator("#board.is-waiting")).to_have_count(1)
    axe(page, "the computer thinking, a tap dropped")
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
    # Both at once: a square shows its value and the hint's badge, and its name holds both, in order (WCAG 2.5.3).
    page.get_by_role("button", name="Hint").click()
    expect(page.locator(".cell .value + .hint-badge")).not_to_have_count(0)
    axe(page, "move values and a hint")
    settled(page)
    # The computer's square: a tap on the player's own last square is taken as the second of a double tap.
    page.locator("#board .cell.has-o").first.click(force=True)
    expect(page.get_by_role("alert")).to_be_visible()
    axe(page, "a refused move")
    lose_to_the_computer(page)
    axe(page, "a loss")
    page.get_by_role("button", name="Undo").click()
    expect(page.get_by_text(re.compile(r"playing on from here is practice\.$"))).to_be_visible()
    axe(page, "practice after the end")
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")
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


LOST = "4.1.0.8.6.3.2"  # O answers the centre on an edge and loses to a fork
PAGES = [
    "/no-such-page",
    # The live game's move list is in the states above; these are the review and the links.
    f"/review?moves={LOST}",  # a finished game's review, at its turning point
    f"/review?moves={LOST}&at=7",  # its end
    "/?moves=4.0.8&at=2",  # a read-only position from a link
    "/play-from?moves=4.0.8",  # the question before playing from it
    "/?moves=4.4",  # a malformed link
    # Bigger boards, near their end: a 7×7 review, a 15×15 position, a bad board in a link.
    "/review?board=7x7&moves=0.7.1.8.2.9.3.10.4",
    "/review?board=15x15&moves=112.0.113.14.114.210.115.224.116",  # a mistake proved, its better moves shown
    "/?board=15x15&moves=112.0.113&at=2",
    "/?board=9x9&moves=4",
]


@pytest.mark.parametrize("width", [320, 1280])
def test_axe_finds_nothing_on_the_other_pages(audit_page, live_server, axe, width):
    page = audit_page(width)
    for path in PAGES:
        page.goto(live_server + path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        if path.startswith("/review?board="):
            # A big board's grades come in pieces: looked at once all are in, estimates and proofs, with the summary.
            expect(page.locator("#review-progress")).to_have_text(re.compile(r"^All \d+ moves are graded\.$"))
        axe(page, path)


# The learning pages in each of their states, the 7×7 tree's in test_learn.py; "How this is counted" is opened
# first, so that one run sees the page both with and without it (nothing but its own words is added).
LEARNING = [
    "/tree?path=0&board=.........",  # a node open
    "/tree?board=X...O....&path=8&pruning=1",  # pruning on, with skipped replies
    "/tree?board=XOXOOXOX........&path=8",  # 4×4 near its end
    "/tree?board=15x15",  # not solved: Hard's choice alone
    "/numbers",
    "/tournament",
]


@pytest.mark.parametrize("width", [320, 1280])
def test_axe_finds_nothing_on_the_learning_pages_in_any_state(audit_page, live_server, axe, width):
    page = audit_page(width, has_touch=width == 320)
    for path in LEARNING:
        page.goto(live_server + path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        more = page.locator("details.learn-more")
        if more.count():
            more.locator("summary").click()
            expect(more).to_have_attribute("open", "")
        axe(page, path)
