"""A friend game's other actions in Chromium: Play a friend from the first screen, the QR code read back to the
page's own link, resign and draw offers between two contexts and a watcher, and a seat moved to a third context.
axe-core checks each new state at 320 and 1280 px, light and dark."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from browsing import settled
from live import serve
from playwright.sync_api import Locator, Page, expect

from webapp import create_app
from webapp.engine.rules import cell_name

AUDITED = {"bypass_csp": True, "reduced_motion": "reduce"}
DESKTOP = {"viewport": {"width": 1280, "height": 800}, **AUDITED}
PHONE = {"viewport": {"width": 320, "height": 640}, "has_touch": True, "color_scheme": "dark", **AUDITED}
LINK = re.compile(r"^http://127\.0\.0\.1:[0-9]+/friend/[A-Za-z0-9_-]{22}$")


@pytest.fixture(scope="module")
def friends_server(tmp_path_factory):
    """The app on a loopback port, its friend games in a SQLite file of its own."""
    database = tmp_path_factory.mktemp("friends") / "friends.sqlite3"
    config = {"TESTING": True, "SECRET_KEY": "e2e-friend-actions", "FRIEND_DATABASE": str(database)}
    # Every browser here is one client (127.0.0.1), and this module starts many games nobody joins.
    roomy = {"FRIEND_CREATIONS_PER_MINUTE": 100, "FRIEND_WAITING_PER_CLIENT": 100, "FRIEND_GAMES_PER_CLIENT": 100}
    yield from serve(create_app(config | roomy))


@pytest.fixture(scope="module")
def stingy_server(tmp_path_factory):
    """The app with one friend game a minute for each client."""
    database = tmp_path_factory.mktemp("stingy") / "friends.sqlite3"
    config = {"TESTING": True, "SECRET_KEY": "e2e-stingy", "FRIEND_DATABASE": str(database)}
    yield from serve(create_app(config | {"FRIEND_CREATIONS_PER_MINUTE": 1}))


def invite(page: Page, server: str, board: str | None = None) -> str:
    """Start a game with a friend with the first screen's Play a friend; the link to send."""
    page.goto(server + "/")
    if board:
        page.get_by_role("combobox", name="Board", exact=True).select_option(label=board)
        expect(page.locator("#board")).to_have_attribute("data-board", re.compile(r"^\.{16,225}$"))
    button = page.get_by_role("button", name="Play a friend", exact=True)
    expect(button).to_be_in_viewport(ratio=1)  # the first screen, without scrolling or opening anything
    button.click()
    expect(status(page)).to_have_text(re.compile(r"^Waiting for your friend to open the link"))
    link = page.get_by_role("textbox", name="Link for your friend")
    expect(link).to_have_value(LINK)
    return link.input_value()


def status(page: Page) -> Locator:
    return page.locator("#status .status-text")


def play(page: Page, cell: int) -> None:
    settled(page)
    page.get_by_role("button", name=f"{cell_name(cell, 3)}, empty").click()


def read_qr(element: Locator, tmp_path: Path) -> str:
    """What a QR code drawn on the page says, read from a screenshot of it by zbarimg."""
    shot = tmp_path / "qr.png"
    element.screenshot(path=shot)
    found = subprocess.run(["zbarimg", "--quiet", "--raw", str(shot)], capture_output=True, text=True, check=True)
    return found.stdout.strip()


def test_play_a_friend_is_on_the_first_screen_and_its_qr_code_reads_back_to_the_link(
    open_page, friends_server, axe, shoot, tmp_path
):
    phone = open_page(**PHONE)
    link = invite(phone, friends_server)
    phone.get_by_text("QR code of the link").click()
    code = phone.get_by_role("img", name="QR code of the link to this game")
    expect(code).to_be_visible()
    assert read_qr(code, tmp_path) == link
    axe(phone, "a friend game waiting, its QR code open, 320 px")
    shoot(phone, "friend-waiting-qr-phone-dark")
    desktop = open_page(**DESKTOP, java_script_enabled=False)
    # Without JavaScript the button is a form's, and the link is whole all the same.
    desktop.goto(friends_server + "/?board=7x7")
    desktop.get_by_role("button", name="Play a friend", exact=True).click()
    expect(desktop.get_by_role("textbox", name="Link for your friend")).to_have_value(LINK)
    expect(desktop.locator("#board")).to_have_attribute("data-board", "." * 49)
    expect(desktop.locator(".site-footer")).to_have_count(0)
    wide = open_page(**DESKTOP)
    invite(wide, friends_server)
    wide.get_by_text("QR code of the link").click()
    expect(wide.get_by_role("img", name="QR code of the link to this game")).to_be_visible()
    axe(wide, "a friend game waiting, its QR code open, 1280 px")
    shoot(wide, "friend-waiting-qr-desktop")


@pytest.mark.parametrize("options", [PHONE, DESKTOP], ids=["320px", "1280px"])
@pytest.mark.parametrize(("board", "squares"), [("4×4", 16), ("5×5", 25), ("7×7", 49), ("15×15", 225)])
def test_play_a_friend_is_on_the_first_screen_of_every_board(open_page, friends_server, board, squares, options):
    page = open_page(**options)
    invite(page, friends_server, board=board)
    expect(page.locator("#board")).to_have_attribute("data-board", "." * squares)


def test_draw_offers_and_a_resignation_between_two_friends_and_a_watcher(open_page, friends_server, axe, shoot):
    inviter, friend = open_page(**DESKTOP), open_page(**PHONE)
    watcher = open_page(**(PHONE | {"color_scheme": "light"}))
    link = invite(inviter, friends_server)
    friend.goto(link)
    expect(status(inviter)).to_contain_text("Your friend has joined")
    watcher.goto(link)
    expect(watcher.get_by_role("heading", name="Score between the players")).to_be_visible()
    expect(watcher.get_by_role("textbox", name="Link to this game")).to_have_value(link)
    play(inviter, 4)
    # The friend offers a draw; the inviter declines it, live.
    friend.get_by_role("button", name="Offer a draw").click()
    expect(friend.get_by_text("You have offered a draw: waiting for your friend's answer.")).to_be_visible()
    expect(inviter.get_by_text("Your friend offers a draw.")).to_be_visible()
    expect(watcher.get_by_text("O offers a draw.")).to_be_visible()
    axe(inviter, "a draw offered to you, 1280 px")
    axe(friend, "a draw you offered, 320 px")
    shoot(inviter, "friend-draw-offered-desktop")
    inviter.get_by_role("button", name="Decline the draw").click()
    expect(friend.get_by_text("You have offered a draw")).to_have_count(0)
    expect(friend.get_by_role("button", name="Offer a draw")).to_have_count(0)  # not again before a move
    play(friend, 0)
    # Offered again after a move, and accepted: a draw in the result, the score and on every screen.
    inviter.get_by_role("button", name="Offer a draw").click()
    expect(friend.get_by_role("button", name="Accept the draw")).to_be_visible()
    axe(friend, "a draw offered to you, 320 px")
    axe(inviter, "a draw you offered, 1280 px")
    friend.get_by_role("button", name="Accept the draw").click()
    expect(status(friend)).to_have_text("It's a draw: you agreed to it.")
    expect(status(inviter)).to_have_text("It's a draw: you agreed to it.")
    expect(status(watcher)).to_have_text("It's a draw: the players agreed to it.")
    expect(watcher.locator(".friend-score")).to_contain_text(re.compile(r"Draws\s*1"))
    axe(watcher, "a draw agreed, watched, 320 px")
    # The rematch, resigned after a confirmation.
    inviter.get_by_role("button", name="Rematch as O").click()
    expect(status(friend)).to_contain_text("Rematch, sides swapped. Your turn: you play X.")
    friend.get_by_role("button", name="Resign").click()
    expect(friend.get_by_text("Resign this game? Your friend wins it")).to_be_visible()
    axe(friend, "resign's question, 320 px")
    shoot(friend, "friend-resign-question-phone-dark")
    friend.get_by_role("link", name="Keep playing").click()
    expect(friend.get_by_role("button", name="Resign")).to_be_visible()
    expect(status(friend)).to_contain_text("Your turn")
    friend.get_by_role("button", name="Resign").click()
    friend.get_by_role("button", name="Yes, resign").click()
    expect(status(friend)).to_have_text("You resigned: your friend wins.")
    expect(status(inviter)).to_have_text("Your friend resigned: you win!")
    expect(status(watcher)).to_have_text("X resigned: O wins.")
    expect(inviter.locator(".friend-score")).to_contain_text(re.compile(r"You\s*1.*Your friend\s*0.*Draws\s*1", re.S))
    axe(inviter, "a resignation won, 1280 px")
    axe(friend, "a resignation lost, 320 px")
    shoot(inviter, "friend-resigned-desktop")
    shoot(watcher, "friend-resigned-watched-phone-light")


def test_a_seat_moves_to_a_third_browser_and_the_first_one_watches(open_page, friends_server, axe, shoot, tmp_path):
    inviter, friend, phone = open_page(**DESKTOP), open_page(**(DESKTOP | {"color_scheme": "dark"})), open_page(**PHONE)
    link = invite(inviter, friends_server)
    friend.goto(link)
    expect(status(friend)).to_contain_text("You have joined")
    friend.get_by_role("button", name="Continue on another device").click()
    seat_link = friend.get_by_role("textbox", name="One-time link to your seat").input_value()
    assert seat_link.startswith(link + "/seat/")
    assert read_qr(friend.get_by_role("img", name="QR code of the one-time link"), tmp_path) == seat_link
    axe(friend, "a seat's one-time link, 1280 px")
    shoot(friend, "friend-move-seat-desktop-dark")
    phone.goto(seat_link)
    axe(phone, "taking a seat, 320 px")
    phone.get_by_role("button", name="Play here").click()
    expect(status(phone)).to_have_text("You have joined. Your friend's turn: you play O.")
    friend.get_by_role("link", name="Back to the game").click()
    expect(friend.get_by_text("You are watching: both seats are taken")).to_be_visible()
    inviter.get_by_role("button", name="Resign").click()
    expect(inviter.get_by_role("button", name="Yes, resign")).to_be_visible()
    axe(inviter, "resign's question, 1280 px")
    inviter.get_by_role("link", name="Keep playing").click()
    play(inviter, 4)
    expect(status(phone)).to_have_text("Your friend played the centre. Your turn: you play O.")
    play(phone, 0)
    expect(friend.locator("#board")).to_have_attribute("data-board", "O...X....")
    # The link, used, gives a stranger nothing.
    stranger = open_page(**DESKTOP)
    stranger.goto(seat_link)
    expect(stranger.get_by_text("has been used already")).to_be_visible()
    axe(phone, "a seat moved here, 320 px")
    axe(friend, "the browser a seat left, watching, 1280 px")


def test_a_refused_friend_game_leaves_the_mode_panel_on_the_mode_played(open_page, stingy_server):
    page = open_page(**DESKTOP)
    invite(page, stingy_server)
    page.goto(stingy_server + "/")
    page.locator("details.setup-panel > summary").click()
    mode = page.get_by_role("combobox", name="Mode", exact=True)
    mode.select_option("cvc")
    expect(page.get_by_role("combobox", name="X plays")).to_be_visible()
    mode.select_option("friend")
    expect(page.get_by_text(re.compile("You have started 1 games with a friend in the last minute"))).to_be_visible()
    # Not "Play a friend" over Computer vs Computer's level pickers: the mode still played.
    expect(mode).to_have_value("cvc")
