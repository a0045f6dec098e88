"""The engine's one face for the pages and the command line: the levels, the analysis, and the search itself.

The work is done in ``webapp.engine``, which knows nothing of Flask. The big boards' questions (7×7, 15×15) import
their engine inside the function that asks, so a 3×3 game never loads it; their answers are plain data
(``webapp.engine.answers``).

>>> choose_move("XX.OO....", "one-ply")  # takes the immediate win
2
>>> analyze("XX.OO....")[2]
('win', 1)
>>> estimate("XXXX..." + "OOOO..." + "." * 35)  # 7×7: X completes the top row at 4
Estimate(chance=1.0, move=4)
"""

from __future__ import annotations

from collections.abc import Iterator

from webapp.engine.answers import MATE_BOUND, Estimate, ForcedWin, MoveFacts, OutOfBudget, Threat, View
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

__all__ = [
    "GAME",
    "LEVELS",
    "MATE_BOUND",
    "Counter",
    "Estimate",
    "ForcedWin",
    "MoveFacts",
    "OutOfBudget",
    "Threat",
    "UnknownLevelError",
    "View",
    "alphabeta",
    "analyze",
    "best_move",
    "candidates",
    "check_level",
    "choose_move",
    "describe",
    "estimate",
    "forced_win",
    "game_facts",
    "load_big_boards_engine",
    "move_notes",
    "outlook",
    "search_view",
    "threats",
]


def threats(board: str) -> tuple[Threat, ...]:
    """Every four, open three and five on a big ``board`` (``webapp.engine.big.facts.threats``)."""
    from webapp.engine.big import facts

    return facts.threats(board)


def forced_win(board: str, side: str | None = None) -> ForcedWin | None:
    """``side``'s (the mover's by default) proved forced win on a big ``board``, if one is found quickly
    (``webapp.engine.big.facts.forced_win``)."""
    from webapp.engine.big import facts

    return facts.forced_win(board, side)


def move_notes(board: str, cell: int) -> tuple[str, ...]:
    """What a stone on ``cell`` makes and blocks on a big ``board`` (``webapp.engine.big.facts.move_notes``)."""
    from webapp.engine.big import facts

    return facts.move_notes(board, cell)


def game_facts(n: int, k: int, moves: tuple[int, ...], start: int = 0) -> Iterator[MoveFacts]:
    """The proved facts of each move of a big board's game from ``start`` on
    (``webapp.engine.big.facts.game_facts``)."""
    from webapp.engine.big import facts

    return facts.game_facts(n, k, moves, start)


def estimate(board: str) -> Estimate:
    """Hard's judgement of a valid, unfinished big ``board``: the side to move's chance and its move
    (``webapp.engine.big.levels.estimate``). ``OutOfBudget`` if the request's time ran out.

    >>> round(estimate("." * 112 + "X" + "." * 112).chance, 1)  # 15×15, O to move after X's centre: X is ahead
    0.4
    """
    from webapp.engine.big import levels

    return levels.estimate(board)


def load_big_boards_engine() -> None:
    """Import the big boards' engine now (the gunicorn master does, so that its workers share it)."""
    from webapp.engine.big import facts, levels  # noqa: F401
