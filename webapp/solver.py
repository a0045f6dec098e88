"""The engine's one face for the pages and the command line: the levels, the analysis, and the search itself.

The work is done in ``webapp.engine``, which knows nothing of Flask. What only the big boards (7×7, 15×15)
use is imported when one of its names is first asked for, so a 3×3 game never loads that engine.

>>> choose_move("XX.OO....", "one-ply")  # takes the immediate win
2
>>> analyze("XX.OO....")[2]
('win', 1)
>>> estimate("XXXX..." + "OOOO..." + "." * 35)  # 7×7: X completes the top row at 4
Estimate(chance=1.0, move=4)
"""

import importlib
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
    "threats": "big.facts",
    "forced_win": "big.facts",
    "move_notes": "big.facts",
    "game_facts": "big.facts",
    "MoveFacts": "big.facts",
    "OutOfBudget": "big.budget",
    "Threat": "big.facts",
    "ForcedWin": "big.facts",
    "View": "big.levels",
    "MATE_BOUND": "big.alphabeta",
    "Budget": "big.budget",
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
# within this many nodes. Two plies judged the winners of the dev half's games as well as three or four (log loss
# 0.581 against 0.645 and 0.624), for a third of the time. The chance is the fitted evaluation's own logistic.
ESTIMATE_DEPTH = 2
ESTIMATE_NODES = 3_000


@dataclass(frozen=True, slots=True)
class Estimate:
    """Hard's judgement of a position: the side to move's chance of winning, and the move it would play. A judgement
    from a short search of its evaluation, never a proof."""

    chance: float  # from 0 to 1
    move: int


def estimate(board: str) -> Estimate:
    """Hard's judgement of a valid, unfinished big ``board`` (7×7 or 15×15) within a small budget: the same for the
    same board, whatever asked for it. OutOfBudget (webapp.engine.big.budget) if the request's time ran out meanwhile.

    >>> round(estimate("." * 112 + "X" + "." * 112).chance, 1)  # 15×15, O to move after X's centre: X is ahead
    0.4
    """
    from webapp.engine.big.alphabeta import AlphaBeta
    from webapp.engine.big.board import Gomoku
    from webapp.engine.big.budget import Meter, OutOfBudget
    from webapp.engine.big.evaluation import win_probability
    from webapp.engine.big.moves import generate
    from webapp.engine.big.parameters import ROOT_WIDTH

    game = Gomoku.for_board(board)
    mine, _ = game.completions(game.mover)
    if mine:
        return Estimate(1.0, mine[0])
    moves = generate(game, ROOT_WIDTH) or game.legal()
    meter = Meter(nodes=ESTIMATE_NODES)
    scores, _ = AlphaBeta(game, meter, ESTIMATE_DEPTH).deepen(moves)
    if meter.timed_out:
        raise OutOfBudget  # cut short by the clock: it would not be the same judgement
    best = max(moves, key=lambda move: scores[move])
    return Estimate(win_probability(scores[best]), best)


def __getattr__(name: str):
    """A big-board name, imported from its engine module on first use."""
    if name not in BIG_BOARD_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = BIG_BOARD_NAMES[name]
    value = getattr(importlib.import_module(f"webapp.engine.{module}"), name)
    globals()[name] = value
    return value
