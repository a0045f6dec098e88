"""The bigger boards in Chromium: whole games against the top level, the keyboard on 15×15, and how
each board looks on a phone and a wide screen, in light and dark."""

import re

import pytest
from browsing import (
    DEVICES,
    board,
    box,
    click_cell,
    finished,
    fold,
    next_held,
    on_first_screen,
    settled,
    start,
    unfold,
    win_in_a_row,
)
from playwright.sync_api import Page, expect

from webapp.engine.boards import BY_KEY, board_for
from webapp.engine.rules import cell_name


def play_first_empty_to_the_end(page: Page) -> str:
    """Play the first empty square until the game is over, against the computer; the final status."""
    while not finished(page):
        ply = int(page.locator("#board").get_attribute("data-ply"))
        cell = board(page).index(".")
        n = board_for(board(page)).n
        settled(page)
        page.get_by_role("button", name=f"{cell_name(cell, n)}, empty").click()
        # The move and the reply come together, or the move alone when it ends the game.
        expect(page.locator("#board")).to_have_attribute("data-ply", re.compile(f"^({ply + 1}|{ply + 2})$"))
        expect(page.locator("#board.is-pending")).to_have_count(0)
    return page.locator("#board").get_attribute("data-status")


def test_a_whole_4x4_game_against_impossible(page: Page, live_server, console_errors):
    start(page, live_server, Board="4x4", Difficulty="minimax")
    expect(page.locator("#difficulty option:checked")).to_have_text("Impossible")
    expect(page.locator("#setup-summary")).to_have_text("vs computer · you play X")
    expect(page.get_by_role("combobox", name="Board")).to_have_value("4x4")
    expect(page.locator("#board .cell")).to_have_count(16)
    status = play_first_empty_to_the_end(page)
    assert status in ("o-won", "draw")  # Impossible never loses
    expect(page.get_by_role("status")).to_have_text(re.compile(r"The computer wins\.|It's a draw\."))
    if status == "o-won":
        expect(page.locator(".strike line")).to_have_count(1)
    expect(page.get_by_role("heading", name="Score against Impossible, 4×4")).to_be_visible()


def test_a_whole_7x7_game_against_hard(page: Page, live_server, console_errors, shoot):
    start(page, live_server, Board="7x7", Difficulty="minimax")
    # On 7×7 the top level is Hard, and the settings say what that means.
    expect(page.locator("#difficulty option:checked")).to_have_text("Hard")
    unfold(page)  # what the levels mean is with the mode, under the game
    expect(page.locator("#level-help").get_by_text("Hard searches ahead under a time limit")).to_be_visible()
    expect(page.locator("#board .cell")).to_have_count(49)
    status = play_first_empty_to_the_end(page)
    # Filling squares in order is no way to beat a search: it wins (or, at worst, holds the draw).
    assert status in ("o-won", "draw")
    expect(page.get_by_role("status")).to_have_text(re.compile(r"The computer wins\.|It's a draw\."))
    if status == "o-won":
        expect(page.locator(".strike line")).to_have_count(1)
    expect(page.get_by_role("heading", name="Score against Hard, 7×7")).to_be_visible()
    shoot(page, "7x7-against-hard")


def test_keyboard_play_on_15x15_moves_in_two_dimensions(page: Page, live_server, console_errors):
    start(page, live_server, Board="15x15", Mode="hvh")
    expect(page.locator("#board .cell")).to_have_count(225)
    page.locator("#cell-0").focus()
    for _ in range(7):
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowDown")
    expect(page.get_by_role("button", name="Row 8, column 8, empty")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    # The focus stays on the square just played, and the board is still one Tab stop.
    expect(page.get_by_role("button", name="Row 8, column 8, X")).to_be_focused()
    expect(page.locator("#board .cell[tabindex='0']")).to_have_count(1)
    for key, name in [
        ("ArrowUp", "Row 7, column 8"),
        ("ArrowLeft", "Row 7, column 7"),
        ("ArrowDown", "Row 8, column 7"),
        ("End", "Row 15, column 15"),
        ("ArrowRight", "Row 15, column 15"),  # the edge: nowhere further
        ("ArrowDown", "Row 15, column 15"),
        ("Home", "Row 1, column 1"),
        ("ArrowUp", "Row 1, column 1"),
        ("ArrowLeft", "Row 1, column 1"),
    ]:
        page.keyboard.press(key)
        expect(page.get_by_role("button", name=f"{name}, empty")).to_be_focused()
    page.keyboard.press("Space")
    expect(page.locator("#board")).to_have_attribute("data-board", re.compile(r"^O.{111}X"))
    expect(page.get_by_role("button", name="Row 1, column 1, O")).to_be_focused()


RULES = {3: "Three in a row wins.", 4: "Four in a row wins.", 5: "Five in a row wins."}

# Each animation on the page held at the same fraction of its run (its delay, then that part of its duration).
SEEK_ANIMATIONS = """fraction => document.getAnimations().forEach(a => {
    const timing = a.effect.getComputedTiming();
    a.pause();
    a.currentTime = timing.delay + timing.activeDuration * fraction;
})"""


@pytest.mark.parametrize("key", ["3x3", "4x4", "5x5", "7x7", "15x15"])
def test_every_board_fits_a_phone_and_a_wide_screen(open_page, live_server, key, shoot):
    spec = BY_KEY[key]
    for width in (320, 1280):
        page = open_page(viewport={"width": width, "height": 800})
        start(page, live_server, Board=key, Mode="hvh")
        fold(page)  # as a player sees the page
        # Chromium's animation clock is stopped, so that the win's animations can be looked at all the way
        # through, however fast or slow the machine runs the test.
        animations = page.context.new_cdp_session(page)
        animations.send("Animation.enable")
        animations.send("Animation.setPlaybackRate", {"playbackRate": 0})
        win_in_a_row(page, key)
        expect(page.locator("#board.is-won")).to_have_count(1)
        # One game, looked at in each scheme: the game costs the time, the schemes only their colours (and every
        # assertion runs in both, should a scheme ever change the layout).
        schemes = ("light", "dark")
        for scheme in schemes:
            _in_scheme(page, scheme)
            # No sideways scrolling at any moment of the win's animations (the confetti rising past the board's
            # edges did that on a phone, a second after the win).
            assert page.evaluate("document.getAnimations().length") >= 2  # at least the strike and the confetti
            for fraction in (0, 0.25, 0.5, 0.75, 0.99):
                page.evaluate(SEEK_ANIMATIONS, fraction)
                scroll_width = page.evaluate("document.documentElement.scrollWidth")
                assert scroll_width <= width, f"{scheme}, {fraction:.0%} through"
        page.evaluate("document.getAnimations().forEach(a => a.finish())")
        for scheme in schemes:
            _in_scheme(page, scheme)
            # The whole board in view, 8 px or more from the screen's edges, and squares a finger can hit.
            drawn = page.locator("#board").bounding_box()
            assert drawn["x"] >= 8 and drawn["x"] + drawn["width"] <= width - 8, scheme
            # 15×15's squares give some room to the row numbers on a phone; a finger's tap there opens them
            # magnified.
            square = page.locator("#cell-0").bounding_box()
            assert square["width"] >= (18 if spec.n == 15 else 36 if spec.n == 7 else 48), scheme
            # The rule under the board, on the first screen, in a few words of the text's own colours.
            rule = page.locator(".rule")
            # As shown: 15×15's word on what a tap does is for touch screens alone.
            expect(rule).to_have_text(
                RULES[spec.k] if spec.n != 15 else "Five or more in a row win.", use_inner_text=True
            )
            assert on_first_screen(page, ".rule"), scheme
            # The win is struck through over its squares, from the first to the last.
            strike = page.locator(".strike line").bounding_box()
            first = page.locator("#cell-0").bounding_box()
            last = page.locator(f"#cell-{spec.k - 1}").bounding_box()
            assert (
                strike["x"] < first["x"] + first["width"] / 2
                and strike["x"] + strike["width"] > last["x"] + last["width"] / 2
            ), scheme
            assert first["y"] < strike["y"] + strike["height"] / 2 < first["y"] + first["height"], scheme
            shoot(page, f"board-{key}-{width}-{scheme}")
        # The page goes on to the next test: its animations run again.
        animations.send("Animation.setPlaybackRate", {"playbackRate": 1})
        animations.detach()


def _in_scheme(page: Page, scheme: str) -> None:
    """The page shown in the colour scheme ``scheme``, as a system set to it shows it."""
    page.emulate_media(color_scheme=scheme)
    assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")


def test_a_tap_12_px_off_a_square_on_15x15_still_plays_it(open_page, live_server, shoot):
    # 15×15's squares are about 19 px at 320 px, so 12 px off the centre is on the next square: the tap opens
    # the squares around it, magnified, and the one meant is played from there.
    page = open_page(viewport={"width": 320, "height": 640}, has_touch=True)
    start(page, live_server, Board="15x15", Mode="hvh")
    fold(page)
    page.evaluate("window.scrollTo(0, 0)")
    meant = page.get_by_role("button", name="Row 8, column 8, empty")
    square = meant.bounding_box()
    assert square["width"] < 24
    page.touchscreen.tap(square["x"] + square["width"] / 2 + 12, square["y"] + square["height"] / 2)
    magnified = page.get_by_role("dialog", name=re.compile(r"^Rows \d+–\d+, columns \d+–\d+"))
    expect(magnified).to_be_visible()
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")  # nothing played yet
    # The board behind is out of reach while it is open: its squares are the magnifier's, 44 px or more.
    there = magnified.get_by_role("button", name="Row 8, column 8, empty")
    assert there.bounding_box()["width"] >= 44
    shoot(page, "15x15-magnified-320")
    there.tap()
    expect(magnified).to_have_count(0)
    expect(page.locator("#board")).to_have_attribute("data-board", re.compile(r"^\.{112}X\.{112}$"))
    # Until the answer has settled, a tap is held for after it (app.js), not given to the magnifier.
    settled(page)
    # A taken square in the magnifier plays nothing; a tap outside it closes it.
    page.touchscreen.tap(square["x"] + square["width"] / 2, square["y"] + square["height"] / 2)
    magnified.get_by_role("button", name="Row 8, column 8, X").tap(force=True)
    expect(magnified).to_be_visible()
    page.touchscreen.tap(5, 5)
    expect(magnified).to_have_count(0)
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    # A click from the keyboard plays the board's own square at once, as before.
    page.get_by_role("button", name="Row 8, column 9, empty").press("Enter")
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")


def test_one_tap_a_move_on_15x15_for_a_player_who_chooses_it_or_zooms_in(open_page, live_server):
    page = open_page(viewport={"width": 320, "height": 640}, has_touch=True, is_mobile=True)
    start(page, live_server, Board="15x15", Mode="hvh")
    # The board says what a tap does, where the player looks: right under it.
    note = page.get_by_text("A tap magnifies the squares.")
    expect(note).to_be_visible()

    def tap(name: str) -> None:
        page.evaluate("window.scrollTo(0, 0)")
        settled(page)
        square = page.get_by_role("button", name=name).bounding_box()
        page.touchscreen.tap(square["x"] + square["width"] / 2, square["y"] + square["height"] / 2)

    # Zoomed in with two fingers (the page's scale, as a pinch sets it), a square wide enough plays at once.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setPageScaleFactor", {"pageScaleFactor": 2})
    page.wait_for_function("visualViewport.scale === 2")
    tap("Row 8, column 8, empty")
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    expect(page.get_by_role("dialog")).to_have_count(0)
    cdp.send("Emulation.setPageScaleFactor", {"pageScaleFactor": 1})
    page.wait_for_function("visualViewport.scale === 1")
    # At the page's own size a tap opens the magnifier, unless the player chose one tap a move: kept on the device.
    tap("Row 1, column 1, empty")
    expect(page.get_by_role("dialog")).to_be_visible()
    page.keyboard.press("Escape")
    fold(page)
    unfold(page)
    page.get_by_role("combobox", name="A tap on 15×15’s small squares").select_option("at-once")
    page.reload()
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    fold(page)
    unfold(page)
    expect(page.get_by_role("combobox", name="A tap on 15×15’s small squares")).to_have_value("at-once")
    expect(note).to_be_hidden()  # no longer true on this device
    fold(page)
    tap("Row 1, column 1, empty")
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    expect(page.get_by_role("dialog")).to_have_count(0)


def test_a_tap_made_while_an_answer_is_on_its_way_opens_the_magnifier_once_it_is_drawn(open_page, live_server):
    # A finger lands on the next square as often on a busy page as on an idle one: a tap made while another
    # request's answer comes (here the move values') is held, and then magnified like any other, not played
    # where it landed.
    page = open_page(viewport={"width": 320, "height": 640}, has_touch=True)
    start(page, live_server, Board="15x15", Mode="hvh")
    fold(page)
    held = []
    page.route("**/values", lambda route: held.append(route))
    page.get_by_role("button", name="Move values").click()
    page.evaluate("window.scrollTo(0, 0)")
    square = page.get_by_role("button", name="Row 3, column 3, empty").bounding_box()
    page.touchscreen.tap(square["x"] + square["width"] / 2, square["y"] + square["height"] / 2)
    magnified = page.get_by_role("dialog", name="Rows 1–5, columns 1–5: tap a square to play it")
    expect(magnified).to_have_count(0)
    next_held(page, held).continue_()
    expect(magnified).to_be_visible()
    expect(magnified.get_by_role("button", name="Row 3, column 3, empty")).to_be_focused()
    expect(page.locator(".value")).not_to_have_count(0)
    page.keyboard.press("Escape")
    expect(magnified).to_have_count(0)
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")


def test_the_big_board_help_names_the_threats_and_what_the_hint_does(audit_page, live_server, axe):
    page = audit_page(1280)
    start(page, live_server, Board="15x15", Mode="hvh")
    # X: row 8, columns 7 to 9, open at both ends; O far away in the corners. O to move.
    for cell in (111, 0, 112, 14, 113):
        click_cell(page, cell)
    page.get_by_role("button", name="Hint").click()
    expect(page.get_by_text(re.compile(r"^Hint: row 8, column (6|10) blocks X's open three\.$"))).to_be_visible()
    page.get_by_role("button", name="Move values").click()
    help_ = page.get_by_role("region", name="Threats and forced wins")
    expect(help_.get_by_role("listitem")).to_have_text(
        ["X has an open three on row 8, columns 7–9: it makes an open four at row 8, column 6 or 10."]
    )
    # Were X to move, its open three would make an open four: the danger is named too.
    expect(help_).to_contain_text("X threatens a forced win")
    # The squares show only what is worth reading: every square but the two that block the three is proved to
    # lose, so those two are marked (the search's choices, numbered), the rest left plain, and the key says so.
    expect(page.locator("#board .value-choice")).to_have_text(["1", "2"])
    expect(page.locator("#board .value-loss")).to_have_count(0)
    expect(page.get_by_text("Unmarked squares lose. 1–2: the search's choices, not proved.")).to_be_visible()
    expect(
        page.get_by_role("button", name=re.compile(r"^Row 8, column (6|10), empty, 1: the search's first"))
    ).to_be_visible()
    axe(page, "15×15: the threats, a hint and the search's choices")
    # O plays elsewhere, and X makes an open four: decisive, said once, and no square is worth marking.
    for cell in (28, 114):
        click_cell(page, cell)
    expect(help_.get_by_role("listitem").first).to_contain_text("X has an open four on row 8")
    expect(help_).not_to_contain_text("must stop it")
    expect(page.locator("#board .value")).to_have_count(0)
    expect(page.get_by_text("Every move loses in 2, proved.")).to_be_visible()
    axe(page, "15×15: an open four")


@pytest.mark.parametrize("device", DEVICES)
def test_a_long_game_on_15x15_keeps_the_page_short_and_the_board_off_the_edges(open_page, live_server, device):
    page = open_page(**DEVICES[device])
    start(page, live_server, Board="15x15", Mode="hvh")
    fold(page)
    # 24 moves that end nothing: X and O side by side down two columns, broken every four rows.
    moves = [r * 15 + c for r in (1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 0) for c in (3, 4)]
    for cell in moves:
        click_cell(page, cell)
    # The last six moves in view, one line each; the earlier ones folded, one tap away.
    listed = page.get_by_role("list", name="Moves", exact=True).get_by_role("listitem")
    expect(listed).to_have_count(6)
    heights = listed.evaluate_all("items => items.map(i => i.getBoundingClientRect().height)")
    assert max(heights) < 2 * min(heights)
    expect(page.get_by_text("Moves 1–18")).to_be_visible()
    # The page as long as a couple of screens, not the four a list of every move on two lines each made.
    assert page.evaluate("document.documentElement.scrollHeight") < 2 * DEVICES[device]["viewport"]["height"]
    page.get_by_text("Moves 1–18").click()
    expect(page.get_by_role("list", name="Moves 1–18").get_by_role("link")).to_have_count(18)
    # No keys to read on a touch screen; a keyboard's desktop keeps them.
    keys = page.locator("#keys").evaluate("k => getComputedStyle(k).display")
    assert (keys == "none") == (device == "phone")
    width = DEVICES[device]["viewport"]["width"]
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        drawn = box(page, "#board")
        assert drawn["x"] >= 8 and drawn["x"] + drawn["width"] <= width - 8, scheme
        assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_small_squares_note_is_for_fingers_on_15x15_alone(open_page, live_server):
    page = open_page(viewport={"width": 1280, "height": 800})  # a mouse: the board's own squares are its targets
    start(page, live_server, Board="15x15", Mode="hvh")
    expect(page.get_by_text("A tap magnifies the squares")).to_be_hidden()
    phone = open_page(viewport={"width": 320, "height": 640}, has_touch=True, is_mobile=True)
    start(phone, live_server, Board="7x7", Mode="hvh")
    expect(phone.locator("#loupe-note")).to_have_count(0)


def test_the_board_keeps_off_the_edges_of_the_narrowest_phone(open_page, live_server):
    page = open_page(viewport={"width": 320, "height": 640}, has_touch=True, is_mobile=True)
    start(page, live_server, Board="15x15", Mode="hvh")
    drawn = box(page, "#board")
    assert drawn["x"] >= 8 and drawn["x"] + drawn["width"] <= 320 - 8
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


def test_a_link_to_a_board_opens_it_and_asks_first_when_a_game_is_under_way(page: Page, live_server):
    page.goto(live_server + "/?board=7x7")
    expect(page.locator("#board .cell")).to_have_count(49)
    expect(page).to_have_url(live_server + "/")
    click_cell(page, 24)
    page.goto(live_server + "/?board=15x15")
    expect(page.get_by_role("alert")).to_contain_text("Start a new 15×15 game? This one will be abandoned.")
    expect(page.locator("#board .cell")).to_have_count(49)
    page.get_by_role("button", name="Start the new game").click()
    expect(page.locator("#board .cell")).to_have_count(225)
    expect(page).to_have_url(live_server + "/")  # answered: a reload does not ask again
    click_cell(page, 112)
    page.goto(live_server + "/?board=7x7")
    expect(page.get_by_role("alert")).to_contain_text("Start a new 7×7 game? This one will be abandoned.")
    page.get_by_role("link", name="Keep playing").click()
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(page).to_have_url(live_server + "/")
    page.reload()
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(page.locator("#board .cell")).to_have_count(225)
    page.goto(live_server + "/?board=99x99")
    expect(page.get_by_role("heading", name="This link does not hold a game")).to_be_visible()
    expect(page.get_by_text("choose 3x3, 4x4, 5x5, 7x7 or 15x15")).to_be_visible()
