"""Where friend games live: one small interface, two stores, and the live wake-ups of waiting pages.

A game between two browsers needs a place both can reach. Each game is one line of text (FriendGame.to_line)
under its code, with a version that every change raises, so that two changes sent at once cannot both land
(compare and set), and the time it ends: a game nobody has joined ends sooner, and each client may make only
so many (Store). Two stores keep them:

* **SQLite** (the default, no setting): a file in Flask's instance folder, shared by the workers of one
  instance; games survive a restart. The file removed or replaced under a running server is a store down.
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
import math
import os
import sqlite3
import threading
import time
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from flask import Flask

from webapp.web.friend_scripts import CREATE, CREATION, REPLACE

# The live stream's poll of a shared SQLite file, in seconds: a move made in another worker waits half of this
# on average before that worker's pages hear of it (docs/serving.md, make friends).
POLL_SECONDS = 0.05
# A client's game creations are counted over this window.
CREATION_WINDOW = 60.0
# A game nobody has joined lives this long without a change (at most its expiry), and one client may have this many
# such games, and this many live games in all: filling the store takes hundreds of clients (docs/deploy.md).
WAITING_SECONDS = 3600.0
CLIENT_WAITING_MOST = 10
CLIENT_GAMES_MOST = 40
# How long the health check's write may wait for another process's write to end.
PROBE_BUSY_SECONDS = 0.5
CHANNEL = "friends:changed"
ENDS = "friends:ends"
# How long a change waits for another process's write to the SQLite file to end, and how often it tries again.
BUSY_SECONDS = 5.0
BUSY_PAUSE = 0.002


class StoreDown(Exception):
    """The store cannot be read or written: Redis does not answer, or the SQLite file cannot be opened or written."""


class StoreFull(Exception):
    """The store holds as many live games as it may; ``seconds`` until the first of them expires, if none changes."""

    def __init__(self, seconds: float = 0.0):
        super().__init__(f"full for {seconds:.0f} s")
        self.seconds = seconds


class ClientFull(Exception):
    """The client holds as many live games as one client may (``waiting``: games nobody has joined yet);
    ``seconds`` until the first of them expires, if none changes."""

    def __init__(self, seconds: float, waiting: bool):
        super().__init__(f"{'waiting ' if waiting else ''}games full for {seconds:.0f} s")
        self.seconds, self.waiting = seconds, waiting


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
    """What both stores do. ``expiry`` is the seconds a game lives without a change (``waiting_expiry`` while nobody
    has joined it), ``most`` the live games held; one client may make ``client_most`` live games, of which
    ``client_waiting`` nobody has joined."""

    name = "store"

    def __init__(
        self,
        expiry: float,
        most: int,
        *,
        waiting_expiry: float = WAITING_SECONDS,
        client_most: int = CLIENT_GAMES_MOST,
        client_waiting: int = CLIENT_WAITING_MOST,
    ):
        self.expiry, self.most = expiry, most
        self.waiting_expiry = min(waiting_expiry, expiry)
        self.client_most, self.client_waiting = client_most, client_waiting
        self.waiters = Waiters()
        self._listening = False
        self._listen_lock = threading.Lock()

    def create(self, code: str, line: str, client: str = "") -> None:
        """Keep a new game under ``code``, made by ``client`` and waiting for the friend: StoreFull when the store
        holds ``most`` live games, ClientFull when ``client`` has made as many as one client may."""
        raise NotImplementedError

    def load(self, code: str) -> Saved | None:
        """The game under ``code``, or None if there is none (never made, or expired)."""
        raise NotImplementedError

    def replace(self, code: str, version: int, line: str, waiting: bool = False) -> int | None:
        """Store ``line`` if the game is still at ``version``: its new version, or None if it changed or is gone.
        ``waiting``: nobody has joined the game yet, so it lives ``waiting_expiry`` from now, not ``expiry``."""
        raise NotImplementedError

    def life(self, waiting: bool) -> float:
        """How long a game lives from its last change."""
        return self.waiting_expiry if waiting else self.expiry

    def creation_wait(self, client: str, most: int) -> float:
        """Count a creation by ``client`` (a key, not an address) if it made fewer than ``most`` within the window:
        0.0; else the seconds until its oldest one leaves the window, and nothing is counted."""
        raise NotImplementedError

    def check(self) -> None:
        """Raise StoreDown if the store cannot be written now, StoreFull if it holds ``most`` live games: what every
        process sees, read from the store itself."""
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
CREATE INDEX IF NOT EXISTS games_seq ON games (seq);
CREATE TABLE IF NOT EXISTS probe (at REAL NOT NULL);
INSERT INTO probe SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM probe);
CREATE TABLE IF NOT EXISTS creations (client TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS creations_client ON creations (client, at);
CREATE TABLE IF NOT EXISTS changes (seq INTEGER NOT NULL);
INSERT INTO changes SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM changes);
"""
# Each game's end (the time it expires), who made it and whether it still waits for the friend: added to a file
# made before them, whose games end a full expiry after their last change.
COLUMNS = {
    "ends": "REAL NOT NULL DEFAULT 0",
    "maker": "TEXT NOT NULL DEFAULT ''",
    "waiting": "INTEGER NOT NULL DEFAULT 0",
}
INDEXES = """
CREATE INDEX IF NOT EXISTS games_ends ON games (ends);
CREATE INDEX IF NOT EXISTS games_maker ON games (maker, ends);
"""


class SQLiteStore(Store):
    """Games in one SQLite file, shared by the processes of one machine (see the module's docstring).

    One connection per process, used under a lock: every statement is short, and under gevent SQLite's calls
    do not yield, so the lock is never held across a switch.
    """

    name = "SQLite"

    def __init__(self, path: str | Path, expiry: float, most: int, identity: tuple[int, int] | None = None, **limits):
        super().__init__(expiry, most, **limits)
        self.path = str(path)
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        # The file's device and inode, once known (file_identity): another file at the path, or none, is a store
        # down, never a fresh empty one, so that no move is acknowledged into a file about to vanish.
        self.identity = identity

    def _same_file(self) -> bool:
        return self.identity is None or file_identity(self.path) == self.identity

    def _connect(self) -> sqlite3.Connection:
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # No busy timeout: SQLite's own waits for a lock sleep in C, which under gevent stops every request of the
        # worker; _run waits in Python instead, letting the others run.
        db = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def _run(self, work, busy_seconds: float | None = None):
        """``work(db)`` under the lock, in a transaction if it writes; any failure of the file is StoreDown.

        While another process holds the file's write lock, the work is tried again every few milliseconds for up
        to BUSY_SECONDS, the lock released in between.
        """
        gives_up = time.monotonic() + (BUSY_SECONDS if busy_seconds is None else busy_seconds)
        while True:
            with self._lock:
                if not self._same_file():
                    self._close()
                    raise StoreDown(f"the SQLite file {self.path} was removed or replaced while in use")
                try:
                    if self._db is None:
                        db = self._connect()
                        prepare(db, self.expiry)
                        self._db = db
                        self.identity = self.identity or file_identity(self.path)
                    return work(self._db)
                except (sqlite3.Error, OSError) as error:
                    if self._db is not None and self._db.in_transaction:
                        self._db.rollback()
                    busy = isinstance(error, sqlite3.OperationalError) and "locked" in str(error)
                    if not busy or time.monotonic() > gives_up:
                        raise StoreDown(f"the SQLite file {self.path} cannot be used: {error}") from None
            time.sleep(BUSY_PAUSE)

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @staticmethod
    def _next_seq(db: sqlite3.Connection) -> int:
        return db.execute("UPDATE changes SET seq = seq + 1 RETURNING seq").fetchone()[0]

    def create(self, code: str, line: str, client: str = "") -> None:
        def work(db):
            now = time.time()
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM games WHERE ends < ?", (now,))
            count, first_end = db.execute("SELECT count(*), min(ends) FROM games").fetchone()
            if count >= self.most:
                db.rollback()
                raise StoreFull(first_end - now)
            made, first, waiting, first_waiting = db.execute(
                "SELECT count(*), min(ends), count(nullif(waiting, 0)), min(CASE WHEN waiting THEN ends END) "
                "FROM games WHERE maker = ?",
                (client,),
            ).fetchone()
            if client and (waiting >= self.client_waiting or made >= self.client_most):
                db.rollback()
                full = waiting >= self.client_waiting
                raise ClientFull((first_waiting if full else first) - now, waiting=full)
            db.execute(
                "INSERT INTO games (code, line, version, touched, seq, ends, maker, waiting) "
                "VALUES (?, ?, 1, ?, ?, ?, ?, 1)",
                (code, line, now, self._next_seq(db), now + self.waiting_expiry, client),
            )
            db.commit()

        self._run(work)

    def load(self, code: str) -> Saved | None:
        row = self._run(
            lambda db: db.execute(
                "SELECT line, version FROM games WHERE code = ? AND ends >= ?", (code, time.time())
            ).fetchone()
        )
        return None if row is None else Saved(*row)

    def replace(self, code: str, version: int, line: str, waiting: bool = False) -> int | None:
        def work(db):
            now = time.time()
            db.execute("BEGIN IMMEDIATE")
            changed = db.execute(
                "UPDATE games SET line = ?, version = version + 1, touched = ?, seq = ?, ends = ?, waiting = ? "
                "WHERE code = ? AND version = ? AND ends >= ?",
                (line, now, self._next_seq(db), now + self.life(waiting), int(waiting), code, version, now),
            ).rowcount
            db.commit()
            return version + 1 if changed else None

        new_version = self._run(work)
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

        return self._run(work)

    def check(self) -> None:
        # A write, as a move's would be (a full disk, a read-only file, a lock held for ever), waiting a short while
        # at most behind another process's; then the live games, by their index.
        def work(db):
            now = time.time()
            db.execute("BEGIN IMMEDIATE")
            db.execute("UPDATE probe SET at = ?", (now,))
            db.commit()
            return db.execute("SELECT count(*), min(ends) FROM games WHERE ends >= ?", (now,)).fetchone()

        live, first_end = self._run(work, busy_seconds=PROBE_BUSY_SECONDS)
        if live >= self.most:
            raise StoreFull(first_end - time.time())

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
                if not self._same_file():
                    raise sqlite3.OperationalError("the file was removed or replaced")
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


def prepare(db: sqlite3.Connection, expiry: float) -> None:
    """Make the tables, or bring a file made before the COLUMNS up to date."""
    db.executescript(SCHEMA)
    if not set(COLUMNS) <= {row[1] for row in db.execute("PRAGMA table_info(games)")}:
        db.execute("BEGIN IMMEDIATE")
        present = {row[1] for row in db.execute("PRAGMA table_info(games)")}  # another process may have done it
        for name, kind in COLUMNS.items():
            if name not in present:
                db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
        db.execute("UPDATE games SET ends = touched + ? WHERE ends = 0", (expiry,))
        db.commit()
    db.executescript(INDEXES)


def file_identity(path: str) -> tuple[int, int] | None:
    """The file's device and inode: another file at the same path has others; None if there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


# Redis's side: each step in one script (webapp.web.friend_scripts), so that it is atomic.


class RedisStore(Store):
    """Games in Redis, shared by every instance that names the same REDIS_URL (see the module's docstring)."""

    name = "Redis"

    def __init__(self, url: str, expiry: float, most: int, **limits):
        super().__init__(expiry, most, **limits)
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

    def create(self, code: str, line: str, client: str = "") -> None:
        keys = [self._key(code), ENDS, f"friends:by:{client}", f"friends:waiting:{client}"]
        limits = [self.most, self.client_most, self.client_waiting, seconds(self.expiry), client]
        args = [code, line, time.time(), seconds(self.waiting_expiry), *limits]
        outcome, wait = self._run(self._create, keys=keys, args=args)
        if outcome == "full":
            raise StoreFull(float(wait))
        if outcome != "ok":
            raise ClientFull(float(wait), waiting=outcome == "waiting")

    def load(self, code: str) -> Saved | None:
        line, version = self._run(self.client.hmget, self._key(code), "line", "v")
        return None if line is None or version is None else Saved(line, int(version))

    def replace(self, code: str, version: int, line: str, waiting: bool = False) -> int | None:
        keys = [self._key(code), ENDS]
        life = seconds(self.life(waiting))
        args = [code, version, line, time.time(), life, CHANNEL, int(waiting), seconds(self.expiry)]
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
        now = time.time()
        # A write, as a move's would be: a Redis out of memory, or refusing writes after a failed save, answers pings.
        self._run(self.client.set, "friends:probe", now, ex=60)
        if self._run(self.client.zcount, ENDS, now, "+inf") >= self.most:
            first = self._run(self.client.zrangebyscore, ENDS, now, "+inf", start=0, num=1, withscores=True)
            raise StoreFull(first[0][1] - now if first else 0.0)

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


def seconds(duration: float) -> int:
    """A duration as Redis's EXPIRE takes it: whole seconds, at least one."""
    return max(1, math.ceil(duration))


def client_key(secret: str, address: str) -> str:
    """A client's address as the creation count keeps it: keyed and hashed, never the address itself.

    >>> len(client_key("key", "203.0.113.7")), client_key("key", "a") == client_key("other key", "a")
    (32, False)
    """
    return hashlib.blake2b(address.encode(), key=secret.encode()[:64], digest_size=16).hexdigest()


def sqlite_path(app: Flask) -> Path:
    return Path(app.config.get("FRIEND_DATABASE") or Path(app.instance_path) / "friends.sqlite3")


def init_app(app: Flask) -> None:
    """Note which SQLite file this server keeps its games in, before gunicorn forks its workers: a worker that
    finds the file gone, or another in its place, is then down however late it first uses it. Outside tests the
    file is made here; where it cannot be, each worker tries again on first use."""
    if app.config.get("REDIS_URL"):
        return
    path = sqlite_path(app)
    if not path.exists() and not app.testing:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with closing(sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)) as db:
                db.execute("PRAGMA journal_mode=WAL")
                prepare(db, app.config["FRIEND_EXPIRY_SECONDS"])
        except (sqlite3.Error, OSError):
            return
    app.extensions["friend_store_file"] = file_identity(str(path))


def of(app: Flask) -> Store:
    """This process's store for ``app``, made on first use in each process (never in gunicorn's master)."""
    made = app.extensions.get("friend_store")
    if made is None or made[0] != os.getpid():
        config = app.config
        expiry, most = config["FRIEND_EXPIRY_SECONDS"], config["FRIEND_GAMES_MOST"]
        limits = {
            "waiting_expiry": config["FRIEND_WAITING_SECONDS"],
            "client_most": config["FRIEND_GAMES_PER_CLIENT"],
            "client_waiting": config["FRIEND_WAITING_PER_CLIENT"],
        }
        if config.get("REDIS_URL"):
            store: Store = RedisStore(config["REDIS_URL"], expiry, most, **limits)
        else:
            identity = app.extensions.get("friend_store_file")
            store = SQLiteStore(sqlite_path(app), expiry, most, identity, **limits)
        made = app.extensions["friend_store"] = (os.getpid(), store)
    return made[1]
