"""The places for searches in one worker: a fair queue that can say how long a wait will be.

A worker has one CPU, so it runs SEARCHES at once; more would only take turns at their pauses. A search
that finds every place taken waits in line, at most one entry per client. The line is in the order of
each search's start tag (start-time fair queueing): a client's tag is the later of the queue's own time
and the end of its own last search, so clients that search alike wait in arrival order, and a client
that searches back to back waits behind those it has already been served before. A search whose wait
would pass LIMIT seconds is refused at once, with the wait it would have had.

>>> line = SearchQueue(searches=1, limit=5.0, clock=lambda: 0.0)
>>> line.enter("a")  # a place is free
>>> line.enter("a")  # one search per client at a time
Traceback (most recent call last):
...
webapp.web.places.Busy: 429 Too Many Requests: ...
>>> line.leave("a"); line.running
{}
"""

from __future__ import annotations

import bisect
import math
import threading
import time
from dataclasses import dataclass, field

from werkzeug.exceptions import TooManyRequests

# One CPU per worker: a second search at once only doubles the first one's wall time.
SEARCHES = 1
# The longest a search may wait for its place; a player's move then comes within about 3 s.
LIMIT = 2.2
# A search's length before any has been timed: the CPU budget of a big board's move.
FIRST_GUESS = 0.8
# Clients remembered for the fairness of their next turn; those past the queue's own time need no memory.
REMEMBERED = 1024
BUSY = (
    "The computer is busy with other games just now, so nothing was played. "
    "Try again in a moment: your game is as you left it."
)


class Busy(TooManyRequests):
    """No place for this request's search within the limit: answered 429, Retry-After saying when to come back."""

    def __init__(self, wait: float):
        super().__init__(description=BUSY, retry_after=max(1, math.ceil(wait)))


@dataclass(order=True)
class _Waiter:
    tag: float
    client: str = field(compare=False)
    ready: threading.Event = field(compare=False, default_factory=threading.Event)


class SearchQueue:
    """The places of one worker's searches, and the line for them (see the module's docstring)."""

    def __init__(self, searches: int = SEARCHES, limit: float = LIMIT, clock=time.monotonic):
        self.searches, self.limit, self.clock = searches, limit, clock
        self.running: dict[str, tuple[float, float]] = {}  # client -> (its tag, when it started)
        self.waiting: list[_Waiter] = []  # by tag, then by arrival
        self.ends: dict[str, float] = {}  # client -> the tag its next search starts from, if later than now
        self.now = 0.0  # the queue's own time: the tag of the latest search to start
        self.typical = FIRST_GUESS  # a search's wall seconds, as a moving average
        self.lock = threading.Lock()

    def enter(self, client: str) -> None:
        """Take a place for a search of ``client``, waiting in line for it; Busy if the wait would be too long."""
        with self.lock:
            if client in self.running or any(w.client == client for w in self.waiting):
                raise Busy(self._left_of(client))
            waiter = _Waiter(max(self.now, self.ends.get(client, 0.0)), client)
            ahead = bisect.bisect_right(self.waiting, waiter)
            if ahead == 0 and len(self.running) < self.searches:
                self._start(waiter)
                return
            wait = self.expected_wait(ahead)
            if wait > self.limit:
                raise Busy(wait)
            self.waiting.insert(ahead, waiter)
        # The wait was foretold from typical searches: give it slack before giving up.
        if waiter.ready.wait(2 * self.limit):
            return
        with self.lock:
            if waiter.ready.is_set():
                return
            self.waiting.remove(waiter)
            raise Busy(self.expected_wait(len(self.waiting)))

    def leave(self, client: str) -> None:
        """Give the place of ``client``'s search back, and start the next in line."""
        with self.lock:
            entry = self.running.pop(client, None)
            if entry is None:
                return
            tag, started = entry
            took = self.clock() - started
            self.typical += (took - self.typical) / 8
            self.ends[client] = tag + took
            while self.waiting and len(self.running) < self.searches:
                waiter = self.waiting.pop(0)
                self._start(waiter)
                waiter.ready.set()
            if not self.running:
                self.ends.clear()  # idle: every client starts again equal
            elif len(self.ends) > REMEMBERED:
                self.ends = {c: end for c, end in self.ends.items() if end > self.now}
                if len(self.ends) > REMEMBERED:
                    self.ends.clear()

    def expected_wait(self, ahead: int) -> float:
        """Seconds until a search with ``ahead`` searches before it in line starts, from typical searches."""
        now = self.clock()
        left = [max(0.0, self.typical - (now - started)) for _, started in self.running.values()]
        if len(left) < self.searches:
            left += [0.0] * (self.searches - len(left))
        return min(left) + ahead * self.typical / self.searches

    def _left_of(self, client: str) -> float:
        entry = self.running.get(client)
        return self.typical if entry is None else max(0.0, self.typical - (self.clock() - entry[1]))

    def _start(self, waiter: _Waiter) -> None:
        self.running[waiter.client] = (waiter.tag, self.clock())
        self.now = max(self.now, waiter.tag)
