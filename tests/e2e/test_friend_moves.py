"""A friend game's move sent from a page that missed a change, in Chromium: refused, and the board redrawn."""

from __future__ import annotations

import re

import pytest
from browsing import settled
from live import serve
from playwright.sync_api import Page, expect

from webapp import create_app
from webapp.engine.rules import cell_name


@pytest.fixture(scope="module")
def friends_server(tmp_path_factory):
    """The app on a loopback port, its friend games in a SQLite file of its own."""
    database = tmp_path_factory.mktemp("friends") / "friends.sqlite3"
    app = create_app({"TESTING": True, "SECRET_KEY": "e2e-friend-moves", "FRIEND_DATABASE": str(database)})
    yield from serve(app)


def status(page: Page):
    return page.locator("#status .status-text")


def test_a_move_from_a_tab_that_missed_a_change_is_refused_and_the_tab_shows_the_board_as_it_is(
    open_page, friends_server
):
    inviter, friend = (
        open_page(viewport={"width": 1280, "height": 800}),
        open_page(viewport={"width": 320, "height": 700}),
    )
    other_tab = open_page(viewport={"width": 800, "height": 700})
    inviter.goto(friends_server + "/")
    inviter.locator("details.setup-panel > summary").click()
    inviter.get_by_role("combobox", name="Mode", exact=True).select_option("friend")
    link = inviter.get_by_role("textbox", name="Link for your friend")
    expect(link).to_have_value(re.compile(r"/friend/[A-Za-z0-9_-]{22}$"))
    address = link.input_value()
    friend.goto(address)
    expect(status(friend)).to_have_text("You have joined. Your friend's turn: you play O.")
    # The inviter's seat in another tab that hears of no change: its live stream never opens.
    other_tab.context.add_cookies(inviter.context.cookies())
    other_tab.route(re.compile(r".*/events(\?.*)?$"), lambda route: route.abort())
    other_tab.goto(address)
    expect(status(other_tab)).to_have_text("Your friend has joined and plays O. Your turn: you play X.")
    settled(inviter)
    inviter.get_by_role("button", name=f"{cell_name(4, 3)}, empty").click()
    expect(friend.locator("#board")).to_have_attribute("data-board", "....X....")
    settled(other_tab)
    other_tab.get_by_role("button", name=f"{cell_name(0, 3)}, empty").click()
    expect(other_tab.locator("#board")).to_have_attribute("data-board", "....X....")
    expect(other_tab.get_by_role("alert")).to_have_text(
        "The game moved on before your move arrived: here is the board as it is now."
    )
    expect(status(other_tab)).to_have_text("You played the centre. Your friend's turn: you play X.")
