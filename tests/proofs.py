"""A checker of claimed forced wins on the big boards: the win is replayed against every defence.

The attacker's moves come from the engine under test (asked afresh in each position); the defender's
are every legal move, each one. The only shortcut is a fact of the rules, not of the engine: an
attacker with two completions to make, facing a defender with none, wins in two more plies whatever
the defender does (``Gomoku.completions`` is itself checked against the rules in engine/big/test_board.py).
"""

from collections.abc import Callable

from webapp.engine.big.board import Gomoku
from webapp.engine.big.threats import ForcedWin
from webapp.engine.rules import other

# The engine under test: the forced win it finds for ``side`` (to move) in ``game``'s position, or None.
Finder = Callable[[Gomoku, str], ForcedWin | None]


def wins_within(game: Gomoku, side: str, plies: int, find: Finder, first: int | None = None) -> bool:
    """Whether ``side``, to move, wins within ``plies`` plies against every defence, playing ``first`` (if
    given) and then what ``find`` answers in each position. ``game`` is left as it was."""
    assert game.mover == side
    mine, theirs = game.completions(side)
    if mine:
        return plies >= 1 and (first is None or first in mine)
    if first is None:
        found = find(game, side)
        if found is None or found.plies > plies:
            return False
        first = found.first
    if plies < 3:
        return False
    game.play(first)
    try:
        mine, theirs = game.completions(side)
        if theirs:
            return False  # the defender completes a line at once
        if len(mine) >= 2:
            return True  # whatever the defender does, one completion is left: three plies in all
        for reply in game.legal():
            game.play(reply)
            try:
                if not wins_within(game, side, plies - 2, find):
                    return False
            finally:
                game.undo()
        return True
    finally:
        game.undo()


def loses_within(game: Gomoku, plies: int, find: Finder, moves: list[int] | None = None) -> bool:
    """Whether after each of ``moves`` (default: every legal move) of the side to move, the opponent wins
    within ``plies`` - 1 more plies against every defence."""
    them = other(game.mover)
    for move in game.legal() if moves is None else moves:
        game.play(move)
        try:
            if not wins_within(game, them, plies - 1, find):
                return False
        finally:
            game.undo()
    return True
