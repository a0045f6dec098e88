"""The first screen holds what a player needs, and the board and its status line never move during a game."""

import re

import pytest
from browsing import SHIFTS, board, box, choose, click_cell, finished, fold, on_first_screen, play_out, settled, start
from playwright.sync_api import expect

# What a player needs without scrolling or opening anything: the game, the two settings changed most, New game
# and the game's buttons; at the end, Play again beside Review.
DURING = ["#status", "#board", "#board-size", "#difficulty", "#new-game-button", "#undo-button", "#hint-button"]
AT_THE_END = ["#status", "#board", "#again-button", "#review-button", "#board-size", "#difficulty", "#undo-button"]


@pytest.mark.parametrize("size", [(320, 640), (360, 740), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_first_screen_holds_the_board_the_settings_and_the_game_buttons(open_page, live_server, size, shoot):
    width, height = size
    page = open_page(viewport={"width": width, "height": height})
    page.goto(live_server + "/")
    # The level is named in words in its dropdown, which is no fold away.
    expect(page.get_by_role("combobox", name="Difficulty")).to_have_value("one-ply")
    expect(page.locator("#difficulty option:checked")).to_have_text("Medium")
    expect(page.get_by_role("combobox", name="Board")).to_be_visible()
    while not finished(page):
        for selector in DURING:
            assert on_first_screen(page, selector), f"{selector} below the fold at {size}"
        click_cell(page, next(i for i, c in enumerate(board(page)) if c == "."))
    for selector in AT_THE_END:
        assert on_first_screen(page, selector), f"{selector} below the fold at the end, at {size}"
    shoot(page, f"first-screen-{width}x{height}")
    # The biggest board, mid-game (a new board after the end asks nothing).
    page.get_by_role("combobox", name="Board").select_option("15x15")
    expect(page.locator("#board .cell")).to_have_count(225)
    click_cell(page, 112)
    for selector in DURING:
        assert on_first_screen(page, selector), f"{selector} below the fold on 15×15 at {size}"
    shoot(page, f"first-screen-15x15-{width}x{height}")


def test_the_board_never_moves_during_a_game(open_page, live_server):
    page = open_page(viewport={"width": 320, "height": 640})
    start(page, live_server, Difficulty="minimax")
    place = box(page, "#board")
    status = box(page, "#status")

    def steady(where: str) -> None:
        assert box(page, "#board") == place, where
        assert box(page, "#status") == status, where

    # The longest lines a phone shows: the computer's reply, a hint, a refusal, move values.
    click_cell(page, 0)
    steady("after a move and the computer's reply")
    page.get_by_role("button", name="Hint").click()
    expect(page.get_by_text(re.compile(r"^Hint: "))).to_be_visible()
    steady("with a hint")
    choose(page, Mode="hvh")
    expect(page.get_by_role("button", name="Start the new game")).to_be_visible()
    steady("with a question")
    page.get_by_role("link", name="Keep playing").click()
    expect(page.get_by_role("button", name="Start the new game")).to_have_count(0)
    settled(page)
    # The computer's square (a tap on the player's own last square is taken as the end of a double tap).
    page.locator("#board .cell.has-o").first.click(force=True)
    expect(page.get_by_role("alert")).to_be_visible()
    steady("with a refusal")
    page.get_by_role("button", name="Move values").click()
    expect(page.locator(".value")).not_to_have_count(0)
    steady("with move values")
    play_out(page)
    expect(page.get_by_role("button", name="Play again", exact=True)).to_be_visible()
    steady("at the end")
    # Computer vs Computer: a line for every move, a pause, a step.
    choose(page, Mode="cvc")
    expect(page.get_by_role("status")).to_have_text(re.compile(r"took"))
    steady("while the computers play")
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("status")).to_contain_text("Paused.")
    steady("paused")


@pytest.mark.parametrize("width", [320, 1280])
@pytest.mark.parametrize("key", ["4x4", "7x7", "15x15"])
def test_a_bigger_board_never_moves_and_nothing_shifts(open_page, live_server, key, width):
    page = open_page(init_script=f"({SHIFTS})()", viewport={"width": width, "height": 800})
    start(page, live_server, Board=key, Mode="hvh")
    fold(page)  # as a player sees the page
    page.wait_for_load_state("networkidle")
    # From here on: the settings' own summary changes its length with the settings chosen above.
    page.evaluate("countShiftsFromNow()")
    place, status = box(page, "#board"), box(page, "#status")

    def steady(where: str) -> None:
        assert box(page, "#board") == place, f"{key} at {width} px, {where}"
        assert box(page, "#status") == status, f"{key} at {width} px, {where}"

    def only_the_footer_moved() -> None:
        # Every shift, within a click's half second or not: a browser excuses those as the click's doing, so
        # counted its way this test passed or failed with the machine's load (an answer that came late on a
        # loaded run made the same shift count). The footer alone may move: it sits below the move list, which
        # grows with the game, and at 1280 px it is in view.
        moved = [shift for shift in page.evaluate("shiftedAtAll") if " ms, site-footer " not in shift]
        assert moved == [], "\n".join(moved)

    click_cell(page, 5)
    click_cell(page, 0)
    steady("after two moves")
    settled(page)
    page.locator("#cell-5").click(force=True)  # X's square: O's, the last played, is a double tap's
    expect(page.get_by_role("alert")).to_be_visible()
    steady("with a refusal")
    only_the_footer_moved()
    page.get_by_role("button", name="Hint").click()
    expect(page.get_by_text(re.compile(r"^Hint: "))).to_be_visible()
    steady("with a hint")
    page.get_by_role("button", name="Move values").click()
    expect(page.locator(".value")).not_to_have_count(0)
    steady("with move values")
    page.get_by_role("button", name="Move values").click()
    expect(page.locator(".value")).to_have_count(0)
    # On the big boards a hint and move values open the threats beside the board, under the buttons that asked
    # for them, and what follows moves down while they are open: asked for, so not counted from here on.
    page.wait_for_load_state("networkidle")
    page.evaluate("countShiftsFromNow()")
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    click_cell(page, 0)
    page.wait_for_load_state("networkidle")
    only_the_footer_moved()
