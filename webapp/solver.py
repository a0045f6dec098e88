"""The engine's one face for the pages and the command line: the levels, the analysis, and the search itself.

The work is done in ``webapp.engine``, which knows nothing of Flask. What only the big boards (7×7, 15×15)
use is imported when one of its names is first asked for, so a 3×3 game never loads that engine.

>>> choose_move("XX.OO....", "one-ply")  # takes the immediate win
2
>>> analyze("XX.OO....")[2]
('win', 1)
"""

import importlib
import math
from dataclasses import dataclass

from webapp.engine.levels import (
    GAME,
    LEVELS,
    UnknownLevelError,
    analyze,
    candidates,
    check_level,
    choose_move,
    describe,
    outlook,
    search_view,
)
from webapp.engine.search import Counter, alphabeta, best_move

# The big boards' names, and the engine module each comes from.
BIG_BOARD_NAMES = {
    "threats": "facts",
    "forced_win": "facts",
    "move_notes": "facts",
    "game_facts": "facts",
    "MoveFacts": "facts",
    "OutOfBudget": "vct",
    "Threat": "facts",
    "ForcedWin": "facts",
    "View": "big",
    "MATE_BOUND": "alphabeta",
    "Budget": "budget",
}

__all__ = [
    "GAME",
    "LEVELS",
    "Counter",
    "UnknownLevelError",
    "alphabeta",
    "analyze",
    "best_move",
    "candidates",
    "check_level",
    "choose_move",
    "describe",
    "outlook",
    "search_view",
    "Estimate",
    "estimate",
    *BIG_BOARD_NAMES,
]


# Hard's judgement of a big board's position, for the review (learn/big_review.py): its alpha-beta to this depth,
# within this many nodes. Two plies judged the winners of the dev half's games as well as three or four (its log
# loss 0.581 against 0.645 and 0.624), for a third of the time.
ESTIMATE_DEPTH = 2
ESTIMATE_NODES = 3_000
# A lead of this many of the evaluation's points is a 73 % chance (1 / (1 + e^-1)): the scale that fitted the
# results of the dev half's 15×15 games best (Hard against Hard and against Medium, 668 positions).
ESTIMATE_SCALE = 6_000


@dataclass(frozen=True, slots=True)
class Estimate:
    """Hard's judgement of a position: the side to move's chance of winning, and the move it would play. A judgement
    from a short search of its evaluation, never a proof."""

    chance: float  # from 0 to 1
    move: int


def estimate(board: str) -> Estimate:
    """Hard's judgement of a valid, unfinished big ``board`` (7×7 or 15×15) within a small budget: the same for the
    same board, whatever asked for it. OutOfBudget (webapp.engine.vct) if the request's time ran out meanwhile.

    >>> estimate("XXXX..." + "OOOO..." + "." * 35)  # 7×7: X completes the top row at 4
    Estimate(chance=1.0, move=4)
    >>> round(estimate("." * 112 + "X" + "." * 112).chance, 1)  # 15×15, O to move after X's centre: even
    0.5
    """
    from webapp.engine.alphabeta import Search
    from webapp.engine.budget import Budget
    from webapp.engine.gomoku import Gomoku
    from webapp.engine.hard import ROOT_WIDTH
    from webapp.engine.vct import OutOfBudget

    game = Gomoku.for_board(board)
    mine, _ = game.completions(game.mover)
    if mine:
        return Estimate(1.0, mine[0])
    moves = game.moves(ROOT_WIDTH) or game.legal()
    search = Search(game, Budget(nodes=ESTIMATE_NODES, depth=ESTIMATE_DEPTH))
    scores, _ = search.deepen(moves)
    if search.meter.timed_out:
        raise OutOfBudget  # cut short by the clock: it would not be the same judgement
    best = max(moves, key=lambda move: scores[move])
    return Estimate(1 / (1 + math.exp(-max(-50.0, min(50.0, scores[best] / ESTIMATE_SCALE)))), best)


def __getattr__(name: str):
    """A big-board name, imported from its engine module on first use."""
    if name not in BIG_BOARD_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = BIG_BOARD_NAMES[name]
    value = getattr(importlib.import_module(f"webapp.engine.{module}"), name)
    globals()[name] = value
    return value
