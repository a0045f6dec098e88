"""The places for searches in one worker: a fair queue, counted in CPU seconds, that says how long a wait will be.

A worker runs SEARCHES at once (one per process of its search pool, where it has one). A client has one
search under way at a time: a request whose client has another (running, waiting, or begun) is refused before
its first step, its answer held until that search ends (at most HOLD seconds, costing no CPU), so that a client
cannot make the worker answer refusals as fast as it can ask; unless that search ended because its client had gone
(a page that gave up waiting and asked again), when the new request takes the claim. A search that finds every
place taken waits in line, in the order of each search's start tag (start-time fair queueing): a client's tag is
the later of the queue's own time and the end of its own last search, so clients that search alike wait in arrival
order, and a client that searches back to back waits behind those it has already been served before. A search whose wait
would pass LIMIT is refused at once, with the wait it would have had. A search whose client has gone leaves the
line at once.

The queue counts the CPU seconds of the searches' own requests, never the wall clock: cheap requests sent fast
stretch a search's wall time many times over, and the queue would then foretell long waits and refuse everyone,
long after they stopped.

>>> line = SearchQueue(searches=1, limit=5.0, hold=0)
>>> line.begin("a"); line.enter("a", spent=lambda: 0.0)  # a place is free
>>> line.begin("a")  # one search per client at a time
Traceback (most recent call last):
...
webapp.serving.places.Busy: 429 Too Many Requests: ...
>>> line.leave("a"); line.running, line.searching
({}, {})
"""

from __future__ import annotations

import bisect
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from werkzeug.exceptions import HTTPException, TooManyRequests

# One CPU per worker: a second search at once only doubles the first one's wall time.
SEARCHES = 1
# The CPU seconds of searches that a search may wait behind; a player's move then comes within about 3 s.
LIMIT = 2.2
# A search's CPU seconds before any has been counted: the budget of a big board's move.
FIRST_GUESS = 0.8
# How often a search waiting in line looks whether its client is still there.
LOOK_EVERY = 0.05
# The longest a refusal for a client's second search is held, waiting for its first to end.
HOLD = LIMIT
# Clients remembered for the fairness of their next turn; those past the queue's own time need no memory.
REMEMBERED = 1024
BUSY = (
    "The computer is busy with other games just now, so nothing was played. "
    "Try again in a moment: your game is as you left it."
)


def _never() -> bool:
    """A client that cannot be watched is taken to be there."""
    return False


class Busy(TooManyRequests):
    """No place for this request's search within the limit: answered 429, Retry-After saying when to come back."""

    def __init__(self, wait: float):
        super().__init__(description=BUSY, retry_after=max(1, math.ceil(wait)))


class ClientGone(HTTPException):
    """The client closed its connection while its search waited or ran: the search stops, and nobody reads this
    answer (nginx's 499, so that a host reading the log tells it from bad input)."""

    code = 499
    description = "The client closed its connection before its answer."


@dataclass(order=True)
class _Waiter:
    tag: float
    client: str = field(compare=False)
    spent: Callable[[], float] = field(compare=False)
    # Looked up when made, not when the class is: gevent patches threading.Event in each worker, after the app
    # (and this module) was loaded in the master.
    ready: threading.Event = field(compare=False, default_factory=lambda: threading.Event())
    placed: bool = field(compare=False, default=False)  # under the lock; ``ready`` is set after it


@dataclass
class _Claim:
    """A client's one search under way: ``ended`` is set when it ends, ``abandoned`` first if its client had gone."""

    ended: threading.Event = field(default_factory=lambda: threading.Event())
    abandoned: bool = False


@dataclass
class _Running:
    tag: float
    spent: Callable[[], float]  # the CPU seconds its request has used so far
    started: float  # spent() when it took its place


class SearchQueue:
    """The places of one worker's searches, and the line for them (see the module's docstring)."""

    def __init__(self, searches: int = SEARCHES, limit: float = LIMIT, hold: float = HOLD):
        self.searches, self.limit, self.hold = searches, limit, hold
        self.searching: dict[str, _Claim] = {}  # client -> its search under way
        self.running: dict[str, _Running] = {}
        self.waiting: list[_Waiter] = []  # by tag, then by arrival
        self.ends: dict[str, float] = {}  # client -> the tag its next search starts from, if later than now
        self.now = 0.0  # the queue's own time: the tag of the latest search to start
        self.typical = FIRST_GUESS  # a search's CPU seconds, as a moving average
        self.lock = threading.Lock()

    def begin(self, client: str) -> None:
        """Claim ``client``'s one search, before its first step; Busy if another of its searches is under way,
        once that one has ended or ``hold`` seconds have passed."""
        with self.lock:
            other = self.searching.get(client)
            if other is None:
                self.searching[client] = _Claim()
                return
        other.ended.wait(self.hold)
        with self.lock:
            if other.abandoned and client not in self.searching:
                self.searching[client] = _Claim()
                return
            raise Busy(self._left_of(client))

    def enter(self, client: str, spent: Callable[[], float], gone: Callable[[], bool] = _never) -> None:
        """Take a place for ``client``'s search, waiting in line for it; Busy if the wait would be too long.

        ``spent`` reads the CPU seconds the search's request has used so far, ``gone`` whether its client has left
        (then ClientGone, and the place in line is given back)."""
        with self.lock:
            if client in self.running or any(w.client == client for w in self.waiting):
                raise Busy(self._left_of(client))
            waiter = _Waiter(max(self.now, self.ends.get(client, 0.0)), client, spent)
            ahead = bisect.bisect_right(self.waiting, waiter)
            if ahead == 0 and len(self.running) < self.searches:
                self._start(waiter)
                return
            wait = self.expected_wait(ahead)
            if wait > self.limit:
                raise Busy(wait)
            self.waiting.insert(ahead, waiter)
        # However long it takes on the clock: the line before it was foretold in CPU seconds, and is never longer.
        while not waiter.ready.wait(LOOK_EVERY):
            if gone():
                with self.lock:
                    if waiter.placed:
                        return  # its turn came meanwhile: the search's next pause sees that its client has gone
                    self.waiting.remove(waiter)
                raise ClientGone()

    def leave(self, client: str, abandoned: bool = False) -> None:
        """``client``'s search is over, placed or not (``abandoned``: because its client had gone): give back its
        claim and its place, and start the next in line."""
        woken = []
        with self.lock:
            claim = self.searching.pop(client, None)
            if claim is not None:
                claim.abandoned = abandoned
                woken.append(claim.ended)
            search = self.running.pop(client, None)
            if search is not None:
                took = max(0.0, search.spent() - search.started)
                self.typical += (took - self.typical) / 8
                self.ends[client] = search.tag + took
                while self.waiting and len(self.running) < self.searches:
                    waiter = self.waiting.pop(0)
                    self._start(waiter)
                    woken.append(waiter.ready)
                self._forget()
        # Outside the lock: under gevent, setting an event may switch to another greenlet, which may want the lock.
        for event in woken:
            event.set()

    def _forget(self) -> None:
        """Keep the memory of clients' ends bounded."""
        if not self.running:
            self.ends.clear()  # idle: every client starts again equal
        elif len(self.ends) > REMEMBERED:
            self.ends = {c: end for c, end in self.ends.items() if end > self.now}
            if len(self.ends) > REMEMBERED:
                self.ends.clear()

    def expected_wait(self, ahead: int) -> float:
        """CPU seconds of searches before one with ``ahead`` searches before it in line starts: what is left of the
        soonest to end of the running ones, each taken as long as a typical search, then a typical search for each
        ahead."""
        left = [max(0.0, self.typical - (s.spent() - s.started)) for s in self.running.values()]
        left += [0.0] * (self.searches - len(left))
        return min(left) + ahead * self.typical / self.searches

    def _left_of(self, client: str) -> float:
        """CPU seconds until ``client``'s search under way ends, as foretold (none if it has ended)."""
        if client not in self.searching:
            return 0.0
        if (search := self.running.get(client)) is not None:
            return max(0.0, self.typical - (search.spent() - search.started))
        ahead = next((i for i, w in enumerate(self.waiting) if w.client == client), None)
        return self.typical + (0.0 if ahead is None else self.expected_wait(ahead))

    def _start(self, waiter: _Waiter) -> None:
        waiter.placed = True
        self.running[waiter.client] = _Running(waiter.tag, waiter.spent, waiter.spent())
        self.now = max(self.now, waiter.tag)
