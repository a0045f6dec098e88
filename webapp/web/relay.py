"""The live streams of friend games' pages: bounded, drawn once per change, ended at once when the worker stops.

Each worker keeps one ``Feed`` per game it has streams for. The feed alone waits for the game's changes (one
waiter on the store's hub, however many pages), reads the game and its players' presence once, draws the update
once per role (each seat, and watchers) and hands the same bytes to every stream of that role. It also looks
again every TICK_SECONDS, so that a page hears within seconds that its game expired, that the store stopped
answering, or that the other side's page opened or closed (webapp.web.presence), and beats for the seats it holds
streams of.

Streams are bounded per client (an IPv4 address or an IPv6 /64, as costs.client_key has it), per game and per
worker (FRIEND_STREAMS_PER_CLIENT, FRIEND_STREAMS_PER_GAME, FRIEND_STREAMS_PER_WORKER). A stream past a bound
gets one ``full`` event and ends: the page then follows its game by reloading its fragment every few seconds, as a
page without JavaScript does. Every stream begins with its page's current drawing unless the page already shows
it (its key, sent as ``v`` or Last-Event-ID), so a page that reconnects after an outage resyncs to the store.

When the worker is told to stop (SIGTERM, webapp.serving.worker), every stream ends at once with a retry hint, and
the browsers reconnect, to another instance or to this one once it is back.
"""

from __future__ import annotations

import socket
import threading
import time
import weakref
from collections import Counter, deque
from collections.abc import Callable, Iterator
from typing import Any

from flask import Flask, Response

from webapp.serving.costs import connection_closed
from webapp.web import friend_store, presence
from webapp.web.friend_store import Saved, StoreDown

# A comment this often keeps a waiting stream within the server's 10 s idle deadline (webapp.serving.worker).
HEARTBEAT_SECONDS = 5.0
# A stream looks this often whether its page has closed the connection: writes alone notice it two heartbeats late.
CHECK_SECONDS = 1.5
# A feed looks this often even when nothing woke it: presence, an expired game, an unanswering store...
TICK_SECONDS = 1.0
# ...reading its presence each time, the game itself (for its expiry) every this many ticks unless it changed.
LOAD_EVERY = 3
# A stream ends after this long and the browser opens the next one, so that none is held for ever.
STREAM_SECONDS = 300.0
# A long poll (``?once=1``) is answered within this, nothing having changed: under the same deadline.
POLL_SECONDS = 8.0
# How soon a browser opens a new stream after one ends normally, after a stop, or while the store is down.
RETRY_MS = 1000
OFFLINE_RETRY_MS = 2000
# A browser without our script that is refused reconnects only after this long.
FULL_RETRY_MS = 30_000
GONE_RETRY_MS = 600_000
WATCHING = "watching"

# What a stream sends besides drawings: each ends the stream (END follows it in the stream's box).
OFFLINE = f"retry: {OFFLINE_RETRY_MS}\nevent: offline\ndata: offline\n\n".encode()
FULL = f"retry: {FULL_RETRY_MS}\nevent: full\ndata: full\n\n".encode()
STOPPING = f"retry: {RETRY_MS}\n\n".encode()
HEARTBEAT = b": waiting\n\n"
END = b""

# A drawing: (code, game as saved or None if it expired, role, each seat's presence or None, the drawing's key, the
# site's address as the first page's request named it) -> the fragment's HTML.
Draw = Callable[[str, "Saved | None", str, "dict[str, presence.Seen] | None", str, str], str]
# A stream's role at the game as saved, from its seat cookie's claim: a seat, or WATCHING.
RoleOf = Callable[[Saved, Any], str]

_relays: weakref.WeakSet[Relay] = weakref.WeakSet()


def drawing_key(version: int, seen: dict[str, presence.Seen] | None) -> str:
    """What a page's drawing shows, as a key: the game's version and the presence it shows.

    >>> drawing_key(7, None), drawing_key(7, {"inviter": presence.HERE})
    ('7-', '7-hn')
    """
    return f"{version}-{'' if seen is None else presence.token(seen)}"


class Stream:
    """One open page's stream: its role and client, what it was last sent, and the bytes waiting to go."""

    __slots__ = ("claim", "client", "connection", "outbox", "ready", "role", "sent", "version_seen")

    def __init__(
        self, role: str, client: str, last_seen: str, connection: socket.socket | None = None, claim: Any = None
    ):
        # The role is worked out again from the claim (its seat cookie's) at each drawing: a seat can move away.
        self.role, self.client, self.connection, self.claim = role, client, connection, claim
        # A key ("12-hn") says exactly what the page shows; a bare version (an older page) says only its move.
        self.sent = last_seen if "-" in last_seen else None
        self.version_seen = int(last_seen) if last_seen.isdigit() and len(last_seen) < 10 else None
        self.outbox: deque[bytes] = deque()
        self.ready = threading.Event()

    def push(self, *data: bytes) -> None:
        self.outbox.extend(data)
        self.ready.set()


class Feed:
    """One game's streams in this worker, and the loop that feeds them (see the module's docstring)."""

    def __init__(self, relay: Relay, code: str, site: str = "http://localhost/"):
        self.relay, self.code, self.site = relay, code, site
        self.streams: dict[Stream, None] = {}
        self.key: str | None = None
        self.saved: Saved | None = None
        self.seen: dict[str, presence.Seen] | None = None
        self.drawings: dict[str, bytes] = {}
        self.wake = threading.Event()
        self.beat_due = True

    def seats(self) -> list[str]:
        return sorted({stream.role for stream in list(self.streams) if stream.role != WATCHING})

    def run(self) -> None:
        store, relay = self.relay.store, self.relay
        here = presence.of_store(store)
        saved: Saved | None = None
        woken, ticks = True, 0
        try:
            with store.watching(self.code) as changed:
                self.wake = changed
                while self.streams and not relay.stopping:
                    if self.beat_due:  # a seat's page has just opened: the relay's own beats come every few seconds
                        self.beat_due = False
                        here.beat([(self.code, seat) for seat in self.seats()])
                    changed.clear()
                    if woken or ticks % LOAD_EVERY == 0:
                        try:
                            saved = store.load(self.code)
                        except StoreDown:
                            self.end_all(OFFLINE)
                            break
                        if saved is None:
                            self.end_all(relay.gone(self.code, self.site))
                            break
                    if saved is not None:
                        self.publish(saved, here.seen(self.code))
                    woken = changed.wait(TICK_SECONDS)
                    ticks += 1
        finally:
            relay.feed_ended(self)

    def publish(self, saved: Saved, seen: dict[str, presence.Seen] | None) -> None:
        """Draw the game as it is now, if it changed, and send it to every stream that does not show it yet."""
        key = drawing_key(saved.version, seen)
        if key != self.key:
            self.key, self.saved, self.seen, self.drawings = key, saved, seen, {}
        for stream in list(self.streams):
            self.send_current(stream)

    def send_current(self, stream: Stream) -> None:
        if self.key is None or self.saved is None or stream.sent == self.key:
            return
        if stream.sent is None and stream.version_seen == self.saved.version:
            stream.sent = self.key  # an older page at this very move: nothing to redraw
            return
        if stream.claim is not None:
            stream.role = self.relay.role_of(self.saved, stream.claim)
        drawing = self.drawings.get(stream.role)
        if drawing is None:
            html = self.relay.draw(self.code, self.saved, stream.role, self.seen, self.key, self.site)
            drawing = self.drawings[stream.role] = event("update", html, self.key)
        stream.sent = self.key
        stream.push(drawing)

    def end_all(self, last: bytes) -> None:
        for stream in list(self.streams):
            stream.push(last, END)


class Relay:
    """This worker's feeds and its streams' budget (see the module's docstring)."""

    def __init__(self, app: Flask, store: friend_store.Store, draw: Draw, role_of: RoleOf):
        self.app, self.store, self.draw, self.role_of = app, store, draw, role_of
        config = app.config
        self.per_client = config["FRIEND_STREAMS_PER_CLIENT"]
        self.per_game = config["FRIEND_STREAMS_PER_GAME"]
        self.per_worker = config["FRIEND_STREAMS_PER_WORKER"]
        self.feeds: dict[str, Feed] = {}
        self.by_client: Counter[str] = Counter()
        self.open = 0
        self.stopping = False
        self.beating = False
        self._lock = threading.Lock()
        _relays.add(self)

    def gone(self, code: str, site: str) -> bytes:
        """The event that tells a page its game expired, and offers a new one."""
        html = self.draw(code, None, WATCHING, None, "gone", site)
        return f"retry: {GONE_RETRY_MS}\n".encode() + event("gone", html, "gone")

    def refusal(self, code: str, client: str) -> bytes | None:
        """Why a new stream of ``client`` to game ``code`` may not open now, as the bytes to send; None if it may."""
        if self.stopping:
            return STOPPING
        feed = self.feeds.get(code)
        crowded = feed is not None and len(feed.streams) >= self.per_game
        if self.by_client[client] >= self.per_client or self.open >= self.per_worker or crowded:
            return FULL
        return None

    def join(self, code: str, stream: Stream, site: str) -> Feed:
        """Add ``stream`` to its game's feed, starting the feed if it is the game's first here."""
        with self._lock:
            self.open += 1
            self.by_client[stream.client] += 1
            feed = self.feeds.get(code)
            starts = feed is None
            if feed is None:
                feed = self.feeds[code] = Feed(self, code, site)
            feed.streams[stream] = None
        if starts:
            threading.Thread(target=feed.run, name=f"feed {code[:6]}", daemon=True).start()
            if not self.beating:
                self.beating = True
                threading.Thread(target=self.beat, name="presence beats", daemon=True).start()
        else:
            feed.send_current(stream)
        if stream.role != WATCHING:
            feed.beat_due = True  # the other side hears of this page at once, not at the next beat
            feed.wake.set()
        return feed

    def leave(self, feed: Feed, stream: Stream) -> None:
        """Take ``stream`` out of its feed and give its place in the budget back."""
        with self._lock:
            self.open -= 1
            self.by_client[stream.client] -= 1
            if self.by_client[stream.client] <= 0:
                del self.by_client[stream.client]
            feed.streams.pop(stream, None)
            last_of_seat = stream.role != WATCHING and all(other.role != stream.role for other in feed.streams)
        if last_of_seat and not self.stopping:
            presence.of_store(self.store).leave(feed.code, stream.role)
            self.store.waiters.wake(feed.code)  # this worker's other pages hear of it at once
        feed.wake.set()

    def beat(self) -> None:
        """Every few seconds, one write for the seats of every game this worker holds streams of."""
        here = presence.of_store(self.store)
        while not self.stopping:
            rows = [(feed.code, seat) for feed in list(self.feeds.values()) for seat in feed.seats()]
            here.beat(rows)
            time.sleep(presence.BEAT_SECONDS)

    def feed_ended(self, feed: Feed) -> None:
        with self._lock:
            if self.feeds.get(feed.code) is feed:
                del self.feeds[feed.code]
            left = list(feed.streams)
        for stream in left:  # the feed stopped while streams were still joining: they end, and reconnect
            if not stream.outbox or stream.outbox[-1] != END:
                stream.push(STOPPING, END)

    def stop(self) -> None:
        """End every stream at once with a retry hint: the worker is stopping."""
        self.stopping = True
        with self._lock:
            feeds = list(self.feeds.values())
        for feed in feeds:
            feed.end_all(STOPPING)
            feed.wake.set()

    def response(
        self,
        code: str,
        claim: Any,
        client: str,
        last_seen: str,
        once: bool = False,
        connection: socket.socket | None = None,
        site: str = "http://localhost/",
    ) -> Response:
        """The stream of game ``code`` for the browser whose seat cookie makes ``claim`` (None for a watcher), or
        the one event that refuses it. With ``once`` it is a long poll: it ends after its first drawing, or after
        POLL_SECONDS without one."""
        refused = self.refusal(code, client)
        saved = None
        if refused is None:
            try:
                saved = self.store.load(code)
                if saved is None:
                    refused = self.gone(code, site)
            except StoreDown:
                refused = OFFLINE
        if refused is not None or saved is None:
            return sse_response(iter([refused or OFFLINE]))
        role = WATCHING if claim is None else self.role_of(saved, claim)
        stream = Stream(role, client, last_seen, connection, claim)
        return sse_response(self.follow(code, stream, POLL_SECONDS if once else STREAM_SECONDS, once, site))

    def follow(self, code: str, stream: Stream, seconds: float, once: bool, site: str) -> Iterator[bytes]:
        feed = self.join(code, stream, site)
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            ends = time.monotonic() + seconds
            quiet_since = time.monotonic()
            while True:
                while stream.outbox:
                    data = stream.outbox.popleft()
                    if not data:  # END
                        return
                    yield data
                    quiet_since = time.monotonic()
                    if once:
                        return
                left = ends - time.monotonic()
                if left <= 0:
                    return
                if not stream.ready.wait(min(CHECK_SECONDS, left)):
                    if connection_closed(stream.connection):
                        return
                    if time.monotonic() - quiet_since >= HEARTBEAT_SECONDS:
                        yield HEARTBEAT
                        quiet_since = time.monotonic()
                stream.ready.clear()
        finally:
            self.leave(feed, stream)


def event(name: str, html: str, key: str) -> bytes:
    """One server-sent event carrying ``html``, its id ``key``."""
    data = "".join(f"data: {line}\n" for line in html.splitlines())
    return f"id: {key}\nevent: {name}\n{data}\n".encode()


def sse_response(body: Iterator[bytes]) -> Response:
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy that buffers would hold every event back
    return response


def for_app(app: Flask, draw: Draw, role_of: RoleOf) -> Relay:
    """This process's relay for ``app`` (made on first use in each process, never in gunicorn's master)."""
    import os

    made = app.extensions.get("friend_relay")
    if made is None or made[0] != os.getpid():
        made = app.extensions["friend_relay"] = (os.getpid(), Relay(app, friend_store.of(app), draw, role_of))
    return made[1]


def stop_all() -> None:
    """End the streams of every relay in this process (the worker is stopping)."""
    for relay in list(_relays):
        relay.stop()
