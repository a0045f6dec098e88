"""Playing the game in Chromium as a person would, and checking what is on the screen."""

import itertools
import re

import pytest
from browsing import DEVICES, board, choose, click_cell, finished, on_first_screen, settled, start
from playwright.sync_api import Page, expect

from webapp.engine.rules import cell_name
from webapp.serving.places import BUSY
from webapp.solver import choose_move


def test_a_player_beats_easy(page: Page, live_server, console_errors, shoot):
    page.goto(live_server + "/")
    choose(page, Difficulty="random")
    for _ in range(10):
        page.get_by_role("button", name="New game").click()
        expect(page.locator("#board")).to_have_attribute("data-ply", "0")
        while not finished(page):
            click_cell(page, choose_move(board(page), "minimax"))
        if page.locator("#board").get_attribute("data-status") == "x-won":
            break
    expect(page.get_by_role("status")).to_have_text("You win!")
    expect(page.locator(".strike line")).to_have_count(1)
    expect(page.get_by_role("definition").first).to_have_text("1")  # the score: You 1
    shoot(page, "win-against-easy")


@pytest.mark.parametrize("strategy", ["first", "last", "centre"])
def test_impossible_never_lets_you_win(page: Page, live_server, console_errors, strategy):
    start(page, live_server, Difficulty="minimax")
    while not finished(page):
        empty = [i for i, c in enumerate(board(page)) if c == "."]
        cell = {"first": empty[0], "last": empty[-1], "centre": 4 if 4 in empty else empty[0]}[strategy]
        click_cell(page, cell)
    expect(page.get_by_role("status")).to_have_text(re.compile(r"The computer wins\.|It's a draw\."))


def test_human_vs_human_to_a_win(page: Page, live_server, console_errors, shoot):
    page.goto(live_server + "/")
    choose(page, Mode="hvh")
    expect(page.get_by_role("status")).to_have_text("X to move.")
    for cell in (0, 3, 1, 4):
        click_cell(page, cell)
    expect(page.get_by_role("status")).to_have_text("X to move.")
    click_cell(page, 2)
    expect(page.get_by_role("status")).to_have_text("X wins!")
    expect(page.locator("#board")).to_have_attribute("data-board", "XXXOO....")
    shoot(page, "human-vs-human-win")


def test_computer_vs_computer_plays_to_its_end(page: Page, live_server, console_errors, shoot):
    page.goto(live_server + "/")
    choose(page, Mode="cvc")
    choose(page, **{"X plays": "minimax", "O plays": "minimax"})
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#board")).to_have_attribute("data-status", "draw", timeout=15_000)
    expect(page.get_by_role("status")).to_have_text("It's a draw.")
    expect(page.locator("#board")).to_have_attribute("data-ply", "9")
    shoot(page, "computer-vs-computer-draw")


@pytest.mark.parametrize("device", DEVICES)
def test_computer_vs_computer_pauses_and_steps(open_page, live_server, device):
    page = open_page(**DEVICES[device])
    page.goto(live_server + "/")
    choose(page, Mode="cvc")
    # Under way, and far from its end: a move stands for about half a second, which the assertion's polling
    # (up to a second apart) can miss on a busy machine, so no one ply is waited for.
    expect(page.locator("#board")).to_have_attribute("data-ply", re.compile(r"^[1-4]$"))
    # Pause and Step under the board, on the first screen of a phone or a desktop while the game runs.
    for button in ("#pause-button", "#step-button"):
        assert on_first_screen(page, button), button
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Resume")).to_be_visible()
    paused_at = int(page.locator("#board").get_attribute("data-ply"))
    expect(page.get_by_role("status")).to_contain_text("Paused.")
    page.get_by_role("button", name="Step").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", str(paused_at + 1))
    page.get_by_role("button", name="Resume").click()
    expect(page.locator("#board")).not_to_have_attribute("data-status", "playing", timeout=15_000)


@pytest.mark.parametrize("failure", ["refused as busy", "lost on its way"])
def test_a_computer_game_goes_on_after_a_step_that_failed(page: Page, live_server, failure):
    # Each answer brings the trigger for the next step: a step the server refused (429, with how long to wait)
    # or that never reached it brought none, and the game stood still. Now it says why, and goes on.
    failed = []

    def fail_the_first_step(route):
        if failed:
            route.continue_()
        elif failure == "refused as busy":
            failed.append(route)
            busy = f'<p class="message is-error" role="alert">{BUSY}</p>'
            route.fulfill(status=429, headers={"Retry-After": "1"}, content_type="text/html", body=busy)
        else:
            failed.append(route)
            route.abort()

    page.goto(live_server + "/")
    page.route("**/step", fail_the_first_step)
    choose(page, Mode="cvc")
    said = "The computer is busy" if failure == "refused as busy" else "could not reach the server"
    expect(page.get_by_role("alert")).to_contain_text(said)
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")
    # Goes on: a ply or more, not exactly one, since the next ones follow each other quicker than the polling.
    expect(page.locator("#board")).not_to_have_attribute("data-ply", "0")
    expect(page.get_by_role("alert")).to_have_count(0)
    assert len(failed) == 1


def test_undo_takes_back_the_move_and_the_reply(page: Page, live_server, console_errors):
    start(page, live_server)
    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_disabled()
    click_cell(page, 4)
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    undo.click()
    expect(page.locator("#board")).to_have_attribute("data-board", ".........")
    expect(undo).to_be_disabled()


def test_the_difficulty_dropdown_takes_effect_without_a_reload(page: Page, live_server, console_errors):
    start(page, live_server, Difficulty="one-ply")
    click_cell(page, 0)
    expect(page.locator("#board")).to_have_attribute("data-board", "X...O....")
    page.evaluate("window.stillTheSamePage = true")
    choose(page, Difficulty="minimax")
    expect(page.get_by_text("Difficulty: Impossible")).to_be_visible()
    click_cell(page, 8)
    # X . . / . O . / . . X: Medium would take a corner and lose to a fork; Impossible takes an edge.
    reply = next(i for i, (a, b) in enumerate(zip("X...O...X", board(page), strict=True)) if a != b)
    assert reply in (1, 3, 5, 7)
    assert page.evaluate("window.stillTheSamePage") is True


def test_a_taken_square_says_so_and_keeps_the_game(page: Page, live_server, shoot):
    logged = []
    page.on("console", lambda message: logged.append(message.text) if message.type == "error" else None)
    start(page, live_server)
    click_cell(page, 4)
    before = board(page)
    # A taken square is aria-disabled, not disabled: it still answers a click, with a reason. (The square the
    # player has just played takes a second tap silently: that is a double tap, see test_feel.)
    reply = before.index("O")
    settled(page)
    page.locator(f"#cell-{reply}").click(force=True)
    expect(page.get_by_role("alert")).to_have_text(f"{cell_name(reply)} is already taken.")
    assert board(page) == before
    # The refusal is a 409, which Chromium reports in the console; nothing else may be there.
    assert logged == ["Failed to load resource: the server responded with a status of 409 (CONFLICT)"]
    shoot(page, "taken-square-message")


def test_keyboard_play_keeps_focus_on_the_board(page: Page, live_server, console_errors):
    start(page, live_server)
    page.get_by_role("button", name="Row 1, column 1, empty").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    expect(page.get_by_role("button", name="Row 2, column 2, empty")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    expect(page.get_by_role("button", name="Row 2, column 2, X")).to_be_focused()


def test_hint_and_move_values(page: Page, live_server, console_errors, shoot):
    start(page, live_server, Difficulty="minimax")
    click_cell(page, 0)
    page.get_by_role("button", name="Hint").click()
    expect(page.get_by_text(re.compile(r"^Hint: "))).to_be_visible()
    # The hint points: one square, or up to three equal ones, and its words say how many. htmx gives the squares
    # their new classes as the swap settles, a moment after the words are in.
    expect(page.locator(".cell.is-pick").first).to_be_visible()
    marked = page.locator(".cell.is-pick").count()
    assert 1 <= marked <= 3
    assert (marked > 1) == bool(re.search(r"the (two|three) marked", page.locator(".slot .message").inner_text()))
    page.get_by_role("button", name="Move values").click()
    expect(page.get_by_role("button", name="Move values")).to_have_attribute("aria-pressed", "true")
    expect(
        page.get_by_role("button", name=re.compile(r"empty, (draw|win in \d moves?|loss in \d moves?)$"))
    ).to_have_count(7)
    shoot(page, "move-values")


def test_without_javascript_a_move_still_works(open_page, live_server, shoot):
    page = open_page(java_script_enabled=False)
    page.goto(live_server + "/")
    page.get_by_role("button", name="Row 2, column 2, empty").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    expect(page.get_by_role("button", name="Row 2, column 2, X")).to_be_visible()
    page.get_by_role("button", name="Row 2, column 2, X").click(force=True)
    expect(page.get_by_role("alert")).to_have_text("Row 2, column 2 is already taken.")
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    choose(page, Mode="hvh")
    page.get_by_role("button", name="New game").click()
    expect(page.get_by_role("status")).to_have_text("X to move.")
    shoot(page, "no-javascript")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_phone_gets_a_big_board_and_no_sideways_scrolling(open_page, live_server, scheme, shoot):
    page = open_page(viewport={"width": 375, "height": 812}, color_scheme=scheme, has_touch=True)
    page.goto(live_server + "/")
    cell = page.get_by_role("button", name="Row 1, column 1, empty")
    box = cell.bounding_box()
    assert box["width"] >= 64 and box["height"] >= 64
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.get_by_role("button", name="Row 2, column 2, empty").tap()
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    shoot(page, f"phone-{scheme}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_desktop_screenshots(open_page, live_server, scheme, shoot):
    page = open_page(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page.goto(live_server + "/")
    choose(page, Mode="hvh")
    for cell in (4, 0, 8, 2, 6, 3):
        click_cell(page, cell)
    expect(page.get_by_role("status")).to_have_text("X to move.")
    page.get_by_role("button", name="Move values").click()
    expect(page.locator(".value")).to_have_count(3)
    shoot(page, f"desktop-{scheme}")


def test_the_narrowest_phone_has_no_overlap(open_page, live_server):
    page = open_page(viewport={"width": 320, "height": 640})
    page.goto(live_server + "/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    assert page.get_by_role("button", name="Row 3, column 3, empty").bounding_box()["width"] >= 64


def contrast(first: str, second: str) -> float:
    """WCAG's contrast ratio of two CSS colours given as rgb(r, g, b)."""

    def luminance(colour: str) -> float:
        channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
        r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_last_move_of_each_side_is_marked(page: Page, live_server, console_errors):
    start(page, live_server, Difficulty="minimax")
    click_cell(page, 0)
    reply = next(i for i, c in enumerate(board(page)) if c == "O")
    mine, theirs = page.locator("#cell-0"), page.locator(f"#cell-{reply}")
    expect(mine).to_have_class(re.compile(r"\bis-last-x\b"))
    expect(theirs).to_have_class(re.compile(r"\bis-last-o\b"))
    expect(theirs).to_have_accessible_name(re.compile(r", O, last move$"))
    expect(mine).to_have_accessible_name("Row 1, column 1, X, the move before")
    expect(page.locator("#board .cell:is(.is-last-x, .is-last-o)")).to_have_count(2)
    # Each frame stands out from its square: 3:1 at least, the contrast WCAG asks of a graphic, light and dark.
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
        for cell in (mine, theirs):
            frame, square = cell.evaluate("c => [getComputedStyle(c).boxShadow, getComputedStyle(c).backgroundColor]")
            assert contrast(re.match(r"rgba?\([^)]*\)", frame).group(0), square) >= 3, (scheme, frame, square)
    # A move later, X's frame has moved to its new mark: one frame for each side still.
    click_cell(page, next(i for i, c in enumerate(board(page)) if c == "."))
    expect(page.locator("#cell-0")).not_to_have_class(re.compile(r"\bis-last-x\b"))
    expect(page.locator("#board .cell:is(.is-last-x, .is-last-o)")).to_have_count(2)


@pytest.mark.parametrize("device", DEVICES)
def test_each_question_and_each_help_says_what_it_means(open_page, live_server, device):
    page = open_page(**DEVICES[device])
    start(page, live_server, Mode="hvh")
    for cell in (0, 3, 1, 4, 2):
        click_cell(page, cell)
    page.get_by_role("button", name="Reset score").click()
    expect(page.get_by_role("alert")).to_contain_text("Reset the Human vs Human score?")
    page.get_by_role("link", name="Keep playing").click()
    # Against the computer, mid-game, only the side changes: the question says so, in those words.
    start(page, live_server, Mode="hvc")
    click_cell(page, 4)
    choose(page, **{"You play": "O"})
    expect(page.get_by_role("alert")).to_contain_text("Start a new game as O? This one will be abandoned.")
    # The dropdown shows the choice the question asks about; No puts it back, Yes keeps it.
    expect(page.get_by_role("combobox", name="You play")).to_have_value("O")
    page.get_by_role("link", name="Keep playing").click()
    expect(page.get_by_role("combobox", name="You play")).to_have_value("X")
    choose(page, Mode="hvh")
    expect(page.get_by_role("alert")).to_contain_text("Start a new Human vs Human game? This one will be abandoned.")
    expect(page.get_by_role("combobox", name="Mode")).to_have_value("hvh")
    page.get_by_role("link", name="Keep playing").click()
    expect(page.get_by_role("combobox", name="Mode")).to_have_value("hvc")
    choose(page, **{"You play": "O"})
    page.get_by_role("button", name="Start the new game").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")  # the computer opens
    # The computers' help speaks of them, not of "you", and states their pace, here and on a big board.
    choose(page, Mode="cvc")
    help_ = page.locator("#level-help")
    expect(help_).to_contain_text("Medium looks one move ahead: it takes a win and blocks one, but can be tricked.")
    expect(help_).not_to_contain_text("you")
    expect(
        help_.get_by_text("The computers play about two moves a second; Pause, under the board, stops them.")
    ).to_be_visible()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        expect(help_).to_be_visible()
    choose(page, Board="15x15")
    expect(help_.get_by_text("Hard thinking for up to a second a move here")).to_be_visible()


PACE = """() => {
  window.asked = [];
  document.addEventListener('htmx:beforeRequest', e => {
    if (e.detail.elt.matches('form.autoplay')) asked.push(performance.now());
  });
}"""


def test_the_computers_never_play_faster_than_the_page_says(page: Page, live_server):
    page.goto(live_server + "/")
    page.evaluate(PACE)
    choose(page, Mode="cvc")
    expect(page.locator("#board")).not_to_have_attribute("data-status", "playing", timeout=15_000)
    asked = page.evaluate("asked")
    gaps = [later - sooner for sooner, later in itertools.pairwise(asked)]
    # A step every half second from the start of the one before: never sooner (a timer may only be late).
    assert len(gaps) >= 4 and min(gaps) >= 490, gaps


@pytest.mark.parametrize("width", [320, 360])
def test_on_a_phone_choosing_a_mode_brings_the_game_into_view(open_page, live_server, width):
    page = open_page(**{**DEVICES["phone"], "viewport": {"width": width, "height": 640}})
    page.goto(live_server + "/")
    choose(page, Mode="cvc")  # the panel unfolded and scrolled to, as a thumb does
    expect(page.locator("#board")).to_be_in_viewport(ratio=1)
    expect(page.locator("#status")).to_be_in_viewport()
    # Mid-game, the question a new mode asks first comes into view, under the game's buttons.
    choose(page, Mode="hvh")
    click_cell(page, 4)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    choose(page, Mode="hvc")
    question = page.get_by_role("alert")
    expect(question).to_contain_text("Start a new Human vs Computer game?")
    expect(question).to_be_in_viewport(ratio=1)
