"""A friend game's other actions through the Flask test client: Play a friend up front, resign, draws, the whole
link and its QR code, moving a seat to another browser, and the words of the friend pages."""

from __future__ import annotations

import re

import pytest
from friend_pages import HTMX, NAVIGATION, alert_of, board_of, make_app, move, start, status_of

from webapp.web import friend_actions


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


@pytest.fixture
def pair(app):
    """The inviter and the friend, seated at a fresh 3×3 game: (inviter, friend, the game's address)."""
    inviter, friend = app.test_client(), app.test_client()
    address = start(inviter)
    friend.get(address, headers=NAVIGATION)
    return inviter, friend, address


def words(response) -> str:
    return response.text.replace("&#39;", "'")


@pytest.mark.parametrize("board", ["3x3", "4x4", "5x5", "7x7", "15x15"])
def test_play_a_friend_is_a_button_of_the_first_screen_on_every_board(app, board):
    client = app.test_client()
    client.get(f"/?board={board}")
    page = client.get("/")
    assert board_of(page) == "." * int(board.split("x")[0]) ** 2
    button = re.search(r'<button[^>]*id="friend-start-button"[^>]*>Play a friend</button>', page.text)
    assert button and 'name="friend" value="1"' in button.group(0)
    # Without JavaScript the button posts the settings' form, board included.
    response = client.post("/new", data={"board": board, "friend": "1", "difficulty": "medium"})
    assert response.status_code == 303 and response.headers["Location"].startswith("/friend/")
    assert board_of(client.get(response.headers["Location"])) == "." * int(board.split("x")[0]) ** 2


def test_resign_asks_first_then_counts_as_the_friend_s_win(pair):
    inviter, friend, address = pair
    move(inviter, address, 4)
    asked = friend.post(f"{address}/resign", headers=HTMX)
    assert asked.status_code == 200 and "Resign this game?" in asked.text and 'name="confirm" value="1"' in asked.text
    assert "Your turn" in status_of(friend.get(address))  # nothing changed
    resigned = friend.post(f"{address}/resign", data={"confirm": "1"}, headers=HTMX)
    assert words(resigned).count("You resigned: your friend wins.") == 1
    assert status_of(inviter.get(address)) == "Your friend resigned: you win!"
    assert re.search(r"<dt>You</dt><dd>1</dd>", inviter.get(address).text)
    assert "Rematch as O" in inviter.get(address).text
    assert 'class="board n-3 is-over" data-board="....X...." data-status="x-won"' in inviter.get(address).text
    assert move(inviter, address, 0).status_code == 409


def test_resign_without_javascript_is_a_page_that_asks_then_a_redirect(pair):
    inviter, _, address = pair
    move(inviter, address, 4)  # the friend's turn: the page would reload itself, but not while it asks
    asked = inviter.post(f"{address}/resign")
    assert asked.status_code == 200 and "<html" in asked.text and "Yes, resign" in asked.text
    assert 'http-equiv="refresh"' not in asked.text
    refused = inviter.post(f"{address}/move", data={"cell": 0, "round": 1})
    assert f'content="3; url={address}"' in refused.text  # a refusal's page reloads to the game, not the form
    assert inviter.post(f"{address}/resign", data={"confirm": "1"}).status_code == 303
    assert status_of(inviter.get(address)) == "You resigned: your friend wins."


def test_a_watcher_and_a_lone_inviter_cannot_resign_or_offer_a_draw(app, pair):
    _, _, address = pair
    watcher = app.test_client()
    for path, data in (("resign", {"confirm": "1"}), ("draw", {"answer": "offer"})):
        response = watcher.post(f"{address}/{path}", data=data, headers=HTMX)
        assert response.status_code == 409 and "You are watching" in alert_of(response)
    alone = app.test_client()
    lone = start(alone)
    response = alone.post(f"{lone}/resign", data={"confirm": "1"}, headers=HTMX)
    assert response.status_code == 409 and "not opened the link yet" in alert_of(response)


def test_a_draw_offered_is_accepted_and_counted_as_a_draw(app, pair):
    inviter, friend, address = pair
    offered = inviter.post(f"{address}/draw", data={"answer": "offer"}, headers=HTMX)
    assert "You have offered a draw: waiting for your friend's answer." in words(offered)
    assert "Offer a draw" not in offered.text
    theirs = friend.get(address)
    assert "Your friend offers a draw." in theirs.text and "Accept the draw" in theirs.text
    assert "X offers a draw." in app.test_client().get(address).text
    drawn = friend.post(f"{address}/draw", data={"answer": "accept"}, headers=HTMX)
    assert status_of(drawn) == "It's a draw: you agreed to it."
    assert re.search(r"<dt>Draws</dt><dd>1</dd>", drawn.text)
    assert status_of(app.test_client().get(address)) == "It's a draw: the players agreed to it."


def review_link(page) -> str:
    """The address of the finished round's Review link."""
    return re.search(r'id="review-button" href="([^"]+)">Review</a>', page.text).group(1).replace("&amp;", "&")


@pytest.mark.parametrize("board", ["3x3", "15x15"])
def test_the_review_of_a_resigned_round_carries_the_ending_and_says_who_resigned(app, board):
    inviter, friend = app.test_client(), app.test_client()
    address = start(inviter, board)
    friend.get(address, headers=NAVIGATION)
    move(inviter, address, 0)
    friend.post(f"{address}/resign", data={"confirm": "1"}, headers=HTMX)
    for client in (inviter, friend, app.test_client()):  # both seats and a watcher
        link = review_link(client.get(address))
        shown = "" if board == "3x3" else f"board={board}&"
        assert link == f"/review?{shown}moves=0&ending=resigned-o"
        review = client.get(link)
        assert review.status_code == 200
        assert "You are looking at move 1 of 1: X top-left. O resigned: X wins." in words(review)


def test_the_review_of_an_agreed_draw_carries_the_ending_and_says_drawn_by_agreement(pair):
    inviter, friend, address = pair
    move(inviter, address, 4)
    move(friend, address, 0)
    inviter.post(f"{address}/draw", data={"answer": "offer"}, headers=HTMX)
    friend.post(f"{address}/draw", data={"answer": "accept"}, headers=HTMX)
    link = review_link(inviter.get(address))
    assert link == "/review?moves=4.0&ending=agreed" == review_link(friend.get(address))
    assert "move 2 of 2: O top-left. Drawn by agreement." in words(inviter.get(link))


def test_the_review_of_a_round_won_on_the_board_has_no_ending(pair):
    inviter, friend, address = pair
    for seat, cell in ((inviter, 0), (friend, 3), (inviter, 1), (friend, 4), (inviter, 2)):
        move(seat, address, cell)
    link = review_link(inviter.get(address))
    assert link == "/review?moves=0.3.1.4.2"
    assert "move 5 of 5: X top-right. X wins." in words(inviter.get(f"{link}&at=5"))  # it opens on O's mistake


def test_a_declined_draw_plays_on_and_waits_a_move_before_another_offer(pair):
    inviter, friend, address = pair
    inviter.post(f"{address}/draw", data={"answer": "offer"})
    assert friend.post(f"{address}/draw", data={"answer": "decline"}).status_code == 303
    page = inviter.get(address)
    assert "offers a draw" not in page.text and "Offer a draw" not in page.text
    response = inviter.post(f"{address}/draw", data={"answer": "offer"}, headers=HTMX)
    assert response.status_code == 409 and "after the next move" in alert_of(response)
    move(inviter, address, 4)
    assert "Offer a draw" in friend.get(address).text


@pytest.mark.parametrize(("answer", "status"), [("", 400), ("maybe", 400), ("accept", 409), ("decline", 409)])
def test_a_draw_answer_without_an_offer_or_that_is_not_one_is_refused(pair, answer, status):
    inviter, _, address = pair
    assert inviter.post(f"{address}/draw", data={"answer": answer}, headers=HTMX).status_code == status


def test_the_link_is_whole_without_site_url_from_the_host_the_proxy_reports(app, tmp_path):
    client = app.test_client()
    address = start(client)
    proxied = {"X-Forwarded-Host": "play.example.org", "X-Forwarded-Proto": "https"}
    assert f'value="https://play.example.org{address}"' in client.get(address, headers=proxied).text
    direct = make_app(tmp_path, PROXY_COUNT=0).test_client()
    address = start(direct)
    assert f'value="http://localhost{address}"' in direct.get(address, headers=proxied).text
    configured = make_app(tmp_path, SITE_URL="https://ttt.example.com").test_client()
    address = start(configured)
    assert f'value="https://ttt.example.com{address}"' in configured.get(address, headers=proxied).text


def test_the_link_and_its_qr_code_stay_all_game_for_players_and_watchers(app, pair):
    inviter, friend, address = pair
    for client in (inviter, friend, app.test_client()):
        page = client.get(address)
        assert f'value="http://localhost{address}"' in page.text and f'src="{address}/qr.svg"' in page.text
    qr = inviter.get(f"{address}/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and qr.text.startswith("<svg")
    assert app.test_client().get("/friend/" + "A" * 22 + "/qr.svg").status_code == 404
    long_host = {"X-Forwarded-Host": "a" * 500 + ".example.org"}
    assert inviter.get(f"{address}/qr.svg", headers=long_host).status_code == 400


def test_the_friend_pages_words(app, pair):
    inviter, _, address = pair
    watched = app.test_client().get(address).text
    assert "Score between the players" in watched and "Score between you" not in watched
    assert "Score between you" in inviter.get(address).text
    assert "Impossible never loses" not in watched and "Impossible never loses" in inviter.get("/").text
    back = re.search(r'<form class="friend-back".*?</form>', watched, re.S).group(0)
    assert 'action="/friend/computer"' in back and 'name="board" value="3x3"' in back


def test_play_the_computer_instead_starts_a_game_against_the_computer_on_that_board(app):
    client = app.test_client()
    digest = re.search(r'data-game="([^"]+)"', client.get("/").text).group(1)
    client.post("/new", data={"mode": "hvh", "board": "4x4", "start": "1", "game": digest})
    assert "two players" in client.get("/").text
    start(client, board="7x7")
    assert client.post("/friend/computer", data={"board": "7x7"}).status_code == 303
    page = client.get("/")
    assert "vs computer" in page.text and board_of(page) == "." * 49
    assert client.post("/friend/computer", data={"board": "8x8"}).status_code == 400


def transfer_link(client, address) -> str:
    page = client.post(f"{address}/transfer")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store" and page.mimetype == "text/html"
    assert 'aria-label="QR code of the one-time link"' in page.text
    return re.search(r'id="seat-link"[^>]*value="http://localhost([^"]+)"', page.text).group(1)


def test_a_seat_moves_to_another_browser_once_and_the_old_one_watches(app, pair):
    inviter, friend, address = pair
    link = transfer_link(friend, address)
    phone = app.test_client()
    assert "Play here" in phone.get(link).text  # opening it changes nothing: a preview takes no seat
    assert move(inviter, address, 4).status_code == 200
    taken = phone.post(link)
    assert taken.status_code == 303 and taken.headers["Location"] == address
    assert status_of(phone.get(address)) == "Your friend played the centre. Your turn: you play O."
    assert "You are watching" in friend.get(address).text
    assert move(friend, address, 0).status_code == 409
    assert move(phone, address, 0).status_code == 200
    # Replayed, by the thief or anyone: nothing.
    for client in (app.test_client(), friend, phone):
        assert client.post(link).status_code == 410
        assert client.get(link).status_code == 410


def test_a_newer_transfer_cancels_the_older_and_a_forged_or_expired_one_gives_nothing(app, pair, monkeypatch):
    inviter, _, address = pair
    older, newer = transfer_link(inviter, address), transfer_link(inviter, address)
    thief = app.test_client()
    assert thief.post(older).status_code == 410
    assert thief.post(newer[:-3] + "AAA").status_code == 404
    other_game = start(app.test_client())
    assert thief.post(other_game + newer.removeprefix(address)).status_code == 404
    monkeypatch.setattr(friend_actions, "TRANSFER_SECONDS", -1)
    assert thief.post(newer).status_code == 410
    monkeypatch.undo()
    assert thief.post(newer).status_code == 303
    assert "You have joined" not in status_of(inviter.get(address)) and "You are watching" in inviter.get(address).text


def test_a_watcher_cannot_make_a_transfer(app, pair):
    _, _, address = pair
    response = app.test_client().post(f"{address}/transfer")
    assert response.status_code == 409 and "only a player can move their seat" in response.text


def test_play_the_computer_instead_goes_back_to_a_game_against_the_computer_under_way_there(app):
    client = app.test_client()
    digest = re.search(r'data-game="([^"]+)"', client.get("/").text).group(1)
    client.post("/move", data={"cell": 4, "game": digest})
    before = board_of(client.get("/"))
    assert before.count("X") == 1
    client.post("/friend/computer", data={"board": "3x3"})
    assert board_of(client.get("/")) == before
