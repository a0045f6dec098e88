"""The board catalogue: each board the game offers, what wins on it, and what is known of it.

A board's text is row-major ``X``/``O``/``.``, so its length alone picks the board.

>>> board_for("." * 16).name
'4×4'
>>> try:
...     board_for("." * 10)
... except UnknownBoardSizeError as error:
...     print(error)
A board has 9, 16, 25, 49 or 225 cells (3×3, 4×4, 5×5, 7×7 or 15×15); this one has 10.
"""

from __future__ import annotations

from typing import NamedTuple

from webapp.engine.rules import InvalidBoardError, Position, parse


class UnknownBoardSizeError(InvalidBoardError):
    """The text's length is not the size of any board the game offers."""


class Board(NamedTuple):
    """One board of the catalogue: n×n cells, k in a row wins.

    ``key`` names it in URLs, forms and the cookie ("3x3"); ``known_value`` is the game's value with
    perfect play and ``source`` where that is established; ``solved`` says whether the top level plays
    perfectly here (Impossible) or searches under a time limit (Hard).
    """

    key: str
    n: int
    k: int
    known_value: str
    source: str
    solved: bool

    @property
    def cells(self) -> int:
        return self.n * self.n

    @property
    def name(self) -> str:
        return f"{self.n}×{self.n}"

    @property
    def empty(self) -> str:
        return "." * self.cells

    def is_solved(self) -> bool:
        return self.solved


BOARDS: tuple[Board, ...] = (
    Board("3x3", 3, 3, "draw", "every position is solved here", solved=True),
    Board("4x4", 4, 4, "draw", "every position is solved here", solved=True),
    Board("5x5", 5, 4, "draw", "C. Y. Lee, in Winning Ways", solved=True),
    Board("7x7", 7, 5, "draw", "Hsu et al., Theoretical Computer Science 815, 2020", solved=False),
    # Free-style gomoku: five or more in a row win (rules.py).
    Board("15x15", 15, 5, "first player wins", "Allis, 1994", solved=False),
)
BY_CELLS = {board.cells: board for board in BOARDS}
BY_KEY = {board.key: board for board in BOARDS}
DEFAULT = BOARDS[0]


def _sizes() -> str:
    cells = [str(b.cells) for b in BOARDS]
    names = [b.name for b in BOARDS]
    return f"{', '.join(cells[:-1])} or {cells[-1]} cells ({', '.join(names[:-1])} or {names[-1]})"


def board_for(text: str) -> Board:
    """The board that ``text`` is drawn on, chosen by its length."""
    board = BY_CELLS.get(len(text)) if isinstance(text, str) else None
    if board is None:
        has = f"this one has {len(text)}" if isinstance(text, str) else "this is not text"
        raise UnknownBoardSizeError(f"A board has {_sizes()}; {has}.")
    return board


def is_exact_board(text: str) -> bool:
    """Whether ``text`` is on a board the exact search plays perfectly (4×4 and 5×5), beyond 3×3's own solver.

    >>> is_exact_board("." * 9), is_exact_board("." * 16), is_exact_board("." * 49)
    (False, True, False)
    """
    spec = board_for(text)
    return spec.solved and spec.cells > DEFAULT.cells


def position(text: str) -> Position:
    """The position ``text`` describes, on whichever board its length names.

    >>> position("." * 25).geometry.k
    4
    """
    board = board_for(text)
    return parse(text, board.n, board.k)
