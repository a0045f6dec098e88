"""The production server's worker: gunicorn's gevent worker, with deadlines and a memory bound for requests
on their way in.

gunicorn ties its only header timeout to keep-alive, which we turn off (docs/serving.md), and reads a body
only when the app asks for it, under no deadline at all. Here a request arrives under these limits:

* IDLE_SECONDS between any two reads or writes: a socket that says nothing, or reads nothing of its
  answer, is closed;
* ARRIVAL_SECONDS for the request line and headers, from the connection's start, and BODY_SECONDS for the
  body, from the head's end: a client that trickles a byte at a time, just fast enough never to be idle, is
  closed all the same;
* HEAD_BYTES for the request line and headers together, counted as they arrive: a longer head is answered
  431 and closed;
* the body is read whole before the app runs, up to the app's cap (security.BODY_BYTES); one that declares
  more is not kept, only read and dropped for a second, and the app answers 413;
* ARRIVING_BYTES for the heads of one worker's requests still on their way in, all together: past it, a
  connection that holds part of a head waits to read more until there is room again, or until its deadline.

A head is received into one buffer of its own, and gunicorn's parser reads it once it is whole: the parser
copies what it has read on every read, so a head stalled in it held about three times its bytes. Once many
connections have closed, the worker hands the memory they held back to the system.

Closing is quiet: a stalled client is reported to gunicorn as a reset connection, which it closes with a
line at debug level, never a traceback. The limits come from the environment (CLIENT_IDLE_SECONDS,
CLIENT_ARRIVAL_SECONDS, CLIENT_BODY_SECONDS, CLIENT_HEAD_BYTES, CLIENT_ARRIVING_BYTES), so that tests can
shorten them.

Used by gunicorn.conf.py as ``worker_class``; only the production server imports it.
"""

from __future__ import annotations

import ctypes
import errno
import io
import os
import socket
import time
from collections.abc import Callable
from contextlib import suppress
from functools import cache
from typing import TYPE_CHECKING

import gevent
from gevent.event import Event
from gunicorn.http.errors import LimitRequestHeaders, NoMoreData
from gunicorn.workers.ggevent import GeventWorker

from webapp.serving.security import BODY_BYTES, DRAIN_BYTES, discard

IDLE_SECONDS = float(os.environ.get("CLIENT_IDLE_SECONDS", "10"))
ARRIVAL_SECONDS = float(os.environ.get("CLIENT_ARRIVAL_SECONDS", "15"))
BODY_SECONDS = float(os.environ.get("CLIENT_BODY_SECONDS", "10"))
# What comes past the body's cap is dropped for this long before the 413: a client sends a whole body at once.
DRAIN_SECONDS = 1.0
# The game's cookies are at most 2 KB each, and a browser's other headers about 2 KB more.
HEAD_BYTES = int(os.environ.get("CLIENT_HEAD_BYTES", str(16 * 1024)))
# With a worker's 5,000 connections each holding a first block besides, its memory stays under 150 MB: 9,000
# stalled heads took a worker to 152 MB at 16 MB, 142 MB at 8 (docs/serving.md).
ARRIVING_BYTES = int(os.environ.get("CLIENT_ARRIVING_BYTES", str(8 * 1024 * 1024)))
# A head is received in blocks of this size: a browser's head in one, and little held for each one that stalls.
HEAD_BLOCK = 2048
# Memory is handed back to the system once this many connections have closed since the most a worker held.
RELEASE_AFTER = 100
RELEASE_SECONDS = 5.0
END_OF_HEAD = b"\r\n\r\n"


class Stalled(ConnectionResetError):
    """The client sent or read nothing for too long, or took too long to send its request."""

    def __init__(self, why: str):
        super().__init__(errno.ECONNRESET, why)


class HeadCount:
    """The bytes of one connection's head so far, until its blank line comes.

    >>> count = HeadCount(limit=32)
    >>> count.add(b"GET / HTT"); count.add(b"P/1.0\\r\\n\\r\\nbody"); count.done
    True
    >>> HeadCount(limit=32).add(b"GET /" + b"x" * 40)
    Traceback (most recent call last):
    ...
    gunicorn.http.errors.LimitRequestHeaders: ...
    """

    __slots__ = ("done", "left", "limit", "tail")

    def __init__(self, limit: int = HEAD_BYTES):
        self.limit, self.left, self.tail, self.done = limit, limit, b"", False

    def add(self, data: bytes) -> None:
        if self.done:
            return
        seen = self.tail + data
        end = seen.find(END_OF_HEAD)
        self.left -= len(data) if end < 0 else end + len(END_OF_HEAD) - len(self.tail)
        if self.left < 0:
            raise LimitRequestHeaders(f"the request's line and headers are over {self.limit:,} bytes")
        self.done, self.tail = end >= 0, seen[-3:]


class Arriving:
    """The bytes of the heads one worker holds while they arrive, all together, and the connections waiting for
    room to read more; room goes to the newest first (a browser's head), not to those stalled longest.

    >>> arriving = Arriving(limit=10)
    >>> arriving.add(12); arriving.full
    True
    >>> arriving.free(12); arriving.full
    False
    """

    __slots__ = ("limit", "total", "waiting")

    def __init__(self, limit: int = ARRIVING_BYTES):
        self.limit, self.total = limit, 0
        self.waiting: dict[Event, None] = {}  # in the order they began to wait

    @property
    def full(self) -> bool:
        return self.total >= self.limit

    def add(self, size: int) -> None:
        self.total += size

    def free(self, size: int) -> None:
        self.total -= size
        if self.waiting and not self.full:
            room = next(reversed(self.waiting))
            del self.waiting[room]
            room.set()

    def wait_for_room(self, seconds: float) -> None:
        """Return when there may be room, or after ``seconds``."""
        room = Event()
        self.waiting[room] = None
        try:
            room.wait(seconds)
        finally:
            self.waiting.pop(room, None)


ARRIVING = Arriving()


class Arrival:
    """One request on its way in: when it must have arrived, and its head, counted and kept in one buffer
    until its blank line comes, for gunicorn's parser to read then."""

    __slots__ = ("buffer", "deadline", "head")

    def __init__(self, seconds: float):
        self.deadline, self.head, self.buffer = time.monotonic() + seconds, HeadCount(), bytearray()

    def time_left(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise Stalled("the request took too long to arrive")
        return min(IDLE_SECONDS, left)

    def receive_head(self, connection) -> None:
        """Receive the rest of the head, a block at a time; past the first, only while the worker has room."""
        while not self.head.done:
            while self.buffer and ARRIVING.full:
                ARRIVING.wait_for_room(self.time_left())
            data = connection.received(HEAD_BLOCK)
            if not data:
                return  # the client left: gunicorn's parser reports it
            self.head.add(data)
            self.buffer += data
            ARRIVING.add(len(data))

    def take(self, size: int) -> bytes:
        """Up to ``size`` bytes of the head, for the parser; once taken, they no longer count."""
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        ARRIVING.free(len(data))
        return data

    def end(self) -> None:
        ARRIVING.free(len(self.buffer))
        self.buffer = bytearray()


def _arrival() -> Arrival | None:
    """The request this greenlet is receiving, if it has not arrived yet."""
    return getattr(gevent.getcurrent(), "arrival", None)


# To the type checker the mixin is a socket: at run time it goes before the client's own socket class.
if TYPE_CHECKING:
    _Socket = socket.socket
else:
    _Socket = object


class _WithDeadlines(_Socket):
    """A client socket whose reads wait at most until the request's deadline, and writes at most IDLE_SECONDS,
    then report a reset; the first read of a request waits until its whole head has come."""

    __slots__ = ()

    def recv(self, size, *flags):
        arrival = _arrival()
        if arrival is not None:
            arrival.receive_head(self)
            if arrival.buffer:
                return arrival.take(size)
        return self.received(size, *flags)

    def recv_into(self, buffer, size=0, *flags):
        data = self.recv(size or len(buffer), *flags)
        buffer[: len(data)] = data
        return len(data)

    def received(self, size, *flags) -> bytes:
        """What the client sent, within the request's deadline."""
        arrival = _arrival()
        self.settimeout(IDLE_SECONDS if arrival is None else arrival.time_left())
        try:
            return super().recv(size, *flags)
        except TimeoutError:
            raise Stalled("the client stalled") from None

    def sendall(self, *args):
        self.settimeout(IDLE_SECONDS)
        try:
            return super().sendall(*args)
        except TimeoutError:
            raise Stalled("the client stopped reading") from None


@cache
def _with_deadlines(kind: type) -> type:
    return type(f"{kind.__name__}WithDeadlines", (_WithDeadlines, kind), {"__slots__": ()})


def _whole_body(req, sock, arrival: Arrival) -> io.BytesIO:
    """The request's body, read whole within its deadline, up to one byte past the app's cap.

    One that declares more is not kept: the app answers 413 from its declared length. What comes past the cap
    is read and dropped for up to DRAIN_SECONDS: unread bytes at the close would reset the connection, and a
    client that sent them at once could lose the 413 with it.
    """
    declared = next((int(value) for name, value in req.headers if name == "CONTENT-LENGTH" and value.isdigit()), None)
    asked, req._expected_100_continue = req._expected_100_continue, False
    if declared is not None and declared > BODY_BYTES:
        if not asked:  # a client waiting to be told to go on sends nothing: the 413 is its answer
            _drop(req, min(declared, DRAIN_BYTES), arrival)
        return io.BytesIO()
    if asked:
        sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
    kept = req.body.read(BODY_BYTES + 1)
    if len(kept) > BODY_BYTES:
        _drop(req, DRAIN_BYTES, arrival)
    elif declared is not None and len(kept) < declared:
        raise Stalled("the body ended before its declared length")
    return io.BytesIO(kept)


def _drop(req, most: int, arrival: Arrival) -> None:
    """Read and drop up to ``most`` bytes of the body for at most DRAIN_SECONDS; the refusal is sent either way."""
    arrival.deadline = min(arrival.deadline, time.monotonic() + DRAIN_SECONDS)
    # A block at a time: gunicorn's reader would ask the socket for the whole declared rest at once and keep
    # what came beyond each read, 60 KB a connection while thousands drained (a worker at 149 MB).
    req.unreader.mxchunk = req.unreader.max_body_chunk = HEAD_BLOCK
    with suppress(Stalled, NoMoreData):
        discard(req.body, most, HEAD_BLOCK)


def _malloc_trim():
    """glibc's malloc_trim, which hands free memory inside the heap back to the system; None elsewhere."""
    with suppress(OSError, AttributeError):
        return ctypes.CDLL(None).malloc_trim
    return None


class GameWorker(GeventWorker):
    """gunicorn's gevent worker, closing connections that stall (see the module's docstring)."""

    # What the app asks to end at once when the worker is told to stop (gunicorn.conf.py: the friend pages' streams),
    # given by the app's side: the serving layer names nothing of the game.
    stopping: tuple[Callable[[], None], ...] = ()

    def run(self):
        self.connections = self.peak = 0
        if trim := _malloc_trim():
            gevent.spawn(self.give_back_memory, trim)
        super().run()

    def give_back_memory(self, trim) -> None:
        """Once many connections have closed, hand the memory they held back to the system.

        Python frees their buffers, but the C heap keeps the pages between what is still in use: 4,000 stalled
        heads left a worker at 118 MB ten seconds after they closed, and at 65 MB with a trim.
        """
        while True:
            gevent.sleep(RELEASE_SECONDS)
            if self.peak - self.connections >= RELEASE_AFTER:
                trim(0)
                self.peak = self.connections

    def handle_exit(self, sig, frame) -> None:
        # Open pages' streams would hold the stop until graceful_timeout: they end now, and the pages reconnect.
        super().handle_exit(sig, frame)
        for stop in self.stopping:
            gevent.spawn(stop)

    def handle(self, listener, client: socket.socket, addr):
        # The socket's class gains the deadlines: gunicorn reads and writes through these very methods.
        # A class is hashable; mypy checks socket's own __hash__ against Hashable instead.
        client.__class__ = _with_deadlines(type(client))  # type: ignore[arg-type]
        me = gevent.getcurrent()
        me.arrival = Arrival(ARRIVAL_SECONDS)
        self.connections += 1
        self.peak = max(self.peak, self.connections)
        try:
            super().handle(listener, client, addr)
        finally:
            self.connections -= 1
            if me.arrival is not None:
                me.arrival.end()
                me.arrival = None

    def handle_request(self, listener_name, req, sock, addr):
        # The head is in: the body has its own deadline, and is read whole before the app runs.
        me = gevent.getcurrent()
        me.arrival.deadline = time.monotonic() + BODY_SECONDS
        try:
            req.body = _whole_body(req, sock, me.arrival)
        finally:
            me.arrival.end()
            me.arrival = None
        return super().handle_request(listener_name, req, sock, addr)
