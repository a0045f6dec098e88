"""How long Hard may think about one move: a budget of CPU seconds, nodes or plies, and each step's share of it.

``Budget`` says when a search stops and how the steps of a move (the threat searches, the defences, the
alpha-beta, the checks before the move) share it; ``DEFAULT_BUDGET`` is what a move costs the server. The
search in ``alphabeta.py`` reads it, and ``hard.py`` hands it to each move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

__all__ = ["DEFAULT_BUDGET", "Budget"]


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

    ``first_nodes``, if given, is the first player's (X's) budget of nodes: see ``for_mover``. A budget of nodes ends
    each step by its share of them (``Search.share``); where it has seconds too, they end only the move as a whole.
    """

    seconds: float | None = None
    nodes: int | None = None
    depth: int = 64
    start_fraction: float = 0.3
    clock: Callable[[], float] | None = None
    own_fraction: float = 0.12
    their_fraction: float = 0.25
    defence_fraction: float = 0.55
    rebut_fraction: float = 0.7
    search_fraction: float = 0.8
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
# (0.8 s of CPU, webapp.web.costs), so that the move the page plays is the one the strength matches measured, not
# one cut short before its last checks; X's nodes fit inside the seconds on a machine of ordinary speed.
DEFAULT_BUDGET = Budget(
    seconds=0.75,
    start_fraction=0.12,
    opening_stones=12,
    opening_nodes=6_000,
    first_nodes=24_000,
    early_stones=6,
    early_nodes=4_000,
)
