import re

import pytest
from support import HX, board_of, page

# --- the page and the fragment ---------------------------------------------------------------


def test_the_page_shows_an_empty_board(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<html" in html and "<title>Tic-tac-toe" in html
    assert board_of(response) == {"board": ".........", "status": "playing", "ply": "0"}
    assert 'aria-label="Row 2, column 3, empty"' in html
    assert 'aria-live="polite"' in html
    assert "HX-Request" in response.headers["Vary"]


def test_htmx_gets_a_fragment_but_a_history_restore_gets_the_page(client):
    fragment = client.get("/", headers=HX)
    assert "<html" not in fragment.get_data(as_text=True)
    assert board_of(fragment)["board"] == "........."
    restore = client.get("/", headers={**HX, "HX-History-Restore-Request": "true"})
    assert "<html" in restore.get_data(as_text=True)


def test_a_move_with_htmx_returns_the_board_with_the_computers_reply(client):
    response = client.post("/move", data={"cell": "4", "ply": "0"}, headers=HX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<html" not in html
    board = board_of(response)
    assert board["board"][4] == "X" and board["board"].count("O") == 1
    assert board["ply"] == "2"
    assert 'hx-swap-oob="innerHTML"' in html  # the status line and score travel out of band
    assert "The computer took" in html
    assert page(client) == board


def test_a_move_without_htmx_redirects_to_the_page(client):
    response = client.post("/move", data={"cell": "0", "ply": "0"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    assert page(client)["board"][0] == "X"


# --- bad moves: a clear 4xx, and the game exactly as it was ----------------------------------


@pytest.fixture
def midgame(client):
    client.post("/move", data={"cell": "4", "ply": "0"})
    return page(client)


BAD_MOVES = [
    ({"cell": "4", "ply": "2"}, 409, "Row 2, column 2 is already taken."),
    ({"cell": "9", "ply": "2"}, 400, "That square is not on the board."),
    ({"cell": "-1", "ply": "2"}, 400, "That square is not on the board."),
    ({"cell": "centre", "ply": "2"}, 400, "That square is not on the board."),
    ({"cell": "", "ply": "2"}, 400, "That square is not on the board."),
    ({"cell": "4.0", "ply": "2"}, 400, "That square is not on the board."),
    ({"ply": "2"}, 400, "Choose a square to play."),
    ({"cell": "0"}, 400, "This page is out of date. Reload it and try again."),
    ({"cell": "0", "ply": "two"}, 400, "This page is out of date. Reload it and try again."),
    ({"cell": "0", "ply": "0"}, 409, "The board changed in another tab or window"),
    ({"cell": "0", "ply": "3"}, 409, "The board changed in another tab or window"),
]


@pytest.mark.parametrize(("form", "status", "message"), BAD_MOVES)
def test_a_bad_move_with_htmx_is_refused_with_a_message(client, midgame, form, status, message):
    response = client.post("/move", data=form, headers=HX)
    assert response.status_code == status
    html = response.get_data(as_text=True)
    assert message in html
    assert 'role="alert"' in html
    assert board_of(response) == midgame
    assert page(client) == midgame


@pytest.mark.parametrize(("form", "status", "message"), BAD_MOVES)
def test_a_bad_move_without_htmx_redirects_and_says_why(client, midgame, form, status, message):
    response = client.post("/move", data=form)
    assert response.status_code == 303
    shown = client.get("/")
    assert message in shown.get_data(as_text=True)
    assert board_of(shown) == midgame
    assert message not in client.get("/").get_data(as_text=True)  # said once, then gone


def play(client, *cells, headers=None):
    for cell in cells:
        ply = page(client)["ply"]
        client.post("/move", data={"cell": str(cell), "ply": ply}, headers=headers or {})


def test_a_move_after_the_game_ended_is_refused(client):
    client.post("/new", data={"mode": "hvh"})
    play(client, 0, 3, 1, 4, 2)  # X X X / O O . / . . .
    finished = page(client)
    assert finished["status"] == "x-won"
    response = client.post("/move", data={"cell": "8", "ply": "5"}, headers=HX)
    assert response.status_code == 409
    assert "This game is over" in response.get_data(as_text=True)
    assert page(client) == finished


def test_a_person_cannot_move_in_computer_vs_computer(client):
    client.post("/new", data={"mode": "cvc"})
    response = client.post("/move", data={"cell": "4", "ply": "0"}, headers=HX)
    assert response.status_code == 409
    assert "The computers are playing" in response.get_data(as_text=True)
    assert page(client)["board"] == "........."


# --- new game and settings -------------------------------------------------------------------


def test_new_game_as_o_lets_the_computer_open(client):
    response = client.post("/new", data={"mode": "hvc", "difficulty": "minimax", "human": "O"}, headers=HX)
    assert response.status_code == 200
    assert board_of(response)["ply"] == "1"
    assert board_of(response)["board"].count("X") == 1


def test_new_game_keeps_the_settings(client):
    client.post("/new", data={"mode": "hvc", "difficulty": "minimax", "human": "O"})
    client.post("/new", data={})
    html = client.get("/").get_data(as_text=True)
    assert re.search(r'<option value="minimax" selected>', html)
    assert re.search(r'<option value="O" selected>O \(second\)', html)
    assert page(client)["ply"] == "1"


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"mode": "online"}, "There is no mode &#39;online&#39;"),
        ({"difficulty": "hard"}, "There is no difficulty &#39;hard&#39;"),
        ({"human": "Z"}, "There is no side &#39;Z&#39;"),
        ({"mode": "cvc", "x_level": "expert"}, "There is no difficulty &#39;expert&#39;"),
    ],
)
@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
def test_new_game_with_unknown_settings_is_refused_and_the_game_kept(client, midgame, form, message, headers):
    response = client.post("/new", data=form, headers=headers)
    if headers:
        assert response.status_code == 400
        assert message in response.get_data(as_text=True)
    else:
        assert response.status_code == 303
        assert message in client.get("/").get_data(as_text=True)
    assert page(client) == midgame


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
def test_changing_difficulty_keeps_the_game_and_plays_from_the_next_move(client, midgame, headers):
    response = client.post("/levels", data={"difficulty": "minimax"}, headers=headers)
    assert response.status_code == (200 if headers else 303)
    html = client.get("/").get_data(as_text=True) if not headers else response.get_data(as_text=True)
    assert "Difficulty: Impossible, from the computer&#39;s next move." in html
    assert page(client) == midgame
    assert re.search(r'<option value="minimax" selected>Impossible', client.get("/").get_data(as_text=True))


def test_unknown_difficulty_is_refused(client, midgame):
    response = client.post("/levels", data={"difficulty": "hard"}, headers=HX)
    assert response.status_code == 400
    assert page(client) == midgame


# --- undo, computer vs computer, values, score -----------------------------------------------


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
def test_undo_takes_back_the_move_and_the_reply(client, midgame, headers):
    response = client.post("/undo", headers=headers)
    assert response.status_code == (200 if headers else 303)
    assert page(client)["board"] == "........."
    refused = client.post("/undo", headers=HX)
    assert refused.status_code == 409
    assert "There is no move to undo." in refused.get_data(as_text=True)


def test_undo_is_disabled_when_there_is_nothing_to_undo(client):
    assert re.search(r'id="undo-button" class="button" disabled', client.get("/").get_data(as_text=True))
    play(client, 4)
    assert not re.search(r'id="undo-button" class="button" disabled', client.get("/").get_data(as_text=True))


def test_computer_vs_computer_steps_and_pauses(client):
    response = client.post("/new", data={"mode": "cvc", "x_level": "minimax", "o_level": "random"}, headers=HX)
    assert 'hx-trigger="load delay:500ms"' in response.get_data(as_text=True)  # it plays itself
    stepped = client.post("/step", data={"ply": "0"}, headers=HX)
    assert board_of(stepped)["ply"] == "1"
    stale = client.post("/step", data={"ply": "0"}, headers=HX)
    assert stale.status_code == 409
    paused = client.post("/pause", data={"paused": "1"}, headers=HX)
    assert "load delay" not in paused.get_data(as_text=True)
    assert "Paused." in paused.get_data(as_text=True)
    assert ">Resume<" in paused.get_data(as_text=True)
    client.post("/step", headers=HX)  # the Step button steps while paused
    assert page(client)["ply"] == "2"
    resumed = client.post("/pause", data={"paused": "0"}, headers=HX)
    assert "load delay" in resumed.get_data(as_text=True)


def test_pause_and_step_are_refused_outside_computer_vs_computer(client):
    assert client.post("/pause", headers=HX).status_code == 409
    assert client.post("/step", data={"ply": "0"}, headers=HX).status_code == 409
    assert client.post("/pause", data={"paused": "maybe"}, headers=HX).status_code in (400, 409)


def test_move_values_show_on_every_empty_square_and_are_remembered(client):
    client.post("/values")
    html = client.get("/").get_data(as_text=True)
    assert html.count('class="value value-draw"') == 9
    assert 'aria-pressed="true"' in html
    play(client, 4)
    assert 'aria-label="Row 1, column 2, empty, ' in client.get("/").get_data(as_text=True)
    client.post("/values")
    assert "value-draw" not in client.get("/").get_data(as_text=True)


def test_the_hint_highlights_the_best_moves(client):
    client.post("/new", data={"mode": "hvh"})
    play(client, 0, 3, 1)  # X X . / O . . / . . .  -- O must block at 2
    html = client.get("/?hint=1", headers=HX).get_data(as_text=True)
    assert re.findall(r'id="cell-(\d)"\s+class="cell[^"]*is-hint', html) == ["2"]
    assert "Hint: the top-right corner is the best move" in html


def test_the_score_counts_wins_and_can_be_reset(client):
    client.post("/new", data={"mode": "hvh"})
    play(client, 0, 3, 1, 4, 2)
    html = client.get("/").get_data(as_text=True)
    assert re.search(r"<dt>X</dt><dd>1</dd>", html)
    client.post("/score/reset")
    assert re.search(r"<dt>X</dt><dd>0</dd>", client.get("/").get_data(as_text=True))


def test_impossible_never_lets_a_simple_strategy_win(client):
    client.post("/new", data={"mode": "hvc", "difficulty": "minimax", "human": "X"})
    while (board := page(client))["status"] == "playing":
        client.post("/move", data={"cell": str(board["board"].index(".")), "ply": board["ply"]})
    assert page(client)["status"] in ("o-won", "draw")


# --- the session cookie ----------------------------------------------------------------------


def session_cookie(response) -> str:
    return next(h for h in response.headers.getlist("Set-Cookie") if h.startswith("session="))


def test_the_cookie_is_small_httponly_and_lax(client):
    client.post("/new", data={"mode": "hvh"})
    play(client, 0, 3, 1, 4)
    response = client.post("/values")
    cookie = session_cookie(response)
    assert len(cookie) < 600
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie


def test_the_cookie_is_secure_behind_an_https_proxy(client):
    response = client.post("/values", headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in session_cookie(response)


def sign(app, data) -> str:
    return app.session_interface.get_signing_serializer(app).dumps(data)


GOOD = {"v": 1, "mode": "hvc", "human": "X", "levels": ["one-ply", "minimax", "one-ply"], "moves": "40", "paused": 0}
GOOD |= {"values": 0, "score": [[0, 0, 0], [0, 0, 0], [0, 0, 0]]}


def test_a_good_cookie_reads_back(app, client):
    client.set_cookie("session", sign(app, GOOD))
    assert page(client)["board"] == "O...X...."


@pytest.mark.parametrize(
    ("cookie", "notice"),
    [
        ("not-a-cookie", "Your saved game could not be read"),
        (None, "Your saved game could not be read"),  # a cookie signed with another key
        (GOOD | {"v": 0}, "The game has been updated since your last visit"),
        ({"moves": "44"}, "Your saved game could not be read"),  # a square played twice
        ({"moves": "0314258"}, "Your saved game could not be read"),  # play after a win
        ({"mode": "chess"}, "Your saved game could not be read"),
        ({"levels": ["hard", "minimax", "one-ply"]}, "Your saved game could not be read"),
        ({"score": [[0, 0, -1], [0, 0, 0], [0, 0, 0]]}, "Your saved game could not be read"),
        ({"score": "lots"}, "Your saved game could not be read"),
        ({"paused": 2}, "Your saved game could not be read"),
        ({"moves": 40}, "Your saved game could not be read"),
    ],
)
@pytest.mark.parametrize(("method", "path"), [("get", "/"), ("post", "/move")])
def test_a_bad_cookie_starts_a_fresh_game_with_a_notice(app, client, cookie, notice, method, path):
    if cookie is None:
        value = sign(app, GOOD).replace(".", ".x", 1)
    elif isinstance(cookie, str):
        value = cookie
    else:
        value = sign(app, GOOD | cookie)
    client.set_cookie("session", value)
    response = getattr(client, method)(path, data={"cell": "8", "ply": "2"}, headers=HX)
    assert response.status_code == 200
    assert notice in response.get_data(as_text=True)
    assert board_of(response)["board"] == "........."
    assert page(client)["board"] == "........."


# --- other routes ----------------------------------------------------------------------------


def test_health_check(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


@pytest.mark.parametrize(
    ("method", "path", "status", "words"),
    [
        ("get", "/nowhere", 404, "There is no page at this address."),
        ("get", "/move", 405, "This address does not take that kind of request."),
        ("put", "/new", 405, "This address does not take that kind of request."),
    ],
)
def test_unknown_routes_get_a_plain_page(client, method, path, status, words):
    response = getattr(client, method)(path)
    assert response.status_code == status
    html = response.get_data(as_text=True)
    assert words in html and "Back to the game" in html
    assert "Traceback" not in html
