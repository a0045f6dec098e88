import re
from html.parser import HTMLParser

import pytest
from flask import render_template
from support import HX, board_of, page, play, send

from webapp.match import Settings, Table, Tally
from webapp.solver import candidates
from webapp.web import state
from webapp.web.present import game_view

OUT_OF_DATE = "This page is out of date. Reload it and try again."
STALE = "The game had changed since this page was drawn; here it is as it is now."

# --- the page and the fragment ---------------------------------------------------------------


def test_the_page_shows_an_empty_board(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<html" in html and "<title>Tic-tac-toe" in html
    assert board_of(response) == {"board": ".........", "status": "playing", "ply": "0", "game": Table().digest}
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
    response = send(client, "/move", cell=4, headers=HX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<html" not in html
    board = board_of(response)
    assert board["board"][4] == "X" and board["board"].count("O") == 1
    assert board["ply"] == "2"
    assert 'hx-swap-oob="innerHTML"' in html  # the status line and score travel out of band
    assert "The computer took" in html
    assert page(client) == board


def test_a_win_with_htmx_brings_the_new_score_out_of_band_as_markup(client):
    send(client, "/new", mode="hvh")
    play(client, 0, 3, 1, 4)
    html = send(client, "/move", game=page(client)["game"], cell=2, headers=HX).get_data(as_text=True)
    score = html.partition('<div id="score" hx-swap-oob="innerHTML">')[2]
    assert score, "the score travels as an element, not as escaped text"
    assert "&lt;" not in html
    assert re.findall(r"<dd>(\d+)</dd>", score) == ["1", "0", "0"]


def test_a_move_without_htmx_redirects_to_the_page(client):
    response = send(client, "/move", cell=0)
    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    assert page(client)["board"][0] == "X"


def test_every_form_that_changes_the_game_carries_the_digest_of_the_game_it_shows(client):
    send(client, "/move", cell=4)
    html = client.get("/").get_data(as_text=True)
    digest = page(client)["game"]
    forms = re.findall(r'<form [^>]*method="post"[^>]*>', html)
    ids = {re.search(r'id="([^"]+)"', form).group(1) for form in forms}
    assert {"cells-form", "setup-form", "undo-form", "values-form", "reset-score-form"} <= ids
    for form in ids:
        assert f'<input type="hidden" name="game" value="{digest}" form="{form}">' in html


# --- bad moves: a clear 4xx, and the game exactly as it was ----------------------------------


@pytest.fixture
def midgame(client):
    send(client, "/move", cell=4)
    return page(client)


CURRENT = object()  # the digest of the game the page shows
BAD_MOVES = [
    ({"cell": "4"}, 409, "Row 2, column 2 is already taken."),
    ({"cell": "9"}, 400, "That square is not on the board."),
    ({"cell": "-1"}, 400, "That square is not on the board."),
    ({"cell": "centre"}, 400, "That square is not on the board."),
    ({"cell": ""}, 400, "That square is not on the board."),
    ({"cell": "4.0"}, 400, "That square is not on the board."),
    ({"cell": "²"}, 400, "That square is not on the board."),
    # Thousands of digits: the same words as any other bad number, never Python's own.
    ({"cell": "0" * 3000}, 400, "That square is not on the board."),
    ({"cell": "1" * 3000}, 400, "That square is not on the board."),
    ({"cell": "0" * 2999 + "4"}, 400, "That square is not on the board."),
    ({}, 400, "Choose a square to play."),
    ({"cell": "0", "game": None}, 400, OUT_OF_DATE),
    ({"cell": "0", "game": "two"}, 400, OUT_OF_DATE),
    ({"cell": "0", "game": "9" * 3000}, 400, OUT_OF_DATE),
]
# From a page another tab or window overtook: refused, but not as the player's error.
STALE_MOVES = [{"cell": "0", "game": Table().digest}, {"cell": "0", "game": Table(moves=(0, 4)).digest}]


def bad_form(client, form: dict) -> dict:
    """``form`` with the page's digest where it asks for the current one, and without None fields."""
    filled = {"game": page(client)["game"], **form}
    return {name: value for name, value in filled.items() if value is not None}


@pytest.mark.parametrize(("form", "status", "message"), BAD_MOVES)
def test_a_bad_move_with_htmx_is_refused_with_a_message(client, midgame, form, status, message):
    response = client.post("/move", data=bad_form(client, form), headers=HX)
    assert response.status_code == status
    html = response.get_data(as_text=True)
    assert message in html
    assert "Exceeds" not in html and "int(" not in html
    assert 'role="alert"' in html
    assert board_of(response) == midgame
    assert page(client) == midgame


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
@pytest.mark.parametrize("form", STALE_MOVES)
def test_a_move_from_an_overtaken_page_brings_it_up_to_date_without_an_error(client, midgame, form, headers):
    response = client.post("/move", data=form, headers=headers)
    assert response.status_code == (409 if headers else 303)
    html = (response if headers else client.get("/")).get_data(as_text=True)
    assert STALE in html and 'role="alert"' not in html and "is-error" not in html
    assert board_of(client.get("/")) == midgame


@pytest.mark.parametrize(("form", "status", "message"), BAD_MOVES)
def test_a_bad_move_without_htmx_redirects_and_says_why(client, midgame, form, status, message):
    response = client.post("/move", data=bad_form(client, form))
    assert response.status_code == 303
    shown = client.get("/")
    assert message in shown.get_data(as_text=True)
    assert board_of(shown) == midgame
    assert message not in client.get("/").get_data(as_text=True)  # said once, then gone


def test_a_move_after_the_game_ended_is_refused(client):
    send(client, "/new", mode="hvh")
    play(client, 0, 3, 1, 4, 2)  # X X X / O O . / . . .
    finished = page(client)
    assert finished["status"] == "x-won"
    response = send(client, "/move", cell=8, headers=HX)
    assert response.status_code == 409
    assert "This game is over" in response.get_data(as_text=True)
    assert page(client) == finished


def test_a_person_cannot_move_in_computer_vs_computer(client):
    send(client, "/new", mode="cvc")
    response = send(client, "/move", cell=4, headers=HX)
    assert response.status_code == 409
    assert "The computers are playing" in response.get_data(as_text=True)
    assert page(client)["board"] == "........."


# --- a form sent twice, or from an older page, never applies ---------------------------------


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
@pytest.mark.parametrize(
    ("setup", "path", "fields"),
    [
        ({"mode": "hvh"}, "/undo", {}),
        ({"mode": "hvh"}, "/move", {"cell": "8"}),
        ({"mode": "cvc"}, "/step", {}),
        ({"mode": "cvc"}, "/undo", {}),
        ({"mode": "hvh"}, "/new", {"mode": "hvh", "start": "1"}),
    ],
)
def test_the_same_form_sent_twice_applies_once(client, headers, setup, path, fields):
    send(client, "/new", start=1, **setup)
    if setup["mode"] == "cvc":
        send(client, "/step")
        send(client, "/step")
    else:
        play(client, 0, 4)
    form = {"game": page(client)["game"], **fields}
    first = client.post(path, data=form, headers=headers)
    assert first.status_code in (200, 303)
    after_one = page(client)
    second = client.post(path, data=form, headers=headers)
    # The same move again is the move already played: no refusal at all. Anything else is refused as overtaken.
    assert second.status_code == (303 if not headers else 200 if path == "/move" else 409)
    said = (second if headers else client.get("/")).get_data(as_text=True)
    assert page(client) == after_one or path == "/new"  # a second new game from the same page is the same game
    assert 'role="alert"' not in said
    assert (STALE in said) == (path != "/move")
    if headers and path != "/new":
        assert board_of(second) == after_one  # the page as it is now


def test_a_page_from_before_an_undo_cannot_play_onto_the_board_that_followed(client):
    send(client, "/new", mode="hvh", start=1)
    play(client, 0, 4)
    old_page = page(client)["game"]
    send(client, "/undo")
    play(client, 8)  # the same number of moves, another board
    response = client.post("/move", data={"cell": "2", "game": old_page}, headers=HX)
    assert response.status_code == 409
    assert page(client)["board"] == "X...O...."[:8] + "O" if False else page(client)["board"]
    assert page(client)["board"] == "X.......O"


@pytest.mark.parametrize("path", ["/undo", "/step", "/pause", "/values", "/score/reset", "/new", "/levels"])
def test_every_game_changing_route_refuses_a_form_without_the_digest(client, midgame, path):
    response = client.post(path, data={"paused": "1", "show": "1", "confirm": "1"}, headers=HX)
    assert response.status_code == 400
    assert OUT_OF_DATE in response.get_data(as_text=True)
    assert page(client) == midgame


# --- new game and settings -------------------------------------------------------------------


def test_new_game_as_o_lets_the_computer_open(client):
    response = send(client, "/new", mode="hvc", difficulty="minimax", human="O", headers=HX)
    assert response.status_code == 200
    assert board_of(response)["ply"] == "1"
    assert board_of(response)["board"].count("X") == 1


def test_new_game_keeps_the_settings(client):
    send(client, "/new", mode="hvc", difficulty="minimax", human="O")
    send(client, "/new", start=1)
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
        ({"mode": "x" * 3000}, "There is no mode &#39;" + "x" * 40 + "…&#39;"),
        ({"board": "9x9"}, "There is no board &#39;9x9&#39;; choose 3×3 (3x3), 4×4 (4x4), 5×5 (5x5)"),
        ({"board": ""}, "There is no board &#39;&#39;"),
        ({"board": "16"}, "There is no board &#39;16&#39;"),
        ({"board": "x" * 3000}, "There is no board &#39;" + "x" * 40 + "…&#39;"),
    ],
)
@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
def test_new_game_with_unknown_settings_is_refused_and_the_game_kept(client, midgame, form, message, headers):
    response = send(client, "/new", headers=headers, **form)
    if headers:
        assert response.status_code == 400
        html = response.get_data(as_text=True)
    else:
        assert response.status_code == 303
        html = client.get("/").get_data(as_text=True)
    assert message in html
    assert "x" * 41 not in html  # a visitor's text is echoed only in part
    assert page(client) == midgame


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
def test_changing_difficulty_keeps_the_game_and_plays_from_the_next_move(client, midgame, headers):
    response = send(client, "/levels", difficulty="minimax", headers=headers)
    assert response.status_code == (200 if headers else 303)
    html = client.get("/").get_data(as_text=True) if not headers else response.get_data(as_text=True)
    assert "Difficulty: Impossible, from the computer&#39;s next move." in html
    assert "This game still counts as Medium." in html
    assert page(client) == midgame
    assert re.search(r'<option value="minimax" selected>Impossible', client.get("/").get_data(as_text=True))


def test_unknown_difficulty_is_refused(client, midgame):
    response = send(client, "/levels", difficulty="hard", headers=HX)
    assert response.status_code == 400
    assert page(client) == midgame


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
def test_changing_mode_in_the_middle_of_a_game_asks_first(client, midgame, headers):
    asked = send(client, "/new", mode="hvh", headers=headers)
    assert asked.status_code == 200  # a question, not a redirect: its form carries the choice
    html = asked.get_data(as_text=True)
    assert "Start a new Human vs Human game? This one will be abandoned." in html
    assert re.search(r'<input type="hidden" name="mode" value="hvh">', html)
    assert page(client) == midgame
    yes = send(client, "/new", mode="hvh", confirm=1, headers=headers)
    assert yes.status_code == (200 if headers else 303)
    assert page(client)["board"] == "........."
    assert "Human vs Human" in client.get("/").get_data(as_text=True)


# --- undo, computer vs computer, values, score -----------------------------------------------


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
def test_undo_takes_back_the_move_and_the_reply(client, midgame, headers):
    response = send(client, "/undo", headers=headers)
    assert response.status_code == (200 if headers else 303)
    assert page(client)["board"] == "........."
    refused = send(client, "/undo", headers=HX)
    assert refused.status_code == 409
    assert "There is no move to undo." in refused.get_data(as_text=True)


def test_undo_is_disabled_only_when_there_is_nothing_to_undo(client):
    disabled = r'id="undo-button" class="button" disabled'
    assert re.search(disabled, client.get("/").get_data(as_text=True))
    send(client, "/new", mode="hvh")
    play(client, 4)
    assert not re.search(disabled, client.get("/").get_data(as_text=True))
    play(client, 0, 3, 1, 5)  # O X . / X X X: X wins
    # After the end too: the winning move can be taken back to try again, and the win stays counted.
    assert not re.search(disabled, client.get("/").get_data(as_text=True))
    send(client, "/undo")
    assert page(client)["ply"] == "4"
    interface = client.application.session_interface
    line = interface.get_signing_serializer(client.application, interface.score_salt).loads(
        client.get_cookie("session_score").value
    )
    assert state._decode_scores(line).of("3x3").hvh == Tally(1, 0, 0)


def test_computer_vs_computer_steps_and_pauses(client):
    response = send(client, "/new", mode="cvc", x_level="minimax", o_level="random", headers=HX)
    assert 'hx-trigger="next, retry"' in response.get_data(as_text=True)  # it plays itself, at app.js's pace
    before = page(client)["game"]
    stepped = send(client, "/step", headers=HX)
    assert board_of(stepped)["ply"] == "1"
    stale = client.post("/step", data={"game": before}, headers=HX)
    assert stale.status_code == 409
    paused = send(client, "/pause", paused=1, headers=HX)
    assert "autoplay" not in paused.get_data(as_text=True)
    assert "Paused." in paused.get_data(as_text=True)
    assert ">Resume<" in paused.get_data(as_text=True)
    send(client, "/step", headers=HX)  # the Step button steps while paused
    assert page(client)["ply"] == "2"
    resumed = send(client, "/pause", paused=0, headers=HX)
    assert 'class="autoplay"' in resumed.get_data(as_text=True)


def test_pause_and_step_are_refused_outside_computer_vs_computer(client):
    assert send(client, "/pause", paused=1, headers=HX).status_code == 409
    assert send(client, "/step", headers=HX).status_code == 409
    assert send(client, "/pause", paused="maybe", headers=HX).status_code == 400
    assert send(client, "/pause", headers=HX).status_code == 400


def test_move_values_show_on_every_empty_square_and_are_remembered(client):
    send(client, "/values", show=1)
    send(client, "/values", show=1)  # sent twice, still shown
    html = client.get("/").get_data(as_text=True)
    assert html.count('class="value value-draw"') == 9
    assert 'aria-pressed="true"' in html
    play(client, 4)
    assert 'aria-label="Row 1, column 2, empty, ' in client.get("/").get_data(as_text=True)
    send(client, "/values", show=0)
    assert "value-draw" not in client.get("/").get_data(as_text=True)
    assert send(client, "/values", show=2, headers=HX).status_code == 400


def marked(html: str) -> list[str]:
    return re.findall(r'id="cell-(\d)"\s+class="cell[^"]*is-pick', html)


def test_the_hint_marks_the_only_move_that_keeps_the_result(client):
    send(client, "/new", mode="hvh")
    play(client, 0, 3, 1)  # X X . / O . . / . . .  -- O must block at 2
    html = client.get("/?hint=1", headers=HX).get_data(as_text=True)
    assert marked(html) == ["2"]
    assert "Hint: every move loses; the marked corner holds out longest." in html


@pytest.mark.parametrize(
    ("moves", "words"),
    [
        ((), "Hint: all draw; the marked corner gives O most ways to slip."),
        ((4, 8), "Hint: all draw; the marked edge gives O most ways to slip."),
        ((0, 4), "Hint: all draw; the two marked edges give O most ways to slip."),
        ((0, 8), "Hint: the two marked corners win in 3 of your moves."),
    ],
)
def test_a_hint_marks_one_move_or_up_to_three_equal_ones_and_says_which(client, moves, words):
    send(client, "/new", mode="hvh")
    play(client, *moves)
    html = client.get("/?hint=1").get_data(as_text=True)
    assert 1 <= len(marked(html)) <= 3
    assert (len(marked(html)) > 1) == ("two" in words or "three" in words)
    assert words in html


def test_the_hint_agrees_with_the_move_values(client):
    send(client, "/values", show=1)
    html = client.get("/?hint=1").get_data(as_text=True)
    # All nine keep the draw; of the corners the computer would take, one is marked, and the words say so.
    assert marked(html) == ["0"]
    assert "Hint: all draw; the marked corner gives O most ways to slip." in html
    # What the square shows ("draw" and "Best") is in its name too, together and in order, then what it means.
    assert 'aria-label="Row 1, column 1, empty, draw Best: draw, the best move"' in html


def test_undo_at_the_end_then_playing_on_is_said_to_be_practice(client):
    send(client, "/new", mode="hvh", start=1)
    play(client, 0, 3, 1, 4, 2)  # X X X / O O . / . . .: X wins, and the win is counted
    undone = send(client, "/undo", headers=HX).get_data(as_text=True)
    assert "This game is already in the score; playing on from here is practice." in undone
    assert 'role="alert"' not in undone
    # Each move of the replay says so; its end says the result is not counted again, and it is not.
    assert "is practice" in send(client, "/move", cell=8, headers=HX).get_data(as_text=True)
    ended = send(client, "/move", cell=5, headers=HX).get_data(as_text=True)  # O: O O O on the middle row
    assert "Practice: this game was already in the score, so this result is not counted again." in ended
    score = client.get("/").get_data(as_text=True)
    assert re.search(r"<dt>X</dt><dd>1</dd>", score) and re.search(r"<dt>O</dt><dd>0</dd>", score)
    # A fresh game says nothing of the kind.
    send(client, "/new", start=1)
    assert "practice" not in send(client, "/move", cell=4, headers=HX).get_data(as_text=True).lower()


def test_a_question_says_what_would_change(client):
    send(client, "/new", mode="hvc", start=1)
    play(client, 4)
    side = send(client, "/new", human="O", headers=HX).get_data(as_text=True)
    assert "Start a new game as O? This one will be abandoned." in side
    mode = send(client, "/new", mode="hvh", headers=HX).get_data(as_text=True)
    assert "Start a new Human vs Human game? This one will be abandoned." in mode
    board = send(client, "/new", board="7x7", headers=HX).get_data(as_text=True)
    assert "Start a new 7×7 game? This one will be abandoned." in board


def test_the_score_counts_wins_and_can_be_reset_after_a_yes(client):
    send(client, "/new", mode="hvh")
    play(client, 0, 3, 1, 4, 2)
    html = client.get("/").get_data(as_text=True)
    assert re.search(r"<dt>X</dt><dd>1</dd>", html)
    asked = send(client, "/score/reset", headers=HX)
    assert "Reset the Human vs Human score?" in asked.get_data(as_text=True)
    assert re.search(r"<dt>X</dt><dd>1</dd>", client.get("/").get_data(as_text=True))
    send(client, "/score/reset", confirm=1)
    assert re.search(r"<dt>X</dt><dd>0</dd>", client.get("/").get_data(as_text=True))


def test_the_score_against_the_computer_is_kept_per_difficulty(client):
    send(client, "/new", difficulty="random", start=1)
    while page(client)["status"] == "playing":
        board = page(client)["board"]
        play(client, candidates(board, "minimax")[0])
    easy = client.get("/").get_data(as_text=True)
    assert "Score against Easy" in easy
    # A new level after the end keeps the game just finished, its result and Play again in view.
    changed = send(client, "/levels", difficulty="minimax", headers=HX).get_data(as_text=True)
    assert "Next game against Impossible." in changed and 'id="again-button"' in changed
    after = client.get("/").get_data(as_text=True)
    assert "Score against Easy" in after and sum(map(int, re.findall(r"<dd>(\d+)</dd>", after))) == 1
    assert '<option value="minimax" selected>Impossible</option>' in after
    # The next game counts against the new level, whose score is its own.
    send(client, "/new", start=1)
    impossible = client.get("/").get_data(as_text=True)
    assert "Score against Impossible" in impossible
    assert re.findall(r"<dd>(\d+)</dd>", impossible) == ["0", "0", "0"]
    send(client, "/levels", difficulty="random")
    assert sum(map(int, re.findall(r"<dd>(\d+)</dd>", client.get("/").get_data(as_text=True)))) == 1


def test_impossible_never_lets_a_simple_strategy_win(client):
    send(client, "/new", mode="hvc", difficulty="minimax", human="X")
    while (board := page(client))["status"] == "playing":
        assert send(client, "/move", cell=board["board"].index(".")).status_code == 303
    assert page(client)["status"] in ("o-won", "draw")


# --- the session cookie ----------------------------------------------------------------------


def session_cookie(response) -> str:
    return next(h for h in response.headers.getlist("Set-Cookie") if h.startswith("session="))


def test_the_cookie_is_small_httponly_and_lax(client):
    send(client, "/new", mode="hvh")
    play(client, 0, 3, 1, 4)
    response = send(client, "/values", show=1)
    cookie = session_cookie(response)
    assert len(cookie) < 600
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie


def test_the_cookie_is_secure_behind_an_https_proxy(client):
    response = send(client, "/values", show=1, headers={"X-Forwarded-Proto": "https"})
    assert "Secure" in session_cookie(response)


def sign(app, data) -> str:
    return app.session_interface.get_signing_serializer(app).dumps(data)


# Version | board | mode | side | levels: difficulty, X, O | counts as | moves | paused | values | game id
GOOD = "6|3x3|hvc|X|one-ply|minimax|one-ply|one-ply|40|0|0|0|0123456789ab|1"
# A line of the version before this one, which held the score too.
OLD = "4|3x3|hvc|X|minimax|minimax|one-ply|minimax|40|0|0" + "|0" * 75


def test_a_good_cookie_reads_back(app, client):
    client.set_cookie("session", sign(app, {"game": GOOD}))
    assert page(client)["board"] == "O...X...."


def test_the_cookie_before_this_version_starts_a_new_game_and_says_so(app, client):
    client.set_cookie("session", sign(app, {"game": OLD}))
    html = client.get("/").get_data(as_text=True)
    assert "The game has been updated since your last visit" in html
    assert board_of(client.get("/"))["board"] == "........."


def test_the_cookie_holds_one_short_line(app, client):
    send(client, "/new", mode="hvh")
    play(client, 4, 0)
    serializer = app.session_interface.get_signing_serializer(app)
    game = serializer.loads(client.get_cookie("session").value)["game"]
    assert re.fullmatch(r"6\|3x3\|hvh\|X\|one-ply\|minimax\|one-ply\|one-ply\|40\|0\|0\|0\|[0-9a-f]{12}\|[0-9]+", game)
    # Nothing is scored yet, so there is no score's cookie: starting a game never writes one.
    assert client.get_cookie("session_score") is None


def test_a_full_score_stays_in_the_cookie_format(app, client):
    interface = app.session_interface
    score = interface.get_signing_serializer(app, interface.score_salt)
    client.set_cookie("session", sign(app, {"game": GOOD.replace("|40|", "|0314|").replace("|hvc|", "|hvh|")}))
    client.set_cookie("session_score", score.dumps("2|1|0|" + "|0" * 9 + "|999999999" + "|0" * 65))  # X's wins, full
    assert page(client)["board"] == "XX.OO...."
    send(client, "/move", cell=2)
    line = score.loads(client.get_cookie("session_score").value)
    assert "|999999999|" in line and "1000000000" not in line
    assert "could not be read" not in client.get("/").get_data(as_text=True)


READ_BACK_FAILS = "Your saved game could not be read"


@pytest.mark.parametrize(
    ("cookie", "notice"),
    [
        ("not-a-cookie", READ_BACK_FAILS),
        (None, READ_BACK_FAILS),  # a cookie signed with another key
        ({"v": 1, "mode": "hvc", "moves": "40"}, READ_BACK_FAILS),  # not a field this version writes
        ({"notice": "hello"}, "The game has been updated since your last visit"),
        ({"game": GOOD.replace("6|", "5|", 1)}, "The game has been updated since your last visit"),
        ({"game": OLD.replace("4|", "6|", 1)}, READ_BACK_FAILS),
        ({"game": GOOD.replace("|40|", "|44|")}, READ_BACK_FAILS),  # a square taken twice
        ({"game": GOOD.replace("|40|", "|0314258|")}, READ_BACK_FAILS),  # play after a win
        ({"game": GOOD.replace("|40|", "|4a|")}, READ_BACK_FAILS),
        ({"game": GOOD.replace("|hvc|", "|chess|")}, READ_BACK_FAILS),
        ({"game": GOOD.replace("|one-ply|minimax|", "|hard|minimax|")}, READ_BACK_FAILS),
        ({"game": GOOD.replace("|minimax|one-ply|one-ply|", "|minimax|one-ply|hard|")}, READ_BACK_FAILS),
        ({"game": GOOD[:-1]}, READ_BACK_FAILS),  # a game id cut short
        ({"game": GOOD + "|0"}, READ_BACK_FAILS),  # a field too many
        ({"game": GOOD.replace("|40|0|0|", "|40|2|0|")}, READ_BACK_FAILS),
        ({"game": 40}, READ_BACK_FAILS),
        ({"game": GOOD, "notice": 7}, READ_BACK_FAILS),
        ({"game": GOOD, "notice_is_error": "yes"}, READ_BACK_FAILS),
        # Valid JSON of the wrong shape, and Flask's tags for other types: never ours.
        ([1, 2, 3], READ_BACK_FAILS),
        ("a string", READ_BACK_FAILS),
        (12345, READ_BACK_FAILS),
        (None.__class__, READ_BACK_FAILS),  # stands for JSON null, signed
        ({"game": {" m": "<b>bold</b>"}}, READ_BACK_FAILS),
        ({"game": GOOD, "notice": {" m": "<script>alert(1)</script>"}}, READ_BACK_FAILS),
        ({" t": [1, 2]}, READ_BACK_FAILS),
        ({" d": "not a date"}, READ_BACK_FAILS),
        ({" b": "!!!"}, READ_BACK_FAILS),
        ({" x": "unknown tag"}, READ_BACK_FAILS),
        ({"game": GOOD, " u": "not-a-uuid"}, READ_BACK_FAILS),
    ],
)
@pytest.mark.parametrize(("method", "path"), [("get", "/"), ("post", "/move")])
def test_a_bad_cookie_starts_a_fresh_game_with_a_notice(app, client, cookie, notice, method, path):
    if cookie is None:
        value = sign(app, {"game": GOOD}).replace(".", ".x", 1)
    elif cookie is None.__class__:
        value = sign(app, None)
    elif cookie == "not-a-cookie":
        value = cookie
    else:
        value = sign(app, cookie)
    client.set_cookie("session", value)
    response = getattr(client, method)(path, data={"cell": "8", "game": Table(moves=(4, 0)).digest}, headers=HX)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert notice in html
    assert "<b>" not in html and "<script>alert" not in html
    assert board_of(response)["board"] == "........."
    assert page(client)["board"] == "........."


def test_a_notice_from_the_cookie_is_shown_as_text_never_as_markup(app, client):
    client.set_cookie("session", sign(app, {"game": GOOD, "notice": "<em>hi</em> & bye"}))
    html = client.get("/").get_data(as_text=True)
    assert "&lt;em&gt;hi&lt;/em&gt; &amp; bye" in html and "<em>hi" not in html


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


# --- the boards ------------------------------------------------------------------------------


def test_the_board_dropdown_starts_a_game_on_the_board_chosen(client):
    response = send(client, "/new", board="7x7", headers=HX)
    assert response.status_code == 200
    assert board_of(response)["board"] == "." * 49
    html = response.get_data(as_text=True)
    # The form is drawn again: the top level is now called Hard, and the help says what it does.
    assert '<option value="7x7" selected>7×7</option>' in html
    assert '<option value="minimax">Hard</option>' in html and ">Impossible<" not in html
    assert "<strong>Hard</strong> searches ahead under a time limit" in html
    assert '<p class="rule">Five in a row wins.</p>' in html  # the rule under the new board
    assert 'aria-label="Row 7, column 7, empty"' in html
    assert '<span id="setup-summary" hx-swap-oob="innerHTML">vs computer · you play X</span>' in html
    page_html = client.get("/").get_data(as_text=True)
    assert '<div id="board" class="board n-7"' in page_html


def test_a_new_board_in_the_middle_of_a_game_asks_first(client, midgame):
    asked = send(client, "/new", board="4x4", headers=HX)
    html = asked.get_data(as_text=True)
    assert "Start a new 4×4 game? This one will be abandoned." in html
    assert '<input type="hidden" name="board" value="4x4">' in html
    assert page(client) == midgame
    yes = send(client, "/new", board="4x4", confirm=1, headers=HX)
    assert board_of(yes)["board"] == "." * 16


def test_a_move_on_15x15_reaches_its_last_square_and_no_further(client):
    send(client, "/new", board="15x15", mode="hvh")
    assert send(client, "/move", cell=224, headers=HX).status_code == 200
    assert page(client)["board"] == "." * 224 + "X"
    refused = send(client, "/move", cell=225, headers=HX)
    assert refused.status_code == 400 and "That square is not on the board." in refused.get_data(as_text=True)
    assert send(client, "/move", cell=0, headers=HX).status_code == 200
    assert page(client)["board"] == "O" + "." * 223 + "X"


def test_the_threats_of_a_big_board_come_with_its_move_values_and_go_with_them(client):
    send(client, "/new", board="15x15", mode="hvh")
    for cell in (111, 0, 112, 14, 113):  # X: row 8, columns 7 to 9; O in the corners
        send(client, "/move", cell=cell)
    shown = send(client, "/values", show=1, headers=HX).get_data(as_text=True)
    facts = re.search(r'<div id="facts" hx-swap-oob="innerHTML">(.*?)</div>', shown, re.S).group(1)
    assert '<h2 id="facts-title" class="facts-title">Threats and forced wins</h2>' in facts
    assert "<li>X has an open three on row 8, columns 7–9: it makes an open four at row 8, column 6 or 10." in facts
    hidden = send(client, "/values", show=0, headers=HX).get_data(as_text=True)
    assert '<div id="facts" hx-swap-oob="innerHTML"></div>' in hidden
    hint = client.get("/?hint=1").get_data(as_text=True)
    assert re.search(r"Hint: row 8, column (6|10) blocks X&#39;s open three\.", hint)
    assert "Threats and forced wins" in hint


def test_the_cookie_carries_the_board(app, client):
    send(client, "/new", board="5x5", mode="hvh")
    send(client, "/move", cell=24)
    serializer = app.session_interface.get_signing_serializer(app)
    assert serializer.loads(client.get_cookie("session").value)["game"].startswith("6|5x5|hvh|X|")
    assert serializer.loads(client.get_cookie("session").value)["game"].split("|")[8] == "o"  # cell 24


def test_the_big_boards_positions_are_drawn_afresh_not_remembered(app, client):
    # Their positions seldom recur, and each drawing is tens of kilobytes: remembering them would fill memory.
    drawings = app.extensions["drawings"]
    send(client, "/new", board="15x15", mode="hvh")
    for cell in (0, 1):
        send(client, "/move", cell=cell, headers=HX)
    kept = len(drawings)
    for cell in (2, 3, 4, 20, 21, 22):
        assert send(client, "/move", cell=cell, headers=HX).status_code == 200
    assert len(drawings) == kept
    # On 3×3 every new position's drawing is kept, to be drawn at once next time.
    send(client, "/new", board="3x3", mode="hvh", confirm=1)
    before = len(drawings)
    send(client, "/move", cell=4, headers=HX)
    assert len(drawings) > before


def test_the_footer_names_the_top_level_of_each_board(client):
    footer = re.search(r'<footer class="site-footer">(.*?)</footer>', client.get("/").get_data(as_text=True), re.S)
    words = " ".join(footer.group(1).split())
    assert "Impossible never loses on 3×3, 4×4 and 5×5;" in words
    assert "on 7×7 and 15×15, Hard searches ahead under a time limit" in words


# --- two requests in flight at once: two tabs, or a double click ---


def cookie_jar(client) -> dict[str, str]:
    return {name: cookie.value for name in ("session", "session_score") if (cookie := client.get_cookie(name))}


def sent_from(client, jar: dict[str, str], path: str, **fields):
    """Post ``fields`` with the cookies of ``jar``, as a request already on its way when another one left."""
    for name in ("session", "session_score"):
        client.delete_cookie(name)
    for name, value in jar.items():
        client.set_cookie(name, value)
    response = client.post(path, data={name: str(value) for name, value in fields.items()})
    return response, cookie_jar(client)


def kept(before: dict[str, str], *answers) -> dict[str, str]:
    """The cookies a browser keeps once ``answers`` arrive in this order: each overwrites what it sets."""
    jar = dict(before)
    for response, _ in answers:
        for header in response.headers.getlist("Set-Cookie"):
            name, value = header.split(";")[0].split("=", 1)
            jar[name] = value
    return jar


def scores_in(app, jar) -> "state.Scores":
    interface = app.session_interface
    return state._decode_scores(interface.get_signing_serializer(app, interface.score_salt).loads(jar["session_score"]))


# Every request a player can send while a winning move is on its way, from the page drawn before it.
BESIDE_A_WIN = {
    "values toggle": ("/values", {"show": 1}),
    "new game": ("/new", {"mode": "hvh", "start": 1}),
    "undo": ("/undo", {}),
    "level change": ("/levels", {"difficulty": "random"}),
    "mode change": ("/new", {"mode": "hvc", "confirm": 1}),
}


@pytest.mark.parametrize("other_arrives_last", [True, False], ids=["other-last", "win-last"])
@pytest.mark.parametrize("other", BESIDE_A_WIN)
def test_a_win_sent_with_another_request_is_counted_whichever_answer_arrives_last(
    app, client, other, other_arrives_last
):
    send(client, "/new", mode="hvh")
    play(client, 0, 3, 1, 4)  # X X . / O O . / . . .: X wins at 2
    digest, before = page(client)["game"], cookie_jar(client)
    win = sent_from(client, before, "/move", game=digest, cell=2)
    path, fields = BESIDE_A_WIN[other]
    answer = sent_from(client, before, path, game=digest, **fields)
    assert answer[0].status_code in (200, 303)
    jar = kept(before, *((win, answer) if other_arrives_last else (answer, win)))
    assert scores_in(app, jar).of("3x3").hvh == Tally(1, 0, 0)
    # And the win counts once: the same game finished again from the board the other request left counts nothing.
    for name, value in jar.items():
        client.set_cookie(name, value)
    if page(client)["board"] == "XX.OO....":
        play(client, 2)
    assert scores_in(app, cookie_jar(client)).of("3x3").hvh == Tally(1, 0, 0)


def test_the_same_move_sent_twice_is_answered_the_same_way(app, client):
    send(client, "/new", difficulty="random")
    digest, before = page(client)["game"], cookie_jar(client)
    first = sent_from(client, before, "/move", game=digest, cell=4)
    second = sent_from(client, before, "/move", game=digest, cell=4)
    serializer = app.session_interface.get_signing_serializer(app)
    assert serializer.loads(first[1]["session"]) == serializer.loads(second[1]["session"])
    # Another square is another request, answered on its own (and Easy picks among many replies).
    replies = set()
    for cell in (0, 2, 6, 8):
        _, jar = sent_from(client, before, "/move", game=digest, cell=cell)
        replies.add(serializer.loads(jar["session"])["game"].split("|")[8][1])
    assert len(replies) > 1


def test_two_tabs_finishing_one_game_two_ways_count_it_once(app, client):
    send(client, "/new", mode="hvh")
    play(client, 0, 3, 1, 4)  # X to move: 2 wins at once, 8 does not
    digest, before = page(client)["game"], cookie_jar(client)
    win = sent_from(client, before, "/move", game=digest, cell=2)
    other = sent_from(client, before, "/move", game=digest, cell=8)
    for name, value in kept(before, win, other).items():
        client.set_cookie(name, value)
    play(client, 5)  # O completes the middle row in the game the second tab kept
    assert page(client)["status"] == "o-won"
    assert scores_in(app, cookie_jar(client)).of("3x3").hvh == Tally(1, 0, 0)  # the first result stands


# --- every square's name holds the words it shows (WCAG 2.5.3) ------------------------------------


class Squares(HTMLParser):
    """Each square of a drawn board: its accessible name, and its text as a browser's textContent has it."""

    def __init__(self):
        super().__init__()
        self.found: list[list[str]] = []
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        if tag == "button" and dict(attrs).get("name") == "cell":
            self.found.append([dict(attrs)["aria-label"], ""])
            self.depth = 1
        elif self.depth:
            self.depth += 1

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.found[-1][1] += data


def words(text: str) -> str:
    """Text as axe compares a name with what it shows: lower case, without punctuation, spaces made one."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


# Positions with moves of both sides, where move values and hints mark squares; and ends with a winning line.
NAMED = [
    ("3x3", (4,)),
    ("3x3", (0, 4, 8)),
    ("3x3", (0, 3, 1, 4)),
    ("4x4", (5, 0, 10)),
    ("5x5", (12, 7)),
    ("5x5", (12, 6, 13, 7, 14)),
    ("7x7", (0, 7, 1, 8, 2, 9, 3)),
    ("7x7", (24, 25, 17)),
    ("3x3", (0, 3, 1, 4, 2)),
    ("7x7", (0, 7, 1, 8, 2, 9, 3, 10, 4)),
]


@pytest.mark.parametrize(("key", "moves"), NAMED)
@pytest.mark.parametrize(("values", "hint"), [(False, False), (True, False), (False, True), (True, True)])
def test_every_square_is_named_with_the_words_it_shows_in_every_combination(app, key, moves, values, hint):
    table = Table(Settings(board=key, mode="hvh"), moves=moves, show_values=values)
    view = game_view(table, hint=hint)
    with app.test_request_context("/"):
        html = render_template("partials/board.html", grid=view.grid)
    squares = Squares()
    squares.feed(html)
    assert len(squares.found) == len(view.grid.cells)
    shown = [(name, text) for name, text in squares.found if text.strip()]
    if (values or hint) and not view.is_over:
        assert shown, "something is marked on the board"
    for name, text in squares.found:
        assert words(text) in words(name), (name, text)


# --- a link to a board -------------------------------------------------------------------------------


def test_a_link_to_a_board_opens_a_new_game_on_it(client):
    response = client.get("/?board=7x7")
    assert response.status_code == 303 and response.location == "/"
    assert page(client)["board"] == "." * 49
    # The same link again changes nothing: the board is the link's already.
    send(client, "/move", cell=24)
    assert client.get("/?board=7x7").status_code == 200 and page(client)["board"].count("X") == 1


def test_a_link_to_a_board_asks_first_when_a_game_is_under_way(client):
    play(client, 4)
    before = page(client)
    response = client.get("/?board=15x15")
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "Start a new 15×15 game? This one will be abandoned." in html
    assert '<input type="hidden" name="board" value="15x15">' in html and 'name="confirm" value="1"' in html
    assert page(client) == before  # nothing changes until the yes
    # The dropdown shows the board the question asks about.
    assert '<option value="15x15" selected>' in html
    send(client, "/new", board="15x15", confirm=1)
    assert page(client)["board"] == "." * 225


@pytest.mark.parametrize("key", ["99x99", "", "7X7", "x" * 500])
def test_a_link_to_a_board_the_game_does_not_have_says_so(client, key):
    play(client, 4)
    before = page(client)
    response = client.get("/", query_string={"board": key})
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "which this game does not have: choose 3x3, 4x4, 5x5, 7x7 or 15x15" in html
    assert len(html) < 20_000 and page(client) == before


def test_a_question_shows_the_choice_it_asks_about_and_no_puts_the_settings_back(client):
    play(client, 4)
    asked = send(client, "/new", mode="hvh", headers=HX).get_data(as_text=True)
    assert "Start a new Human vs Human game? This one will be abandoned." in asked
    assert '<option value="hvh" selected>Human vs Human</option>' in asked
    kept = client.get("/?kept=1", headers=HX).get_data(as_text=True)
    assert '<option value="hvc" selected>Human vs Computer</option>' in kept and "Start a new" not in kept
