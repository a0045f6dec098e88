"""The computer player, as the web pages and the command line see it: the levels and the analysis.

The work is done in ``webapp.engine``, which knows nothing of Flask.

>>> choose_move("XX.OO....", "one-ply")  # takes the immediate win
2

Run ``python -m webapp.solver --help`` for the numbers, the benchmark and the tournament.
"""

from webapp.engine.facts import forced_win, move_notes, threats
from webapp.engine.levels import (
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

__all__ = [
    "LEVELS",
    "UnknownLevelError",
    "analyze",
    "candidates",
    "check_level",
    "choose_move",
    "describe",
    "forced_win",
    "move_notes",
    "outlook",
    "search_view",
    "threats",
]

if __name__ == "__main__":
    # Run as a script this file is __main__; the CLI imports the ordinary webapp.solver.
    from webapp.cli import main

    raise SystemExit(main())
