"""Two friends on two devices in Chromium: the link, the live board on both screens, a watcher, and a friend
without JavaScript."""

from __future__ import annotations

import re

import pytest
from browsing import settled
from live import serve
from playwright.sync_api import Page, expect

from webapp import create_app
from webapp.engine.rules import cell_name

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 320, "height": 700}, "color_scheme": "dark"}
# axe's script is injected inline, which the pages' own policy forbids; the 15×15 test keeps the policy, and
# fails on any error the page logs, a refused script or stream included.
AUDITED = {"bypass_csp": True, "reduced_motion": "reduce"}


@pytest.fixture(scope="module")
def friends_server(tmp_path_factory):
    """The app on a loopback port, its friend games in a SQLite file of its own."""
    database = tmp_path_factory.mktemp("friends") / "friends.sqlite3"
    app = create_app({"TESTING": True, "SECRET_KEY": "e2e-friends", "FRIEND_DATABASE": str(database)})
    yield from serve(app)


def invite(page: Page, server: str, board: str = "3×3") -> str:
    """Start a game with a friend from the game page's Mode dropdown; the link to send."""
    page.goto(server + "/")
    if board != "3×3":
        page.get_by_role("combobox", name="Board", exact=True).select_option(label=board)
        expect(page.locator("#board")).to_have_attribute("data-board", re.compile(r"^\.{49,225}$"))
    page.locator("details.setup-panel > summary").click()
    page.get_by_role("combobox", name="Mode", exact=True).select_option("friend")
    expect(page.get_by_text("Waiting for your friend to open the link. You play X.")).to_be_visible()
    link = page.get_by_role("textbox", name="Link for your friend")
    expect(link).to_have_value(re.compile(r"^http://127\.0\.0\.1:[0-9]+/friend/[A-Za-z0-9_-]{22}$"))
    return link.input_value()


def play(page: Page, cell: int, n: int = 3) -> None:
    settled(page)  # the other side's move, just drawn, takes no tap for 150 ms (app.js)
    page.get_by_role("button", name=f"{cell_name(cell, n)}, empty").click()


def expect_mark(page: Page, cell: int, mark: str) -> None:
    expect(page.locator("#board")).to_have_attribute("data-board", re.compile(rf"^.{{{cell}}}{mark}"))


def status(page: Page):
    return page.locator("#status .status-text")


def test_two_friends_play_a_whole_3x3_game_live_and_a_watcher_cannot_move(open_page, friends_server, axe, shoot):
    inviter, friend = open_page(**DESKTOP, **AUDITED), open_page(**PHONE, **AUDITED)
    watcher = open_page(**DESKTOP, **AUDITED)
    link = invite(inviter, friends_server)
    expect(inviter.get_by_role("button", name="Copy")).to_be_visible()
    axe(inviter, "a friend game waiting for the friend")
    shoot(inviter, "friend-waiting-desktop")
    friend.goto(link)
    expect(status(friend)).to_have_text("You have joined. Your friend's turn: you play O.")
    # The inviter's page hears of it without a reload.
    expect(status(inviter)).to_have_text("Your friend has joined and plays O. Your turn: you play X.")
    axe(inviter, "a friend game, the inviter's turn")
    watcher.goto(link)
    expect(watcher.get_by_text("You are watching: both seats are taken")).to_be_visible()
    axe(watcher, "a friend game watched")
    # X takes the top row while O plays the middle row's first two squares.
    for page, cell, mark in ((inviter, 0, "X"), (friend, 3, "O"), (inviter, 1, "X"), (friend, 4, "O")):
        play(page, cell)
        for other in (inviter, friend, watcher):
            expect_mark(other, cell, mark)
    expect(status(inviter)).to_have_text("Your friend played the centre. Your turn: you play X.")
    # A watcher's tap is refused and changes nothing.
    settled(watcher)
    watcher.get_by_role("button", name=f"{cell_name(2)}, empty").click(force=True)  # marked disabled, still a form
    expect(watcher.get_by_role("alert")).to_have_text(re.compile("You are watching this game"))
    expect(watcher.locator("#board")).to_have_attribute("data-board", "XX.OO....")
    play(inviter, 2)
    expect(status(friend)).to_have_text("Your friend wins.")
    expect(status(watcher)).to_have_text("X wins.")
    expect(status(inviter)).to_have_text("You win!")
    expect(friend.locator(".strike line")).to_have_count(1)
    expect(friend.get_by_role("link", name="Review")).to_be_visible()
    axe(friend, "a friend game lost, on a phone")
    shoot(friend, "friend-lost-phone-dark")
    shoot(inviter, "friend-won-desktop")
    friend.get_by_role("button", name="Rematch as X").click()
    expect(status(inviter)).to_have_text("Rematch, sides swapped. Your friend's turn: you play O.")
    expect(inviter.locator(".friend-score")).to_contain_text(re.compile(r"You\s*1.*Your friend\s*0", re.S))
    play(friend, 4)
    expect_mark(inviter, 4, "X")
    expect(watcher.locator("#board")).to_have_attribute("data-board", "....X....")


def test_a_few_moves_on_15x15_show_live_on_both_screens(open_page, friends_server, console_errors, page):
    friend = open_page(**DESKTOP)
    link = invite(page, friends_server, board="15×15")
    friend.goto(link)
    expect(status(page)).to_contain_text("Your friend has joined")
    for who, cell, mark in ((page, 112, "X"), (friend, 113, "O"), (page, 97, "X"), (friend, 98, "O")):
        play(who, cell, n=15)
        expect_mark(page, cell, mark)
        expect_mark(friend, cell, mark)
    expect(status(page)).to_have_text("Your friend played row 7, column 9. Your turn: you play X.")
    expect(page.get_by_role("list", name="Moves").get_by_role("listitem")).to_have_count(4)


def test_a_friend_without_javascript_plays_their_seat(open_page, friends_server, shoot):
    inviter = open_page(**DESKTOP)
    friend = open_page(java_script_enabled=False, **PHONE, **AUDITED)
    link = invite(inviter, friends_server)
    inviter.get_by_role("button", name="Play O instead").click()
    expect(status(inviter)).to_have_text("Waiting for your friend to open the link. You play O.")
    friend.goto(link)
    expect(status(friend)).to_have_text("You have joined. Your turn: you play X.")
    play(friend, 4)
    expect(status(friend)).to_have_text("You played the centre. Your friend's turn: you play X.")
    expect_mark(inviter, 4, "X")
    play(inviter, 0)
    # The waiting page reloads itself, and shows the friend's move.
    expect(status(friend)).to_have_text("Your friend played the top-left corner. Your turn: you play X.")
    shoot(friend, "friend-no-js-phone-dark")
    play(friend, 8)
    expect_mark(inviter, 8, "X")


def test_each_friend_sees_whether_the_other_is_here_and_a_page_cut_off_says_reconnecting(open_page, friends_server):
    inviter = open_page(**DESKTOP)
    link = invite(inviter, friends_server)
    friend = open_page(**PHONE)
    friend.goto(link)
    expect(friend.locator("#presence")).to_have_text("Your friend is here.")
    expect(inviter.locator("#presence")).to_have_text("Your friend is here.")
    friend.goto("about:blank")  # the friend's page closes, and its stream with it
    expect(inviter.locator("#presence")).to_have_text(re.compile(r"^Your friend left \d+ s ago\.$"))
    reconnecting = inviter.get_by_text("Reconnecting…")
    expect(reconnecting).to_be_hidden()
    # The stream cannot be reached (the server or the network is down): the page says so, and comes back by itself.
    inviter.route("**/events*", lambda route: route.abort())
    inviter.reload()
    expect(reconnecting).to_be_visible()
    inviter.unroute("**/events*")
    expect(reconnecting).to_be_hidden()
    friend.goto(link)
    expect(inviter.locator("#presence")).to_have_text("Your friend is here.")
