import random
import re

import pytest
from support import HX, board_of, page, send

from webapp.engine.boards import BY_KEY
from webapp.engine.rules import parse
from webapp.learn.review import format_moves, grade_move, parse_moves, positions
from webapp.learn.squares import spot

LOST = "4.1.0.8.6.3.2"  # O answers the centre on an edge and loses to a fork


def play(client, *cells):
    """Play ``cells`` in a Human vs Human game, from a new one."""
    send(client, "/new", mode="hvh", start=1)
    for cell in cells:
        send(client, "/move", cell=cell)


def cookie(client) -> str:
    return client.get_cookie("session").value


def text(response) -> str:
    return response.get_data(as_text=True)


def digest(client) -> str:
    """The digest of the visitor's game, which every form that changes it carries."""
    return page(client)["game"]


# --- the review -------------------------------------------------------------------------------


def test_the_review_opens_on_the_mistake_and_shows_the_better_moves(client):
    response = client.get(f"/review?moves={LOST}")
    assert response.status_code == 200
    html = text(response)
    assert "O held the draw until move 2; the top edge let X win. Any corner held." in html
    # The board after the mistake: its square graded, the better squares still empty beside it.
    assert board_of(response) == {"board": ".O..X....", "ply": "2"}
    assert "You are looking at move 2 of 7: O top. X to move." in html
    assert html.count('class="cell is-better"') == 4
    assert 'class="cell has-o is-last is-last-o is-played grade-mistake"' in html
    assert "Row 1, column 2, O, the last move, a mistake" in html
    assert "Row 1, column 1, empty, a better move" in html
    assert "Move 2, O top, was a mistake: it turns a draw into a loss in 6 moves. Better: any corner." in html
    assert 'class="review-explain is-turning"' in html
    # The move list: rounds of two, each move graded, the turning point marked, and picked.
    assert re.search(
        r'class="move grade-mistake is-turning" href="/review\?moves=4.1.0.8.6.3.2&amp;at=2"\s+'
        r'aria-label="2. O top, mistake, the turning point" aria-current="step"',
        html,
    )
    assert html.count('class="move grade-best') == 6
    assert html.count('aria-current="step"') == 1


@pytest.mark.parametrize(
    ("at", "where", "back", "forward"),
    [
        ("0", "You are looking at the start of the game, before move 1 of 7.", None, "1"),
        ("3", "You are looking at move 3 of 7: X top-left. O to move.", "2", "4"),
        ("7", "You are looking at move 7 of 7: X top-right. X wins.", "6", None),
    ],
)
@pytest.mark.parametrize("route", ["/review", "/"])
def test_stepping_through_the_moves_without_javascript(client, route, at, where, back, forward):
    html = text(client.get(f"{route}?moves={LOST}&at={at}"))
    assert where in html
    for name, target in (("step-back", back), ("step-forward", forward)):
        link = re.search(rf'<a class="button" id="{name}"[^>]*>', html).group(0)
        if target is None:
            assert 'aria-disabled="true"' in link and "href" not in link
        else:
            assert f"at={target}&amp;moves={LOST}" in link
    current = re.findall(r'<a class="move[^>]*aria-current="step"', html)
    assert len(current) == (0 if at == "0" else 1)
    assert at == "0" or f'href="{route}?moves={LOST}&amp;at={at}"' in current[0]


def test_a_step_with_htmx_sends_the_view_and_the_status_out_of_band(client):
    response = client.get(f"/review?moves={LOST}&at=4", headers=HX)
    html = text(response)
    assert "<html" not in html
    assert html.lstrip().startswith('<div id="review-view"')
    assert '<p id="review-status" hx-swap-oob="innerHTML">You are looking at move 4 of 7' in html
    assert "HX-Request" in response.headers["Vary"]


def test_the_position_from_a_link_is_read_only(client):
    html = text(client.get(f"/?moves={LOST}&at=3"))
    assert "A position from a game" in html
    assert 'action="/move"' not in html and '<button type="submit" name="cell"' not in html
    assert "grade" not in re.search(r'<ol class="move-list".*?</ol>', html, re.S).group(0)
    assert 'href="/review?at=3&amp;moves=4.1.0.8.6.3.2"' in html  # the same position, reviewed
    assert 'href="/tree?board=X.X.X....&amp;moves=4.1.0"' not in html  # the board after three moves is this:
    assert 'href="/tree?board=XO..X....&amp;moves=4.1.0"' in html


def own_game(app, client, human: str, moves: str) -> None:
    """Give the client a game against the computer, as if played: ``moves`` with the person as ``human``."""
    line = f"6|3x3|hvc|{human}|minimax|minimax|one-ply|minimax|{moves.replace('.', '')}|0|0|0|0123456789ab|1"
    serializer = app.session_interface.get_signing_serializer(app)
    client.set_cookie("session", serializer.dumps({"game": line}))


@pytest.mark.parametrize(
    ("human", "moves", "summary"),
    [
        ("O", LOST, "You held the draw until move 2; the top edge let X win."),
        ("X", LOST, "O held the draw until move 2; the top edge let you win."),
        ("O", "4.1", "O held the draw until move 2; the top edge let X win."),  # another game than the link's
    ],
)
def test_the_review_of_the_visitors_own_game_says_you(app, client, human, moves, summary):
    own_game(app, client, human, moves)
    assert summary in text(client.get(f"/review?moves={LOST}"))


def test_opening_links_never_changes_the_visitors_game_or_score(client):
    play(client, 4, 0)
    before = cookie(client)
    for url in (
        f"/review?moves={LOST}",
        f"/?moves={LOST}&at=2",
        f"/review?moves={LOST}&at=5",
        "/?moves=4.4",
        f"/play-from?moves={LOST[:3]}",
        "/api/review?moves=4,0",
        "/tree?board=XO..X....&moves=4.1.0",
    ):
        client.get(url)
        assert cookie(client) == before, url
    assert page(client)["board"] == "O...X...."


def test_the_live_board_lists_its_moves_and_links_each_position(client):
    play(client, 4, 0, 8)
    html = text(client.get("/"))
    moves = re.search(r'<ol class="move-list".*?</ol>', html, re.S).group(0)
    # Numbered move by move, as the review, the status and at= in the links number them.
    entries = re.findall(r'<span class="move-number">(\d+)\.</span> ([XO] [a-z-]+)', moves)
    assert entries == [("1", "X centre"), ("2", "O top-left"), ("3", "X bottom-right")]
    assert '<a class="move" href="/?moves=4.0.8&amp;at=2">' in moves
    assert 'href="/?moves=4.0.8&amp;at=3" aria-current="step"' in moves
    # To look back at the position before, read-only: named so, beside Undo, which takes a move back.
    assert 'id="look-back" href="/?moves=4.0.8&amp;at=2">Look back a move</a>' in html
    assert "Review" not in html
    # The list travels with the board after every move.
    fragment = text(send(client, "/move", cell=2, headers=HX))
    assert "O top-right" in fragment


def test_a_finished_game_offers_its_review(client):
    play(client, 0, 3, 1, 4, 2)
    html = text(client.get("/"))
    # Beside Play again, under the board.
    again = re.search(r'<form class="again".*?</form>', html, re.S).group(0)
    assert 'id="again-button">Play again</button>' in again
    assert '<a class="button" id="review-button" href="/review?moves=0.3.1.4.2">Review</a>' in again


# --- bad links: a friendly 400 that says what is wrong ----------------------------------------

BAD_LINKS = [
    ("moves=4.4", "Move 2 (square 4, row 2, column 2) is on a square already taken."),
    ("moves=0.3.1.4.2.5", "Move 6 (square 5, row 2, column 3) comes after the game ended when X won on move 5."),
    ("moves=0.1.2.3.4.5.6.7.8.0", "There are 10 moves, but a game has at most 9."),
    ("moves=" + "1." * 300, "That is too long to be a game"),
    ("moves=hello", "Move 1 is “hello”, which is not a square"),
    ("moves=4.%3Cscript%3E", "Move 2 is “&lt;script&gt;”, which is not a square"),
    ("moves=4.9", "Move 2 is “9”, which is not a square"),
    ("moves=4.0&at=3", "The link asks for move “3”, but this game has 2 moves"),
    ("moves=4.0&at=-1", "The link asks for move “-1”"),
    ("moves=4&at=2", "The link asks for move “2”, but this game has 1 move: choose a number from 0 (the start) to 1."),
    ("moves=4.0&at=two", "The link asks for move “two”"),
    ("moves=4.0&at=" + "9" * 100, "The link asks for move “" + "9" * 40 + "…”"),
    ("board=9x9&moves=4", "the board “9x9”, which this game does not have: choose 3x3, 4x4, 5x5, 7x7 or 15x15"),
    ("board=&moves=4", "the board “”, which this game does not have"),
    ("moves=4&board=" + "4" * 100, "the board “" + "4" * 40 + "…”"),
    ("board=4x4&moves=16", "Move 1 is “16”, which is not a square: squares are numbered 0 to 15"),
    ("board=15x15&moves=225", "squares are numbered 0 to 224"),
    ("board=4x4&moves=0.4.1.5.2.6.3.7", "comes after the game ended when X won on move 7"),
    # How a game ended off the board: one of three words, and never on a board its moves already end.
    ("moves=4.0&ending=resigned", "the game ended “resigned”, which is not a way a game ends: choose resigned-x,"),
    ("moves=4.0&ending=RESIGNED-X", "the game ended “RESIGNED-X”, which is not a way a game ends"),
    ("moves=4.0&ending=", "the game ended “”, which is not a way a game ends"),
    ("moves=4.0&ending=%3Cscript%3E", "the game ended “&lt;script&gt;”, which is not"),
    ("moves=4.0&ending=agreed%E2%80%AE", "the game ended “agreed\\u202e”, which is not"),
    ("moves=4.0&ending=" + "x" * 100, "the game ended “" + "x" * 40 + "…”"),
    ("moves=0.3.1.4.2&ending=resigned-o", "ended by resignation, but its moves already end it in X winning"),
    ("moves=0.1.2.4.3.5.7.6.8&ending=agreed", "ended by agreement, but its moves already end it in a draw"),
    ("board=15x15&moves=0.15.1.16.2.17.3.18.4&ending=agreed", "already end it in X winning: leave ending out"),
]


@pytest.mark.parametrize(("query", "message"), BAD_LINKS)
@pytest.mark.parametrize("route", ["/", "/review"])
def test_a_bad_link_gets_a_friendly_400(client, route, query, message):
    play(client, 4)
    before = cookie(client)
    response = client.get(f"{route}?{query}")
    assert response.status_code == 400
    html = text(response)
    assert "This link does not hold a game" in html
    assert message in html
    assert "Start a new game" in html and "Back to your game" in html  # the visitor has a game of their own
    assert f'<input type="hidden" name="game" value="{digest(client)}">' in html  # the New game form works
    for python in ("Traceback", "Error", "'", "None"):
        assert python not in html.split("<main", 1)[1]
    assert len(html) < 4000  # nothing sent is echoed at length
    assert cookie(client) == before


def test_a_bad_link_with_htmx_gets_the_message_alone(client):
    response = client.get("/review?moves=4.4", headers=HX)
    assert response.status_code == 400
    assert "<html" not in text(response) and "already taken" in text(response)


@pytest.mark.parametrize(
    ("ending", "result"),
    [("resigned-o", "O resigned: X wins."), ("resigned-x", "X resigned: O wins."), ("agreed", "Drawn by agreement.")],
)
def test_a_review_of_a_game_ended_off_the_board_states_its_result(client, ending, result):
    plain = text(client.get("/review?moves=4.0"))
    html = text(client.get(f"/review?moves=4.0&ending={ending}"))
    assert "You are looking at move 2 of 2: O top-left. " + result in html
    assert "O top-left. X to move." in plain and result not in plain
    # The grades and the summary are those of the moves alone.
    assert re.findall(r'<ol class="move-list".*?</ol>', html, re.S) == re.findall(
        r'<ol class="move-list".*?</ol>', plain.replace("&amp;at=", f"&amp;ending={ending}&amp;at="), re.S
    )
    assert re.search(r'id="review-summary".*?</p>', html, re.S).group(0) == re.search(
        r'id="review-summary".*?</p>', plain, re.S
    ).group(0)
    # Every step, the link to share and the plain history carry the ending; only the end of the game states it.
    assert f'href="/review?moves=4.0&amp;ending={ending}&amp;at=1"' in html
    assert (
        f"/review?moves=4.0&amp;ending={ending}</" in html or f'value="/review?moves=4.0&amp;ending={ending}"' in html
    )
    assert f'href="/?at=2&amp;moves=4.0&amp;ending={ending}">Hide the grades' in html
    earlier = text(client.get(f"/review?moves=4.0&ending={ending}&at=1", headers=HX))
    assert "move 1 of 2: X centre. O to move." in earlier and result not in earlier
    end = text(client.get(f"/review?moves=4.0&ending={ending}&at=2", headers=HX))
    assert (
        f'<p id="review-status" hx-swap-oob="innerHTML">You are looking at move 2 of 2: O top-left. {result}</p>' in end
    )
    assert result in text(client.get(f"/?moves=4.0&ending={ending}"))  # the history without grades says so too


def test_a_big_boards_review_of_a_resignation_says_so_and_grades_as_without_it(client):
    html = text(client.get("/review?board=15x15&moves=112.0&ending=resigned-o"))
    assert "You are looking at move 2 of 2: O top-left. O resigned: X wins." in html
    grader = re.search(r'<div id="review-grader" hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert grader == "/review/grades?board=15x15&moves=112.0&ending=resigned-o&start=0"
    piece = text(client.get(grader, headers=HX))
    plain = text(client.get("/review/grades?board=15x15&moves=112.0&start=0", headers=HX))
    assert piece == plain.replace("&amp;at=", "&amp;ending=resigned-o&amp;at=")
    response = client.get("/review/grades?board=15x15&moves=112.0&ending=gave-up&start=0", headers=HX)
    assert response.status_code == 400 and "which is not a way a game ends" in text(response)


# --- the JSON twin ----------------------------------------------------------------------------


def test_the_api_reviews_a_game(client):
    body = client.get("/api/review?moves=4,1,0,8,6,3,2").get_json()
    assert body["board"] == "XOXOX.X.O" and body["status"] == "x-won"
    assert body["turning_point"] == 2
    assert body["summary"] == "O held the draw until move 2; the top edge let X win. Any corner held."
    assert body["moves"][1] == {
        "move": 2,
        "cell": 1,
        "mover": "O",
        "value": {"result": "loss", "plies": 6},
        "best": {"result": "draw", "plies": 8},
        "grade": "mistake",
        "best_cells": [0, 2, 6, 8],
    }
    assert [m["grade"] for m in body["moves"]] == ["best", "mistake", "best", "best", "best", "best", "best"]
    assert client.get("/api/review?moves=4.1.0.8.6.3.2").get_json() == body  # dots work as well


def test_the_api_agrees_with_the_solver_on_random_games(client):
    rng = random.Random(5)
    for _ in range(200):
        pos, moves = parse("........."), []
        while not pos.is_over() and rng.random() > 0.05:
            moves.append(rng.choice(pos.legal_moves()))
            pos = pos.play(moves[-1])
        body = client.get(f"/api/review?moves={format_moves(moves, ',')}").get_json()
        for move, before in zip(body["moves"], positions(tuple(moves)), strict=False):
            graded = grade_move(before, move["cell"], move["move"])
            assert move["grade"] == graded.grade and tuple(move["best_cells"]) == graded.best_cells


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("", "Give the game to review"),
        ("?moves=4,4", "Move 2 (square 4, row 2, column 2) is on a square already taken."),
        ("?moves=4,x", "Move 2 is “x”"),
        ("?moves=0,3,1,4,2,5", "Move 6 (square 5, row 2, column 3) comes after the game ended"),
        ("?moves=" + "0," * 20, "at most 9"),
    ],
)
def test_a_bad_api_review_is_a_400_naming_the_first_bad_move(client, query, message):
    response = client.get(f"/api/review{query}")
    assert response.status_code == 400
    assert message in response.get_json()["error"]


def test_the_api_reviews_an_empty_game(client):
    body = client.get("/api/review?moves=").get_json()
    assert body["moves"] == [] and body["status"] == "playing" and body["turning_point"] is None


# --- play from here ---------------------------------------------------------------------------


def test_play_from_asks_first_and_changes_nothing(client):
    play(client, 4, 0, 8)
    before = cookie(client)
    response = client.get("/play-from?moves=4.1")
    html = text(response)
    assert response.status_code == 200
    assert "Play from move 2?" in html
    assert "The game you are playing now (3 moves) will be dropped." in html
    assert f'name="game" value="{digest(client)}"' in html
    assert cookie(client) == before
    # Two different ways on: the game's own players, or the side to move against the computer.
    assert re.findall(r'name="against" value="(\w+)">([^<]+)</button>', html) == [
        ("same", "Play from here"),
        ("computer", "Play X against the computer"),
    ]


def test_play_from_against_the_computer_already_is_one_button(app, client):
    own_game(app, client, "X", "4.1")
    html = text(client.get("/play-from?moves=4.1"))  # X to move, and X is the visitor's side
    assert re.findall(r'name="against" value="(\w+)">([^<]+)</button>', html) == [("computer", "Play from here")]
    assert '<label for="level">Play X against the computer at</label>' in html


def test_play_from_here_keeps_the_mode_and_the_score(app, client):
    play(client, 0, 3, 1, 4, 2)  # X wins: the score counts it
    send(client, "/new", mode="hvh", start=1)
    response = client.post("/play-from", data={"moves": "4.1", "game": digest(client), "against": "same"})
    assert response.status_code == 303 and response.headers["Location"] == "/"
    html = text(client.get("/"))
    assert board_of(client.get("/"))["board"] == ".O..X...."
    assert "Playing on from move 2." in html
    assert re.search(r"<dt>X</dt><dd>1</dd>", html)  # the score is as it was


@pytest.mark.parametrize("headers", [HX, {}], ids=["htmx", "no-js"])
def test_a_win_played_from_a_link_says_it_does_not_count_and_why(client, headers):
    play(client)
    client.post("/play-from", data={"moves": "0.3.1", "game": digest(client), "against": "same"})
    middle = text(send(client, "/move", cell=4, headers=headers))
    assert "already in the score" not in middle
    answer = send(client, "/move", cell=2, headers=headers)  # X completes the top row
    html = text(answer if headers else client.get("/"))
    assert "X wins" in html
    assert "this game started from a position of a link, so its result is not counted." in html
    assert "already in the score" not in html
    assert re.search(r"<dt>X</dt><dd>0</dd>", text(client.get("/")))  # and it is not


def test_play_this_position_against_the_computer(app, client):
    play(client, 4)
    client.post("/play-from", data={"moves": "4.1", "game": digest(client), "against": "computer", "level": "minimax"})
    html = text(client.get("/"))
    assert "you play X against Impossible" in html
    assert board_of(client.get("/"))["board"] == ".O..X...."  # X, the visitor, is to move
    assert 'id="difficulty"' in html and '<option value="minimax" selected>' in html


def test_play_from_here_against_the_computer_lets_it_reply(app, client):
    send(client, "/new", mode="hvc", human="X", difficulty="minimax", start=1)
    client.post("/play-from", data={"moves": "4", "game": digest(client), "against": "same"})
    assert board_of(client.get("/"))["ply"] == "2"  # the computer, playing O, answered at once


def test_play_from_a_page_of_another_game_is_refused(app, client):
    play(client, 4)
    stale = digest(client)
    send(client, "/move", cell=0)  # the game moves on in another tab
    before = cookie(client)
    response = client.post("/play-from", data={"moves": "4.1", "game": stale, "against": "same"})
    assert response.status_code == 409
    assert "Your game changed in another tab" in text(response)
    assert f'name="game" value="{digest(client)}"' in text(response)  # the form again, for the game as it is
    assert cookie(client) == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"moves": "0.3.1.4.2"}, "That position is the end of the game"),
        ({"moves": "4.4"}, "is on a square already taken"),
        ({"moves": "4", "against": "computer", "level": "grandmaster"}, "There is no difficulty"),
    ],
)
def test_play_from_a_bad_position_is_refused(app, client, data, message):
    play(client, 4)
    before = cookie(client)
    response = client.post("/play-from", data={**data, "game": digest(client)})
    assert response.status_code == 400
    assert message in text(response)
    assert cookie(client) == before


def test_play_from_the_end_of_a_game_is_not_offered(client):
    response = client.get("/play-from?moves=0.3.1.4.2")
    assert response.status_code == 400
    assert "choose an earlier move" in text(response)
    assert "Play from here" not in text(client.get("/review?moves=0.3.1.4.2&at=5"))
    assert "Play from here" in text(client.get("/review?moves=0.3.1.4.2&at=4"))


# --- the tree explorer and the review link to each other --------------------------------------


def test_the_tree_links_to_the_review_and_to_play_from_here(client):
    html = text(client.get("/tree?board=XO..X....&moves=4.1.0"))
    assert 'href="/play-from?moves=4.1.0">Play from here</a>' in html
    assert 'href="/review?moves=4.1.0&amp;at=3">Review the moves to here</a>' in html
    # Without the game it came from, the tree finds a line of play of its own.
    html = text(client.get("/tree?board=XO..X...."))
    assert 'href="/play-from?moves=0.1.4"' in html
    # A finished board cannot be played from, but can be reviewed.
    html = text(client.get("/tree?board=XXXOO...."))
    assert "Play from here" not in html and 'href="/review?moves=0.3.1.4.2&amp;at=5"' in html


def test_every_move_in_the_tree_offers_play_from_here_along_its_path(client):
    html = text(client.get("/tree?board=XO..X....&moves=4.1.0&path=8.2"))
    link = r'class="tree-play" href="/play-from\?moves=([0-9.]+)">Play from here<span [^>]+> after (.+?)<'
    plays = re.findall(link, html)
    # Each move from the root, then each reply under the opened ones: the link's order first, then the path.
    assert ("4.1.0.8", "O in row 3, column 3") in plays and ("4.1.0.8.2", "X in row 1, column 3") in plays
    assert ("4.1.0.8.2.3", "O in row 2, column 1") in plays
    assert all(positions(parse_moves(moves))[-1].board.startswith("XO") for moves, _ in plays)
    # A move that ends the game cannot be played from.
    assert not any(positions(parse_moves(moves))[-1].is_over() for moves, _ in plays)
    # The replies opened with htmx carry them too, from a line of the tree's own.
    html = text(client.get("/tree/children?board=XO..X....&path=8", headers=HX))
    assert 'href="/play-from?moves=0.1.4.8.2">Play from here' in html


def test_the_review_links_to_the_tree_of_the_shown_position(client):
    html = text(client.get(f"/review?moves={LOST}&at=3"))
    assert 'href="/tree?board=XO..X....&amp;moves=4.1.0"' in html
    assert parse_moves("4.1.0") == (4, 1, 0)


def test_the_link_to_share_is_on_the_configured_site_and_a_copy_button_waits_for_javascript(client):
    client.application.config["SITE_URL"] = "https://tictactoe.example"
    html = text(client.get(f"/review?moves={LOST}&at=3", headers={"Host": "evil.example"}))
    assert f'value="https://tictactoe.example/review?moves={LOST}&amp;at=3"' in html
    assert 'data-copy="share-link" hidden>Copy link</button>' in html


@pytest.mark.parametrize("host", ["localhost", "evil.example", "evil.example:8443"])
def test_without_a_configured_site_the_link_to_share_is_a_path_never_the_host_header(client, host):
    html = text(client.get(f"/review?moves={LOST}&at=3", headers={"Host": host}))
    assert f'value="/review?moves={LOST}&amp;at=3"' in html
    assert host not in html


@pytest.mark.parametrize(
    ("setup", "moves", "board", "paused"),
    [
        ({"mode": "hvh"}, "4.1", ".O..X....", None),
        ({"mode": "hvc", "human": "X"}, "4.1", ".O..X....", None),  # the person, X, is to move
        ({"mode": "hvc", "human": "O"}, "4", None, None),  # the person plays O, so it is their turn now
        ({"mode": "hvc", "human": "X"}, "4", "computer replies", None),  # O is the computer's: it answers
        ({"mode": "cvc"}, "4.1", ".O..X....", "1"),  # the computers wait, paused
    ],
)
def test_play_from_here_in_every_mode_and_for_both_sides(app, client, setup, moves, board, paused):
    send(client, "/new", start=1, **setup)
    client.post("/play-from", data={"moves": moves, "game": digest(client), "against": "same"})
    shown = page(client)
    if board == "computer replies":
        assert shown["ply"] == "2" and shown["board"][4] == "X"
    else:
        assert shown["board"] == (board or "....X....")
    line = app.session_interface.get_signing_serializer(app).loads(cookie(client))["game"]
    assert line.split("|")[2] == setup["mode"]  # after the version and the board
    if paused:
        assert "Paused" in text(client.get("/"))


@pytest.mark.parametrize(
    "setup", [{"mode": "cvc"}, {"mode": "hvc", "human": "O", "difficulty": "random"}], ids=["cvc", "hvc-as-O"]
)
def test_every_mode_offers_the_review_of_a_finished_game(client, setup):
    send(client, "/new", start=1, **setup)
    while page(client)["status"] == "playing":
        if setup["mode"] == "cvc":
            send(client, "/step")
        else:
            board = page(client)["board"]
            send(client, "/move", cell=board.index("."))
    html = text(client.get("/"))
    moves = re.search(r'id="review-button" href="/review\?moves=([0-9.]+)">Review</a>', html).group(1)
    assert positions(parse_moves(moves))[-1].board == page(client)["board"]
    assert client.get(f"/review?moves={moves}").status_code == 200


# --- every board ---------------------------------------------------------------------------

RACE_7 = "0.7.1.8.2.9.3.10.4"  # 7×7: X takes the top row's first five while O fills the second row


def test_a_position_on_a_big_board_is_drawn_with_its_own_squares_and_links(client):
    response = client.get(f"/?board=7x7&moves={RACE_7}&at=3")
    assert response.status_code == 200
    html = text(response)
    assert board_of(response)["board"] == "XX.....O" + "." * 41
    assert html.count('<li class="cell') == 49 and "review-board-7" in html
    assert "You are looking at move 3 of 9: X row 1, column 2. O to move." in html
    # Every link from the page keeps the board: the steps, the move list, the review, the share link.
    assert f'href="/?board=7x7&amp;moves={RACE_7}&amp;at=4"' in html
    assert f'href="/review?at=3&amp;board=7x7&amp;moves={RACE_7}"' in html
    assert f'value="/?board=7x7&amp;moves={RACE_7}&amp;at=3"' in html
    assert '<input type="hidden" name="board" value="7x7">' in html  # Play from here


def test_a_big_boards_review_comes_in_pieces_that_the_page_fetches(client):
    response = client.get(f"/review?board=7x7&moves={RACE_7}")
    html = text(response)
    # At the end of the game, with no grade yet in the list: the page fetches them from the grader's address.
    assert "You are looking at move 9 of 9" in html and 'class="grade"' not in html
    grader = re.search(r'<div id="review-grader" hx-get="([^"]+)" hx-trigger="load, retry"', html).group(1)
    assert grader == f"/review/grades?board=7x7&amp;moves={RACE_7}&amp;start=0"
    piece = text(client.get(grader.replace("&amp;", "&"), headers=HX))
    # This short game in one piece: every move's grade into the list, then the summary, which names the move.
    assert piece.count('hx-swap-oob="true"><a class="move grade-') == 9
    assert 'id="review-grader"' not in piece and "All 9 moves are graded." in piece
    assert "O&#39;s move 8, row 2, column 4, left a four open for X; row 1, column 5 blocked it." in piece
    assert f'href="/review?board=7x7&amp;moves={RACE_7}&amp;at=8"' in piece and ">See move 8</a>" in piece
    assert 'aria-label="8. O row 2, column 4, mistake, changed the game"' in piece
    assert 'aria-label="9. X row 1, column 5, best"' in piece  # proved: five in a row
    assert piece.count(" by estimate") == 7  # the rest: Hard's estimate, and said to be one
    # The address is for the page's script: a person who follows it gets the review itself.
    response = client.get(grader.replace("&amp;", "&"))
    assert response.status_code == 303 and response.location.startswith("/review?board=7x7&")


def test_a_long_review_goes_on_from_where_the_last_piece_stopped_and_remembers_nothing(client, monkeypatch):
    import webapp.web.budgets

    monkeypatch.setattr(webapp.web.budgets, "PIECE_SECONDS", 0.0)  # one move a piece
    moves = RACE_7
    first = text(client.get(f"/review/grades?board=7x7&moves={moves}&start=0", headers=HX))
    assert first.count('<li id="move-') == 1 and "Graded 1 of 9 moves so far." in first
    assert f'hx-get="/review/grades?board=7x7&amp;moves={moves}&amp;start=1"' in first
    # The piece after O's mistake carries it on, to the summary, which grades it again rather than trust a link.
    piece = text(client.get(f"/review/grades?board=7x7&moves={moves}&start=8&turning=8", headers=HX))
    assert "left a four open for X" in piece and ">See move 8</a>" in piece
    forged = text(client.get(f"/review/grades?board=7x7&moves={moves}&start=8&turning=3", headers=HX))
    assert "See move" not in forged and "No one move of O&#39;s lost the game" in forged


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("board=7x7&moves=0.7&start=2", "start must be a move number from 0 to 1"),
        ("board=7x7&moves=0.7&start=x", "start must be a move number"),
        ("board=7x7&moves=0.7&start=0&turning=5", "turning must be a move number from 0 to 2"),
        ("moves=0.4&start=0", "Only a game on 7×7 or 15×15 is graded in pieces"),
        ("board=7x7&moves=0.0&start=0", "Move 2 (square 0, row 1, column 1) is on a square already taken"),
    ],
)
def test_a_bad_piece_of_a_review_is_a_400_that_says_why(client, query, words):
    response = client.get(f"/review/grades?{query}", headers=HX)
    assert response.status_code == 400 and words in text(response)


def test_a_big_boards_moves_say_what_is_proved_and_what_is_estimated(client):
    html = text(client.get(f"/review?board=7x7&moves={RACE_7}&at=8"))
    assert "Move 8, O row 2, column 4, was a mistake: it leaves X&#39;s four open, and X makes five next." in html
    html = text(client.get(f"/review?board=7x7&moves={RACE_7}&at=1"))
    assert re.search(r"Move 1, X top-left, was (good by Hard&#39;s estimate|Hard&#39;s choice too)", html)
    assert "X&#39;s chance of winning is about " in html


def test_the_api_reviews_a_game_on_a_big_board(client):
    body = client.get(f"/api/review?board=7x7&moves={RACE_7.replace('.', ',')}").get_json()
    assert body["board_size"] == "7x7" and body["status"] == "x-won" and body["next"] is None
    assert [move["grade"] for move in body["moves"]][7:] == ["mistake", "best"]
    assert body["moves"][7]["value"] == {"result": "loss", "plies": 2}
    assert body["moves"][7]["best"] == {"result": "unclear", "plies": None}
    assert body["moves"][7]["best_cells"] == [4] and body["turning_point"] == 8
    assert "estimate" not in body["moves"][7] and 0 <= body["moves"][0]["estimate"]["after"] <= 1


def test_the_api_reviews_a_long_game_in_pieces(client, monkeypatch):
    import webapp.web.budgets

    monkeypatch.setattr(webapp.web.budgets, "PIECE_SECONDS", 0.0)
    body = client.get(f"/api/review?board=7x7&moves={RACE_7}&start=3").get_json()
    assert [move["move"] for move in body["moves"]] == [4] and body["next"] == 4
    assert body["summary"] is None and body["turning_point"] is None


def test_the_api_refuses_a_board_it_does_not_have(client):
    response = client.get("/api/review?board=3x4&moves=0")
    assert response.status_code == 400
    assert "choose 3x3, 4x4, 5x5, 7x7 or 15x15" in response.get_json()["error"]


def test_play_from_a_big_board_asks_first_and_carries_the_board(client):
    play(client, 4)
    before = cookie(client)
    html = text(client.get("/play-from?board=15x15&moves=112.0"))
    assert "Play from move 2?" in html and html.count('<li class="cell') == 225
    assert '<input type="hidden" name="board" value="15x15">' in html
    assert 'href="/?board=15x15&amp;moves=112.0"' in html  # Cancel
    assert cookie(client) == before


def test_a_3x3_link_needs_no_board_and_says_none(client):
    # A board's key starts with its size; the tree's link names its position instead, in X, O and dots.
    for query in ("moves=4.1", "board=3x3&moves=4.1"):
        html = text(client.get(f"/review?{query}"))
        assert "Game review" in html and not re.search(r"board=\d", html)


@pytest.mark.parametrize(
    ("board", "moves", "drawn"),
    [
        ("4x4", "5.0", "O....X" + "." * 10),
        ("7x7", "24.0.25", "O" + "." * 23 + "XX" + "." * 23),
    ],
)
def test_play_from_a_position_on_another_board_starts_a_game_on_that_board(app, client, board, moves, drawn):
    play(client, 4)  # a 3×3 game in hand, dropped for the linked one
    data = {"board": board, "moves": moves, "game": digest(client), "against": "same"}
    response = client.post("/play-from", data=data)
    assert response.status_code == 303
    page = client.get("/")
    assert board_of(page)["board"] == drawn
    assert f'<option value="{board}" selected>' in text(page)


def test_a_visitor_who_came_by_a_link_is_offered_a_game_not_a_way_back(client):
    assert "Start a game" in text(client.get("/review?moves=4.1.0"))
    assert "Back to your game" not in text(client.get("/?moves=4.1.0&at=1"))
    assert "Back to your game" not in text(client.get("/?moves=4.4"))
    play(client, 4)
    assert "Back to your game" in text(client.get("/review?moves=4.1.0"))


# --- the move picked is the move explained, on every board ---------------------------------------

WALKS = [
    (None, LOST),
    ("4x4", "5.0.10.15.6.9"),
    ("5x5", "12.0.6.24.18"),
    ("7x7", RACE_7),
    ("15x15", "112.0.113.1.114.2"),
]


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
@pytest.mark.parametrize(("key", "line"), WALKS, ids=[key or "3x3" for key, _ in WALKS])
def test_every_position_of_a_review_explains_its_own_move(client, key, line, headers):
    moves = parse_moves(line, BY_KEY[key or "3x3"])
    n = BY_KEY[key or "3x3"].n
    for at in range(len(moves) + 1):
        html = text(client.get("/review", query_string={"board": key, "moves": line, "at": at}, headers=headers))
        explained = re.search(r'<p class="review-explain[^"]*" id="review-explain">([^<]*)</p>', html).group(1)
        played = re.findall(r'class="cell[^"]* is-played grade-(\w+)" data-cell="(\d+)"', html)
        if at == 0:
            assert explained.startswith("The start of the game") and not played
            continue
        mover = "X" if at % 2 else "O"
        # The words, the square graded on the board and the move picked in the list are the same move.
        assert explained.startswith(f"Move {at}, {mover} {spot(moves[at - 1], n)}, "), (at, explained)
        assert [int(cell) for _, cell in played] == [moves[at - 1]]
        if not headers:
            picked = re.search(r'<li id="move-(\d+)"><a class="move( grade-(\w+))?[^>]*aria-current="step"', html)
            assert int(picked.group(1)) == at
            assert picked.group(3) in (None, played[0][0])  # a big board's list gets its grades from the page's script


@pytest.mark.parametrize(("key", "n"), [("4x4", 4), ("5x5", 5), ("7x7", 7), ("15x15", 15)])
def test_every_board_that_names_squares_by_row_and_column_numbers_them(client, key, n):
    send(client, "/new", mode="hvh", board=key, start=1)
    for html in (text(client.get("/")), text(client.get(f"/review?board={key}&moves=0"))):
        columns = re.search(r'<div class="ruler ruler-columns" aria-hidden="true">(.*?)</div>', html).group(1)
        assert columns == "".join(f"<span>{i}</span>" for i in range(1, n + 1))
    assert "ruler" not in text(client.get("/review?moves=0"))  # 3×3 names its squares by place alone
