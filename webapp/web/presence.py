"""Whether each friend's page is open: short heartbeats kept in the friends' store, seen by every instance.

Each worker beats, every BEAT_SECONDS, for the seats of the games it holds a live stream for (and a seat's page
beats when it is loaded, which is how a page without JavaScript counts). A seat is here while any beat for it is
younger than STALE_SECONDS; when a worker's last stream for a seat closes, it drops its beat and writes when the
seat left, so the other side hears of it at once rather than after the staleness. Presence is kept beside the
games: in the SQLite file (tables of its own) or in Redis (one hash per game, expiring). It is best-effort: a
store that fails here makes the page say nothing of presence, never fail.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from webapp.friend_game import SEATS
from webapp.web import friend_store

# A worker beats this often for each seat it holds a stream of; a beat older than STALE_SECONDS no longer counts.
BEAT_SECONDS = 2.0
STALE_SECONDS = 4.5
# Redis forgets a game's presence this long after its last beat.
KEEP_SECONDS = 600
# What a page without JavaScript beats as: one holder for every such page of a seat.
PAGE_HOLDER = "page"


def holder() -> str:
    """This process's name among the holders of beats: host and process id (a forked worker is a new one)."""
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass(frozen=True, slots=True)
class Seen:
    """One seat's presence: "here", "left" (``at`` the time it left), or "never" (no page of it seen)."""

    kind: str
    at: int = 0


NEVER = Seen("never")
HERE = Seen("here")


def token(seen: dict[str, Seen]) -> str:
    """A short text that changes exactly when what the pages say of presence changes.

    >>> token({"inviter": HERE, "guest": Seen("left", 1700000000)})
    'hl1700000000'
    """
    return "".join(
        seen.get(seat, NEVER).kind[0] + (str(seen[seat].at) if seat in seen and seen[seat].at else "") for seat in SEATS
    )


def judged(beats: dict[str, float], left: dict[str, float], now: float) -> dict[str, Seen]:
    """Each seat's presence from its newest beat and its last departure."""
    seen = {}
    for seat in SEATS:
        newest = beats.get(seat)
        if newest is not None and now - newest <= STALE_SECONDS:
            seen[seat] = HERE
        elif newest is not None or seat in left:
            seen[seat] = Seen("left", int(max(newest or 0.0, left.get(seat, 0.0))))
        else:
            seen[seat] = NEVER
    return seen


class SQLitePresence:
    """Beats in two tables of the friends' SQLite file, through a connection of this process's own."""

    SCHEMA = """
    CREATE TABLE IF NOT EXISTS beats (code TEXT, seat TEXT, holder TEXT, at REAL, PRIMARY KEY (code, seat, holder));
    CREATE TABLE IF NOT EXISTS departures (code TEXT, seat TEXT, at REAL, PRIMARY KEY (code, seat));
    """

    def __init__(self, path: str):
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            db = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA synchronous=OFF")  # beats are worth no disk flush: a lost one is redone in seconds
            db.executescript(self.SCHEMA)
            self._db = db
        return self._db

    def _write(self, statements: list[tuple[str, list[tuple]]]) -> None:
        """All of ``statements`` in one transaction."""
        with self._lock:
            db = self._connection()
            db.execute("BEGIN IMMEDIATE")
            try:
                for sql, rows in statements:
                    db.executemany(sql, rows)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def beat(self, rows: list[tuple[str, str]], who: str, now: float) -> None:
        self._write([("INSERT OR REPLACE INTO beats VALUES (?, ?, ?, ?)", [(*row, who, now) for row in rows])])

    def leave(self, code: str, seat: str, who: str, now: float) -> None:
        # Old rows of games nobody watches go with any departure: presence must not grow the file for ever.
        self._write(
            [
                ("DELETE FROM beats WHERE code = ? AND seat = ? AND holder = ?", [(code, seat, who)]),
                ("INSERT OR REPLACE INTO departures VALUES (?, ?, ?)", [(code, seat, now)]),
                ("DELETE FROM beats WHERE at < ?", [(now - KEEP_SECONDS,)]),
                ("DELETE FROM departures WHERE at < ?", [(now - KEEP_SECONDS,)]),
            ]
        )

    def read(self, code: str) -> tuple[dict[str, float], dict[str, float]]:
        with self._lock:
            db = self._connection()
            beats = db.execute("SELECT seat, max(at) FROM beats WHERE code = ? GROUP BY seat", (code,)).fetchall()
            left = db.execute("SELECT seat, at FROM departures WHERE code = ?", (code,)).fetchall()
        return dict(beats), dict(left)


class RedisPresence:
    """Beats in one hash per game (``friends:here:<code>``), fields ``<seat>|<holder>`` and ``left|<seat>``."""

    def __init__(self, client):
        self.client = client

    @staticmethod
    def _key(code: str) -> str:
        return f"friends:here:{code}"

    def beat(self, rows: list[tuple[str, str]], who: str, now: float) -> None:
        pipe = self.client.pipeline(transaction=False)
        for code, seat in rows:
            pipe.hset(self._key(code), f"{seat}|{who}", now)
            pipe.expire(self._key(code), KEEP_SECONDS)
        pipe.execute()

    def leave(self, code: str, seat: str, who: str, now: float) -> None:
        pipe = self.client.pipeline()
        pipe.hdel(self._key(code), f"{seat}|{who}")
        pipe.hset(self._key(code), f"left|{seat}", now)
        pipe.expire(self._key(code), KEEP_SECONDS)
        pipe.execute()

    def read(self, code: str) -> tuple[dict[str, float], dict[str, float]]:
        beats: dict[str, float] = {}
        left: dict[str, float] = {}
        for field, value in self.client.hgetall(self._key(code)).items():
            first, _, rest = field.partition("|")
            if first == "left":
                left[rest] = float(value)
            else:
                beats[first] = max(beats.get(first, 0.0), float(value))
        return beats, left


class Presence:
    """The presence of each seat of each game, kept in the friends' store (see the module's docstring)."""

    def __init__(self, store: friend_store.Store):
        if isinstance(store, friend_store.RedisStore):
            self.kept: SQLitePresence | RedisPresence = RedisPresence(store.client)
            self.errors: tuple[type[BaseException], ...] = (*store._errors, ValueError)
        else:
            self.kept = SQLitePresence(getattr(store, "path", ":memory:"))
            self.errors = (sqlite3.Error, OSError, ValueError)

    def beat(self, rows: list[tuple[str, str]], who: str | None = None) -> None:
        """Say that the seats named in ``rows`` (each a game's code and a seat) have a page open here now."""
        if rows:
            self._quietly(self.kept.beat, rows, who or holder(), time.time())

    def leave(self, code: str, seat: str, who: str | None = None) -> None:
        """Say that this process's last page of ``seat`` at game ``code`` has closed."""
        self._quietly(self.kept.leave, code, seat, who or holder(), time.time())

    def seen(self, code: str) -> dict[str, Seen] | None:
        """Each seat's presence at game ``code``; None if the store cannot say."""
        read = self._quietly(self.kept.read, code)
        if read is None:
            return None
        beats, left = read
        return judged(beats, left, time.time())

    def _quietly(self, call: Callable[..., Any], *args: Any) -> Any:
        try:
            return call(*args)
        except self.errors:
            return None


def of_store(store: friend_store.Store) -> Presence:
    """The presence kept beside ``store`` (one per store, made on first use)."""
    made = getattr(store, "presence", None)
    if made is None:
        made = store.presence = Presence(store)  # type: ignore[attr-defined]
    return made


def span_words(seconds: float) -> str:
    """A span of time in a few words, for players: the time since a friend left, or a game's expiry.

    >>> span_words(20), span_words(150), span_words(3600), span_words(7200), span_words(86_400), span_words(3 * 86_400)
    ('20 s', '2 min', 'an hour', '2 hours', 'a day', '3 days')
    """
    seconds = max(int(seconds), 0)
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min"
    for unit, size in (("day", 86_400), ("hour", 3600)):
        if seconds >= size:
            count = round(seconds / size)
            return f"{'an' if unit == 'hour' else 'a'} {unit}" if count == 1 else f"{count} {unit}s"
    return f"{seconds} s"  # unreachable: kept for the type checker
