"""The friends' store, on both backends: a temporary SQLite file and a real redis-server."""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time

import pytest

from webapp.web import friend_store
from webapp.web.friend_store import ClientFull, RedisStore, SQLiteStore, StoreDown, StoreFull

DAY = 86_400


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.slow)])
def make_store(request, tmp_path):
    """``make_store(expiry=..., most=...)``: a store on this test's backend; each call is another process's view
    of the same games (a second gunicorn worker, or another instance)."""
    if request.param == "sqlite":
        return lambda expiry=DAY, most=100: SQLiteStore(tmp_path / "friends.sqlite3", expiry, most)
    url = request.getfixturevalue("fresh_redis")
    return lambda expiry=DAY, most=100: RedisStore(url, expiry, most)


def test_a_game_is_created_read_and_changed_only_from_the_version_it_was_read_at(make_store):
    store = make_store()
    store.create("a" * 22, "line 1")
    assert store.load("a" * 22) == friend_store.Saved("line 1", 1)
    assert store.replace("a" * 22, 1, "line 2") == 2
    # A second change drawn from version 1 (a click in the same instant) does not land.
    assert store.replace("a" * 22, 1, "line 2 again") is None
    assert store.load("a" * 22) == friend_store.Saved("line 2", 2)
    assert store.load("b" * 22) is None
    assert store.replace("b" * 22, 1, "nothing") is None


def test_another_process_sees_the_same_games(make_store):
    mine, theirs = make_store(), make_store()
    mine.create("c" * 22, "line")
    theirs.replace("c" * 22, 1, "their move")
    assert mine.load("c" * 22).line == "their move"


def test_a_game_expires_after_its_time_without_a_change(make_store):
    store = make_store(expiry=1)
    store.create("d" * 22, "line")
    store.create("e" * 22, "line")
    time.sleep(0.6)
    store.replace("e" * 22, 1, "kept alive")
    time.sleep(0.6)
    assert store.load("d" * 22) is None
    assert store.load("e" * 22) is not None
    assert store.replace("d" * 22, 1, "too late") is None


def test_the_store_holds_at_most_its_number_of_live_games_and_expired_ones_make_room(make_store):
    store = make_store(expiry=1, most=2)
    store.create("f" * 22, "one")
    store.create("g" * 22, "two")
    with pytest.raises(StoreFull):
        store.create("h" * 22, "three")
    assert store.load("f" * 22) is not None  # nothing was thrown out to make room
    time.sleep(1.2)
    store.create("h" * 22, "three")


def test_creations_are_counted_per_client_within_a_minute_and_the_wait_is_when_the_oldest_leaves(make_store):
    store, other_worker = make_store(), make_store()
    assert store.creation_wait("client-1", 3) == 0
    time.sleep(0.3)
    assert other_worker.creation_wait("client-1", 3) == 0
    assert store.creation_wait("client-1", 3) == 0
    wait = other_worker.creation_wait("client-1", 3)
    assert 59 < wait < 59.9  # the first of the three leaves the minute's window then
    assert store.creation_wait("client-2", 3) == 0


def test_a_waiter_wakes_when_another_process_changes_the_game(make_store):
    waiting, playing = make_store(), make_store()
    waiting.create("i" * 22, "line")
    found = {}

    def wait():
        start = time.monotonic()
        found["saved"] = waiting.wait("i" * 22, 1, timeout=5)
        found["seconds"] = time.monotonic() - start

    thread = threading.Thread(target=wait)
    thread.start()
    time.sleep(0.3)
    playing.replace("i" * 22, 1, "moved")
    thread.join()
    assert found["saved"] == friend_store.Saved("moved", 2)
    assert found["seconds"] < 2


def test_a_waiter_with_an_old_version_returns_at_once_and_one_with_nothing_new_times_out(make_store):
    store = make_store()
    store.create("j" * 22, "line")
    store.replace("j" * 22, 1, "moved")
    assert store.wait("j" * 22, 1, timeout=5).version == 2
    start = time.monotonic()
    assert store.wait("j" * 22, 2, timeout=0.2).version == 2
    assert time.monotonic() - start >= 0.2
    assert store.wait("k" * 22, 1, timeout=5) is None


def test_client_keys_are_keyed_hashes_of_the_address():
    key = friend_store.client_key("secret", "203.0.113.7")
    assert "203" not in key and key == friend_store.client_key("secret", "203.0.113.7")


def test_a_sqlite_file_that_cannot_be_opened_is_a_store_down(tmp_path):
    (tmp_path / "a-file").write_text("")
    store = SQLiteStore(tmp_path / "a-file" / "friends.sqlite3", DAY, 10)
    for call in (store.check, lambda: store.load("l" * 22), lambda: store.create("l" * 22, "line")):
        with pytest.raises(StoreDown):
            call()


def test_a_redis_that_does_not_answer_is_a_store_down(tmp_path):
    store = RedisStore(f"unix://{tmp_path}/nobody.sock", DAY, 10)
    for call in (store.check, lambda: store.load("m" * 22), lambda: store.creation_wait("client", 3)):
        with pytest.raises(StoreDown):
            call()


def test_a_sqlite_file_that_cannot_be_written_fails_every_process_s_check_until_it_can(tmp_path, monkeypatch):
    monkeypatch.setattr(friend_store, "BUSY_SECONDS", 0.1)
    monkeypatch.setattr(friend_store, "PROBE_BUSY_SECONDS", 0.1)
    store, quiet_worker = (
        SQLiteStore(tmp_path / "friends.sqlite3", DAY, 10),
        SQLiteStore(tmp_path / "friends.sqlite3", DAY, 10),
    )
    store.create("n" * 22, "line")
    store.check()
    other = sqlite3.connect(tmp_path / "friends.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock, and keeps it
    with pytest.raises(StoreDown):
        store.replace("n" * 22, 1, "moved")
    assert store.load("n" * 22).version == 1  # reading still works, and the health check says the writing does not
    for worker in (store, quiet_worker):  # the same from a worker that has not tried to write
        with pytest.raises(StoreDown):
            worker.check()
    other.rollback()
    other.close()
    quiet_worker.check()
    store.check()
    assert store.replace("n" * 22, 1, "moved") == 2


def test_one_client_may_have_only_so_many_games_nobody_has_joined_and_joining_frees_one(make_store):
    store = make_store(most=100)
    store.client_waiting, store.client_most = 2, 3
    store.create("o" * 22, "one", "client-1")
    store.create("p" * 22, "two", "client-1")
    with pytest.raises(ClientFull) as refused:
        store.create("q" * 22, "three", "client-1")
    assert refused.value.waiting and 3590 < refused.value.seconds <= 3600  # when its first waiting game expires
    store.create("q" * 22, "three", "client-2")  # another client is counted on its own
    assert store.replace("o" * 22, 1, "joined", waiting=False) == 2
    store.create("r" * 22, "three", "client-1")
    # Three live games in all, joined or not, is as many as one client may have.
    assert store.replace("p" * 22, 1, "joined", waiting=False) == 2
    with pytest.raises(ClientFull) as refused:
        store.create("s" * 22, "four", "client-1")
    assert not refused.value.waiting and 3590 < refused.value.seconds <= 3600  # its waiting game ends first


def test_a_game_nobody_joined_expires_sooner_than_one_being_played(make_store):
    store = make_store(expiry=3)
    store.waiting_expiry = 1
    store.create("t" * 22, "waiting", "client")
    store.create("u" * 22, "waiting", "client")
    assert store.replace("u" * 22, 1, "joined", waiting=False) == 2
    time.sleep(1.2)
    assert store.load("t" * 22) is None
    assert store.load("u" * 22) is not None
    store.create("v" * 22, "another", "client")  # the expired one no longer counts


def test_a_full_store_says_when_its_first_game_expires_and_its_check_says_it_is_full(make_store):
    store, other_worker = make_store(most=2), make_store(most=2)
    store.create("w" * 22, "one", "client-1")
    other_worker.check()
    store.create("x" * 22, "two", "client-2")
    with pytest.raises(StoreFull) as refused:
        store.create("y" * 22, "three", "client-3")
    assert 3590 < refused.value.seconds <= 3600  # both wait for a friend: an hour
    with pytest.raises(StoreFull):
        other_worker.check()


@pytest.mark.parametrize("how", ["deleted", "replaced", "folder deleted"])
def test_a_sqlite_file_removed_under_a_running_store_is_a_store_down_and_is_not_made_again(tmp_path, how):
    folder = tmp_path / "instance"
    path = folder / "friends.sqlite3"
    store, other_worker = SQLiteStore(path, DAY, 10), SQLiteStore(path, DAY, 10)
    store.create("z" * 22, "line")
    other_worker.load("z" * 22)
    if how == "folder deleted":
        shutil.rmtree(folder)
    else:
        for file in folder.iterdir():
            file.unlink()
    if how == "replaced":
        SQLiteStore(path, DAY, 10).check()  # a fresh, empty file in its place
    for worker in (store, other_worker):
        with pytest.raises(StoreDown, match="removed or replaced"):
            worker.replace("z" * 22, 1, "a move")
        with pytest.raises(StoreDown):
            worker.check()
    assert path.exists() == (how == "replaced")


def test_a_worker_told_which_file_holds_the_games_is_down_if_another_is_there_at_its_first_use(tmp_path):
    path = tmp_path / "friends.sqlite3"
    SQLiteStore(path, DAY, 10).check()
    identity = friend_store.file_identity(str(path))
    path.unlink()
    with pytest.raises(StoreDown):
        SQLiteStore(path, DAY, 10, identity).load("a" * 22)
    assert not path.exists()


def test_a_sqlite_file_from_before_the_expiry_columns_keeps_its_games(tmp_path):
    path = tmp_path / "friends.sqlite3"
    old = sqlite3.connect(path, isolation_level=None)
    old.executescript(
        "CREATE TABLE games (code TEXT PRIMARY KEY, line TEXT NOT NULL, version INTEGER NOT NULL,"
        " touched REAL NOT NULL, seq INTEGER NOT NULL);"
    )
    old.execute("INSERT INTO games VALUES (?, 'line', 3, ?, 1)", ("b" * 22, time.time()))
    old.close()
    store = SQLiteStore(path, DAY, 10)
    assert store.load("b" * 22) == friend_store.Saved("line", 3)
    assert store.replace("b" * 22, 3, "moved") == 4


def test_a_redis_that_answers_pings_but_refuses_writes_fails_the_check(fresh_redis):
    import redis

    admin = redis.Redis.from_url(fresh_redis)
    store = RedisStore(fresh_redis, DAY, 10)
    store.check()
    policy = admin.config_get("maxmemory-policy")["maxmemory-policy"]
    admin.config_set("maxmemory-policy", "noeviction")
    admin.config_set("maxmemory", 1)  # out of memory: every write is refused, pings are answered
    try:
        assert admin.ping()
        with pytest.raises(StoreDown):
            store.check()
    finally:
        admin.config_set("maxmemory", 0)
        admin.config_set("maxmemory-policy", policy)
        admin.close()
    store.check()
