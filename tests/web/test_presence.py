"""Presence: each seat's beats and departures, judged into here, left or never, in both stores."""

from __future__ import annotations

import pytest

from webapp.web import friend_store, presence
from webapp.web.presence import HERE, NEVER, STALE_SECONDS, Seen, judged

NOW = 1_800_000_000.0


@pytest.mark.parametrize(
    ("beats", "left", "guest"),
    [
        ({}, {}, NEVER),
        ({"guest": NOW - 1}, {}, HERE),
        ({"guest": NOW - STALE_SECONDS - 1}, {}, Seen("left", int(NOW - STALE_SECONDS - 1))),
        ({}, {"guest": NOW - 20}, Seen("left", int(NOW - 20))),
        ({"guest": NOW - 1}, {"guest": NOW - 20}, HERE),  # back after leaving: another tab, or a reload
    ],
)
def test_a_seat_is_here_while_a_beat_is_fresh_and_left_when_it_leaves_or_goes_stale(beats, left, guest):
    assert judged(beats, left, NOW) == {"inviter": NEVER, "guest": guest}


def test_beats_and_departures_go_through_the_sqlite_store(tmp_path):
    store = friend_store.SQLiteStore(tmp_path / "friends.sqlite3", expiry=60, most=10)
    here = presence.of_store(store)
    assert presence.of_store(store) is here
    assert here.seen("game") == {"inviter": NEVER, "guest": NEVER}
    here.beat([("game", "inviter"), ("game", "guest")], who="worker 1")
    here.beat([("game", "guest")], who="worker 2")
    assert here.seen("game") == {"inviter": HERE, "guest": HERE}
    here.leave("game", "guest", who="worker 1")
    assert here.seen("game")["guest"] == HERE  # worker 2 still holds a page of that seat
    here.leave("game", "guest", who="worker 2")
    assert here.seen("game")["guest"].kind == "left"
    assert here.seen("another game") == {"inviter": NEVER, "guest": NEVER}


def test_a_store_that_fails_makes_presence_say_nothing_rather_than_fail(tmp_path):
    store = friend_store.SQLiteStore(tmp_path / "missing" / "folder" / "friends.sqlite3", expiry=60, most=10)
    here = presence.of_store(store)
    here.beat([("game", "inviter")])
    assert here.seen("game") is None


def test_tokens_differ_exactly_when_the_words_would():
    assert presence.token({"inviter": HERE, "guest": NEVER}) != presence.token({"inviter": HERE, "guest": HERE})
    assert presence.token({"guest": Seen("left", 5)}) != presence.token({"guest": Seen("left", 6)})
