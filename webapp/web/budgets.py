"""The game's side of what a request may cost: its searches run at the request's pace (webapp.serving.costs), read
by the engine through webapp.engine.pacing, and the budgets of the pages that search more than once."""

from __future__ import annotations

from collections.abc import Callable

from webapp.engine import pacing
from webapp.serving.costs import RequestPace

# The game tree's searches together: a tree page also draws every child of every node it opens, and at 0.65 s a
# cold 15×15 tree reached 1.00 s on a slow, busy machine.
TREE_SECONDS = 0.5
# A piece of a big board's review grades moves until its searches have taken this long (a move takes 10 to 150 ms):
# the rest of the request's second is drawing the piece, and the move in hand when the time came.
PIECE_SECONDS = 0.35


def search_at_pace(paced: RequestPace) -> Callable[[], None]:
    """Run the request's searches at its pace, until the returned call (the hook of webapp.serving.costs.init_app)."""
    token = pacing.install(pacing.Pace(paced.clock, paced.pause, paced.deadline, paced.begin))
    return lambda: pacing.uninstall(token)
