"""The relay's bounds, drawing keys and stop, without a server (tests/test_friend_streams.py has them served)."""

from __future__ import annotations

from webapp.web import friend_store, presence, relay
from webapp.web.relay import FULL, STOPPING, Feed, Relay, Stream


def relay_of(app, tmp_path) -> Relay:
    app.config.update(FRIEND_STREAMS_PER_CLIENT=2, FRIEND_STREAMS_PER_GAME=3, FRIEND_STREAMS_PER_WORKER=4)
    store = friend_store.SQLiteStore(tmp_path / "friends.sqlite3", expiry=60, most=10)
    return Relay(app, store, lambda *drawing: "<p>drawn</p>", lambda saved, claim: claim or relay.WATCHING)


def test_a_stream_is_refused_past_its_client_s_its_game_s_or_the_worker_s_bound(app, tmp_path):
    live = relay_of(app, tmp_path)
    assert live.refusal("game", "client") is None
    live.by_client["client"] = 2
    assert live.refusal("game", "client") == FULL and live.refusal("game", "another client") is None
    feed = live.feeds["game"] = Feed(live, "game")
    feed.streams = {Stream(relay.WATCHING, f"watcher {i}", ""): None for i in range(3)}
    assert live.refusal("game", "another client") == FULL and live.refusal("another game", "another client") is None
    live.open = 4
    assert live.refusal("another game", "another client") == FULL
    live.stop()
    assert live.refusal("another game", "another client") == STOPPING


def test_one_drawing_per_role_goes_to_every_stream_of_that_role(app, tmp_path):
    live = relay_of(app, tmp_path)
    drawn = []
    live.draw = lambda code, saved, role, seen, key, site: drawn.append(role) or f"<p>{role}</p>"
    feed = Feed(live, "game")
    streams = [Stream(role, "client", "") for role in ("inviter", "guest", *[relay.WATCHING] * 5)]
    feed.streams = dict.fromkeys(streams)
    feed.publish(friend_store.Saved("line", 3), {"inviter": presence.HERE, "guest": presence.NEVER})
    assert sorted(drawn) == ["guest", "inviter", relay.WATCHING]
    watchers = [stream.outbox[0] for stream in streams[2:]]
    assert all(box is watchers[0] for box in watchers)  # the very same bytes
    assert watchers[0].startswith(b"id: 3-hn\nevent: update\ndata: <p>watching</p>")
    feed.publish(friend_store.Saved("line", 3), {"inviter": presence.HERE, "guest": presence.NEVER})
    assert len(drawn) == 3 and all(len(stream.outbox) == 1 for stream in streams)  # nothing new: nothing sent


def test_a_page_that_already_shows_the_drawing_is_not_sent_it(app, tmp_path):
    live = relay_of(app, tmp_path)
    feed = Feed(live, "game")
    current, older, bare = Stream("guest", "c", "3-hn"), Stream("guest", "c", "2-hn"), Stream("guest", "c", "3")
    feed.streams = dict.fromkeys([current, older, bare])
    feed.publish(friend_store.Saved("line", 3), {"inviter": presence.HERE, "guest": presence.NEVER})
    assert (len(current.outbox), len(older.outbox), len(bare.outbox)) == (0, 1, 0)
