"""The saved game: the one line of text in the signed session cookie, and what reading it back gives.

These tests talk to webapp.web.state directly inside a request context, without rendering a page, so
that they are quick enough for the mutation run (`make mutate`); tests/web/test_game.py covers the
same cookie through the routes.
"""

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from flask import session
from flask.sessions import SecureCookieSessionInterface
from support import full_15x15_draw

from webapp import create_app
from webapp.match import MOST, Score, Scores, Settings, Table, Tally, is_game_id
from webapp.web import state

# Version | board | mode | side | levels: difficulty, X, O | counts as | moves | paused | values | practice |
# game id | game number
GOOD = "6|3x3|hvc|X|one-ply|minimax|one-ply|one-ply|40|0|0|0|0123456789ab|1"
# The score's own cookie: version | the latest game counted | the floor | the number and id of the last games counted |
# for each board (3×3, 4×4, 5×5, 7×7, 15×15), 3 counts (first side, second side, draws) each for Easy, Medium,
# the top level, Human vs Human, Computer vs Computer.
SCORE = "2|3|0|2:00000000000f" + "|0" * 75
NOTHING_YET = "2|0|0|"  # the start of a score's line before any game
# Lines of the versions before this one (4 kept the score inside; 3 and 2 were for 3×3 alone), and of one after.
OTHER_VERSIONS = [
    "4|3x3|hvc|X|one-ply|minimax|one-ply|one-ply|40|0|0" + "|0" * 75,
    "3|hvc|X|one-ply|minimax|one-ply|one-ply|40|0|0" + "|0" * 15,
    "2|hvc|X|minimax|minimax|one-ply|40|0|0|5|1|2|3|4|6|7|8|9",
    "5|3x3|hvc|X|one-ply|minimax|one-ply|one-ply|40|0|0|0123456789ab",
    GOOD.replace("6|", "7|", 1),
]
GAME_ID = "0123456789ab"


FULL_DRAW = full_15x15_draw()


def sign(app, data) -> str:
    return app.session_interface.get_signing_serializer(app).dumps(data)


def sign_score(app, line: str) -> str:
    interface = app.session_interface
    return interface.get_signing_serializer(app, interface.score_salt).dumps(line)


NO_COOKIE = object()


def cookies(app, data=NO_COOKIE, score: str | None = None) -> str:
    """A Cookie header with the session holding ``data`` and the score's cookie holding ``score``."""
    found = [] if data is NO_COOKIE else [f"session={sign(app, data)}"]
    return "; ".join(found + ([] if score is None else [f"session_score={sign_score(app, score)}"]))


def loaded_from(app, data, score: str | None = None, **context) -> state.Loaded:
    """What load() makes of cookies holding ``data`` and the score ``score``, signed with the app's key."""
    with app.test_request_context(headers={"Cookie": cookies(app, data, score)}, **context):
        return state.load_table()


def fresh(loaded: state.Loaded) -> state.Loaded:
    """``loaded`` with what a new game draws set aside once checked: a random id, and the next number."""
    table = loaded.table
    assert is_game_id(table.game_id) and table.number == table.scores.next_number() > table.scores.floor
    return replace(loaded, table=replace(table, game_id="", number=0))


def saved(app, table: Table, **notice) -> tuple[dict, str | None]:
    """What save() leaves to be written: the session's data, and the score's line if it is written."""
    with app.test_request_context():
        state.save(table, **notice)
        return dict(session), session.score_to_write


def saved_line(app, table: Table) -> str:
    return saved(app, table)[0]["game"]


def test_a_table_is_saved_as_one_line_in_the_documented_order_and_its_score_as_another(app):
    table = Table(
        settings=Settings(mode="hvh", human="O", difficulty="random", x_level="one-ply", o_level="minimax"),
        moves=(4, 0, 3),
        paused=True,
        show_values=True,
        scores=Scores.on(
            "4x4", Score(Tally(1, 2, 3), Tally(4, 5, 6), Tally(7, 8, 9), Tally(10, 11, 12), Tally(13, 14, MOST))
        )
        .with_counted(1, "00000000000a")
        .with_counted(2, GAME_ID),
        counts_as="minimax",
        game_id=GAME_ID,
        number=2,
    )
    table = replace(table, settings=replace(table.settings, board="7x7"), moves=(48, 10, 3))
    data, score = saved(app, table)
    assert data == {"game": "6|7x7|hvh|O|random|one-ply|minimax|minimax|Ma3|1|1|0|0123456789ab|2"}
    assert score == (
        "2|2|0|1:00000000000a,2:0123456789ab" + "|0" * 15 + "|1|2|3|4|5|6|7|8|9|10|11|12|13|14|999999999" + "|0" * 45
    )


@pytest.mark.parametrize(
    "table",
    [
        Table(game_id=GAME_ID),
        Table(settings=Settings(human="O", difficulty="minimax"), moves=(4,), counts_as="random", game_id=GAME_ID),
        Table(
            settings=Settings(mode="cvc", x_level="random", o_level="minimax"),
            moves=(0, 4, 8),
            paused=True,
            game_id=GAME_ID,
        ),
        Table(
            show_values=True,
            scores=Scores.on("3x3", Score(easy=Tally(1, 0, 0), impossible=Tally(0, 0, 2), cvc=Tally(0, 3, 0))),
            game_id=GAME_ID,
        ),
        # A whole drawn game: nine moves, the most the 3×3 board holds, counted.
        Table(
            settings=Settings(mode="hvh"),
            moves=(0, 4, 8, 1, 7, 6, 2, 5, 3),
            scores=Scores.on("3x3", Score(hvh=Tally(0, 0, 1)), latest=1).with_counted(1, GAME_ID),
            game_id=GAME_ID,
            number=1,
        ),
        # A practice game, from a link.
        Table(moves=(4, 0), game_id=GAME_ID, practice=True),
        # Every board, with moves in its last cells, where their characters are the rarest.
        Table(settings=Settings(board="4x4", mode="hvh"), moves=(15, 14, 0), game_id=GAME_ID),
        Table(settings=Settings(board="5x5", mode="hvh"), moves=(24, 23), game_id=GAME_ID),
        Table(
            settings=Settings(board="7x7", difficulty="minimax"), moves=(48, 47, 0), counts_as="random", game_id=GAME_ID
        ),
        Table(settings=Settings(board="15x15", mode="hvh"), moves=(224, 0, 63, 64, 65, 112), game_id=GAME_ID),
        # A whole 15×15 game, the longest line there is, with scores on two boards and a full ledger.
        Table(
            settings=Settings(board="15x15", mode="hvh"),
            moves=FULL_DRAW,
            scores=Scores.on("15x15", Score(hvh=Tally(0, 0, 1)))
            .with_score("5x5", Score(easy=Tally(2, 0, 0)))
            .with_counted(1, "fffffffffff1")
            .with_counted(2, "fffffffffff2")
            .with_counted(3, "fffffffffff3")
            .with_counted(4, "fffffffffff4")
            .with_counted(5, GAME_ID),
            game_id=GAME_ID,
            number=5,
        ),
    ],
)
def test_what_is_saved_reads_back_unchanged(app, table):
    data, score = saved(app, table)
    assert loaded_from(app, data, score) == state.Loaded(table)


def test_a_score_of_nothing_is_not_written_until_there_is_one(app):
    assert saved(app, Table(game_id=GAME_ID))[1] is None
    with app.test_request_context(headers={"Cookie": cookies(app, {"game": GOOD}, SCORE)}):
        state.save(state.load_table().table)
        assert session.score_to_write == SCORE  # there was one: it is kept up to date


def test_the_score_cookie_is_only_sent_when_the_score_changed(client):
    # A game about to be won by X at 2, in Human vs Human, so that no computer reply comes between.
    game = "6|3x3|hvh|X|one-ply|minimax|one-ply|one-ply|0314|0|0|0|0123456789ab|3"
    client.set_cookie("session", sign(client.application, {"game": game}))
    client.set_cookie("session_score", sign_score(client.application, SCORE))
    digest = state._decode(game).digest
    shown = client.post("/values", data={"game": digest, "show": "1"})
    assert [c for c in shown.headers.getlist("Set-Cookie") if c.startswith("session_score=")] == []
    won = client.post("/move", data={"game": digest, "cell": "2"})
    written = [c for c in won.headers.getlist("Set-Cookie") if c.startswith("session_score=")]
    assert len(written) == 1
    assert "HttpOnly" in written[0] and "SameSite=Lax" in written[0]


@pytest.mark.parametrize("line", OTHER_VERSIONS)
def test_a_line_of_another_version_starts_a_new_game_says_so_and_keeps_the_score(app, line):
    score = NOTHING_YET + "|1|2|3" + "|0" * 72
    loaded = loaded_from(app, {"game": line}, score)
    assert fresh(loaded) == state.Loaded(
        Table(scores=Scores.on("3x3", Score(easy=Tally(1, 2, 3)))), state.OUTDATED, reset=True
    )


def test_every_field_of_a_count_reads_back_at_its_widest(app):
    nines = "|999999999" * 75
    widest = Score(*[Tally(MOST, MOST, MOST)] * 5)
    assert loaded_from(app, {"game": GOOD}, "2|1|0|" + nines).table.scores == Scores((widest,) * 5, latest=1)


def test_boards_with_no_games_share_one_all_nought_score():
    # Most boards' scores are all nought: decoding makes no new Score for them (one shared value).
    scores = state._decode_scores(NOTHING_YET + "|0" * 15 + "|1" + "|0" * 59).boards
    assert scores[1] == Score(easy=Tally(1, 0, 0))
    assert all(scores[i] is scores[0] for i in (2, 3, 4))
    assert scores[0] == Score()


@pytest.mark.parametrize(
    "line",
    [
        SCORE[:-2] + "|1234567890",  # a count of 10 digits: wider than any score
        SCORE[:-2] + "|-1",
        SCORE + "|0",  # a count too many
        SCORE[:-2],  # a count too few
        SCORE.replace("2|", "3|", 1),  # a version from the future
        SCORE.replace("2|", "1|", 1),  # a version before it
        SCORE.replace("00000000000f", "00000000000F"),  # ids are lower-case hex
        SCORE.replace("00000000000f", "0000000000f"),  # and 12 digits long
        SCORE.replace("2:00000000000f", ",".join(f"{n}:{GAME_ID}" for n in range(1, 6))),  # the ledger keeps four
        SCORE.replace("2:00000000000f", "2:" + GAME_ID + ","),
        SCORE.replace("2:00000000000f", "00000000000f"),  # a counted game needs its number
        SCORE.replace("2:00000000000f", "4:00000000000f"),  # a number past the latest
        SCORE.replace("2|3|0|", "2|3|3|"),  # at or below the floor
        SCORE.replace("2|3|0|", "2|3|4|"),  # a floor past the latest
        SCORE.replace("2|3|0|", "2|03|0|"),  # numbers are written without leading noughts
        " " + SCORE,
    ],
)
def test_a_score_that_cannot_be_read_starts_again_with_a_notice_and_the_game_is_kept(app, line):
    loaded = loaded_from(app, {"game": GOOD}, line)
    assert loaded == state.Loaded(state._decode(GOOD), state.UNREADABLE_SCORE, notice_is_error=True)


def test_a_score_cookie_signed_as_the_session_is_not_a_score(app):
    # Each cookie is signed under its own salt: a session cookie copied into the score's place is not read.
    with app.test_request_context(
        headers={"Cookie": f"session={sign(app, {'game': GOOD})}; session_score={sign(app, SCORE)}"}
    ):
        assert state.load_table().notice == state.UNREADABLE_SCORE


COOKIE_LIMIT = 4096  # what every browser keeps of a cookie, its name and value together


def test_a_whole_15x15_game_with_every_score_at_its_widest_fits_a_cookie_with_room_to_spare(client):
    # The moves in a scrambled order and the counts at random, so that compression finds little to save.
    rng = random.Random(11)
    xs, os_ = list(FULL_DRAW[0::2]), list(FULL_DRAW[1::2])
    rng.shuffle(xs)
    rng.shuffle(os_)
    moves = tuple(cell for pair in zip(xs, [*os_, None], strict=True) for cell in pair if cell is not None)
    widest = [Score(*[Tally(*[rng.randrange(MOST // 10, MOST) for _ in "xod"]) for _ in range(5)]) for _ in range(5)]
    table = Table(settings=Settings(board="15x15", mode="hvh"), moves=moves, scores=Scores(tuple(widest)))
    assert table.position.is_draw() and table.ply == 225
    with client.application.test_request_context():
        state.save(table, notice="x" * 300, notice_is_error=True)  # longer than any message the game says
        data = dict(session)
    cookie = f"session={sign(client.application, data)}"
    assert len(cookie) <= COOKIE_LIMIT // 2


@pytest.mark.parametrize(
    "line",
    [
        GOOD + "|0",  # a score in this version's line
        OTHER_VERSIONS[0].replace("4|", "6|", 1),  # an older line with this version's number
        "6",
        "6|",
        GOOD.replace("|0|0123456789ab|", "|2|0123456789ab|"),  # practice is 0 or 1
        GOOD.replace("|0123456789ab|1", "|0123456789ab|01"),  # numbers are written without leading noughts
        GOOD.replace("|0123456789ab|1", "|0123456789ab|1234567890"),  # nine digits at most
        GOOD.replace("|0123456789ab|1", "|0123456789ab|"),
        GOOD.replace(GAME_ID, GAME_ID.upper()),  # ids are lower-case hex
        GOOD.replace(GAME_ID, GAME_ID[:-1]),  # and 12 digits long
        GOOD.replace(GAME_ID, "g" * 12),
        GOOD.replace("|40|", "|0481726354|"),  # ten moves: more than the board has cells
        GOOD.replace("|40|", "|49|"),  # no such cell
        GOOD.replace("|40|", "|44|"),  # a cell taken twice
        GOOD.replace("|40|", "|0314258|"),  # play after a win
        GOOD.replace("|40|0|0|", "|40|2|0|"),  # paused is 0 or 1
        GOOD.replace("|40|0|0|", "|40|0|2|"),  # so is showing the values
        GOOD.replace("|X|", "|Z|"),
        GOOD.replace("|hvc|", "|chess|"),
        GOOD.replace("|hvc|", "||"),
        GOOD.replace("|hvc|", "|human-vs-human|"),  # a word longer than any the game writes
        GOOD.replace("|one-ply|minimax|", "|hard|minimax|"),
        GOOD.replace("|one-ply|one-ply|40|", "|one-ply|hard|40|"),  # counts as no difficulty
        GOOD.replace("|3x3|", "|9x9|"),  # no such board
        GOOD.replace("|3x3|", "||"),
        GOOD.replace("|3x3|", "|3X3|"),
        GOOD.replace("|3x3|", "|4x4|").replace("|40|", "|4g|"),  # g is cell 16: past the end of 4×4
        GOOD.replace("|3x3|", "|7x7|").replace("|40|", "|4Z|"),  # Z is 61: past the end of 7×7
        GOOD.replace("|3x3|", "|15x15|").replace("|40|", "|400|"),  # half a move
        GOOD.replace("|3x3|", "|15x15|").replace("|40|", "|3x|"),  # 3x is cell 225: past the end
        GOOD.replace("|3x3|", "|15x15|").replace("|40|", "|0101|"),  # a cell taken twice
        GOOD.replace("|40|", "|4.|"),  # a character that is no move
        GOOD.replace("|40|", "|" + "0" * 451 + "|"),  # longer than any game
        " " + GOOD,
        GOOD + "\n",
    ],
)
def test_a_line_that_is_not_a_legal_game_starts_a_fresh_one_with_a_notice(app, line):
    loaded = loaded_from(app, {"game": line})
    assert fresh(loaded) == state.Loaded(Table(), state.UNREADABLE, reset=True)


@pytest.mark.parametrize(
    "data",
    [
        {"game": 40},
        {"game": GOOD, "notice": 7},
        {"game": GOOD, "notice_is_error": "yes"},
        {"game": GOOD, "notice_is_error": 1},  # a number is not a flag, even one that looks like True
        {"game": GOOD, "unknown": "field"},
        {" t": [1, 2]},
        [1, 2, 3],
        "a string",
        12345,
        None,
    ],
)
def test_a_signed_payload_of_another_shape_is_not_ours(app, data):
    assert fresh(loaded_from(app, data)) == state.Loaded(Table(), state.UNREADABLE, reset=True)


def test_a_cookie_signed_with_another_key_is_not_ours(app):
    with app.test_request_context(headers={"Cookie": f"session={sign(app, {'game': GOOD})}x"}):
        assert fresh(state.load_table()) == state.Loaded(Table(), state.UNREADABLE, reset=True)


def test_an_expired_cookie_is_not_ours(app):
    app.permanent_session_lifetime = timedelta(seconds=-1)
    assert fresh(loaded_from(app, {"game": GOOD})) == state.Loaded(Table(), state.UNREADABLE, reset=True)


def test_a_fresh_game_after_a_bad_cookie_is_saved_and_its_notice_shown_once(app):
    with app.test_request_context(headers={"Cookie": f"session={sign(app, {'game': GOOD[:-2]})}"}):
        loaded = state.load_table()
        assert loaded.notice == state.UNREADABLE
        assert session["game"] == saved_line(app, loaded.table)
        assert state.load_table() == state.Loaded(loaded.table)


def test_a_bad_game_keeps_a_good_score(app):
    score = NOTHING_YET + "|1|2|3" + "|0" * 72
    loaded = loaded_from(app, {"game": GOOD[:-2]}, score)
    assert loaded.notice == state.UNREADABLE
    assert loaded.table.scores.boards == Scores.on("3x3", Score(easy=Tally(1, 2, 3))).boards


def test_no_cookie_is_a_new_game_without_a_notice_saved_at_once_with_its_id(app):
    with app.test_request_context():
        loaded = state.load_table()
        assert fresh(loaded) == state.Loaded(Table())
        # Saved with the first page, so that its forms and the cookie they come back with name one game.
        assert session["game"] == saved_line(app, loaded.table)
    assert fresh(loaded_from(app, {})) == state.Loaded(Table())
    ids = {loaded_from(app, {}).table.game_id for _ in range(20)}
    assert len(ids) == 20


def test_a_cookie_without_a_game_is_from_before_the_game_was_saved_this_way(app):
    assert fresh(loaded_from(app, {"notice": "hello"})) == state.Loaded(Table(), state.OUTDATED, reset=True)


def test_a_notice_is_shown_once_and_says_whether_it_is_an_error(app):
    table = Table(moves=(4, 0), game_id=GAME_ID)
    with app.test_request_context():
        state.save(table, notice="Saved.")
        assert "notice_is_error" not in session
        assert state.load_table() == state.Loaded(table, "Saved.")
        assert state.load_table() == state.Loaded(table)
        state.save(table, notice="That square is taken.", notice_is_error=True)
        assert state.load_table() == state.Loaded(table, "That square is taken.", notice_is_error=True)
        assert state.load_table() == state.Loaded(table)
        state.save(table, notice_is_error=True)  # no notice, nothing to flag
        assert set(session) == {"game"}


def test_saving_replaces_everything_the_session_held(app):
    with app.test_request_context():
        session["stray"] = "left over"
        state.save(Table(game_id=GAME_ID))
        assert set(session) == {"game"}


def test_the_session_is_plain_json(app):
    with app.test_request_context():
        state.save(Table(), notice="Hi.", notice_is_error=True)
        value = app.session_interface.get_signing_serializer(app).dumps(dict(session))
    payload = value.split(".")[0]
    assert "{" not in payload  # compact, base64-encoded, no Flask tags
    assert app.session_interface.serializer.dumps({"a": [1, True]}) == '{"a":[1,true]}'
    assert app.session_interface.serializer.loads('{"a":[1,true]}') == {"a": [1, True]}


@pytest.mark.parametrize(
    ("secure_config", "scheme", "secure"),
    [(False, "http", False), (False, "https", True), (True, "http", True)],
)
def test_the_cookie_is_secure_whenever_the_request_was(app, secure_config, scheme, secure):
    app.config["SESSION_COOKIE_SECURE"] = secure_config
    with app.test_request_context(base_url=f"{scheme}://localhost/"):
        assert app.session_interface.get_cookie_secure(app) is secure


def test_without_a_secret_key_there_is_no_session(app):
    app.secret_key = None
    with app.test_request_context() as context:
        assert app.session_interface.open_session(app, context.request) is None


def flask_signer(app):
    """Flask's own cookie serializer for ``app``, as the session would use without GameSessionInterface."""
    return SecureCookieSessionInterface().get_signing_serializer(app)


def test_the_cookie_is_flasks_own_both_ways(app):
    # The same cookies as Flask's own session writes and reads.
    data = {"game": GOOD, "notice": "Hi."}
    assert app.session_interface.get_signing_serializer(app).loads(flask_signer(app).dumps(data)) == data
    assert flask_signer(app).loads(sign(app, data)) == data
    assert loaded_from(app, {"game": GOOD}) == state.Loaded(state._decode(GOOD))


def test_a_cookie_signed_with_another_key_is_not_read(app):
    other = create_app({"TESTING": True, "SECRET_KEY": "another", "RANDOM_SEED": 7})
    with app.test_request_context(headers={"Cookie": f"session={sign(other, {'game': GOOD})}"}):
        assert fresh(state.load_table()) == state.Loaded(Table(), state.UNREADABLE, reset=True)


def test_a_cookie_signed_with_a_fallback_key_is_still_read(app):
    signed = sign(app, {"game": GOOD})
    app.secret_key = "the new key"
    assert loaded_from(app, {"game": GOOD}) == state.Loaded(state._decode(GOOD))  # signed with the new key
    with app.test_request_context(headers={"Cookie": f"session={signed}"}):
        assert state.load_table().notice == state.UNREADABLE  # the old key is no longer trusted...
    app.config["SECRET_KEY_FALLBACKS"] = ["test"]
    with app.test_request_context(headers={"Cookie": f"session={signed}"}):
        assert state.load_table() == state.Loaded(state._decode(GOOD))  # ...until it is named a fallback


def test_the_score_has_a_serializer_of_its_own_salt(app):
    interface = app.session_interface
    serializer, scores = interface.get_signing_serializer(app), interface.get_signing_serializer(app, "score")
    assert scores.salt == b"score" and serializer.salt == interface.salt.encode()
    assert serializer.serializer is scores.serializer is interface.serializer


class FlaskSaving(state.GameSessionInterface):
    """The game's session as Flask's own save_session would write it."""

    save_session = SecureCookieSessionInterface.save_session


def session_after(change, accessed: bool):
    """A session that held a game, after ``change``; one that held nothing if ``change`` is None.

    ``accessed`` is what Flask's request context sets when a view reads or writes the session.
    """
    opened = state.GameSessionInterface.session_class({"game": GOOD} if change else {})
    opened.accessed, opened.modified = accessed, False
    if change:
        change(opened)
    return opened


@pytest.mark.parametrize(
    "change",
    [
        None,  # nothing held, nothing changed: no cookie
        lambda s: s.get("game"),  # read only: no cookie
        lambda s: s.update(notice="Hi."),  # changed: a new cookie
        lambda s: s.clear(),  # emptied: the cookie is deleted
        lambda s: setattr(s, "permanent", True),  # permanent: written again with its expiry date
        # Permanent and only read: written again all the same, its expiry date moved on.
        lambda s: (setattr(s, "permanent", True), setattr(s, "modified", False)),
    ],
)
@pytest.mark.parametrize("accessed", [False, True], ids=["not-accessed", "accessed"])  # accessed: Vary: Cookie
@pytest.mark.parametrize("vary", [None, "HX-Request"])
def test_the_session_is_saved_with_the_headers_flask_would_send(app, monkeypatch, change, accessed, vary):
    monkeypatch.setattr("itsdangerous.timed.time.time", lambda: 1_800_000_000)  # the same signature's time
    # And the same expiry date: read from the clock, it moved on a second between the two on a busy machine.
    expiry = datetime(2027, 1, 1, tzinfo=UTC)
    monkeypatch.setattr(
        state.GameSessionInterface,
        "get_expiration_time",
        lambda self, app, session: expiry if session.permanent else None,
    )
    answers = []
    for interface in (state.GameSessionInterface(), FlaskSaving()):
        response = app.response_class("")
        if vary:
            response.headers["Vary"] = vary
        with app.test_request_context():
            interface.save_session(app, session_after(change, accessed), response)
        answers.append([(name, value) for name, value in response.headers if name in ("Vary", "Set-Cookie")])
    assert answers[0] == answers[1]
    # And what Flask does is right: an answer depends on the cookie if the view used it, or if it sets it.
    varies_on = ", ".join(value for name, value in answers[0] if name == "Vary")
    assert ("Cookie" in varies_on) == (accessed or any(name == "Set-Cookie" for name, _ in answers[0]))
