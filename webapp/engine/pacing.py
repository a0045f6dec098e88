"""How a search spends time: the clock it reads, where it lets other work run, and when it must stop.

A search calls ``current().begin()`` before its first node, reads ``current().clock`` and, every few
milliseconds of its own work, calls ``current().pause()``. Alone (the command line, the tests) the clock
is the process's CPU time and a beginning or a pause does nothing. The web layer installs a Pace for each
request with ``pacing(...)``: a beginning that may refuse the search before it costs anything (a client
whose other search is under way), a clock that counts only that request's own CPU time, a pause that lets
the server's other requests run (searches are pure CPU work and would otherwise hold the whole worker),
and a deadline that no search of the request may pass, however many searches it makes.

The engine knows nothing of the web: a Pace is only four plain values, kept in a context variable,
so that each request (each thread, or each greenlet under gevent) has its own.

>>> current().deadline is None
True
>>> with pacing(Pace(deadline=2.5)):
...     current().deadline
2.5
>>> current().deadline is None
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass, replace


def _no_pause() -> None:
    """Alone in its process, a search has no one to make room for."""


@dataclass(frozen=True, slots=True)
class Pace:
    """The clock a search reads, what it calls to let other work run, the time it must stop by, and what it
    calls before its first node (which may raise, to refuse the search).

    ``deadline`` is on ``clock``'s scale; None means no limit beyond the search's own budget.
    """

    clock: Callable[[], float] = time.process_time
    pause: Callable[[], None] = _no_pause
    deadline: float | None = None
    begin: Callable[[], None] = _no_pause

    def stop_by(self, seconds: float | None, start: float) -> float | None:
        """When a search that began at ``start`` with a budget of ``seconds`` must stop: the sooner of
        its own end and this pace's deadline (None if neither is set).

        >>> Pace(deadline=5.0).stop_by(2.0, 1.0), Pace(deadline=5.0).stop_by(9.0, 1.0), Pace().stop_by(None, 1.0)
        (3.0, 5.0, None)
        """
        own = None if seconds is None else start + seconds
        if self.deadline is None:
            return own
        return self.deadline if own is None else min(own, self.deadline)


# Work outside any ``pacing`` block: the process's CPU clock, no pauses, no deadline.
ALONE = Pace()
_CURRENT: ContextVar[Pace | None] = ContextVar("pace", default=None)


def current() -> Pace:
    """The pace of the work in hand: the request's, inside ``pacing``, else ALONE."""
    return _CURRENT.get() or ALONE


def install(pace: Pace) -> Token[Pace | None]:
    """Run the searches from here on at ``pace``, until ``uninstall`` is given the token (for hooks
    that begin and end a piece of work in two calls, as a web request does)."""
    return _CURRENT.set(pace)


def uninstall(token: Token[Pace | None]) -> None:
    """Go back to the pace from before the ``install`` that gave ``token``."""
    _CURRENT.reset(token)


@contextmanager
def pacing(pace: Pace) -> Iterator[Pace]:
    """Run the searches inside the ``with`` block at ``pace``."""
    token = install(pace)
    try:
        yield pace
    finally:
        uninstall(token)


@contextmanager
def within(seconds: float) -> Iterator[Pace]:
    """Run the searches inside the ``with`` block at the current pace, stopping ``seconds`` from now at the
    latest (or at the pace's own deadline, if sooner).

    >>> with pacing(Pace(clock=lambda: 10.0, deadline=12.0)):
    ...     with within(0.5) as sooner:
    ...         sooner.deadline, current().deadline
    ...     with within(5.0) as later:
    ...         later.deadline
    (10.5, 10.5)
    12.0
    """
    pace = current()
    deadline = pace.stop_by(seconds, pace.clock())
    with pacing(replace(pace, deadline=deadline)) as sooner:
        yield sooner
