"""How long Hard may think about one move, and the one meter that counts what every search of the move spends.

``Budget`` says when a move stops (CPU seconds, nodes or plies) and the fractions of it each step may use;
``DEFAULT_BUDGET`` is what a move costs the server (its figures are in ``parameters.py``). ``Meter`` counts the
nodes of the threat searches and of the alpha-beta alike, against the move's limits and one search's share;
``hard.py`` decides each step's share.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import ClassVar

from webapp.engine import pacing
from webapp.engine.answers import OutOfBudget
from webapp.engine.big import parameters

__all__ = ["DEFAULT_BUDGET", "Budget", "Exhausted", "Meter", "OutOfBudget"]


@dataclass(frozen=True)
class Budget:
    """When a search stops: after ``seconds`` of CPU time, ``nodes`` nodes or ``depth`` plies.

    Tests give nodes or a depth (and a clock of their own) so that results do not depend on the
    machine; play gives seconds, read on the pace's clock (``pacing.current()``), whose deadline
    also stops the search. The steps of a move each have a share of the time (as of the nodes), so
    that none starves the others, counted from the move's start: our threat search until
    ``own_fraction`` of the seconds, the opponent's until ``their_fraction``, the moves that stop it
    until ``defence_fraction``, the check of those moves against one another until ``rebut_fraction``,
    the alpha-beta until ``search_fraction``; the checks before the move take the rest. An alpha-beta
    iteration is only started while the alpha-beta has used less than ``start_fraction`` of the seconds,
    since each one takes several times longer than the last, and one that runs out mid-iteration keeps
    the last complete one. In the opening (fewer than ``opening_stones`` stones) an iteration is started
    while the alpha-beta has visited fewer than ``opening_nodes`` nodes instead (``early_nodes`` for the
    second player's moves before ``early_stones`` stones): a count, not a clock, so that a faster machine
    does not start deeper iterations there. The iteration started last still runs until it ends or the time
    limits stop it, so the clock can still cut it.

    ``first_nodes``, if given, is the first player's (X's) budget of nodes: see ``for_mover``. A budget of nodes
    ends each step by its share of them (``hard.MoveSearch.share``); where it has seconds too, they end only the
    move as a whole.
    """

    seconds: float | None = None
    nodes: int | None = None
    depth: int = parameters.MAX_DEPTH
    start_fraction: float = parameters.START_FRACTION
    clock: Callable[[], float] | None = None
    own_fraction: float = parameters.OWN_FRACTION
    their_fraction: float = parameters.THEIR_FRACTION
    defence_fraction: float = parameters.DEFENCE_FRACTION
    rebut_fraction: float = parameters.REBUT_FRACTION
    search_fraction: float = parameters.SEARCH_FRACTION
    opening_stones: int = 0
    opening_nodes: int = 0
    first_nodes: int | None = None
    early_stones: int = 0
    early_nodes: int = 0

    def for_mover(self, mover: str) -> Budget:
        """The budget of a move by ``mover``: the first player's stops at ``first_nodes`` nodes too, if given.

        Its alpha-beta then starts iterations until those nodes (or its share of the seconds) run out, in the
        opening as past it, and takes every node the steps before it left, so that the checks after it run only
        when it stops early. On a machine fast enough to spend the nodes before the clock, X's move is the same
        every time. The second player, who defends, keeps the clock and the opening's counts (docs/engine.md).

        Each step's share of the move ends by nodes alone, not by the clock's fraction as well, so that a clock
        running slow (a busy host) cannot cut a step short and change X's move. The seconds still end the whole
        move.

        >>> budget = Budget(seconds=0.75, opening_stones=12, first_nodes=24_000)
        >>> budget.for_mover("X").nodes, budget.for_mover("X").opening_stones, budget.for_mover("O") is budget
        (24000, 0, True)
        """
        if mover != "X" or self.first_nodes is None:
            return self
        nodes = self.first_nodes if self.nodes is None else min(self.nodes, self.first_nodes)
        return replace(self, nodes=nodes, start_fraction=1.0, opening_stones=0, first_nodes=None)


# What a move costs the server: the default budget of the Hard level. It fits inside a request's own deadline
# (0.8 s of CPU, webapp.serving.costs), so that the move the page plays is the one the strength matches measured, not
# one cut short before its last checks; X's nodes fit inside the seconds on a machine of ordinary speed.
DEFAULT_BUDGET = Budget(
    seconds=parameters.SECONDS,
    opening_stones=parameters.OPENING_STONES,
    opening_nodes=parameters.OPENING_NODES,
    first_nodes=parameters.FIRST_NODES,
    early_stones=parameters.EARLY_STONES,
    early_nodes=parameters.EARLY_NODES,
)


class Exhausted(Exception):
    """One threat search has used up its own share of nodes; the move's budget may go on."""


def _no_pause() -> None:
    """A search given a clock of its own (a test's) has no one to make room for."""


class Meter:
    """A move's node count, and its limits: the move's own nodes and seconds, and one search's share.

    The clock is read and the pace's pause called every ``CHECK`` nodes. Without an explicit clock it
    is the pace's (``pacing.current()``), whose deadline stops the move too.
    """

    CHECK: ClassVar[int] = parameters.CHECK

    def __init__(
        self, nodes: int | None = None, seconds: float | None = None, clock: Callable[[], float] | None = None
    ):
        if clock is None:
            pace = pacing.current()
            pace.begin()  # before the first node: the pace may refuse the search here
            self.clock, self.pause = pace.clock, pace.pause
            self.start = self.clock()
            self.deadline = pace.stop_by(seconds, self.start)
        else:
            self.clock, self.pause = clock, _no_pause
            self.start = clock()
            self.deadline = None if seconds is None else self.start + seconds
        self.nodes = 0
        self.limit = float("inf") if nodes is None else nodes
        self.timed_out = False  # a reading found the move's time up (``spent``)
        # One search's share: a node count and a clock reading past which it stops (``share``).
        self.cap = float("inf")
        self.until: float | None = None
        self._clock_at = self.CHECK
        self._next = min(self.limit + 1, self._clock_at)

    def tick(self) -> None:
        """Count a node; stop the search when a limit is passed."""
        self.nodes += 1
        if self.nodes >= self._next:
            self._check()

    def _check(self) -> None:
        n = self.nodes
        if n > self.limit:
            raise OutOfBudget
        if n > self.cap:
            raise Exhausted
        if n >= self._clock_at:
            self._clock_at = n + self.CHECK
            now = self.clock()
            if self.deadline is not None and now > self.deadline:
                self.timed_out = True
                raise OutOfBudget
            if self.until is not None and now > self.until:
                raise Exhausted
            self.pause()
        self._next = min(self.limit + 1, self.cap + 1, self._clock_at)

    def elapsed(self) -> float:
        return self.clock() - self.start

    def spent(self) -> bool:
        """Whether the move's own budget is used up: its nodes, or its time, once a reading has found it past.

        Once found, the time stays spent: a check of fewer nodes than the next reading could otherwise still run
        and finish after the move's time is up, and settle a tie that a budget of nodes, spent, leaves alone
        (docs/engine.md, *Budget and time control*)."""
        return self.nodes >= self.limit or self.timed_out

    def past(self, fraction: float, seconds: float | None) -> bool:
        """Whether more than ``fraction`` of ``seconds`` (None: no limit) has gone since the start."""
        return seconds is not None and self.elapsed() > seconds * fraction

    def begin(self, nodes: int) -> tuple[float, float | None]:
        """``share(nodes)`` without a ``with`` block, for the hottest callers: what ``end`` needs to put back."""
        saved = self.cap, self.until
        self.cap = min(self.cap, self.nodes + nodes)
        self._next = min(self.limit + 1, self.cap + 1, self._clock_at)
        return saved

    def end(self, saved: tuple[float, float | None]) -> None:
        """The end of a share ``begin`` started."""
        self.cap, self.until = saved
        self._next = min(self.limit + 1, self.cap + 1, self._clock_at)

    @contextmanager
    def share(self, nodes: float | None = None, until: float | None = None) -> Iterator[None]:
        """Within the block a search may visit at most ``nodes`` more nodes, and run until the clock reads
        ``until``, before ``Exhausted`` stops it (None: no limit of its own)."""
        saved = self.cap, self.until
        if nodes is not None:
            self.cap = min(self.cap, self.nodes + nodes)
        if until is not None:
            self.until = until if self.until is None else min(self.until, until)
        self._next = min(self.limit + 1, self.cap + 1, self._clock_at)
        try:
            yield
        finally:
            self.cap, self.until = saved
            self._next = min(self.limit + 1, self.cap + 1, self._clock_at)
