"""The moves Hard searches in a position: those that meet its threats, else the best few by the fitted evaluation.

What the side to move faces decides what is worth searching:

- a line of its own to complete: those cells only (its own fives first, before any block);
- a four of the other side's: the cell that stops it (two such cells: the game is lost, and either is tried);
- an open three, or any double in the making: its own fours and the cells that answer the three; any other move
  leaves the double, which wins within four plies (``Gomoku.answers``);
- otherwise the empty cells near the stones, ranked by the fitted evaluation of the position each leaves
  (``Gomoku.valued``), the first ``width`` of them: many at the root, fewer deeper (``width``).

>>> from webapp.engine.big.board import Gomoku, grid
>>> g = Gomoku.from_text(grid(15, {112: "X", 113: "X", 114: "X", 0: "X", 96: "O", 97: "O", 224: "O"}), 15, 5)
>>> facing(g), sorted(generate(g, 10))  # O to move against X's open three, with no four of its own: the stops
('three', [110, 111, 115, 116])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from webapp.engine.big.parameters import WIDTHS
from webapp.engine.rules import other

if TYPE_CHECKING:
    from webapp.engine.big.board import Gomoku

__all__ = ["facing", "generate", "width"]


def width(ply: int) -> int:
    """How many quiet moves are searched ``ply`` plies below the root: many at the root, fewer deeper.

    >>> [width(ply) for ply in range(7)] == [*WIDTHS, WIDTHS[-1], WIDTHS[-1]][:7]
    True
    """
    return WIDTHS[min(ply, len(WIDTHS) - 1)]


def facing(game: Gomoku) -> str:
    """What the side to move faces: ``win`` (a line to complete), ``four`` (one to block), ``three`` (a double in the
    making to answer) or ``quiet``."""
    mine, theirs = game.completions(game.mover)
    if mine:
        return "win"
    if theirs:
        return "four"
    if game.answers(other(game.mover)) is not None:
        return "three"
    return "quiet"


def generate(game: Gomoku, limit: int) -> list[int]:
    """The moves worth searching for the side to move, best first (``limit`` caps the answers and the quiet moves)."""
    me = game.mover
    mine, theirs = game.completions(me)
    if mine:
        return mine
    if theirs:
        return theirs
    answers = game.answers(other(me))
    if answers is not None:
        return answers[:limit]
    return game.moves(limit)
