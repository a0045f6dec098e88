"""What one request may cost the server: the CPU time of its searches, their turns, and their places.

A search is pure CPU work. Under gunicorn's gevent workers nothing interrupts it, so one 15×15 search
held every other request of its worker until it ended (a health check waited 1.2 to 2.1 s behind one
tree view), and nothing capped what a request could ask for (one 5×5 position cost 10 s). The engine
reads its clock, its pauses and its deadline from a Pace (webapp.engine.pacing); each request here
gets its own:

* **a clock of its own**: the CPU time of this request alone, not of the requests that ran while it
  paused, so that its searches get the budget they are given however busy the worker is;
* **a deadline**: all the searches of one request together stop after REQUEST_SECONDS of that clock,
  whatever it asks for (a tree view makes one search per move it shows);
* **pauses that let others run**: every few milliseconds of search the request yields to gevent's
  hub, so that a health check or a 3×3 move waits for milliseconds, not for the search;
* **a place in line**: a worker's searches take turns through a fair queue (``webapp.web.places``), one
  per client; a request whose wait would be too long is answered 429 with Retry-After, before its game
  changed. Cheap requests (every 3×3 move, the pages, the health check) never search long enough to
  ask for a place.

A request asks for its place at its first pause: only a search that runs for a few milliseconds
pauses at all, so no list of routes or boards has to say in advance which requests are costly.
"""

from __future__ import annotations

import sys
import time

from flask import Flask, g, request

from webapp.engine import pacing
from webapp.web.places import SearchQueue

# All the searches of one request together, in CPU seconds of that request alone: rendering and the
# rest of the request stay well inside the one second that no request may exceed.
REQUEST_SECONDS = 0.8
# The game tree's searches together: a tree page also draws every child of every node it opens, and at 0.65 s a
# cold 15×15 tree reached 1.00 s on a slow, busy machine.
TREE_SECONDS = 0.5
# A piece of a big board's review grades moves until its searches have taken this long (a move takes 10 to 150 ms):
# the rest of the request's second is drawing the piece, and the move in hand when the time came.
PIECE_SECONDS = 0.35


class RequestClock:
    """CPU seconds spent by one request: its thread's CPU time, less what passed while it paused."""

    # The thread's, not the process's: with threads (`flask run`, the browser tests' server) the process's
    # time counts every other request's work too and would end a search early; under gevent one thread runs
    # every greenlet, and what the others did while this request paused is left out.
    def __init__(self, clock=time.thread_time):
        self._clock = clock
        self._used = 0.0
        self._since = clock()

    def __call__(self) -> float:
        return self._used + self._clock() - self._since

    def stop(self) -> None:
        self._used += self._clock() - self._since

    def start(self) -> None:
        self._since = self._clock()


def _yield_to_others() -> None:
    """Let the worker's other requests run: under gevent, wait until its hub has nothing else to do; with
    threads, nothing (the interpreter already switches threads).

    ``gevent.idle()``, not ``gevent.sleep(0)``: a sleep of nought runs the search again before the hub polls
    the sockets, and a health check behind one 15×15 tree waited up to 0.64 s instead of 57 ms.
    """
    if "gevent" in sys.modules:
        import gevent.monkey

        if gevent.monkey.is_module_patched("time"):
            import gevent

            gevent.idle()


class RequestPace:
    """The pace of one request's searches (see the module's docstring)."""

    def __init__(self, places: SearchQueue, client: str):
        self.places, self.client = places, client
        self.clock = RequestClock()
        self.placed = False
        self.pace = pacing.Pace(self.clock, self.pause, self.clock() + REQUEST_SECONDS)

    def pause(self) -> None:
        self.clock.stop()
        try:
            if not self.placed:
                self.places.enter(self.client)
                self.placed = True
            _yield_to_others()
        finally:
            self.clock.start()

    def end(self) -> None:
        if self.placed:
            self.places.leave(self.client)
            self.placed = False


def init_app(app: Flask) -> None:
    """Give each request its pace, and free its search's place when it ends, whatever happened."""
    places = app.extensions["search_places"] = SearchQueue()

    @app.before_request
    def pace_the_request():
        paced = RequestPace(places, request.remote_addr or "unknown")
        g.pace, g.pace_token = paced, pacing.install(paced.pace)

    @app.teardown_request
    def end_the_pace(error=None):
        paced = g.pop("pace", None)
        if paced is not None:
            paced.end()
            pacing.uninstall(g.pop("pace_token"))
