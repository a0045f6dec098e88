"""What one request may cost the server: the CPU time of its searches, their turns, and their places.

A search is pure CPU work. Under gunicorn's gevent workers nothing interrupts it, so one 15×15 search
held every other request of its worker until it ended (a health check waited 1.2 to 2.1 s behind one
tree view), and nothing capped what a request could ask for (one 5×5 position cost 10 s). Each request
here gets a pace of its own (``RequestPace``: a clock, a pause, a beginning and a deadline), which the
hook given to ``init_app`` hands to whatever searches (the game's engine reads it as a Pace):

* **a clock of its own**: the CPU time of this request alone, not of the requests that ran while it
  paused, so that its searches get the budget they are given however busy the worker is;
* **a deadline**: all the searches of one request together stop after REQUEST_SECONDS of that clock,
  whatever it asks for (a tree view makes one search per move it shows);
* **pauses that let others run**: every few milliseconds of search the request yields to gevent's
  hub, so that a health check or a 3×3 move waits for milliseconds, not for the search;
* **one search per client**: a search's beginning claims its client's one search, and a request whose
  client has another under way is refused there, before its first step (``webapp.serving.places``); a
  client is an IPv4 address or an IPv6 /64 (``client_key``);
* **a place in line**: a worker's searches take turns through a fair queue (``webapp.serving.places``); a
  request whose wait would be too long is answered 429 with Retry-After, before its game changed. Cheap
  requests (every 3×3 move, the pages, the health check) never search long enough to ask for a place;
* **an end when its client goes**: a search whose client has closed its connection leaves the line, or
  stops at its next pause, and gives its place back at once; its client's next request is not refused for it;
* **a process of its own**: where the server has a search pool (``start_pool``, the Procfile's server), a
  request that has its place runs again from the start in one of the pool's processes (``webapp.serving.searches``),
  holding its place meanwhile, and the web worker only waits for the answer, serving others.

A request asks for its place at its first pause: only a search that runs for a few milliseconds
pauses at all, so no list of routes or boards has to say in advance which requests are costly.
"""

from __future__ import annotations

import ipaddress
import select
import socket
import sys
import time
from collections.abc import Callable, Iterable
from functools import cached_property

from flask import Flask, g, request
from werkzeug.exceptions import HTTPException

from webapp.serving import searches
from webapp.serving.places import ClientGone, SearchQueue

# All the searches of one request together, in CPU seconds of that request alone: rendering and the
# rest of the request stay well inside the one second that no request may exceed.
REQUEST_SECONDS = 0.8


class RequestClock:
    """CPU seconds spent by one request: its thread's CPU time, less what passed while it paused."""

    # The thread's, not the process's: with threads (`flask run`, the browser tests' server) the process's
    # time counts every other request's work too and would end a search early; under gevent one thread runs
    # every greenlet, and what the others did while this request paused is left out.
    def __init__(self, clock: Callable[[], float] = time.thread_time):
        self._clock = clock
        self._used = 0.0
        self._since: float | None = clock()

    def __call__(self) -> float:
        return self._used + (0.0 if self._since is None else self._clock() - self._since)

    def stop(self) -> None:
        if self._since is not None:
            self._used += self._clock() - self._since
            self._since = None

    def start(self) -> None:
        self._since = self._clock()

    def add(self, seconds: float) -> None:
        """Count CPU seconds this request spent in another process."""
        self._used += seconds

    def spent(self) -> float:
        """The seconds counted up to the last stop: what another request may read of this one, whose clock reads
        its own thread's time."""
        return self._used


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


def client_key(address: str | None) -> str:
    """The client a request counts for: its IPv4 address, or the /64 network of its IPv6 address (a home or a
    server is given a whole /64, and may send from any of its addresses); one client for anything else.

    >>> client_key("192.0.2.7"), client_key("2001:db8:1:2:3:4:5:6"), client_key("::ffff:192.0.2.7")
    ('192.0.2.7', '2001:db8:1:2::/64', '192.0.2.7')
    >>> client_key("not an address"), client_key(None)
    ('unknown', 'unknown')
    """
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return "unknown"
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:  # an IPv4 client of a server listening on IPv6
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))


def _select_now(readable: list) -> list:
    """Those of ``readable`` that have something to read, or have been closed, without waiting: the system's own
    select, since gevent's would switch to other greenlets even with no timeout."""
    choose = select.select
    if "gevent" in sys.modules:
        import gevent.monkey

        choose = gevent.monkey.get_original("select", "select")
    return choose(readable, [], [], 0)[0]


def connection_closed(connection: socket.socket | None) -> bool:
    """Whether the client at the other end of ``connection`` has closed it (or reset it); never waits."""
    if connection is None:
        return False
    try:
        return bool(_select_now([connection])) and connection.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):  # reset, or closed on our side
        return True


class Elsewhere(HTTPException):
    """This request's search has its place and runs again in the search pool; never sent (``Offloading``)."""

    code = 503


class RequestPace:
    """The pace of one request's searches (see the module's docstring).

    ``call`` is the request as it arrived, to run again in ``pool`` once it has its place (None: it searches here);
    ``cancelled`` says whether a pool's parent has given up on this request (in a pool's process). A search reads
    ``clock``, calls ``begin`` before its first step and ``pause`` every few milliseconds, and stops by ``deadline``.
    """

    def __init__(
        self,
        places: SearchQueue,
        address: str | None,
        connection: socket.socket | None = None,
        *,
        call: searches.Call | None = None,
        pool: searches.SearchPool | None = None,
        cancelled: Callable[[], bool] | None = None,
        spent: float = 0.0,
    ):
        self.places, self.address, self.connection = places, address, connection
        self.call, self.pool, self.cancelled = call, pool, cancelled
        self.clock = RequestClock()
        self.claimed = self.placed = self.abandoned = self.elsewhere = False
        self.deadline = self.clock() + REQUEST_SECONDS
        self.clock.add(spent)  # what the request cost its web worker before it came to a pool's process

    @cached_property
    def client(self) -> str:
        return client_key(self.address)

    def gone(self) -> bool:
        return connection_closed(self.connection) or (self.cancelled is not None and self.cancelled())

    def begin(self) -> None:
        if self.claimed:
            return
        self.clock.stop()
        try:
            self.places.begin(self.client)
            self.claimed = True
        finally:
            self.clock.start()

    def pause(self) -> None:
        self.begin()
        self.clock.stop()
        try:
            if self.gone():
                raise ClientGone()
            if not self.placed:
                self.places.enter(self.client, self.clock.spent, self.gone)
                self.placed = True
                if self.pool is not None and self.call is not None:
                    self.elsewhere = True
                    raise Elsewhere()
            _yield_to_others()
        except ClientGone:
            self.abandoned = True
            raise
        finally:
            self.clock.start()

    def end(self) -> None:
        if self.claimed:
            self.clock.stop()
            self.places.leave(self.client, abandoned=self.abandoned)
            self.claimed = self.placed = False

    def run_elsewhere(self, start_response: Callable) -> Iterable[bytes]:
        """Run this request again in the pool, in the place it holds, and answer what the pool's process answered;
        the place is given back whatever happens."""
        assert self.pool is not None and self.call is not None
        self.call.environ[SPENT] = repr(self.clock.spent())
        try:
            answer = self.pool.run(self.call, self.gone)
            self.clock.add(answer.seconds)
            start_response(answer.status, answer.headers)
            return [answer.body]
        except searches.Cancelled:
            self.abandoned = True
            start_response("499 Client Closed Request", [("Content-Length", "0")])
            return [b""]
        except searches.Crashed:
            start_response("503 Service Unavailable", [("Content-Type", "text/plain; charset=utf-8"), RETRY])
            return [CRASHED.encode()]
        finally:
            self.end()


RETRY = ("Retry-After", "1")
CRASHED = "The computer's search stopped unexpectedly, so nothing was played. Try again: your game is as you left it."


class Offloading:
    """WSGI middleware, outermost: keeps each request as it arrived, and answers one whose search went to the pool
    (see ``Elsewhere``) from there, throwing away what the app began to answer here."""

    def __init__(self, wsgi_app: Callable, app: Flask):
        self.wsgi_app, self.app = wsgi_app, app

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if self.app.extensions.get("search_pool") is None:
            return self.wsgi_app(environ, start_response)
        environ[CALL] = searches.call_of(environ)
        held: list = []

        def hold(status: str, headers: list, exc_info: object = None) -> Callable:
            held[:] = [status, headers, exc_info]
            return lambda data: None  # the app never writes; it returns its body

        result = self.wsgi_app(environ, hold)
        paced = environ.get(ELSEWHERE)
        if paced is None:
            start_response(*held)
            return result
        if hasattr(result, "close"):
            result.close()
        return paced.run_elsewhere(start_response)


CALL, ELSEWHERE, SPENT = "costs.call", "costs.elsewhere", "costs.spent"


def start_pool(app: Flask, processes: int, factory: str) -> searches.SearchPool:
    """Give ``app`` a pool of ``processes`` search processes (as many places as processes), each loading its app
    from ``factory`` ("module:function"), started now: in a gevent worker, after it was patched and forked."""
    pool = searches.SearchPool(processes, factory)
    pool.start()
    app.extensions["search_places"].searches = processes
    app.extensions["search_pool"] = pool
    return pool


def stop_pool(app: Flask) -> None:
    """Stop ``app``'s search processes, if it has any."""
    pool = app.extensions.pop("search_pool", None)
    if pool is not None:
        pool.close()


# What makes a request's searches run at its pace, given the pace; it returns what undoes that when the request ends.
# A hook, not an import of the engine's pacing: the serving layer imports nothing of the game (tests/test_layout.py).
PaceHook = Callable[[RequestPace], Callable[[], None]]


def init_app(app: Flask, run_at: PaceHook) -> None:
    """Give each request its pace, handed to ``run_at``, and free its search's place when it ends, whatever
    happened."""
    places = app.extensions["search_places"] = SearchQueue()
    app.wsgi_app = Offloading(app.wsgi_app, app)  # type: ignore[method-assign]

    @app.before_request
    def pace_the_request() -> None:
        # gunicorn's own socket for the request, or the development server's: to see whether the client left.
        environ = request.environ
        connection = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
        paced = RequestPace(
            places,
            request.remote_addr,
            connection,
            call=environ.get(CALL),
            pool=app.extensions.get("search_pool"),
            cancelled=environ.get(searches.CANCELLED),
            spent=float(environ.get(SPENT, 0.0)) if searches.CANCELLED in environ else 0.0,
        )
        g.pace, g.pace_undo = paced, run_at(paced)

    @app.errorhandler(Elsewhere)
    def run_elsewhere(error: Elsewhere) -> tuple[str, int]:
        request.environ[ELSEWHERE] = g.pace
        return "", 503  # thrown away by Offloading

    @app.teardown_request
    def end_the_pace(error: BaseException | None = None) -> None:
        paced = g.pop("pace", None)
        if paced is not None:
            if paced.elsewhere:
                paced.clock.stop()  # its place is Offloading's to give back, after the pool's answer
            else:
                paced.end()
            g.pop("pace_undo")()
