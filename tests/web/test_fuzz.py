"""Property-based fuzzing of every route: whatever arrives, never a 5xx, and the saved game survives.

The example counts here are sized for CI; `make fuzz` runs the same properties with many more
(the "fuzz" Hypothesis profile, registered in conftest.py).
"""

from __future__ import annotations

import gzip
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from itsdangerous import BadSignature
from support import HX
from werkzeug.test import EnvironBuilder, run_wsgi_app

from webapp import create_app
from webapp.engine.boards import BOARDS
from webapp.match import LEVELS, MODES, Settings, Table
from webapp.web import state

CONFIG = {"TESTING": True, "SECRET_KEY": "fuzz", "RANDOM_SEED": 11}
METHODS = ("GET", "POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS")
FIELDS = (
    "cell",
    "game",
    "board",
    "mode",
    "human",
    "difficulty",
    "x_level",
    "o_level",
    "paused",
    "show",
    "confirm",
    "start",
)
BOARD_KEYS = tuple(board.key for board in BOARDS)
WORDS = (*MODES, *LEVELS, *BOARD_KEYS, "9x9", "3X3", "X", "O", "0", "1", "8", "9", "15", "224", "225", "-1", "")
QUERY = ("board", "path", "fold", "pruning", "hint", "level", "moves")

# Text of every kind: short words the game knows, digits, markup, and long or odd strings.
values = st.one_of(
    st.sampled_from(WORDS),
    st.from_regex(r"[0-9]{1,6000}", fullmatch=True),
    st.from_regex(r"[XO.]{0,12}", fullmatch=True),
    st.text(max_size=60),
    st.text(alphabet="<>&\"'%{}|\\ \t\n", max_size=20),
)
headers = st.fixed_dictionaries(
    {},
    optional={
        "HX-Request": st.sampled_from(["true", "false", ""]),
        "HX-History-Restore-Request": st.just("true"),
        "Sec-Fetch-Site": st.sampled_from(["same-origin", "none", "same-site", "cross-site", "junk"]),
        "Origin": st.sampled_from(["http://localhost", "https://localhost", "http://evil.example", "null", ""]),
        "X-Forwarded-Proto": st.sampled_from(["https", "http", "gopher"]),
        "Accept-Encoding": st.sampled_from(["gzip", "br", "identity", "*"]),
    },
)


APP = create_app(CONFIG)  # one app for every example: building one per example made shrinking crawl


def app_and_client():
    return APP, APP.test_client()


def signer(app):
    return app.session_interface.get_signing_serializer(app)


def saved_game(app, client) -> str | None:
    """The game line in the client's session cookie (None with no cookie), checked to read back."""
    cookie = client.get_cookie("session")
    if cookie is None or not cookie.value:
        return None
    return game_line(app, cookie.value)


def game_line(app, cookie: str) -> str:
    """The game line of a cookie the app wrote; fails unless it reads back as a legal game."""
    data = signer(app).loads(cookie)
    assert set(data) <= set(state.FIELDS), data
    state._decode(data["game"])  # raises if what we saved does not read back as a legal game
    return data["game"]


def set_session(response) -> str | None:
    """The session cookie a response sets, if it sets one."""
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith("session="):
            return header.split(";", 1)[0].removeprefix("session=")
    return None


def cookie_payloads(app):
    """Signed payloads of every shape: our own lines, near misses, other JSON, and junk."""
    line = state._encode(Table())["game"]
    ours = st.builds(lambda moves: {"game": line.replace("||", f"|{moves}|", 1)}, st.from_regex(r"[0-8]{0,9}"))
    # The same on every board, with moves in the bigger boards' alphabet (two characters each on 15×15).
    lines = [state._encode(Table(settings=Settings(board=key, mode="hvh")))["game"] for key in BOARD_KEYS]
    ours_big = st.builds(
        lambda line, moves: {"game": line.replace("||", f"|{moves}|", 1)},
        st.sampled_from(lines),
        st.from_regex(r"[0-9a-zA-Z_-]{0,14}", fullmatch=True),
    )
    near = st.builds(lambda text: {"game": text}, st.text(alphabet="0123456789|abcdefghnoprvxy-_XOZ", max_size=80))
    other = st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
        max_leaves=6,
    )
    signed = st.one_of(ours, ours_big, near, other, st.just({"game": line})).map(lambda data: signer(app).dumps(data))
    return st.one_of(signed, st.text(alphabet="abcXYZ.-_0189", max_size=80), st.just(""))


def readable_game(app, cookie) -> str | None:
    """The game line of a cookie if it is one the app would read, else None."""
    try:
        return game_line(app, cookie.value) if cookie is not None and cookie.value else None
    except (BadSignature, AssertionError, ValueError, KeyError, TypeError, AttributeError):
        return None


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_no_request_gets_a_5xx_and_a_refusal_changes_nothing(data):
    app, client = app_and_client()
    routes = sorted({rule.rule for rule in app.url_map.iter_rules()} | {"/nowhere", "/static//app.js"})
    if data.draw(st.booleans(), label="with a cookie"):
        client.set_cookie("session", data.draw(cookie_payloads(app), label="cookie"))
    else:
        client.get("/")  # a fresh game, saved
    for _ in range(data.draw(st.integers(1, 4), label="requests")):
        path = data.draw(st.sampled_from(routes), label="path").replace("<path:filename>", "app.js")
        method = data.draw(st.sampled_from(METHODS), label="method")
        form = data.draw(st.dictionaries(st.sampled_from(FIELDS), values, max_size=4), label="form")
        query = data.draw(st.dictionaries(st.sampled_from(QUERY), values, max_size=3), label="query")
        sent = data.draw(headers, label="headers")
        before = readable_game(app, client.get_cookie("session"))
        response = client.open(path, method=method, data=form, query_string=query, headers=sent)
        assert response.status_code < 500, (method, path, form, query, sent)
        raw = response.get_data()
        if response.headers.get("Content-Encoding") == "gzip":  # pages too are compressed on request
            raw = gzip.decompress(raw)
        body = raw.decode()
        response.close()  # a file's response (a HEAD to a static file) holds the file open until closed
        assert "Traceback" not in body and "Exceeds the limit" not in body
        written = set_session(response)
        if written:
            after = game_line(app, written)  # whatever the app saves reads back
            if 400 <= response.status_code < 500 and before is not None:
                assert after == before  # a refused request leaves the saved game as it was


class PlayerActions(RuleBasedStateMachine):
    """A player who clicks anything in any order, with current and outdated pages, in both ways of
    sending forms; after every action the game reads back and nothing answered with a 5xx."""

    @initialize()
    def start(self):
        self.app, self.client = app_and_client()
        self.client.post("/new", data={"game": Table().digest, "start": "1"})  # a first game, saved
        self.old_digests: list[str] = []

    def digest(self, fresh: bool) -> str:
        if fresh or not self.old_digests:
            return self.current().digest
        return self.old_digests[-1]

    def current(self) -> Table:
        return state._decode(saved_game(self.app, self.client))

    def send(self, path: str, fresh: bool, htmx: bool, **fields) -> None:
        before = saved_game(self.app, self.client)
        table = self.current()
        data = {"game": self.digest(fresh), **{name: str(value) for name, value in fields.items()}}
        response = self.client.post(path, data=data, headers=HX if htmx else {})
        assert response.status_code < 500
        if 400 <= response.status_code < 500:
            assert saved_game(self.app, self.client) == before  # refused: the game exactly as it was
        elif self.current().digest != table.digest:
            self.old_digests.append(table.digest)

    @rule(cell=st.integers(-1, 225), fresh=st.booleans(), htmx=st.booleans())
    def move(self, cell, fresh, htmx):
        self.send("/move", fresh, htmx, cell=cell)

    @rule(fresh=st.booleans(), htmx=st.booleans())
    def undo(self, fresh, htmx):
        self.send("/undo", fresh, htmx)

    @rule(
        board=st.sampled_from((*BOARD_KEYS, "9x9")),
        mode=st.sampled_from(MODES),
        human=st.sampled_from("XO"),
        level=st.sampled_from(LEVELS),
        start=st.booleans(),
        confirm=st.booleans(),
        fresh=st.booleans(),
        htmx=st.booleans(),
    )
    def new(self, board, mode, human, level, start, confirm, fresh, htmx):
        extra = {"start": 1} if start else {}
        if confirm:
            extra["confirm"] = 1
        fields = {"mode": mode, "human": human, "difficulty": level, "x_level": level, "board": board}
        self.send("/new", fresh, htmx, **fields, **extra)

    @rule(level=st.sampled_from(LEVELS), fresh=st.booleans(), htmx=st.booleans())
    def levels(self, level, fresh, htmx):
        self.send("/levels", fresh, htmx, difficulty=level, o_level=level)

    @rule(paused=st.sampled_from([0, 1]), fresh=st.booleans(), htmx=st.booleans())
    def pause(self, paused, fresh, htmx):
        self.send("/pause", fresh, htmx, paused=paused)

    @rule(fresh=st.booleans(), htmx=st.booleans())
    def step(self, fresh, htmx):
        self.send("/step", fresh, htmx)

    @rule(show=st.sampled_from([0, 1]), fresh=st.booleans(), htmx=st.booleans())
    def values(self, show, fresh, htmx):
        self.send("/values", fresh, htmx, show=show)

    @rule(confirm=st.booleans(), fresh=st.booleans(), htmx=st.booleans())
    def reset_score(self, confirm, fresh, htmx):
        self.send("/score/reset", fresh, htmx, **({"confirm": 1} if confirm else {}))

    @precondition(lambda self: hasattr(self, "client"))
    @rule(hint=st.booleans())
    def look(self, hint):
        response = self.client.get("/?hint=1" if hint else "/")
        assert response.status_code == 200
        assert "could not be read" not in response.get_data(as_text=True)

    @invariant()
    def the_game_reads_back(self):
        if hasattr(self, "client"):
            table = self.current()
            for tally in (table.score.easy, table.score.medium, table.score.impossible, table.score.hvh):
                assert min(tally.first, tally.second, tally.draws) >= 0


TestPlayerActions = PlayerActions.TestCase
TestPlayerActions.settings = settings(
    stateful_step_count=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@pytest.mark.parametrize("payload", [[1, 2], "text", 42, None, {"game": {" m": "<b>x</b>"}}, {" t": [1]}])
def test_any_signed_payload_reads_as_a_game(payload):
    app, client = app_and_client()
    client.set_cookie("session", signer(app).dumps(payload))
    response = client.get("/")
    assert response.status_code == 200
    assert "Your saved game could not be read" in response.get_data(as_text=True)
    assert json.loads(json.dumps(signer(app).loads(client.get_cookie("session").value)))["game"]


# --- the Host header, which Werkzeug binds every address to -------------------------------------------

label = st.one_of(
    st.from_regex(r"[a-z0-9-]{0,70}", fullmatch=True),  # empty, and longer than a label's 63 characters
    st.text(max_size=20),
    st.sampled_from(["xn--", "xn--a", "xn--ls8h", "é", "ß", "*", "localhost"]),
)
hosts = st.one_of(
    st.builds(".".join, st.lists(label, min_size=1, max_size=5)),
    st.builds(
        lambda name, port: f"{name}:{port}",
        st.builds(".".join, st.lists(label, min_size=1, max_size=3)),
        st.text(max_size=8),
    ),
    st.text(max_size=300),
)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(
    host=hosts,
    path=st.sampled_from(["/healthz", "/", "/tree", "/review?moves=4.0", "/api/analyze?board=.........", "/nowhere"]),
)
def test_no_host_header_gets_a_5xx(host, path):
    # Straight to the app: Werkzeug's test client itself fails on some of these names, before any app sees them.
    environ = EnvironBuilder(path=path).get_environ()
    environ["HTTP_HOST"] = host
    body, status, _ = run_wsgi_app(APP.wsgi_app, environ, buffered=True)
    assert int(status.split()[0]) < 500, (host, path, status)
    assert b"Traceback" not in b"".join(body)


# --- the game tree on every board, along any path, opened or folded ------------------------------------


@pytest.mark.parametrize("board", BOARDS, ids=BOARD_KEYS)
@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_tree_path_gets_a_5xx_on_any_board(board, data):
    _, client = app_and_client()
    cells = st.integers(-1, board.cells)
    path = data.draw(st.lists(cells, max_size=4).map(lambda moves: ".".join(map(str, moves))), label="path")
    query = {"board": board.key, "path": path}
    if data.draw(st.booleans(), label="fold"):
        query["fold"] = "1"
    if data.draw(st.booleans(), label="pruning"):
        query["pruning"] = "1"
    route = data.draw(st.sampled_from(["/tree", "/tree/children"]), label="route")
    response = client.get(route, query_string=query, headers=data.draw(headers, label="headers"))
    assert response.status_code < 500, (route, query)
    assert response.status_code in (200, 400), (route, query, response.status_code)
