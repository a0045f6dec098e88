"""The production server's worker: gunicorn's gevent worker, with deadlines for clients that stall.

gunicorn ties its only header timeout to keep-alive, which we turn off (docs/serving.md), so a client
that opened a connection and sent nothing, or half a request line, held it for ever: 2,050 idle
sockets filled both workers' pools and the health check timed out ten times in ten for four minutes.
Here each connection has

* IDLE_SECONDS between any two reads or writes: a socket that says nothing, or reads nothing of its
  answer, is closed;
* ARRIVAL_SECONDS for its whole request line and headers: a client that trickles them a byte at a
  time, just fast enough to stay within the first limit, is closed all the same;
* HEAD_BYTES for its request line and headers together, counted as they arrive: a longer head is
  answered 431 and closed, so a visitor who never ends its head holds a few KB, not gunicorn's
  100 fields of 8 KB each.

The body is under neither the second nor the third limit (the app reads it, at most 64 KB), only under
the first.
Closing is quiet: a stalled client is reported to gunicorn as a reset connection, which it closes
with a line at debug level, not a traceback in the log. The limits come from the environment
(CLIENT_IDLE_SECONDS, CLIENT_ARRIVAL_SECONDS, CLIENT_HEAD_BYTES), so that tests can shorten them.

Used by gunicorn.conf.py as ``worker_class``; only the production server imports it.
"""

from __future__ import annotations

import errno
import os
import time
from functools import cache

import gevent
from gunicorn.http.errors import LimitRequestHeaders
from gunicorn.workers.ggevent import GeventWorker

IDLE_SECONDS = float(os.environ.get("CLIENT_IDLE_SECONDS", "10"))
ARRIVAL_SECONDS = float(os.environ.get("CLIENT_ARRIVAL_SECONDS", "15"))
# The game's cookies are at most 2 KB each, and a browser's other headers about 2 KB more.
HEAD_BYTES = int(os.environ.get("CLIENT_HEAD_BYTES", str(16 * 1024)))
END_OF_HEAD = b"\r\n\r\n"


class Stalled(ConnectionResetError):
    """The client sent or read nothing for too long, or took too long to send its request's head."""

    def __init__(self, why: str):
        super().__init__(errno.ECONNRESET, why)


def _time_left() -> float:
    """How long the next read or write of this connection may wait (its greenlet's arrival deadline)."""
    deadline = getattr(gevent.getcurrent(), "arrival_deadline", None)
    if deadline is None:
        return IDLE_SECONDS
    left = deadline - time.monotonic()
    if left <= 0:
        raise Stalled("the request's line and headers took too long to arrive")
    return min(IDLE_SECONDS, left)


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


class _WithDeadlines:
    """A client socket whose reads and writes wait at most _time_left(), then report a reset, and whose
    reads count the request's head."""

    __slots__ = ()

    def recv(self, *args):
        data = self._within_deadline(super().recv, args)
        _head_count().add(data)
        return data

    def recv_into(self, buffer, *args):
        size = self._within_deadline(super().recv_into, (buffer, *args))
        _head_count().add(bytes(memoryview(buffer)[:size]))
        return size

    def sendall(self, *args):
        return self._within_deadline(super().sendall, args)

    def _within_deadline(self, call, args):
        self.settimeout(_time_left())
        try:
            return call(*args)
        except TimeoutError:
            raise Stalled("the client stalled") from None


_COUNTED = HeadCount()
_COUNTED.done = True


def _head_count() -> HeadCount:
    """This connection's count, kept on its greenlet; a finished one where there is none."""
    return getattr(gevent.getcurrent(), "head_count", _COUNTED)


@cache
def _with_deadlines(kind: type) -> type:
    return type(f"{kind.__name__}WithDeadlines", (_WithDeadlines, kind), {"__slots__": ()})


class GameWorker(GeventWorker):
    """gunicorn's gevent worker, closing connections that stall (see the module's docstring)."""

    def handle(self, listener, client, addr):
        # The socket's class gains the deadlines: gunicorn reads and writes through these very methods.
        client.__class__ = _with_deadlines(type(client))
        me = gevent.getcurrent()
        me.arrival_deadline, me.head_count = time.monotonic() + ARRIVAL_SECONDS, HeadCount()
        super().handle(listener, client, addr)

    def handle_request(self, listener_name, req, sock, addr):
        # The request's line and headers are in: from here only the idle limit applies.
        me = gevent.getcurrent()
        me.arrival_deadline, me.head_count = None, _COUNTED
        return super().handle_request(listener_name, req, sock, addr)
