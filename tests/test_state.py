"""The saved game: the one line of text in the signed session cookie, and what reading it back gives.

These tests talk to webapp.state directly inside a request context, without rendering a page, so
that they are quick enough for the mutation run (`make mutate`); tests/test_views.py covers the
same cookie through the routes.
"""

from datetime import timedelta

import pytest
from flask import session
from flask.sessions import SecureCookieSessionInterface

from webapp import create_app, state
from webapp.match import MOST, Score, Settings, Table, Tally

# Version | mode | side | levels: difficulty, X, O | counts as | moves | paused | values | score:
# 3 counts (first side, second side, draws) each for Easy, Medium, Impossible, Human vs Human, Computer vs Computer
GOOD = "3|hvc|X|one-ply|minimax|one-ply|one-ply|40|0|0" + "|0" * 15
# Version 2 had a single score against the computer, then Human vs Human, then Computer vs Computer.
OLD = "2|hvc|X|minimax|minimax|one-ply|40|0|0|5|1|2|3|4|6|7|8|9"


def sign(app, data) -> str:
    return app.session_interface.get_signing_serializer(app).dumps(data)


def loaded_from(app, data, **context) -> state.Loaded:
    """What load() makes of a cookie that holds ``data``, signed with the app's key."""
    with app.test_request_context(headers={"Cookie": f"session={sign(app, data)}"}, **context):
        return state.load()


def saved_line(app, table: Table) -> str:
    with app.test_request_context():
        state.save(table)
        return session["game"]


def test_a_table_is_saved_as_one_line_in_the_documented_order(app):
    table = Table(
        settings=Settings(mode="hvh", human="O", difficulty="random", x_level="one-ply", o_level="minimax"),
        moves=(4, 0, 3),
        paused=True,
        show_values=True,
        score=Score(Tally(1, 2, 3), Tally(4, 5, 6), Tally(7, 8, 9), Tally(10, 11, 12), Tally(13, 14, MOST)),
        counts_as="minimax",
    )
    assert (
        saved_line(app, table)
        == "3|hvh|O|random|one-ply|minimax|minimax|403|1|1|1|2|3|4|5|6|7|8|9|10|11|12|13|14|999999999"
    )


@pytest.mark.parametrize(
    "table",
    [
        Table(),
        Table(settings=Settings(human="O", difficulty="minimax"), moves=(4,), counts_as="random"),
        Table(settings=Settings(mode="cvc", x_level="random", o_level="minimax"), moves=(0, 4, 8), paused=True),
        Table(show_values=True, score=Score(easy=Tally(1, 0, 0), impossible=Tally(0, 0, 2), cvc=Tally(0, 3, 0))),
        # A whole drawn game: nine moves, the most the line holds.
        Table(settings=Settings(mode="hvh"), moves=(0, 4, 8, 1, 7, 6, 2, 5, 3)),
    ],
)
def test_what_is_saved_reads_back_unchanged(app, table):
    loaded = loaded_from(app, {"game": saved_line(app, table)})
    assert loaded == state.Loaded(table)


def test_the_version_before_this_one_keeps_its_game_and_counts_its_score_as_the_difficultys(app):
    loaded = loaded_from(app, {"game": OLD})
    assert loaded.notice is None
    assert loaded.table.moves == (4, 0)
    assert loaded.table.settings == Settings(difficulty="minimax", x_level="minimax", o_level="one-ply")
    assert loaded.table.counts_as == "minimax"
    assert loaded.table.score == Score(impossible=Tally(5, 1, 2), hvh=Tally(3, 4, 6), cvc=Tally(7, 8, 9))


def test_every_field_of_a_count_reads_back_at_its_widest(app):
    nines = "|999999999" * 15
    assert loaded_from(app, {"game": GOOD[: -len("|0") * 15] + nines}).table.score == Score(
        *[Tally(MOST, MOST, MOST)] * 5
    )


@pytest.mark.parametrize(
    "line",
    [
        GOOD[:-2] + "|1234567890",  # a count of 10 digits: wider than any score
        GOOD[:-2] + "|0000000005",  # 10 digits, even for a small count: the field is 9 wide
        GOOD[:-2] + "|",  # an empty count
        GOOD[:-2] + "|-1",  # a negative count
        GOOD + "|0",  # a count too many
        GOOD[:-2],  # a count too few
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
        GOOD.replace("3|", "1|", 1),  # a version this code never wrote
        GOOD.replace("3|", "4|", 1),  # a version from the future
        GOOD.replace("3|", "2|", 1),  # this line with the old version's number
        " " + GOOD,
        GOOD + "\n",
        OLD[:-2],
        OLD.replace("|minimax|minimax|", "|hard|minimax|"),
        OLD.replace("|40|", "|44|"),
    ],
)
def test_a_line_that_is_not_a_legal_game_starts_a_fresh_one_with_a_notice(app, line):
    loaded = loaded_from(app, {"game": line})
    assert loaded == state.Loaded(Table(), state.UNREADABLE, reset=True)


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
    assert loaded_from(app, data) == state.Loaded(Table(), state.UNREADABLE, reset=True)


def test_a_cookie_signed_with_another_key_is_not_ours(app):
    with app.test_request_context(headers={"Cookie": f"session={sign(app, {'game': GOOD})}x"}):
        assert state.load() == state.Loaded(Table(), state.UNREADABLE, reset=True)


def test_an_expired_cookie_is_not_ours(app):
    app.permanent_session_lifetime = timedelta(seconds=-1)
    assert loaded_from(app, {"game": GOOD}) == state.Loaded(Table(), state.UNREADABLE, reset=True)


def test_a_fresh_game_after_a_bad_cookie_is_saved_and_its_notice_shown_once(app):
    with app.test_request_context(headers={"Cookie": f"session={sign(app, {'game': GOOD[:-2]})}"}):
        assert state.load().notice == state.UNREADABLE
        assert session["game"] == saved_line(app, Table())
        assert state.load() == state.Loaded(Table())


def test_no_cookie_is_a_new_game_without_a_notice(app):
    with app.test_request_context():
        assert state.load() == state.Loaded(Table())
    assert loaded_from(app, {}) == state.Loaded(Table())


def test_a_cookie_without_a_game_is_from_before_the_game_was_saved_this_way(app):
    assert loaded_from(app, {"notice": "hello"}) == state.Loaded(Table(), state.OUTDATED, reset=True)


def test_a_notice_is_shown_once_and_says_whether_it_is_an_error(app):
    table = Table(moves=(4, 0))
    with app.test_request_context():
        state.save(table, notice="Saved.")
        assert "notice_is_error" not in session
        assert state.load() == state.Loaded(table, "Saved.")
        assert state.load() == state.Loaded(table)
        state.save(table, notice="That square is taken.", notice_is_error=True)
        assert state.load() == state.Loaded(table, "That square is taken.", notice_is_error=True)
        assert state.load() == state.Loaded(table)
        state.save(table, notice_is_error=True)  # no notice, nothing to flag
        assert set(session) == {"game"}


def test_saving_replaces_everything_the_session_held(app):
    with app.test_request_context():
        session["stray"] = "left over"
        state.save(Table())
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
    # The quicker signing makes the same cookies: one written before an update reads back after it.
    data = {"game": GOOD, "notice": "Hi."}
    assert app.session_interface.get_signing_serializer(app).loads(flask_signer(app).dumps(data)) == data
    assert flask_signer(app).loads(sign(app, data)) == data
    assert loaded_from(app, {"game": GOOD}) == state.Loaded(state._decode(GOOD))


def test_a_cookie_signed_with_another_key_is_not_read(app):
    other = create_app({"TESTING": True, "SECRET_KEY": "another", "RANDOM_SEED": 7})
    with app.test_request_context(headers={"Cookie": f"session={sign(other, {'game': GOOD})}"}):
        assert state.load() == state.Loaded(Table(), state.UNREADABLE, reset=True)


def test_a_cookie_signed_with_a_fallback_key_is_still_read(app):
    signed = sign(app, {"game": GOOD})
    app.secret_key = "the new key"
    assert loaded_from(app, {"game": GOOD}) == state.Loaded(state._decode(GOOD))  # signed with the new key
    with app.test_request_context(headers={"Cookie": f"session={signed}"}):
        assert state.load().notice == state.UNREADABLE  # the old key is no longer trusted...
    app.config["SECRET_KEY_FALLBACKS"] = ["test"]
    with app.test_request_context(headers={"Cookie": f"session={signed}"}):
        assert state.load() == state.Loaded(state._decode(GOOD))  # ...until it is named a fallback


def test_a_short_cookie_is_not_compressed_and_a_long_one_is(app):
    short, long = {"game": GOOD}, {"game": GOOD, "notice": "x" * 2000}
    assert not sign(app, short).startswith(".")  # compressing a short line costs more than it saves
    assert sign(app, long).startswith(".") and len(sign(app, long)) < 300
    for data in (short, long):
        assert flask_signer(app).loads(sign(app, data)) == data
