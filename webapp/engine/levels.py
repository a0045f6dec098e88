"""The computer player: three levels of play and the analysis of every move.

>>> choose_move("XX.OO....", "one-ply")  # takes the immediate win
2
>>> analyze("XX.OO....")[2]
('win', 1)

``webapp.solver`` is the face of this module that the web pages and ``python -m webapp.solver`` use.
"""

from __future__ import annotations

import random
from functools import cache

from webapp.engine import big
from webapp.engine.boards import board_for, position
from webapp.engine.rules import EMPTY, GameOverError, Position, canonical_board, other
from webapp.engine.search import Solver, lookahead_scores

LEVELS = ("random", "one-ply", "minimax")

# Terminal values dwarf static ones, so a win always outranks a heuristic, and they grow
# with the empty cells left, so a faster win (and a slower loss) is worth more.
WIN = 100
# What one-ply sees when the side to move can win at once: worse than any quiet
# position and better than a finished loss.
THREAT = 60


class UnknownLevelError(ValueError):
    """The level is not one of LEVELS."""


class TicTacToe:
    """The game interface the search needs, for tic-tac-toe positions.

    Its caches are keyed on the board text alone, so one instance serves one board geometry.
    """

    def __init__(self):
        # All three are pure functions of the board, asked for again and again by every search.
        self._keys: dict[str, str] = {}
        self._statics: dict[str, int] = {}
        self._children: dict[tuple[str, int], Position] = {}

    def moves(self, pos: Position) -> tuple[int, ...]:
        return pos.legal_moves()

    def play(self, pos: Position, move: int) -> Position:
        child = self._children.get((pos.board, move))
        if child is None:
            # The search only plays the moves that moves() gave it, so the checks of play() are spent.
            child = self._children[pos.board, move] = pos.after_legal(move)
        return child

    def terminal_value(self, pos: Position) -> int | None:
        outcome = pos.outcome()
        if outcome is None:
            return None
        if outcome.winner is None:
            return 0
        # The game ended on the opponent's move, so the side to move has lost.
        return -(WIN + pos.board.count(EMPTY))

    def static_value(self, pos: Position) -> int:
        value = self._statics.get(pos.board)
        if value is None:
            value = self._statics[pos.board] = static_value(pos)
        return value

    def key(self, pos: Position) -> str:
        key = self._keys.get(pos.board)
        if key is None:
            key = self._keys[pos.board] = canonical_board(pos.board, pos.geometry.n)
        return key


def static_value(pos: Position) -> int:
    """A quick judgement for the side to move, looking no further ahead.

    An immediate win on offer scores THREAT; otherwise it is the lines still open to the side
    to move minus those open to the opponent, with the centre and corners worth a little more.

    >>> static_value(position("XX.OO...."))  # X to move can win at once
    60
    >>> static_value(position("....X....")) < 0  # O to move, X holds the centre
    True
    """
    me = pos.to_move
    them = other(me)
    board, g = pos.board, pos.geometry
    one_short = g.k - 1
    open_lines = 0
    for marks_of in g.line_marks:
        marks = marks_of(board)
        if them not in marks:
            if marks.count(me) == one_short:
                return THREAT
            open_lines += 1
        if me not in marks:
            open_lines -= 1
    return 4 * open_lines + _placement(board, g.n, me) - _placement(board, g.n, them)


def _placement(board: str, n: int, mark: str) -> int:
    corners = (0, n - 1, n * (n - 1), n * n - 1)
    bonus = sum(1 for c in corners if board[c] == mark)
    if n % 2 and board[n * n // 2] == mark:
        bonus += 2
    return bonus


GAME = TicTacToe()
SOLVER = Solver(GAME)


def playable(board: str) -> Position:
    """The position for ``board``, which must be valid and not finished."""
    pos = position(board)
    if pos.is_over():
        result = "a draw" if pos.is_draw() else f"won by {pos.winner}"
        raise GameOverError(f"The game is over ({result}); there is no move to make.")
    return pos


def check_level(level: str) -> str:
    """Return ``level`` if it is known, else raise UnknownLevelError naming the choices."""
    if level not in LEVELS:
        raise UnknownLevelError(f"Unknown level {level!r}; choose one of: {', '.join(LEVELS)}.")
    return level


def candidates(board: str, level: str) -> tuple[int, ...]:
    """The moves ``level`` picks among, uniformly at random, in ``board``.

    >>> candidates("X........", "minimax")  # against a corner, only the centre holds the draw
    (4,)
    """
    level = check_level(level)
    if not board_for(board).is_solved():
        # 7×7 and 15×15: the threat-tracking board and the Hard search, with bounded memories only.
        playable(board)
        return big.candidates(board, level)
    return _candidates(board, level)


@cache
def _candidates(board: str, level: str) -> tuple[int, ...]:
    pos = playable(board)
    if level == "random":
        return pos.legal_moves()
    if level == "one-ply":
        scores = lookahead_scores(GAME, pos)
        top = max(scores.values())
        return tuple(m for m, s in scores.items() if s == top)
    return tuple(sorted(SOLVER.best_moves(pos)))


def choose_move(board: str, level: str, rng: random.Random | None = None) -> int:
    """The cell the computer plays in ``board`` at ``level`` ("random", "one-ply" or "minimax")."""
    # Without a generator of its own: the random module's, which Python reseeds in each forked child.
    choice = random.choice if rng is None else rng.choice
    return choice(candidates(board, level))


def analyze(board: str) -> dict[int, tuple[str, int]]:
    """For each legal cell: the result for the side to move under perfect play after it,
    and the plies until the game ends, that move included.

    >>> analyze("XOXOXO...")  # 7 wins too, but only after a fork: in 3 plies, not 1
    {6: ('win', 1), 7: ('win', 3), 8: ('win', 1)}
    """
    pos = playable(board)
    if not board_for(board).is_solved():
        return big.analyze(board)
    empties = pos.board.count(EMPTY)
    return {cell: describe(value, empties) for cell, value in SOLVER.move_values(pos).items()}


def outlook(pos: Position) -> tuple[str, int]:
    """The result for the side to move under perfect play, and the plies until the game ends.

    >>> outlook(position("XX.OO...."))  # X to move wins at once
    ('win', 1)
    >>> outlook(position("XXXOO...."))  # already over: O, to move, has lost
    ('loss', 0)
    """
    return describe(SOLVER.value(pos), pos.board.count(EMPTY))


def describe(value: int, empties: int) -> tuple[str, int]:
    """Turn a move's negamax value into (result, plies to the end, the move included)."""
    if value == 0:
        return "draw", empties
    left_at_end = abs(value) - WIN
    return ("win" if value > 0 else "loss"), empties - left_at_end
