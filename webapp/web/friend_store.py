"""Where friend games live: one small interface, two stores, and the live wake-ups of waiting pages.

A game between two browsers needs a place both can reach. Each game is one line of text (FriendGame.to_line)
under its code, with a version that every change raises, so that two changes sent at once cannot both land
(compare and set). Two stores keep them:

* **SQLite** (the default, no setting): a file in Flask's instance folder, shared by the workers of one
  instance; games survive a restart.
* **Redis** (when REDIS_URL is set): games live under keys that expire, and every change is published on one
  channel, so that instances behind a router share games and wake each other's waiting pages.

Pages waiting for a change (the live stream of each open page) wait in this process on a ``Waiters`` hub,
one event per page. A change made in this process wakes them at once. Changes made elsewhere come through
one listener per process: for SQLite a poller that reads ``PRAGMA data_version`` (a counter in shared memory
that moves when another connection commits) every POLL_SECONDS and, when it moved, the games changed since;
for Redis a subscriber to the change channel. Nothing is opened before it is first used, so that each
gunicorn worker opens its own connections after the fork.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from flask import Flask

# The live stream's poll of a shared SQLite file, in seconds: a move made in another worker waits half of this
# on average before that worker's pages hear of it (docs/serving.md, make friends).
POLL_SECONDS = 0.05
# A client's game creations are counted over this window.
CREATION_WINDOW = 60.0
CHANNEL = "friends:changed"
# How long a change waits for another process's write to the SQLite file to end, and how often it tries again.
BUSY_SECONDS = 5.0
BUSY_PAUSE = 0.002


class StoreDown(Exception):
    """The store cannot be read or written: Redis does not answer, or the SQLite file cannot be opened or written."""


class StoreFull(Exception):
    """The store holds as many live games as it may."""


@dataclass(frozen=True, slots=True)
class Saved:
    """A game as stored: its line and its version (1 when created, one more with every change)."""

    line: str
    version: int


class Waiters:
    """This process's pages waiting for a change to a game: one event each, set when the game changes."""

    def __init__(self):
        self._lock = threading.Lock()
        self._by_code: dict[str, set[threading.Event]] = {}

    def add(self, code: str) -> threading.Event:
        event = threading.Event()
        with self._lock:
            self._by_code.setdefault(code, set()).add(event)
        return event

    def remove(self, code: str, event: threading.Event) -> None:
        with self._lock:
            waiting = self._by_code.get(code)
            if waiting is not None:
                waiting.discard(event)
                if not waiting:
                    del self._by_code[code]

    def wake(self, code: str) -> None:
        with self._lock:
            waiting = list(self._by_code.get(code, ()))
        for event in waiting:
            event.set()

    def wake_all(self) -> None:
        with self._lock:
            waiting = [event for events in self._by_code.values() for event in events]
        for event in waiting:
            event.set()

    def __contains__(self, code: str) -> bool:
        return code in self._by_code

    def __len__(self) -> int:
        return len(self._by_code)


class Store:
    """What both stores do. ``expiry`` is the seconds a game lives without a change, ``most`` the live games held."""

    name = "store"

    def __init__(self, expiry: float, most: int):
        self.expiry, self.most = expiry, most
        self.waiters = Waiters()
        self._listening = False
        self._listen_lock = threading.Lock()

    def create(self, code: str, line: str) -> None:
        """Keep a new game under ``code``; StoreFull when the store holds ``most`` live games."""
        raise NotImplementedError

    def load(self, code: str) -> Saved | None:
        """The game under ``code``, or None if there is none (never made, or expired)."""
        raise NotImplementedError

    def replace(self, code: str, version: int, line: str) -> int | None:
        """Store ``line`` if the game is still at ``version``: its new version, or None if it changed or is gone."""
        raise NotImplementedError

    def creation_wait(self, client: str, most: int) -> float:
        """Count a creation by ``client`` (a key, not an address) if it made fewer than ``most`` within the window:
        0.0; else the seconds until its oldest one leaves the window, and nothing is counted."""
        raise NotImplementedError

    def check(self) -> None:
        """Raise StoreDown if the store cannot be written now."""
        raise NotImplementedError

    def listen(self) -> None:
        """Hear of the changes other processes make, waking this process's waiters (run in a thread)."""
        raise NotImplementedError

    @contextmanager
    def watching(self, code: str):
        """An event set whenever game ``code`` changes, for as long as the block lasts. Read the game after the
        block has begun, and clear the event before each reading, so that no change goes unnoticed."""
        event = self.waiters.add(code)
        try:
            self._start_listening()
            yield event
        finally:
            self.waiters.remove(code, event)

    def wait(self, code: str, version: int, timeout: float) -> Saved | None:
        """The game once its version is no longer ``version``, or as it is after ``timeout`` seconds."""
        with self.watching(code) as changed:
            saved = self.load(code)
            if saved is None or saved.version != version:
                return saved
            return self.load(code) if changed.wait(timeout) else saved

    def _start_listening(self) -> None:
        if self._listening:
            return
        with self._listen_lock:
            if not self._listening:
                threading.Thread(target=self.listen, name=f"{self.name} listener", daemon=True).start()
                self._listening = True


SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    code TEXT PRIMARY KEY, line TEXT NOT NULL, version INTEGER NOT NULL, touched REAL NOT NULL, seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_touched ON games (touched);
CREATE INDEX IF NOT EXISTS games_seq ON games (seq);
CREATE TABLE IF NOT EXISTS creations (client TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS creations_client ON creations (client, at);
CREATE TABLE IF NOT EXISTS changes (seq INTEGER NOT NULL);
INSERT INTO changes SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM changes);
"""


class SQLiteStore(Store):
    """Games in one SQLite file, shared by the processes of one machine (see the module's docstring).

    One connection per process, used under a lock: every statement is short, and under gevent SQLite's calls
    do not yield, so the lock is never held across a switch.
    """

    name = "SQLite"

    def __init__(self, path: str | Path, expiry: float, most: int):
        super().__init__(expiry, most)
        self.path = str(path)
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self.write_failed = False  # the last change could not be written; cleared by the next one that is

    def _connect(self) -> sqlite3.Connection:
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # No busy timeout: SQLite's own waits for a lock sleep in C, which under gevent stops every request of the
        # worker; _run waits in Python instead, letting the others run.
        db = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def _run(self, work, writes: bool = False):
        """``work(db)`` under the lock, in a transaction if it writes; any failure of the file is StoreDown.

        While another process holds the file's write lock, the work is tried again every few milliseconds for up
        to BUSY_SECONDS, the lock released in between.
        """
        gives_up = time.monotonic() + BUSY_SECONDS
        while True:
            with self._lock:
                try:
                    if self._db is None:
                        db = self._connect()
                        db.executescript(SCHEMA)
                        self._db = db
                    return work(self._db)
                except (sqlite3.Error, OSError) as error:
                    if self._db is not None and self._db.in_transaction:
                        self._db.rollback()
                    busy = isinstance(error, sqlite3.OperationalError) and "locked" in str(error)
                    if not busy or time.monotonic() > gives_up:
                        self.write_failed = self.write_failed or writes
                        raise StoreDown(f"the SQLite file {self.path} cannot be used: {error}") from None
            time.sleep(BUSY_PAUSE)

    @staticmethod
    def _next_seq(db: sqlite3.Connection) -> int:
        return db.execute("UPDATE changes SET seq = seq + 1 RETURNING seq").fetchone()[0]

    def create(self, code: str, line: str) -> None:
        def work(db):
            now = time.time()
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM games WHERE touched < ?", (now - self.expiry,))
            if db.execute("SELECT count(*) FROM games").fetchone()[0] >= self.most:
                db.rollback()
                raise StoreFull
            db.execute("INSERT INTO games VALUES (?, ?, 1, ?, ?)", (code, line, now, self._next_seq(db)))
            db.commit()
            self.write_failed = False

        self._run(work, writes=True)

    def load(self, code: str) -> Saved | None:
        row = self._run(
            lambda db: db.execute(
                "SELECT line, version FROM games WHERE code = ? AND touched >= ?", (code, time.time() - self.expiry)
            ).fetchone()
        )
        return None if row is None else Saved(*row)

    def replace(self, code: str, version: int, line: str) -> int | None:
        def work(db):
            now = time.time()
            db.execute("BEGIN IMMEDIATE")
            changed = db.execute(
                "UPDATE games SET line = ?, version = version + 1, touched = ?, seq = ? "
                "WHERE code = ? AND version = ? AND touched >= ?",
                (line, now, self._next_seq(db), code, version, now - self.expiry),
            ).rowcount
            db.commit()
            self.write_failed = False
            return version + 1 if changed else None

        new_version = self._run(work, writes=True)
        if new_version is not None:
            self.waiters.wake(code)
        return new_version

    def creation_wait(self, client: str, most: int) -> float:
        def work(db):
            now = time.time()
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM creations WHERE at < ?", (now - CREATION_WINDOW,))
            count, oldest = db.execute("SELECT count(*), min(at) FROM creations WHERE client = ?", (client,)).fetchone()
            if count >= most:
                db.rollback()
                return max(oldest + CREATION_WINDOW - now, 0.001)
            db.execute("INSERT INTO creations VALUES (?, ?)", (client, now))
            db.commit()
            return 0.0

        return self._run(work, writes=True)

    def check(self) -> None:
        # A read, which in WAL mode never waits for a writer: the health check must not queue behind the file's
        # lock. A file that can be read but not written shows in the last change's failure, kept until one works.
        self._run(lambda db: db.execute("SELECT seq FROM changes").fetchone())
        if self.write_failed:
            raise StoreDown(f"the SQLite file {self.path} could not be written")

    def listen(self) -> None:
        # A connection of its own: data_version moves when a connection other than the one asking commits, so
        # this one sees the request connection's changes too (its waiters were already woken; waking twice is harmless).
        db = None
        seen_version, seen_seq = None, 0
        while True:
            time.sleep(POLL_SECONDS)
            if not self.waiters:
                continue
            try:
                if db is None:
                    db = self._connect()
                    seen_seq = db.execute("SELECT seq FROM changes").fetchone()[0]
                version = db.execute("PRAGMA data_version").fetchone()[0]
                if version == seen_version:
                    continue
                seen_version = version
                rows = db.execute("SELECT code, seq FROM games WHERE seq > ?", (seen_seq,)).fetchall()
            except sqlite3.Error:
                db = None
                self.waiters.wake_all()  # each waiter reads the game again, and finds the store down
                time.sleep(1)
                continue
            for code, seq in rows:
                seen_seq = max(seen_seq, seq)
                if code in self.waiters:
                    self.waiters.wake(code)


# Redis's side, each step in one script so that it is atomic: keys are friends:game:<code> (a hash of the line and
# its version, expiring), friends:live (a sorted set of live games by last change) and friends:made:<client>.
CREATE = """
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', tonumber(ARGV[3]) - tonumber(ARGV[4]))
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[1], 'line', ARGV[2], 'v', 1)
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
"""
REPLACE = """
local v = redis.call('HGET', KEYS[1], 'v')
if v ~= ARGV[2] then return 0 end
local new = tonumber(v) + 1
redis.call('HSET', KEYS[1], 'line', ARGV[3], 'v', new)
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('PUBLISH', ARGV[6], ARGV[1])
return new
"""
CREATION = """
local now, window, most = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= most then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tostring(tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(window))
return '0'
"""


class RedisStore(Store):
    """Games in Redis, shared by every instance that names the same REDIS_URL (see the module's docstring)."""

    name = "Redis"

    def __init__(self, url: str, expiry: float, most: int):
        super().__init__(expiry, most)
        import redis

        self._errors = (redis.RedisError, OSError)
        # Short timeouts: a Redis that does not answer must make a friend game's page say so, not hang it.
        self.client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2, decode_responses=True)
        self._create = self.client.register_script(CREATE)
        self._replace = self.client.register_script(REPLACE)
        self._creation = self.client.register_script(CREATION)

    def _run(self, call, *args, **kwargs):
        try:
            return call(*args, **kwargs)
        except self._errors as error:
            raise StoreDown(f"Redis does not answer: {type(error).__name__}") from None

    @staticmethod
    def _key(code: str) -> str:
        return f"friends:game:{code}"

    def create(self, code: str, line: str) -> None:
        keys = [self._key(code), "friends:live"]
        if not self._run(self._create, keys=keys, args=[code, line, time.time(), int(self.expiry), self.most]):
            raise StoreFull

    def load(self, code: str) -> Saved | None:
        line, version = self._run(self.client.hmget, self._key(code), "line", "v")
        return None if line is None or version is None else Saved(line, int(version))

    def replace(self, code: str, version: int, line: str) -> int | None:
        keys = [self._key(code), "friends:live"]
        args = [code, version, line, time.time(), int(self.expiry), CHANNEL]
        new_version = self._run(self._replace, keys=keys, args=args)
        if not new_version:
            return None
        self.waiters.wake(code)
        return int(new_version)

    def creation_wait(self, client: str, most: int) -> float:
        now = time.time()
        unique = f"{now}:{os.urandom(4).hex()}"
        keys = [f"friends:made:{client}"]
        return float(self._run(self._creation, keys=keys, args=[now, CREATION_WINDOW, most, unique]))

    def check(self) -> None:
        self._run(self.client.ping)

    def listen(self) -> None:
        while True:
            pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            try:
                pubsub.subscribe(CHANNEL)
                while True:
                    message = pubsub.get_message(timeout=1.0)
                    if message is not None and message["channel"] == CHANNEL:
                        self.waiters.wake(message["data"])
            except self._errors:
                # Lost, or Redis is down: every waiter reads its game again (and finds out), then we subscribe anew.
                self.waiters.wake_all()
                time.sleep(1)
            finally:
                pubsub.close()


def client_key(secret: str, address: str) -> str:
    """A client's address as the creation count keeps it: keyed and hashed, never the address itself.

    >>> len(client_key("key", "203.0.113.7")), client_key("key", "a") == client_key("other key", "a")
    (32, False)
    """
    return hashlib.blake2b(address.encode(), key=secret.encode()[:64], digest_size=16).hexdigest()


def of(app: Flask) -> Store:
    """This process's store for ``app``, made on first use in each process (never in gunicorn's master)."""
    made = app.extensions.get("friend_store")
    if made is None or made[0] != os.getpid():
        config = app.config
        expiry, most = config["FRIEND_EXPIRY_SECONDS"], config["FRIEND_GAMES_MOST"]
        if config.get("REDIS_URL"):
            store: Store = RedisStore(config["REDIS_URL"], expiry, most)
        else:
            path = config.get("FRIEND_DATABASE") or Path(app.instance_path) / "friends.sqlite3"
            store = SQLiteStore(path, expiry, most)
        made = app.extensions["friend_store"] = (os.getpid(), store)
    return made[1]
