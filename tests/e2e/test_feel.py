"""How the game feels: every status line fits, instant marks, no lost click, the keyboard, the end of a game,
and controls and hints that fit a phone."""

import re

import pytest
from browsing import (
    DEVICES,
    SHIFTS,
    board,
    box,
    choose,
    click_cell,
    lose_to_the_computer,
    next_held,
    on_first_screen,
    play_out,
    settled,
    start,
    unfold,
)
from playwright.sync_api import Page, expect

from webapp.engine.rules import cell_name
from webapp.match import Settings, Table
from webapp.web.present import status_line


def every_headline() -> set[str]:
    """Every status line a game can show after one move, paused or not, and the end of a game."""
    lines = {"Sending your move…", "Computer is thinking…"}
    for cell in range(9):
        for settings in (Settings(human="O"), Settings(mode="cvc"), Settings(mode="hvh")):
            for paused in (False, True):
                lines.add(status_line(Table(settings=settings, moves=(cell,), paused=paused)))
    for settings in (Settings(), Settings(mode="cvc"), Settings(mode="hvh")):
        lines.add(status_line(Table(settings=settings, moves=(0, 3, 1, 4, 8, 5))))  # O wins
    # On the bigger boards a square is named by its row and column: the longest names are on the edges.
    for key, n in (("4x4", 4), ("7x7", 7), ("15x15", 15)):
        for cell in (1, n - 2, n, n * n - 2, n * (n - 1) - 1, n * n // 2 + 1):
            for settings in (Settings(human="O", board=key), Settings(mode="cvc", board=key)):
                for paused in (False, True):
                    lines.add(status_line(Table(settings=settings, moves=(cell,), paused=paused)))
    lines.add(status_line(Table(settings=Settings(mode="cvc", board="7x7"), moves=(0, 7, 1, 8, 2, 9, 3, 10, 4))))
    return lines


@pytest.mark.parametrize("width", [320, 375])
def test_every_status_line_fits_the_room_kept_for_it(open_page, live_server, width):
    page = open_page(viewport={"width": width, "height": 740})
    page.goto(live_server + "/")
    kept = box(page, "#status")["height"]
    heights = page.locator("#status .status-text").evaluate(
        """(line, texts) => texts.map(text => {
          line.textContent = text;
          return [text, document.getElementById('status').getBoundingClientRect().height];
        })""",
        sorted(every_headline()),
    )
    assert [text for text, height in heights if height != kept] == []


RECORD = """() => {
  window.seen = [];
  const note = () => seen.push([
    document.getElementById('board').dataset.board,
    Boolean(document.querySelector('#cell-4.is-pending .mark-x')),
    document.getElementById('status').textContent.trim(),
  ]);
  new MutationObserver(note).observe(document.querySelector('.game'), {subtree: true, childList: true,
    attributes: true, characterData: true});
}"""


def test_your_mark_at_once_a_quick_reply_says_nothing_and_a_slow_one_that_the_computer_is_thinking(
    browser, live_server, shoot
):
    # A context of its own, not a kept page (open_page): a clock once installed stays with its context.
    context = browser.new_context(viewport={"width": 375, "height": 740})
    page = context.new_page()
    # The page's timers run only when the test moves its clock, however loaded the machine is.
    page.clock.install(time=0)
    page.clock.pause_at(1000)
    page.goto(live_server + "/")
    page.evaluate(RECORD)  # what the page shows while the reply is on its way, at every change
    held = []
    page.route("**/move", lambda route: held.append(route))
    status = page.get_by_role("status")
    # A quick reply, in the page's 300 ms: the mark at once, and no words about a wait.
    page.get_by_role("button", name=f"{cell_name(4)}, empty").click()
    expect(page.locator("#cell-4.is-pending .mark-x")).to_be_visible()
    page.clock.run_for(300)
    expect(status).to_have_text("You play X. Your turn.")
    next_held(page, held).continue_()
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    page.clock.run_for(1000)  # the answer settles, and any timer left would fire
    expect(page.locator(".cell.is-pending")).to_have_count(0)
    assert [s for s in page.evaluate("seen") if s[2] in ("Computer is thinking…", "Sending your move…")] == []
    # A slow one (a long search): after 400 ms the status says why, the player's mark still shown.
    after = status.inner_text()
    cell = board(page).index(".")
    page.get_by_role("button", name=f"{cell_name(cell)}, empty").click()
    page.clock.run_for(399)
    expect(status).to_have_text(after)
    page.clock.run_for(2)
    expect(status).to_have_text("Computer is thinking…")
    expect(page.locator(f"#cell-{cell}.is-pending .mark-x")).to_be_visible()
    shoot(page, "computer-thinking")
    next_held(page, held).continue_()
    expect(page.locator("#board")).to_have_attribute("data-ply", "4")
    expect(status).to_have_text(re.compile(r"^The computer took .+\. Your turn\.$"))
    page.clock.run_for(100)
    page.unroute("**/move")
    # "Sending your move" was never shown: against the computer the wait is its thinking.
    assert "Sending your move…" not in {s[2] for s in page.evaluate("seen")}
    # The reply is in full colour from its first frame: no fade, and no beat added after the wait.
    reply = page.locator(".cell .mark.is-new")
    expect(reply).to_have_count(1)
    timing = reply.evaluate("m => [getComputedStyle(m).opacity, getComputedStyle(m).animationDelay]")
    assert timing == ["1", "0s"]
    context.close()


def test_the_words_of_a_slow_answer_come_without_sliding_the_status_line(open_page, live_server):
    # "Sending your move…" takes the status line's place while an answer is slow. The line is centred and as
    # wide as its words: rewritten in place it slid sideways, a layout shift whenever the words came more than
    # half a second after the click (on a loaded machine they did). Every shift is counted here, excused or not.
    page = open_page(init_script=f"({SHIFTS})()", viewport={"width": 320, "height": 640})
    start(page, live_server, Mode="hvh")
    held = []
    page.route("**/move", lambda route: held.append(route))
    page.evaluate("countShiftsFromNow()")
    page.get_by_role("button", name=f"{cell_name(4)}, empty").click()
    expect(page.get_by_role("status")).to_have_text("Sending your move…")
    next_held(page, held).continue_()
    expect(page.get_by_role("status")).to_have_text("O to move.")
    page.evaluate("() => new Promise(requestAnimationFrame)")  # the frame after the answer, observed
    assert page.evaluate("shiftedAtAll") == []  # of the status line, or of anything else in view


def test_a_busy_server_is_said_beside_the_board_and_nothing_is_lost(page: Page, live_server):
    logged = []
    page.on("console", lambda message: logged.append(message.text) if message.type == "error" else None)
    start(page, live_server)
    click_cell(page, 4)
    before = board(page)
    # The server's own words for a 429, as its error pages give them (partials/problem.html).
    busy = (
        '<p class="message is-error" role="alert">The game is busy. Try again in a moment.'
        ' <a href="/">Reload the game</a>.</p>'
    )
    page.route(
        "**/move",
        lambda route: route.fulfill(status=429, headers={"Retry-After": "2"}, content_type="text/html", body=busy),
    )
    empty = before.index(".")
    settled(page)
    page.get_by_role("button", name=f"{cell_name(empty)}, empty").click()
    expect(page.get_by_role("alert")).to_have_text("The game is busy. Try again in a moment.")
    assert board(page) == before
    expect(page.locator(".cell.is-pending")).to_have_count(0)
    expect(page.locator("#board .mark")).to_have_count(2)
    page.unroute("**/move")
    # The next try goes through.
    click_cell(page, empty)
    assert logged == ["Failed to load resource: the server responded with a status of 429 (Too Many Requests)"]


def test_a_level_change_is_one_choice_on_the_first_screen(open_page, live_server):
    page = open_page(viewport={"width": 320, "height": 640}, has_touch=True)
    page.goto(live_server + "/")
    assert on_first_screen(page, "#difficulty")
    page.get_by_role("combobox", name="Difficulty").select_option("minimax")  # nothing to open first
    expect(page.get_by_text("Difficulty: Impossible, from the computer's next move.")).to_be_visible()
    expect(page.get_by_role("heading", name="Score against Impossible")).to_be_attached()


def test_arrowing_through_the_board_dropdown_asks_once_on_enter(page: Page, live_server, console_errors):
    start(page, live_server)
    click_cell(page, 4)
    posted = []
    page.on("request", lambda request: posted.append(request.url) if request.method == "POST" else None)
    boards = page.get_by_role("combobox", name="Board")
    boards.focus()
    for expected in ("4x4", "5x5", "7x7"):
        page.keyboard.press("ArrowDown")
        expect(boards).to_have_value(expected)  # the dropdown keeps the choice, and asks nothing yet
    expect(page.get_by_role("alert")).to_have_count(0)
    assert posted == []
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("Start a new 7×7 game? This one will be abandoned.")
    assert len(posted) == 1
    # The question has the focus: Enter again says yes.
    expect(page.get_by_role("button", name="Start the new game")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#board .cell")).to_have_count(49)
    # htmx makes a redrawn dropdown send its changes once the answer has settled (20 ms on, later on a loaded
    # machine): a person's keys come after that, and so must the test's.
    expect(page.locator(".htmx-settling, .htmx-added")).to_have_count(0)
    # Escape takes back a choice not yet sent, and leaving the dropdown sends one: a new board, no question
    # (no game in progress).
    boards.focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Escape")
    expect(boards).to_have_value("7x7")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    expect(page.locator("#board .cell")).to_have_count(225)
    assert len(posted) == 3


def test_a_click_made_while_the_game_changes_is_not_lost(open_page, slow_server):
    page = open_page(viewport={"width": 1280, "height": 800})
    page.goto(slow_server + "/")
    # A new mode is on its way (300 ms) when the square is clicked: it is played once the new game is drawn.
    choose(page, Mode="hvh")
    page.get_by_role("button", name=f"{cell_name(4)}, empty").click()
    expect(page.get_by_role("status")).to_have_text("O to move.")
    expect(page.locator("#board")).to_have_attribute("data-board", "....X....")
    # The same with New game and a move in one breath.
    page.get_by_role("button", name="New game").click()
    page.get_by_role("button", name=f"{cell_name(0)}, empty").click()
    expect(page.locator("#board")).to_have_attribute("data-board", "X........")
    # A double click counts once: one move taken back, not two.
    page.get_by_role("button", name="Undo").dblclick()
    expect(page.locator("#board")).to_have_attribute("data-board", ".........")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#board")).to_have_attribute("data-board", ".........")


def press(page: Page, device: str, cell, force: bool = False) -> None:
    """A finger's tap on a phone, a mouse's click on a desktop (``force``: on a square marked taken)."""
    if device == "phone":
        cell.tap(force=force)
    else:
        cell.click(force=force)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(("key", "level", "second"), [("3x3", "minimax", 2), ("7x7", "minimax", 25)])
def test_one_tap_is_one_move_while_the_reply_is_on_its_way(open_page, live_server, device, key, level, second):
    # Two squares in a breath (30 ms apart on 3×3, 50 ms on 7×7 against Hard, in the player's report): the reply is
    # held on its way, so the second comes before it, however fast the machine. The board shows it waits and
    # takes no other move; no message says anything, and the second square is never sent.
    page = open_page(**DEVICES[device])
    start(page, live_server, Board=key, Difficulty=level)
    held = []
    page.route("**/move", lambda route: held.append(route))
    press(page, device, page.locator("#cell-1"))
    expect(page.locator("#board.is-pending")).to_have_count(1)
    press(page, device, page.locator(f"#cell-{second}"))
    expect(page.locator("#board.is-waiting")).to_have_count(1)
    for scheme in ("light", "dark"):  # the waiting squares are dimmed, and their frame still shows
        page.emulate_media(color_scheme=scheme)
        open_square, moved = page.locator(f"#cell-{second}"), page.locator("#cell-1")
        assert open_square.evaluate("c => getComputedStyle(c).backgroundColor") != moved.evaluate(
            "c => getComputedStyle(c).backgroundColor"
        ), scheme
    page.emulate_media(color_scheme=DEVICES[device]["color_scheme"])
    next_held(page, held).continue_()
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    page.unroute("**/move")
    assert held == []  # the second square was never sent
    assert board(page)[1] == "X" and board(page).count("X") == 1
    expect(page.locator("#board.is-waiting, #board.is-pending")).to_have_count(0)
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(page.locator(".slot .message")).to_have_text("")


@pytest.mark.parametrize("device", DEVICES)
def test_a_double_tap_plays_once_and_says_nothing(open_page, live_server, device):
    page = open_page(**DEVICES[device])
    start(page, live_server, Difficulty="minimax")
    square = page.locator("#cell-4")
    if device == "phone":
        box = square.bounding_box()
        assert box is not None
        square.tap()
        # A finger taps the same place again, whatever is drawn there by then: it neither waits for the square to
        # look taken nor needs the square it saw (htmx may be swapping it in that instant).
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    else:
        square.dblclick()
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    # Once the answer is in, the second tap, however late, lands on the square it played: nothing, and no word.
    press(page, device, page.get_by_role("button", name=re.compile(r"^Row 2, column 2, X")), force=True)
    page.wait_for_load_state("networkidle")
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    expect(page.get_by_role("alert")).to_have_count(0)


def test_the_board_is_one_tab_stop_near_the_top(page: Page, live_server, console_errors):
    page.goto(live_server + "/")
    # The focus follows the page as drawn: a skip link, the name, the menu, then the board.
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the board")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    seen = []
    for _presses in range(6):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("document.activeElement.textContent.trim() || document.activeElement.id"))
    assert seen == ["Tic-tac-toe", "Play", "Game tree", "Numbers", "Tournament", "cell-0"]
    # The skip link leads past the menu: two presses and Enter from the top to the board.
    page.goto(live_server + "/")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator("#cell-0")).to_be_focused()
    # Arrows, Home and End move inside the board; Tab leaves it in one press, Shift+Tab comes back.
    for key, cell in [("ArrowRight", 1), ("ArrowDown", 4), ("End", 8), ("ArrowUp", 5), ("Home", 0)]:
        page.keyboard.press(key)
        expect(page.locator(f"#cell-{cell}")).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Tab")
    assert not page.evaluate("document.activeElement.classList.contains('cell')")
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#cell-1")).to_be_focused()
    expect(page.locator("#board .cell[tabindex='0']")).to_have_count(1)


def test_shortcuts_for_new_game_undo_and_hint(page: Page, live_server, console_errors):
    start(page, live_server, Mode="hvc")
    expect(page.get_by_text(re.compile(r"^Keys: N new game · U undo · H hint"))).to_be_visible()
    page.locator("#cell-4").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    page.keyboard.press("h")
    expect(page.get_by_text(re.compile(r"^Hint: "))).to_be_visible()
    page.keyboard.press("u")
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")
    click_cell(page, 0)
    page.keyboard.press("n")
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")


def status_colours(page: Page) -> tuple[str, str]:
    found = page.locator(".status-text").evaluate(
        "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
    )
    return tuple(found)


def test_a_win_a_loss_and_a_draw_look_different(page: Page, live_server, console_errors, shoot):
    page.emulate_media(reduced_motion="no-preference")
    start(page, live_server, Mode="hvh")
    for cell in (0, 3, 1, 4, 2):
        click_cell(page, cell)
    expect(page.get_by_role("status")).to_have_text("X wins!")
    expect(page.locator(".status-text")).to_have_attribute("data-tone", "win")
    expect(page.locator("#board.is-won")).to_have_count(1)
    assert page.locator("#board").evaluate("b => getComputedStyle(b, '::after').animationName") == "celebrate"
    win = status_colours(page)
    shoot(page, "end-win")

    page.get_by_role("button", name="Play again", exact=True).click()
    for cell in (0, 4, 8, 1, 7, 6, 2, 5, 3):  # X O X / X O O / O X X
        click_cell(page, cell)
    expect(page.get_by_role("status")).to_have_text("It's a draw.")
    draw = status_colours(page)
    expect(page.locator("#board.is-won")).to_have_count(0)
    shoot(page, "end-draw")

    start(page, live_server, Mode="hvc", Difficulty="minimax")
    lose_to_the_computer(page)
    loss = status_colours(page)
    shoot(page, "end-loss")
    assert len({win, draw, loss}) == 3

    # Play again keeps the settings; its other button swaps sides, and the computer opens.
    page.get_by_role("button", name="Play as O").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    expect(page.locator("#setup-summary")).to_have_text("vs computer · you play O")
    expect(page.get_by_role("combobox", name="Difficulty")).to_have_value("minimax")


@pytest.mark.parametrize("device", DEVICES)
def test_at_the_end_play_again_beside_review_a_new_level_keeps_the_result_and_undo_tries_again(
    open_page, live_server, device
):
    page = open_page(**DEVICES[device])
    start(page, live_server, Difficulty="minimax")
    lose_to_the_computer(page)
    again = page.get_by_role("button", name="Play again", exact=True)
    review = page.get_by_role("link", name="Review", exact=True)
    expect(again).to_be_visible()
    expect(review).to_be_visible()
    assert box(page, "#again-button")["y"] == box(page, "#review-button")["y"]  # side by side
    tally = page.locator("#score dd")
    expect(tally).to_have_text(["0", "1", "0"])
    # A new level after the end is the next game's: the game just lost, its result and Play again stay in view.
    page.get_by_role("combobox", name="Difficulty").select_option("random")
    expect(page.get_by_text("Next game against Easy.")).to_be_visible()
    expect(again).to_be_visible()
    expect(page.get_by_role("heading", name="Score against Impossible")).to_be_visible()
    expect(tally).to_have_text(["0", "1", "0"])
    # Undo after the end takes back the losing move to try again; the loss stays counted.
    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_enabled()
    ply = int(page.locator("#board").get_attribute("data-ply"))
    undo.click()
    expect(page.locator("#board")).to_have_attribute("data-status", "playing")
    assert int(page.locator("#board").get_attribute("data-ply")) < ply
    expect(tally).to_have_text(["0", "1", "0"])
    expect(again).to_have_count(0)
    # The replay is practice, and the page says so, in words of the text's own colours in both schemes.
    practice = page.get_by_text("This game is already in the score; playing on from here is practice.")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        expect(practice).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)
    play_out(page)
    expect(
        page.get_by_text("Practice: this game was already in the score, so this result is not counted again.")
    ).to_be_visible()
    expect(tally).to_have_text(["0", "1", "0"])


def test_the_celebration_stays_still_under_reduced_motion(page: Page, live_server):
    page.emulate_media(reduced_motion="reduce")
    start(page, live_server, Mode="hvh")
    for cell in (0, 3, 1, 4, 2):
        click_cell(page, cell)
    expect(page.locator("#board.is-won")).to_have_count(1)
    assert page.locator("#board").evaluate("b => getComputedStyle(b, '::after').animationName") == "none"


@pytest.mark.parametrize("width", [320, 1280])
def test_no_control_clips_its_words(open_page, live_server, width):
    page = open_page(viewport={"width": width, "height": 800})
    page.goto(live_server + "/")
    for mode in ("hvc", "cvc"):
        choose(page, Mode=mode)
        # The computers' game under way (each ply stands only about half a second, so none is waited for).
        expect(page.locator("#board")).to_have_attribute("data-ply", "0" if mode == "hvc" else re.compile(r"^[1-9]$"))
        clipped = page.evaluate(
            """() => {
              const canvas = document.createElement('canvas').getContext('2d');
              const out = [];
              for (const el of document.querySelectorAll('button, select, summary, a, label')) {
                if (!el.checkVisibility()) continue;
                if (el.tagName === 'SELECT') {
                  const s = getComputedStyle(el);
                  canvas.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
                  // The page draws its own arrow inside the padding; the system's takes about 20 px more.
                  const arrow = s.appearance === 'none' ? 0 : 20;
                  const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - arrow;
                  for (const o of el.options) if (canvas.measureText(o.text).width > room) out.push(o.text);
                } else if (el.scrollWidth > el.clientWidth + 1) {
                  out.push(el.textContent.trim());
                }
              }
              return out;
            }"""
        )
        assert clipped == [], f"clipped at {width} px in {mode}"
        expect(page.locator("#difficulty option, #x_level option").first).to_have_text("Easy")


def test_without_javascript_the_computers_step_and_nothing_pretends_to_pause(open_page, live_server):
    page = open_page(java_script_enabled=False)
    page.goto(live_server + "/")
    choose(page, Mode="cvc")
    page.get_by_role("button", name="New game").click()
    expect(page.get_by_role("status")).to_have_text("X to move.")
    expect(page.locator("#pause-button")).to_have_count(1)
    expect(page.locator("#pause-button")).to_be_hidden()
    expect(page.get_by_text(re.compile(r"^Keys:"))).to_be_hidden()
    # What Step does is said beside it, and nothing speaks of the computers playing by themselves.
    # Said in <noscript>, whose text Playwright's own text matching leaves out: read as the browser draws it.
    assert page.locator("#slot").evaluate("slot => slot.innerText") == "Step plays the next move, for the side to move."
    unfold(page)
    assert "Step, under the board, plays the next move" in page.locator("#level-help").evaluate("e => e.innerText")
    expect(page.get_by_text(re.compile("two moves a second"))).to_be_hidden()
    page.get_by_role("button", name="Step").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    # The move just played: in the status, and marked on the board.
    expect(page.get_by_role("status")).to_have_text(re.compile(r"^X took .+; O to move\.$"))
    expect(page.locator("#board .cell.is-last")).to_have_count(1)


@pytest.mark.parametrize("side", ["X", "O"])
@pytest.mark.parametrize("difficulty", ["random", "one-ply", "minimax"])
def test_a_hint_fits_its_slot_on_a_phone(open_page, live_server, difficulty, side):
    # The hint sits in the slot under the board, which keeps two lines' height: a third line pushed
    # everything under it down at 320 px.
    page = open_page(viewport={"width": 320, "height": 640})
    start(page, live_server, Difficulty=difficulty, **{"You play": side})
    for _ in range(2):  # the first position and the one after a move: the longest hints are early
        slot, controls = box(page, ".slot"), box(page, "#controls")
        page.get_by_role("button", name="Hint", exact=True).click()
        expect(page.locator(".slot .message")).to_contain_text("Hint")
        assert box(page, ".slot .message")["height"] <= slot["height"], page.locator(".slot .message").inner_text()
        assert box(page, "#controls") == controls
        click_cell(page, next(i for i, c in enumerate(board(page)) if c == "."))


@pytest.mark.parametrize(("key", "level"), [("3x3", "minimax"), ("7x7", "minimax")])
def test_a_tap_as_the_reply_appears_is_not_played_and_one_a_moment_later_is(open_page, live_server, key, level):
    # The page's clock is the test's: the reply is drawn, then a tap 30 ms later (meant before it: dropped, nothing
    # said), then one 200 ms later (an answer to it: played). However fast or slow the server was.
    page = open_page(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    page.clock.install()
    start(page, live_server, Board=key, Difficulty=level)
    held = []
    page.route("**/move", lambda route: held.append(route))
    page.locator("#cell-0").tap()
    reply = next_held(page, held)
    page.clock.pause_at(page.evaluate("Date.now()") + 1_000)
    reply.continue_()
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    page.unroute("**/move")
    page.clock.run_for(30)  # htmx settles the answer
    expect(page.locator("#board.is-fresh")).to_have_count(1)
    empty = next(i for i, c in enumerate(board(page)) if c == "." and i > 0)
    square = box(page, f"#cell-{empty}")
    posted = []
    page.on("request", lambda request: posted.append(request) if request.url.endswith("/move") else None)
    x, y = square["x"] + square["width"] / 2, square["y"] + square["height"] / 2 - page.evaluate("scrollY")
    page.touchscreen.tap(x, y)
    page.clock.run_for(200)
    expect(page.locator("#board.is-fresh")).to_have_count(0)
    page.evaluate("0")  # a round trip, after which any request the tap made has been told
    assert posted == [] and page.locator(f"#cell-{empty} .mark").count() == 0
    assert page.locator("#board").get_attribute("data-ply") == "2"
    expect(page.get_by_role("alert")).to_have_count(0)
    page.clock.resume()
    page.touchscreen.tap(x, y)
    expect(page.locator("#board")).to_have_attribute("data-board", re.compile(f"^.{{{empty}}}X"))
