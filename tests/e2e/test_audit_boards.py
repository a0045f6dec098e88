"""axe-core finds nothing in a game on a bigger board, on a phone and a desktop, light and dark."""

import functools
import re

import pytest
from browsing import click_cell, start, win_in_a_row
from playwright.sync_api import expect


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
    page.get_by_role("button", name="Hint").click()
    expect(page.get_by_text(re.compile(r"^Hint: "))).to_be_visible()
    axe(page, f"{key}: move values and a hint")
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
