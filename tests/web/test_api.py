import pytest
from support import HX, page, send, unfinished_boards

from webapp.engine.rules import parse
from webapp.solver import LEVELS, analyze, candidates

# --- the JSON API ----------------------------------------------------------------------------


def test_the_api_agrees_with_the_solver_on_every_position(client):
    boards = unfinished_boards()
    assert len(boards) == 4520
    for board in boards:
        response = client.get(f"/api/analyze?board={board}")
        assert response.status_code == 200, board
        body = response.get_json()
        pos = parse(board)
        assert body["board"] == board and body["to_move"] == pos.to_move and body["status"] == "playing"
        expected = [{"cell": c, "result": r, "plies": p} for c, (r, p) in sorted(analyze(board).items())]
        assert body["moves"] == expected, board


def test_the_api_analysis_in_full(client):
    # X X . / O O . / . . .  X wins at once; anything else lets O win or hold a draw.
    body = client.get("/api/analyze?board=XX.OO....").get_json()
    assert body == {
        "board": "XX.OO....",
        "to_move": "X",
        "status": "playing",
        "moves": [
            {"cell": 2, "result": "win", "plies": 1},
            {"cell": 5, "result": "draw", "plies": 5},
            {"cell": 6, "result": "loss", "plies": 2},
            {"cell": 7, "result": "loss", "plies": 2},
            {"cell": 8, "result": "loss", "plies": 2},
        ],
    }


@pytest.mark.parametrize("level", LEVELS)
def test_the_api_plays_a_legal_move(client, level):
    for board in unfinished_boards()[::45]:
        response = client.post("/api/move", json={"board": board, "level": level})
        assert response.status_code == 200, board
        body = response.get_json()
        assert body["cell"] in candidates(board, level)
        after = parse(board).play(body["cell"])
        assert body["board"] == after.board
        assert body["status"] == status_of(after)


def status_of(pos) -> str:
    if not pos.is_over():
        return "playing"
    return "draw" if pos.is_draw() else f"{pos.winner.lower()}-won"


@pytest.mark.parametrize(
    ("board", "cell", "status"),
    [
        ("XX.OO....", 2, "x-won"),  # X X . / O O . / . . .  X takes the row
        ("XOXXOOOX.", 8, "draw"),  # X O X / X O O / O X .  the last square
        ("XX.OO.X..", 5, "o-won"),  # X X . / O O . / X . .  O takes the row
    ],
)
def test_the_api_says_when_a_move_ends_the_game(client, board, cell, status):
    body = client.post("/api/move", json={"board": board, "level": "minimax"}).get_json()
    assert body == {"cell": cell, "board": parse(board).play(cell).board, "status": status}


BAD_ANALYSES = [
    ("", "Give the board"),
    ("?board=", "A board has 9, 16, 25, 49 or 225 cells (3×3, 4×4, 5×5, 7×7 or 15×15); this one has 0."),
    ("?board=XO", "A board has 9, 16, 25, 49 or 225 cells (3×3, 4×4, 5×5, 7×7 or 15×15); this one has 2."),
    ("?board=XXXX.....", "X has 4 marks and O has 0"),
    ("?board=xo.......", "Cell 0 holds 'x'"),
    ("?board=XXXOO....", "The game is over (won by X)"),  # X X X / O O . / . . .
    ("?board=XOXXOOOXX", "The game is over (a draw)"),  # X O X / X O O / O X X
]


@pytest.mark.parametrize(("query", "message"), BAD_ANALYSES)
def test_a_bad_analysis_request_is_a_400_with_a_reason(client, query, message):
    response = client.get(f"/api/analyze{query}")
    assert response.status_code == 400
    assert response.is_json
    assert message in response.get_json()["error"]


BAD_MOVES_BODIES = [
    ({"data": "board=X........&level=minimax"}, 415, "Content-Type: application/json"),
    ({"data": '{"board": "X........"', "content_type": "application/json"}, 400, "not valid JSON"),
    ({"data": b"\xff\xfe", "content_type": "application/json"}, 400, "not valid JSON"),
    ({"data": "", "content_type": "application/json"}, 400, "not valid JSON"),
    ({"data": "[" * 2000 + "]" * 2000, "content_type": "application/json"}, 400, "nested too deeply"),
    ({"data": "[" * 4000, "content_type": "application/json"}, 400, "nested too deeply"),
    ({"data": " " * 70_000, "content_type": "application/json"}, 413, "too large"),
    ({"json": ["X........", "minimax"]}, 400, "must be a JSON object"),
    ({"data": "null", "content_type": "application/json"}, 400, "must be a JSON object"),
    ({"json": "X........"}, 400, "must be a JSON object"),
    ({"json": {"level": "minimax"}}, 400, 'needs a "board" field'),
    ({"json": {"board": "X...O...."}}, 400, 'needs a "level" field'),
    ({"json": {"board": 12, "level": "minimax"}}, 400, 'The "board" field must be a string'),
    ({"json": {"board": None, "level": "minimax"}}, 400, 'The "board" field must be a string'),
    ({"json": {"board": list("X...O...."), "level": "minimax"}}, 400, 'The "board" field must be a string'),
    ({"json": {"board": "X...O....", "level": 3}}, 400, 'The "level" field must be a string'),
    (
        {"json": {"board": "X...O", "level": "minimax"}},
        400,
        "A board has 9, 16, 25, 49 or 225 cells (3×3, 4×4, 5×5, 7×7 or 15×15); this one has 5.",
    ),
    ({"json": {"board": "OO.......", "level": "minimax"}}, 400, "X has 0 marks and O has 2"),
    ({"json": {"board": "XXXOO....", "level": "minimax"}}, 400, "The game is over (won by X)"),
    ({"json": {"board": "X...O....", "level": "hard"}}, 400, "Unknown level 'hard'; choose one of: random"),
    ({"json": {"board": "X...O....", "level": ""}}, 400, "Unknown level ''"),
]


@pytest.mark.parametrize(("request_args", "status", "message"), BAD_MOVES_BODIES)
def test_a_bad_move_request_is_refused_with_a_reason(client, request_args, status, message):
    response = client.post("/api/move", **request_args)
    assert response.status_code == status
    assert response.is_json
    assert message in response.get_json()["error"]


def test_the_api_only_takes_its_own_methods(client):
    response = client.get("/api/move")
    assert response.status_code == 405
    assert response.get_json() == {"error": "This address does not take that kind of request."}


def test_a_change_made_in_the_settings_form_does_not_redraw_it_but_one_made_elsewhere_does(client):
    # Redrawing the form after its own change would undo a second dropdown changed meanwhile.
    form = {
        "board": "3x3",
        "mode": "hvc",
        "human": "X",
        "difficulty": "minimax",
        "x_level": "minimax",
        "o_level": "one-ply",
    }
    changed = send(client, "/levels", headers=HX, **form).get_data(as_text=True)
    assert 'id="setup" hx-swap-oob' not in changed
    assert 'id="setup-summary" hx-swap-oob' in changed  # the one-line summary follows
    send(client, "/move", cell=4)
    while page(client)["status"] == "playing":
        send(client, "/move", cell=page(client)["board"].index("."))
    swapped = send(client, "/new", start=1, human="O", headers=HX).get_data(as_text=True)
    assert 'id="setup" hx-swap-oob' in swapped
    assert '<option value="O" selected>' in swapped


# Nearly full, so that any engine answers at once: X O X O / X O X O / O X O X / . . . .
FOUR = "XOXOXOXOOXOX...."


@pytest.mark.parametrize("board", [FOUR, "X" + "." * 23 + "O", "." * 24 + "X" + "." * 24, "." * 112 + "X" + "." * 112])
def test_the_api_analyses_every_board_and_proves_only_what_it_proves(client, board):
    body = client.get(f"/api/analyze?board={board}").get_json()
    assert body["board"] == board and body["status"] == "playing"
    assert [move["cell"] for move in body["moves"]] == [i for i, c in enumerate(board) if c == "."]
    for move in body["moves"]:
        # A result is a proved one with its plies, or "unclear" with none: never a guess dressed as a proof.
        assert (move["result"], move["plies"] is None) in {
            ("win", False),
            ("draw", False),
            ("loss", False),
            ("unclear", True),
        }


@pytest.mark.parametrize("board", [FOUR, "." * 25, "." * 49, "." * 224 + "X"])
def test_the_api_plays_on_every_board(client, board):
    body = client.post("/api/move", json={"board": board, "level": "one-ply"}).get_json()
    assert board[body["cell"]] == "." and len(body["board"]) == len(board) and body["status"] == "playing"
