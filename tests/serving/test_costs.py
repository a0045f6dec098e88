"""What a request may cost: its searches' own CPU clock, their deadline, their pauses and their places."""

import socket
import time

import pytest
from support import HX, page, send

from webapp.engine import pacing
from webapp.engine.boards import board_for, position
from webapp.engine.rules import InvalidMoveError
from webapp.serving import costs
from webapp.serving.places import Busy, ClientGone, SearchQueue
from webapp.web import budgets, learn


@pytest.fixture
def app(app):
    """The game, with a stand-in for a search: a route that reads its pace, begins, and pauses as a search does,
    counting its steps."""
    seen = app.extensions["seen_paces"] = []
    steps = app.extensions["search_steps"] = []

    @app.get("/search-for-the-test")
    def search():
        pace = pacing.current()
        seen.append(pace)
        start = pace.clock()
        pace.begin()
        for _ in range(3):
            steps.append(1)
            pace.pause()
        return {"left": pace.deadline - start}

    @app.get("/api/search-for-the-test")
    def api_search():
        return search()

    @app.get("/failing-search-for-the-test")
    def failing_search():
        pacing.current().pause()
        raise ValueError("a search that fails")

    return app


def test_each_request_gets_a_pace_of_its_own_with_a_deadline_for_all_its_searches(client):
    first = client.get("/search-for-the-test")
    client.get("/search-for-the-test")
    assert 0 < first.get_json()["left"] <= costs.REQUEST_SECONDS
    assert first.get_json()["left"] > costs.REQUEST_SECONDS - 0.1  # counted from the start of the request
    seen = client.application.extensions["seen_paces"]
    assert seen[0] is not seen[1]
    assert pacing.current() is pacing.ALONE  # and taken down after each request


@pytest.mark.parametrize("path", ["/tree", "/tree/children"])
def test_the_game_trees_searches_stop_sooner_than_a_games_to_leave_time_for_drawing_it(client, monkeypatch, path):
    left = []

    def explore(board, path, open_last=True):
        pace = pacing.current()
        left.append(pace.deadline - pace.clock())
        raise InvalidMoveError("stop here: only the pace was wanted")

    monkeypatch.setattr(learn, "explore", explore)
    answer = client.get(path, query_string={"board": "15x15", "path": "112"})
    assert answer.status_code == 400
    assert budgets.TREE_SECONDS - 0.1 < left[0] <= budgets.TREE_SECONDS < costs.REQUEST_SECONDS


def test_a_search_that_paused_gives_its_place_back_when_the_request_ends(client):
    places = client.application.extensions["search_places"]
    client.get("/search-for-the-test")
    assert places.running == {}
    with pytest.raises(ValueError, match="a search that fails"):
        client.get("/failing-search-for-the-test")  # testing: the error surfaces
    assert places.running == {}


@pytest.mark.parametrize(
    ("path", "headers", "kind"),
    [
        ("/search-for-the-test", {}, "text/html"),
        ("/search-for-the-test", HX, "text/html"),
        ("/api/search-for-the-test", {}, "application/json"),
    ],
)
def test_a_client_whose_search_is_under_way_gets_429_before_a_step(client, path, headers, kind):
    places = client.application.extensions["search_places"]
    places.hold = 0  # answered at once, not when the other search ends
    places.begin("127.0.0.1")  # a search of this client's, under way in another request
    steps = client.application.extensions["search_steps"]
    refused = client.get(path, headers=headers)
    assert refused.status_code == 429
    assert steps == []  # refused before its search took a step
    assert 1 <= int(refused.headers["Retry-After"]) <= places.typical + 1
    assert refused.mimetype == kind
    assert "The computer is busy" in refused.get_data(as_text=True)
    assert "Traceback" not in refused.get_data(as_text=True)
    assert refused.headers["Cache-Control"] == "no-store"
    places.leave("127.0.0.1")
    assert client.get(path, headers=headers).status_code == 200
    assert len(steps) == 3


@pytest.mark.parametrize(
    ("address", "client_key"),
    [
        ("192.0.2.7", "192.0.2.7"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("not an address", "unknown"),
    ],
)
def test_a_client_is_an_ipv4_address_or_an_ipv6_64(client, address, client_key):
    places = client.application.extensions["search_places"]
    places.hold = 0
    places.begin(client_key)
    refused = client.get("/search-for-the-test", environ_base={"REMOTE_ADDR": address})
    assert refused.status_code == 429
    places.leave(client_key)
    neighbour = "2001:db8:1:2::2" if client_key != "2001:db8:1:2::/64" else "2001:db8:1:3::2"
    places.begin(costs.client_key(neighbour))
    assert client.get("/search-for-the-test", environ_base={"REMOTE_ADDR": address}).status_code == 200


def test_a_search_whose_client_has_gone_stops_at_its_next_pause_and_gives_its_place_back(client):
    places = client.application.extensions["search_places"]
    ours, theirs = socket.socketpair()
    with ours:
        theirs.close()  # the client has gone
        answer = client.get("/search-for-the-test", environ_overrides={"gunicorn.socket": ours})
    assert answer.status_code == ClientGone.code
    assert client.application.extensions["search_steps"] == [1]  # it stopped at its first pause
    assert places.running == {} and places.searching == {}
    assert client.get("/search-for-the-test").status_code == 200


def test_a_client_that_is_still_there_is_not_taken_for_gone():
    ours, theirs = socket.socketpair()
    with ours, theirs:
        assert not costs.connection_closed(ours)
        theirs.sendall(b"GET /next HTTP/1.1\r\n")  # more to read is not a close
        assert not costs.connection_closed(ours)
    assert costs.connection_closed(ours)  # closed on our side
    assert not costs.connection_closed(None)  # no socket to watch (the test client's own requests)


def test_the_request_clock_leaves_out_the_time_it_spent_paused():
    now = [10.0]
    clock = costs.RequestClock(lambda: now[0])
    now[0] = 10.5
    assert clock() == 0.5
    clock.stop()
    now[0] = 13.0  # others ran for 2.5 s
    clock.start()
    assert clock() == 0.5
    now[0] = 13.25
    assert clock() == 0.75


def test_a_search_claims_its_client_when_it_begins_and_asks_for_a_place_at_its_first_pause():
    places = SearchQueue(searches=1, limit=0, hold=0)
    paced = costs.RequestPace(places, "192.0.2.1")
    paced.begin()
    paced.begin()  # the request's next search: the client's claim is its own already
    assert set(places.searching) == {"192.0.2.1"} and places.running == {}
    paced.pause()
    paced.pause()
    assert paced.placed and set(places.running) == {"192.0.2.1"}
    same = costs.RequestPace(places, "192.0.2.1")
    with pytest.raises(Busy):
        same.begin()  # the same client's other request: refused before its first step
    other = costs.RequestPace(places, "192.0.2.2")
    other.begin()
    with pytest.raises(Busy):
        other.pause()  # no wait is allowed, and the place is taken
    other.end()
    same.end()  # refused, it claimed nothing: the first request's claim stands
    assert set(places.searching) == {"192.0.2.1"}
    paced.end()
    assert places.running == {} and places.searching == {}
    other = costs.RequestPace(places, "192.0.2.2")
    other.pause()
    assert set(places.running) == {"192.0.2.2"}


# --- what the costliest requests cost, on every board ---------------------------------------------------

# The outside review's costliest inputs and their kin: a 5×5 position outside the opening book (10 s at
# Impossible), 4×4 after one move, a 15×15 middle game with threats for both sides (a lost game's position),
# a 7×7 one, and the trees, hints and move values on each.
FIVE_OUT_OF_BOOK = "O.........X.............."
FOUR_EARLY = "X..............O"
FIFTEEN_BUSY = (
    ".........................O.........O..OX.........O.X.X...........XOXX............XOXO.......X..OOXXXOX......O"
    ".XOXO.O.......OXXXXO...........XOO...........OOXO............X.O...................................................."
)
SEVEN_BUSY = "......." + "..XO..." + ".OXXO.." + "..OXX.." + "...O..." + "......." + "......."
ONE_SECOND = 1.0


def costly_requests():
    yield "POST", "/api/move", {"json": {"board": FIVE_OUT_OF_BOOK, "level": "minimax"}}
    yield "POST", "/api/move", {"json": {"board": FOUR_EARLY, "level": "minimax"}}
    for board in (FIFTEEN_BUSY, SEVEN_BUSY):
        for level in ("minimax", "one-ply"):
            yield "POST", "/api/move", {"json": {"board": board, "level": level}}
    for board in (FIVE_OUT_OF_BOOK, FOUR_EARLY, FIFTEEN_BUSY, SEVEN_BUSY, "." * 225):
        yield "GET", "/api/analyze", {"query_string": {"board": board}}
    for board, length in ((FIFTEEN_BUSY, 3), (SEVEN_BUSY, 3), (FIVE_OUT_OF_BOOK, 9), (FOUR_EARLY, 9)):
        path = central_path(board, length)
        yield "GET", "/tree", {"query_string": {"board": board, "path": path}}
        yield "GET", "/tree/children", {"query_string": {"board": board, "path": path, "fold": "1"}}


def central_path(board: str, length: int) -> str:
    """The deepest path the tree opens: ``length`` moves on the empty squares nearest the centre, a game
    that goes on after each of them."""
    pos, n, path = position(board), board_for(board).n, []
    while len(path) < length:
        centre = (n - 1) / 2
        cell = min(
            (c for c in pos.legal_moves() if not pos.play(c).is_over()),
            key=lambda c: (abs(c // n - centre) + abs(c % n - centre), c),
        )
        pos, path = pos.play(cell), [*path, cell]
    return ".".join(map(str, path))


@pytest.mark.parametrize(("method", "path", "options"), list(costly_requests()))
def test_no_request_costs_more_than_a_second_of_cpu(client, method, path, options):
    start = time.process_time()
    response = client.open(path, method=method, **options)
    spent = time.process_time() - start
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert spent <= ONE_SECOND, f"{method} {path} cost {spent:.2f} s of CPU"


@pytest.mark.parametrize("board", ["4x4", "5x5", "7x7", "15x15"])
def test_a_game_on_a_big_board_costs_less_than_a_second_a_request_with_its_help_shown(client, board):
    # Move values and hints on: the page then shows the engine's proved facts beside the board, every move.
    send(client, "/new", board=board, difficulty="minimax", start=1)
    send(client, "/values", show=1)
    for cell in (0, 1, 2):
        start = time.process_time()
        response = client.post("/move", data={"game": page(client)["game"], "cell": cell}, headers=HX)
        hinted = client.get("/?hint=1")
        spent = time.process_time() - start
        assert response.status_code in (200, 409) and hinted.status_code == 200
        assert spent <= 2 * ONE_SECOND, f"a move and a hint on {board} cost {spent:.2f} s of CPU"
