"""The production server's worker: gunicorn's gevent worker, with deadlines for clients that stall.

gunicorn ties its only header timeout to keep-alive, which we turn off (docs/serving.md), so a client
that opened a connection and sent nothing, or half a request line, held it for ever: 2,050 idle
sockets filled both workers' pools and the health check timed out ten times in ten for four minutes.
Here each connection has

* IDLE_SECONDS between any two reads or writes: a socket that says nothing, or reads nothing of its
  answer, is closed;
* ARRIVAL_SECONDS for its whole request line and headers: a client that trickles them a byte at a
  time, just fast enough to stay within the first limit, is closed all the same.

The body is not under the second limit (the app reads it, at most 64 KB), only under the first.
Closing is quiet: a stalled client is reported to gunicorn as a reset connection, which it closes
with a line at debug level, not a traceback in the log. Both limits come from the environment
(CLIENT_IDLE_SECONDS, CLIENT_ARRIVAL_SECONDS), so that tests can shorten them.

Used by gunicorn.conf.py as ``worker_class``; only the production server imports it.
"""

from __future__ import annotations

import errno
import os
import time
from functools import cache

import gevent
from gunicorn.workers.ggevent import GeventWorker

IDLE_SECONDS = float(os.environ.get("CLIENT_IDLE_SECONDS", "10"))
ARRIVAL_SECONDS = float(os.environ.get("CLIENT_ARRIVAL_SECONDS", "15"))


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


class _WithDeadlines:
    """A client socket whose reads and writes wait at most _time_left(), then report a reset."""

    __slots__ = ()

    def recv(self, *args):
        return self._within_deadline(super().recv, args)

    def recv_into(self, *args):
        return self._within_deadline(super().recv_into, args)

    def sendall(self, *args):
        return self._within_deadline(super().sendall, args)

    def _within_deadline(self, call, args):
        self.settimeout(_time_left())
        try:
            return call(*args)
        except TimeoutError:
            raise Stalled("the client stalled") from None


@cache
def _with_deadlines(kind: type) -> type:
    return type(f"{kind.__name__}WithDeadlines", (_WithDeadlines, kind), {"__slots__": ()})


class GameWorker(GeventWorker):
    """gunicorn's gevent worker, closing connections that stall (see the module's docstring)."""

    def handle(self, listener, client, addr):
        # The socket's class gains the deadlines: gunicorn reads and writes through these very methods.
        client.__class__ = _with_deadlines(type(client))
        gevent.getcurrent().arrival_deadline = time.monotonic() + ARRIVAL_SECONDS
        super().handle(listener, client, addr)

    def handle_request(self, listener_name, req, sock, addr):
        # The request's line and headers are in: from here only the idle limit applies.
        gevent.getcurrent().arrival_deadline = None
        return super().handle_request(listener_name, req, sock, addr)
