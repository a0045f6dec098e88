"""The rules of tic-tac-toe on an n×n board with k in a row (3×3, three in a row by default).

A position is an immutable value: ``play()`` returns a new one. Cells are numbered
row-major from 0, X always moves first, and the side to move follows from the counts.

>>> p = parse("XO..X....")
>>> p.to_move
'O'
>>> p.play(8).to_move
'X'
>>> parse("XO..X.O.X").outcome()
Outcome(winner='X', line=(0, 4, 8))
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import itemgetter
from typing import Any, NamedTuple

X, O, EMPTY = "X", "O", "."


class InvalidBoardError(ValueError):
    """The text does not describe a position that a game could reach."""


class InvalidMoveError(ValueError):
    """The move does not name a cell of the board."""


class IllegalMoveError(ValueError):
    """The cell exists but cannot be played now: it is taken, or the game is over."""


class GameOverError(IllegalMoveError):
    """The game has ended, so nobody can move."""


def other(mark: str) -> str:
    """The opponent of ``mark``.

    >>> other("X")
    'O'
    """
    return O if mark == X else X


# Named tuples, not dataclasses, on the 3×3 path: importing dataclasses (and inspect) was a third of the
# solver's import.
class Geometry(NamedTuple):
    """The shape of a board: its size, the run length that wins, and what follows from them.

    ``line_marks`` holds each line's getter, which reads its marks from a board in one call (the searches'
    hot path); ``lines_through`` holds, for each cell, the lines through it with their getters.
    """

    n: int
    k: int
    lines: tuple[tuple[int, ...], ...]
    symmetries: tuple[tuple[int, ...], ...]
    line_marks: tuple[itemgetter[Any], ...]
    lines_through: tuple[tuple[tuple[tuple[int, ...], itemgetter[Any]], ...], ...]

    @property
    def cells(self) -> int:
        return self.n * self.n


@cache
def geometry(n: int = 3, k: int = 3) -> Geometry:
    """The board of size n×n where k in a row wins, built once and shared.

    >>> len(geometry().lines)
    8
    """
    if not (2 <= k <= n):
        raise ValueError(f"k must be between 2 and n; got n={n}, k={k}")
    lines = _lines(n, k)
    through = tuple(tuple((line, itemgetter(*line)) for line in lines if cell in line) for cell in range(n * n))
    return Geometry(n, k, lines, _symmetries(n), tuple(itemgetter(*line) for line in lines), through)


def _lines(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    found = []
    for row in range(n):
        for col in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = row + dr * (k - 1), col + dc * (k - 1)
                if 0 <= end_r < n and 0 <= end_c < n:
                    found.append(tuple((row + dr * i) * n + col + dc * i for i in range(k)))
    return tuple(found)


def _symmetries(n: int) -> tuple[tuple[int, ...], ...]:
    """The 8 rotations and reflections, each as ``new_board[i] = old_board[perm[i]]``."""

    def rotate(perm: tuple[int, ...]) -> tuple[int, ...]:  # a quarter turn clockwise
        return tuple(perm[(n - 1 - c) * n + r] for r in range(n) for c in range(n))

    def mirror(perm: tuple[int, ...]) -> tuple[int, ...]:  # left to right
        return tuple(perm[r * n + (n - 1 - c)] for r in range(n) for c in range(n))

    perms = [tuple(range(n * n))]
    for _ in range(3):
        perms.append(rotate(perms[-1]))
    perms += [mirror(p) for p in perms]
    return tuple(perms)


class Outcome(NamedTuple):
    """How a finished game ended: the winner (None for a draw) and the winning cells."""

    winner: str | None
    line: tuple[int, ...] = ()

    def is_draw(self) -> bool:
        return self.winner is None


DRAW = Outcome(None)
_UNKNOWN = object()  # an outcome not yet worked out


class Position:
    """An immutable tic-tac-toe position. Build one with ``parse()`` or ``Position.empty()``."""

    __slots__ = ("_outcome", "board", "geometry")

    board: str
    geometry: Geometry
    _outcome: Outcome | object | None  # _UNKNOWN until worked out

    def __init__(self, board: str, n: int = 3, k: int = 3) -> None:
        checked = parse(board, n, k)
        object.__setattr__(self, "board", checked.board)
        object.__setattr__(self, "geometry", checked.geometry)
        object.__setattr__(self, "_outcome", _UNKNOWN)

    @classmethod
    def empty(cls, n: int = 3, k: int = 3) -> Position:
        """The position before the first move."""
        g = geometry(n, k)
        return cls._unchecked(EMPTY * g.cells, g)

    @classmethod
    def _unchecked(cls, board: str, g: Geometry, outcome: Outcome | object | None = _UNKNOWN) -> Position:
        # The fast path for play() and parse(): the caller has already validated.
        self = object.__new__(cls)
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "geometry", g)
        object.__setattr__(self, "_outcome", outcome)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable; play() returns a new position")

    def __eq__(self, other_position: object) -> bool:
        if not isinstance(other_position, Position):
            return NotImplemented
        return self.board == other_position.board and self.geometry == other_position.geometry

    def __hash__(self) -> int:
        return hash(self.board)

    def __str__(self) -> str:
        return self.board

    def __repr__(self) -> str:
        return f"Position({self.board!r})"

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return self.geometry.cells - self.board.count(EMPTY)

    @property
    def to_move(self) -> str:
        """The side whose turn it is (also defined, though moot, once the game is over)."""
        return X if self.board.count(X) == self.board.count(O) else O

    def outcome(self) -> Outcome | None:
        """The result if the game is over, otherwise None."""
        if self._outcome is _UNKNOWN:
            object.__setattr__(self, "_outcome", self._find_outcome())
        return self._outcome  # type: ignore[return-value]  # worked out above: an Outcome or None

    def _find_outcome(self) -> Outcome | None:
        board = self.board
        winning = [line for line in self.geometry.lines if _owner(board, line) is not None]
        if winning:
            # A single move can complete several lines at once; report them all together.
            cells = tuple(sorted({cell for line in winning for cell in line}))
            return Outcome(board[winning[0][0]], cells)
        if EMPTY not in board:
            return DRAW
        return None

    @property
    def winner(self) -> str | None:
        """'X' or 'O' if that side has k in a row, otherwise None."""
        outcome = self.outcome()
        return outcome.winner if outcome else None

    @property
    def winning_line(self) -> tuple[int, ...]:
        """The cells of the winning line (or lines), empty if nobody has won."""
        outcome = self.outcome()
        return outcome.line if outcome else ()

    def is_over(self) -> bool:
        return self.outcome() is not None

    def is_draw(self) -> bool:
        outcome = self.outcome()
        return outcome is not None and outcome.is_draw()

    def legal_moves(self) -> tuple[int, ...]:
        """The empty cells, in order; none once the game is over.

        >>> parse("XOX.O....").legal_moves()
        (3, 5, 6, 7, 8)
        """
        if self.is_over():
            return ()
        return tuple([i for i, c in enumerate(self.board) if c == EMPTY])

    def play(self, cell: int) -> Position:
        """The position after the side to move plays ``cell``.

        >>> Position.empty().play(4).board
        '....X....'
        """
        g = self.geometry
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < g.cells:
            raise InvalidMoveError(f"There is no square {cell!r}; squares are numbered 0 to {g.cells - 1}.")
        if self.is_over():
            raise GameOverError("The game is over; start a new game to play again.")
        if self.board[cell] != EMPTY:
            raise IllegalMoveError(f"{cell_name(cell, g.n)} is already taken.")
        return self.after_legal(cell)

    def after_legal(self, cell: int) -> Position:
        """``play(cell)`` for a cell known to be a legal move, as a search knows its moves to be."""
        g = self.geometry
        mark = self.to_move
        board = self.board[:cell] + mark + self.board[cell + 1 :]
        # Only lines through the new mark can have been completed, so settle the outcome now:
        # this is the hot path of every search.
        full = (mark,) * g.k
        won = [line for line, marks_of in g.lines_through[cell] if marks_of(board) == full]
        outcome: Outcome | None
        if won:
            outcome = Outcome(mark, tuple(sorted({c for line in won for c in line})))
        else:
            outcome = None if EMPTY in board else DRAW
        return Position._unchecked(board, g, outcome)

    def symmetric_boards(self) -> tuple[str, ...]:
        """The board under each of the 8 rotations and reflections (some may coincide)."""
        board = self.board
        return tuple("".join(board[i] for i in perm) for perm in self.geometry.symmetries)

    def canonical(self) -> str:
        """One representative of the position's symmetry class: the least of its 8 images.

        >>> parse("X........").canonical() == parse("........X").canonical()
        True
        """
        return canonical_board(self.board, self.geometry.n)


def canonical_board(board: str, n: int = 3) -> str:
    """The least of a board's 8 rotations and reflections; ``board`` is not validated."""
    return _least_image(board, _symmetry_getters(n))


def _least_image(board: str, images: tuple[itemgetter[Any], ...], join: Callable[[str, Any], str] = str.join) -> str:
    # Searches ask for this at nearly every new node: a list and a local join cost half as much
    # as a generator over the global "".join.
    return min([join("", image(board)) for image in images])


@cache
def _symmetry_getters(n: int) -> tuple[itemgetter[Any], ...]:
    return tuple(itemgetter(*perm) for perm in _symmetries(n))


def _owner(board: str, line: tuple[int, ...]) -> str | None:
    first = board[line[0]]
    if first == EMPTY:
        return None
    for cell in line:
        if board[cell] != first:
            return None
    return first


def cell_name(cell: int, n: int = 3) -> str:
    """A cell's place in words, as a screen reader would say it.

    >>> cell_name(5)
    'Row 2, column 3'
    """
    row, col = divmod(cell, n)
    return f"Row {row + 1}, column {col + 1}"


def parse(text: str, n: int = 3, k: int = 3) -> Position:
    """Read a board written as n×n characters X, O and . in row-major order.

    Raises InvalidBoardError, naming the problem, for anything a game could not reach.

    >>> parse("X...O....").to_move
    'X'
    >>> parse("XXX.O....")
    Traceback (most recent call last):
    ...
    webapp.engine.rules.InvalidBoardError: X has 3 marks and O has 1; X moves first, so X has as many as O or one more.
    """
    g = geometry(n, k)
    if not isinstance(text, str):
        raise InvalidBoardError(f"A board is text of {g.cells} characters.")
    if len(text) != g.cells:
        raise InvalidBoardError(f"A board has {g.cells} cells, but this one has {len(text)}.")
    for i, c in enumerate(text):
        if c not in "XO.":
            raise InvalidBoardError(f"Cell {i} holds {c!r}; each cell must be X, O or '.' for empty.")
    xs, os_ = text.count(X), text.count(O)
    if xs not in (os_, os_ + 1):
        raise InvalidBoardError(f"X has {xs} marks and O has {os_}; X moves first, so X has as many as O or one more.")
    owners = {line: _owner(text, line) for line in g.lines}
    winners = {mark for mark in owners.values() if mark}
    if winners == {X, O}:
        raise InvalidBoardError("Both X and O have a line, but the game stops at the first one.")
    if winners:
        (winner,) = winners
        if (winner == X) != (xs == os_ + 1):
            raise InvalidBoardError(f"{other(winner)} played on after {winner} had already won.")
        lines = [line for line, mark in owners.items() if mark]
        if not set.intersection(*(set(line) for line in lines)):
            raise InvalidBoardError(f"{winner} has two separate lines, but the game stops at the first one.")
    return Position._unchecked(text, g)
