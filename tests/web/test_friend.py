"""A game with a friend through the Flask test client: the link, the seats, the checks, the limits and the stream."""

from __future__ import annotations

import re
import threading
import time

import pytest
from conftest import COMPILED_TEMPLATES
from support import page as page_of
from support import play, send

from webapp import create_app
from webapp.web import friend_store

NAVIGATION = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}
HTMX = {"HX-Request": "true"}


def make_app(tmp_path, **config):
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "FRIEND_DATABASE": str(tmp_path / "friends.sqlite3")} | config
    )
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    return app


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


def status_of(response) -> str:
    return re.search(r'class="status-text"[^>]*>([^<]*)<', response.text).group(1).replace("&#39;", "'")


def board_of(response) -> str:
    return re.search(r'data-board="([^"]*)"', response.text).group(1)


def alert_of(response) -> str:
    found = re.search(r'role="alert">([^<]*)<', response.text)
    return found.group(1).replace("&#39;", "'") if found else ""


def start(client, board="3x3", **headers) -> str:
    response = client.post("/new", data={"mode": "friend", "board": board}, headers=headers)
    assert response.status_code == 303
    return response.headers["Location"]


@pytest.fixture
def pair(app):
    """The inviter and the friend, seated at a fresh 3×3 game: (inviter, friend, the game's address)."""
    inviter, friend = app.test_client(), app.test_client()
    address = start(inviter)
    assert "Your friend's turn" in status_of(friend.get(address, headers=NAVIGATION))
    return inviter, friend, address


def drawn_fields(page) -> dict[str, str]:
    """The round and the move number a page's board form sends: what its viewer saw."""
    return dict(re.findall(r'<input type="hidden" name="(round|ply)" value="([^"]*)">', page.text))


def move(client, address, cell, headers=HTMX, **drawn):
    """A move from this client's page as it is now, unless ``drawn`` names the round and move number it was drawn at."""
    fields = drawn_fields(client.get(address)) | {name: str(value) for name, value in drawn.items()}
    return client.post(f"{address}/move", data={"cell": cell} | fields, headers=headers)


def test_the_link_is_a_128_bit_code_and_the_page_offers_it_to_copy(app):
    inviter = app.test_client()
    address = start(inviter)
    code = address.rsplit("/", 1)[1]
    assert len(code) == 22  # 16 random bytes, base64url
    page = inviter.get(address)
    assert "Link for your friend" in page.text and f'value="http://localhost{address}"' in page.text
    assert status_of(page) == "Waiting for your friend to open the link. You play X."
    assert start(inviter) != address


def test_the_first_other_browser_takes_the_seat_and_the_next_one_watches(pair, app):
    inviter, _, address = pair
    assert status_of(inviter.get(address)) == "Your friend has joined and plays O. Your turn: you play X."
    watcher = app.test_client()
    page = watcher.get(address, headers=NAVIGATION)
    assert "You are watching" in page.text
    response = move(watcher, address, 0)
    assert response.status_code == 409 and "You are watching" in alert_of(response)
    assert board_of(response) == "........."


def test_a_link_preview_or_a_prefetch_does_not_take_the_seat(app):
    inviter, preview, person = app.test_client(), app.test_client(), app.test_client()
    address = start(inviter)
    preview.get(address)  # no Sec-Fetch-Dest: a messenger fetching the page for its preview
    preview.get(address, headers=NAVIGATION | {"Sec-Purpose": "prefetch"})
    assert "Take the free seat" in person.get(address).text
    response = person.post(f"{address}/join", headers=HTMX)
    assert response.status_code == 200 and "You have joined" in status_of(response)


@pytest.mark.parametrize(
    ("who", "cell", "words"),
    [
        ("friend", 0, "your friend's turn"),
        ("inviter", 9, "not on the board"),
        ("inviter", -1, "not on the board"),
    ],
)
def test_moves_are_checked_on_the_server(pair, who, cell, words):
    inviter, friend, address = pair
    response = move(inviter if who == "inviter" else friend, address, cell)
    assert response.status_code in (400, 409) and words in alert_of(response).lower()
    assert board_of(response) == "........."


def test_a_taken_square_and_a_finished_game_are_refused_with_409(pair):
    inviter, friend, address = pair
    move(inviter, address, 4)
    response = move(friend, address, 4)
    assert response.status_code == 409 and "already taken" in alert_of(response)
    for client, cell in ((friend, 0), (inviter, 1), (friend, 8), (inviter, 7)):
        assert move(client, address, cell).status_code == 200
    response = move(friend, address, 2)
    assert response.status_code == 409 and "over" in alert_of(response)


def test_the_status_says_what_the_friend_played_and_whose_turn_it_is(pair):
    inviter, friend, address = pair
    assert status_of(move(inviter, address, 4)) == "You played the centre. Your friend's turn: you play X."
    assert status_of(friend.get(address)) == "Your friend played the centre. Your turn: you play O."


def test_a_move_sent_twice_without_javascript_is_played_once(pair):
    inviter, _, address = pair
    assert move(inviter, address, 4, headers={}, ply=0).status_code == 303
    assert move(inviter, address, 4, headers={}, ply=0).status_code == 303
    assert board_of(inviter.get(address)) == "....X...."


def test_a_move_made_on_a_board_its_sender_never_saw_is_refused_with_the_board_as_it_is(pair):
    inviter, friend, address = pair
    stale = drawn_fields(friend.get(address))  # the friend's page, drawn before the inviter's move
    assert stale == {"round": "1", "ply": "0"}
    move(inviter, address, 4)
    response = move(friend, address, 0, **stale)
    assert response.status_code == 409 and "The game moved on before your move arrived" in alert_of(response)
    assert board_of(response) == "....X...."  # htmx swaps the board as it is in
    page = move(friend, address, 0, headers={}, **stale)  # without JavaScript: the whole page, current board
    assert page.status_code == 409 and "<html" in page.text and board_of(page) == "....X...."
    assert move(friend, address, 0).status_code == 200  # from the redrawn page, the move is played


@pytest.mark.parametrize(
    "drawn",
    [
        {"round": "1"},  # no move number
        {"round": "1", "ply": ""},
        {"round": "1", "ply": "x"},
        {"round": "1", "ply": "-1"},
        {"round": "1", "ply": "1.0"},
        {"round": "1", "ply": "10"},  # past the board's last move
        {"round": "1", "ply": "9" * 40},
        {"round": "1", "ply": "\u0663"},  # an Arabic-Indic three
        {"ply": "0"},  # no round
    ],
)
def test_a_missing_or_garbled_move_number_is_a_clear_400(pair, drawn):
    inviter, _, address = pair
    response = inviter.post(f"{address}/move", data={"cell": 4} | drawn, headers=HTMX)
    assert response.status_code == 400 and "This page is out of date" in alert_of(response)
    assert board_of(response) == "........."


def test_the_inviter_may_play_o_before_the_first_move_only(app):
    inviter, friend = app.test_client(), app.test_client()
    address = start(inviter)
    response = inviter.post(f"{address}/side", data={"side": "O"}, headers=HTMX)
    assert "You play O" in status_of(response)
    friend.get(address, headers=NAVIGATION)
    assert "Your turn: you play X" in status_of(friend.get(address))
    assert friend.post(f"{address}/side", data={"side": "X"}, headers=HTMX).status_code == 409
    move(friend, address, 0)
    assert inviter.post(f"{address}/side", data={"side": "X"}, headers=HTMX).status_code == 409


def test_a_rematch_swaps_the_sides_and_the_score_counts_each_game_once(pair):
    inviter, friend, address = pair
    for client, cell in ((inviter, 0), (friend, 3), (inviter, 1), (friend, 4), (inviter, 2)):
        move(client, address, cell)
    page = friend.get(address)
    assert status_of(page) == "Your friend wins." and "Review" in page.text
    assert re.search(r"<dt>You</dt><dd>0</dd>.*<dt>Your friend</dt><dd>1</dd>", page.text, re.S)
    assert move(friend, address, 5).status_code == 409
    # Both press Rematch from the finished game's page: one rematch, not two.
    response = friend.post(f"{address}/rematch", data={"round": 1}, headers=HTMX)
    inviter.post(f"{address}/rematch", data={"round": 1}, headers=HTMX)
    assert status_of(response) == "Rematch, sides swapped. Your turn: you play X."
    assert "you play O" in status_of(inviter.get(address))
    # A move from the last game's page is refused, not played on the new board.
    assert move(inviter, address, 4, round=1, ply=0).status_code == 409
    assert move(friend, address, 4).status_code == 200


def test_undo_is_explained_as_no_take_backs(pair):
    inviter, _, address = pair
    assert "No take-backs with a friend" in inviter.get(address).text


@pytest.mark.parametrize(
    "path",
    [
        "/friend/junk",
        "/friend/" + "A" * 22,
        "/friend/" + "A" * 21 + "!",
        "/friend/" + "é" * 22,
        "/friend/" + "a" * 5000,
    ],
)
def test_a_junk_or_unknown_code_is_a_plain_404(client, path):
    response = client.get(path)
    assert response.status_code == 404 and "There is no game at this link" in response.text
    # The stream says so in one event and ends: a 404 would make the browser try again and again.
    response = client.get(path + "/events")
    assert response.status_code == 404 or "event: gone" in response.text
    assert "There is no game at this link" in response.text
    assert client.post(path + "/move", data={"cell": 0, "round": 1, "ply": 0}).status_code == 404


def test_a_seat_cookie_tampered_with_or_signed_with_another_key_is_a_404(pair, tmp_path):
    inviter, _, address = pair
    code = address.rsplit("/", 1)[1]
    seat = inviter.get_cookie("seat", path=address).value
    visitor = inviter.application.test_client()
    visitor.set_cookie("seat", seat[:-2] + ("AA" if seat[-2:] != "AA" else "BB"), path=address)
    assert visitor.get(address).status_code == 404
    other_key = make_app(tmp_path, SECRET_KEY="another key")
    with other_key.test_request_context():
        forged = other_key.session_interface.get_signing_serializer(other_key, "friend-seat").dumps(f"{code}:inviter")
    visitor.set_cookie("seat", forged, path=address)
    assert visitor.get(address).status_code == 404
    assert move(visitor, address, 0).status_code == 404


def test_an_expired_game_is_a_404_that_says_so(tmp_path):
    app = make_app(tmp_path, FRIEND_EXPIRY_SECONDS=1)
    inviter = app.test_client()
    address = start(inviter)
    time.sleep(1.2)
    response = inviter.get(address)
    assert response.status_code == 404 and "after 1 s without a move" in response.text
    assert "Start a new game with a friend" in response.text


def test_a_client_creating_games_too_fast_gets_429_with_a_truthful_retry_after(tmp_path):
    app = make_app(tmp_path, FRIEND_CREATIONS_PER_MINUTE=2)
    client = app.test_client()
    start(client)
    start(client)
    response = client.post("/new", data={"mode": "friend", "board": "3x3"})
    assert response.status_code == 429
    assert 59 <= int(response.headers["Retry-After"]) <= 60
    # Another client (as the platform's router names it) is counted on its own.
    assert client.post("/new", data={"mode": "friend"}, headers={"X-Forwarded-For": "192.0.2.9"}).status_code == 303


def test_a_full_store_answers_503_with_when_a_place_frees_keeps_its_games_and_healthz_names_the_cap(tmp_path):
    app = make_app(tmp_path, FRIEND_GAMES_MOST=1)
    client = app.test_client()
    address = start(client)
    response = client.post("/new", data={"mode": "friend", "board": "3x3"}, headers={"X-Forwarded-For": "192.0.2.9"})
    assert response.status_code == 503 and "as many games with a friend" in response.text
    assert "Try again in 60 minutes." in response.text
    assert 3590 <= int(response.headers["Retry-After"]) <= 3600  # the one game waits for a friend: an hour at most
    assert client.get(address).status_code == 200
    assert client.get("/healthz").json == {
        "status": "degraded",
        "failing": "friend games' store (SQLite) is full: FRIEND_GAMES_MOST=1",
    }


def test_creations_are_counted_per_ipv6_64_as_one_client(tmp_path):
    client = make_app(tmp_path).test_client()
    for host in range(1, 6):
        start(client, **{"X-Forwarded-For": f"2001:db8:1:2::{host}"})
    response = client.post("/new", data={"mode": "friend"}, headers={"X-Forwarded-For": "2001:db8:1:2:ffff::6"})
    assert response.status_code == 429 and "Retry-After" in response.headers
    start(client, **{"X-Forwarded-For": "2001:db8:1:3::1"})  # the next /64 is another client


def test_one_client_may_leave_only_so_many_games_unjoined_and_is_told_when_it_may_start_another(tmp_path):
    app = make_app(tmp_path, FRIEND_WAITING_PER_CLIENT=2, FRIEND_CREATIONS_PER_MINUTE=100)
    inviter, friend = app.test_client(), app.test_client()
    first = start(inviter)
    start(inviter)
    response = inviter.post("/new", data={"mode": "friend"})
    assert response.status_code == 429 and "have not opened the links of your last games" in response.text
    assert 3590 <= int(response.headers["Retry-After"]) <= 3600
    friend.get(first, headers=NAVIGATION)  # the friend comes: that game no longer waits
    start(inviter)


@pytest.mark.parametrize("broken", ["sqlite", "redis"])
def test_a_store_that_is_down_fails_friend_games_only_and_healthz_names_it(tmp_path, broken):
    if broken == "sqlite":
        (tmp_path / "a-file").write_text("")
        app = make_app(tmp_path, FRIEND_DATABASE=str(tmp_path / "a-file" / "friends.sqlite3"))
    else:
        app = make_app(tmp_path, REDIS_URL=f"unix://{tmp_path}/nobody.sock")
    client = app.test_client()
    response = client.post("/new", data={"mode": "friend", "board": "3x3"})
    assert response.status_code == 503 and "Games with a friend are not available just now" in response.text
    assert client.get("/friend/" + "A" * 22).status_code == 503
    health = client.get("/healthz")
    name = "SQLite" if broken == "sqlite" else "Redis"
    assert health.status_code == 200 and health.json == {
        "status": "degraded",
        "failing": f"friend games' store ({name})",
    }
    page = client.get("/")
    digest = re.search(r'data-game="([^"]+)"', page.text).group(1)
    assert client.post("/move", data={"cell": 4, "game": digest}).status_code == 303


def test_the_solo_game_and_its_cookie_are_untouched_by_a_friend_game(client, app):
    page = client.get("/")
    digest = re.search(r'data-game="([^"]+)"', page.text).group(1)
    client.post("/move", data={"cell": 4, "game": digest})
    before = client.get_cookie("session").value
    response = client.post("/new", data={"mode": "friend", "board": "7x7", "game": digest}, headers=HTMX)
    assert response.status_code == 204 and response.headers["HX-Redirect"].startswith("/friend/")
    assert all(not header.startswith("session") for header in response.headers.getlist("Set-Cookie"))
    assert client.get_cookie("session").value == before
    assert "Play a friend" in client.get("/").text


def test_healthz_is_ok_with_a_working_store(client):
    assert client.get("/healthz").json == {"status": "ok"}


def next_event(chunks) -> str:
    """The next event of a stream, past its heartbeats."""
    for chunk in chunks:
        if not chunk.startswith(b":"):
            return chunk.decode()
    raise AssertionError("the stream ended")


def updates(events, version: int) -> str:
    """The next update event of a stream at ``version``, past those that only say who is here."""
    for _ in range(10):
        event = next_event(events)
        if event.startswith(f"id: {version}-"):
            assert "\nevent: update\n" in event
            return event
    raise AssertionError(f"no update at version {version}")


def test_the_stream_sends_each_change_to_every_page_the_mover_s_own_too(pair):
    inviter, friend, address = pair
    theirs = friend.get(f"{address}/events?v=2", buffered=False)
    assert theirs.mimetype == "text/event-stream"
    their_events = iter(theirs.response)
    assert next_event(their_events).startswith("retry:")
    threading.Timer(0.2, lambda: move(inviter, address, 4)).start()
    event = updates(their_events, 3)
    assert "Your friend played the centre" in event.replace("&#39;", "'") and "data: " in event
    mine = inviter.get(f"{address}/events?v=3", buffered=False)
    my_events = iter(mine.response)
    next_event(my_events)
    threading.Timer(0.2, lambda: move(friend, address, 0)).start()
    assert "Your turn" in updates(my_events, 4).replace("&#39;", "'")
    # The mover's page is sent its own move too: another tab of the same seat redraws (the page that sent the move
    # skips the event, whose id is the key its answer already shows).
    assert "You played" in updates(their_events, 4)
    # Both streams ran in this one thread: their request contexts are closed in the order they were opened in reverse.
    mine.close()
    theirs.close()


def test_friend_store_is_made_once_per_process(app):
    assert friend_store.of(app) is friend_store.of(app)


def test_a_long_game_folds_its_earlier_moves_above_the_last_six(app):
    inviter, friend = app.test_client(), app.test_client()
    address = start(inviter, board="15x15")
    friend.get(address, headers=NAVIGATION)
    for turn, cell in enumerate((0, 14, 2, 16, 4, 18, 6, 20, 8, 22, 10, 24)):  # twelve moves, no five
        assert move(inviter if turn % 2 == 0 else friend, address, cell).status_code == 200
    page = inviter.get(address, headers=NAVIGATION).get_data(as_text=True)
    assert "<summary>Moves 1–6</summary>" in page
    assert page.count('class="history-earlier"') == 1


def test_a_store_file_deleted_under_the_server_refuses_the_next_move_and_healthz_says_degraded(pair, app, tmp_path):
    inviter, friend, address = pair
    assert move(inviter, address, 4).status_code == 200
    page = friend.get(address)
    for file in tmp_path.glob("friends.sqlite3*"):
        file.unlink()
    response = friend.post(f"{address}/move", data={"cell": 0} | drawn_fields(page), headers=HTMX)
    assert response.status_code == 503 and "not available just now" in response.text
    assert app.test_client().get("/healthz").json["status"] == "degraded"
    assert not (tmp_path / "friends.sqlite3").exists()


def test_a_new_key_with_the_old_one_as_fallback_keeps_both_seats_the_solo_game_and_its_score(pair, tmp_path):
    inviter, friend, address = pair
    solo = inviter.application.test_client()
    send(solo, "/new", mode="hvh")
    play(solo, 0, 3, 1, 4, 2)  # X wins: the score counts it
    assert move(inviter, address, 4).status_code == 200
    rotated = make_app(tmp_path, SECRET_KEY="the new key", SECRET_KEY_FALLBACKS=["test"])
    for client in (inviter, friend, solo):
        client.application = rotated
    assert move(friend, address, 0).status_code == 200
    assert move(inviter, address, 8).status_code == 200
    assert board_of(friend.get(address)) == "O...X...X"
    assert page_of(solo)["board"] == "XXXOO...."
    assert "Your saved" not in solo.get("/").text  # nothing was thrown away
    assert re.findall(r"<dd>(\d+)</dd>", solo.get("/").text)[:3] == ["1", "0", "0"]
    # Without the fallback, the old cookies are not ours: the seats are a 404, the solo game starts afresh.
    forgotten = make_app(tmp_path, SECRET_KEY="the new key")
    inviter.application = forgotten
    assert inviter.get(address).status_code == 404
