"""The engine's one face for the pages and the command line: the levels, the analysis, and the search itself.

The work is done in ``webapp.engine``, which knows nothing of Flask. What only the big boards (7×7, 15×15)
use is imported when one of its names is first asked for, so a 3×3 game never loads that engine.

>>> choose_move("XX.OO....", "one-ply")  # takes the immediate win
2
>>> analyze("XX.OO....")[2]
('win', 1)
>>> round(estimate("." * 24 + "X" + "." * 24), 2)  # 7×7, O to move: Hard's fitted chance that O wins, unsearched
0.41
"""

import importlib

from webapp.engine.levels import (
    GAME,
    LEVELS,
    UnknownLevelError,
    analyze,
    candidates,
    check_level,
    choose_move,
    describe,
    estimate,
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
    "estimate",
    "outlook",
    "search_view",
    *BIG_BOARD_NAMES,
]


def __getattr__(name: str):
    """A big-board name, imported from its engine module on first use."""
    if name not in BIG_BOARD_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = BIG_BOARD_NAMES[name]
    value = getattr(importlib.import_module(f"webapp.engine.{module}"), name)
    globals()[name] = value
    return value
