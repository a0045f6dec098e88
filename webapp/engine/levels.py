"""The computer player: three levels of play and the analysis of every move.

>>> choose_move("XX.OO....", "one-ply")  # takes the immediate win
2
>>> analyze("XX.OO....")[2]
('win', 1)

``webapp.solver`` is the face of this module that the pages and ``python -m webapp`` use. The engines of the
bigger boards are imported where a position on them first asks for one, so that a 3×3 game never pays for them.
"""

from __future__ import annotations

import random
from functools import cache
from struct import Struct
from typing import TYPE_CHECKING, Any

from webapp.engine.boards import DEFAULT, board_for, is_exact_board, position
from webapp.engine.parameters import OPEN_LINE, THREAT
from webapp.engine.rules import EMPTY, GameOverError, Geometry, O, Position, X, canonical_board, geometry, other
from webapp.engine.search import Solver, lookahead_scores

if TYPE_CHECKING:
    from webapp.engine.answers import View
    from webapp.engine.big.budget import Budget

LEVELS = ("random", "one-ply", "minimax")

# Terminal values dwarf static ones, so a win always outranks a heuristic, and they grow
# with the empty cells left, so a faster win (and a slower loss) is worth more.
WIN = 100


class UnknownLevelError(ValueError):
    """The level is not one of LEVELS."""


class TicTacToe:
    """The game interface the search needs, for tic-tac-toe positions.

    Its caches are keyed on the board text alone, so one instance serves one board geometry.
    """

    def __init__(self) -> None:
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
        return terminal_value(pos)

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


def terminal_value(pos: Position) -> int | None:
    """The value of a finished game for the side to move, or None while it goes on."""
    outcome = pos.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return 0
    # The game ended on the opponent's move, so the side to move has lost.
    return -(WIN + pos.board.count(EMPTY))


class PackedTicTacToe:
    """The game interface again, for the solver: a state is one integer that holds the board as
    seen under each of its rotations and reflections.

    The solver asks for every new node's symmetry class, and with board texts that took eight
    joins and most of its first call. Here image i of the board takes bits
    [i·width, (i+1)·width) of the state, X's cells first and O's after them, so a move sets its
    mark in every image with one OR, and the class key, the least image, is read back with three
    calls into C (to_bytes, unpack, min). Boards up to 32 cells fit; the solver uses it on 3×3.

    >>> game = PackedTicTacToe(geometry())
    >>> game.board(game.play(game.state(position("X........")), 4))
    'X...O....'
    >>> game.key(game.state(position("X........"))) == game.key(game.state(position("........X")))
    True
    """

    def __init__(self, g: Geometry):
        self.geometry = g
        cells = g.cells
        width = 32 if 2 * cells <= 32 else 64
        if 2 * cells > width:
            raise ValueError(f"A packed board holds at most 32 cells; this one has {cells}.")
        self._cells = cells
        self._full = (1 << cells) - 1
        self._bytes = width // 8 * len(g.symmetries)
        self._unpack = Struct(f"<{len(g.symmetries)}{'I' if width == 32 else 'Q'}").unpack

        def mark_bits(offset: int) -> tuple[int, ...]:
            # Image i shows old cell perm[i] at i, so a cell lands where its symmetry maps it.
            return tuple(
                sum(1 << (i * width + perm.index(cell) + offset) for i, perm in enumerate(g.symmetries))
                for cell in range(cells)
            )

        self._marks = (mark_bits(0), mark_bits(cells))  # X's bits, O's bits
        self._lines_through = tuple(
            tuple(sum(1 << c for c in line) for line in g.lines if cell in line) for cell in range(cells)
        )
        # The values of the finished states met so far, settled when they are made, and the keys
        # worked out so far: the searches ask for each again and again.
        self._terminal: dict[int, int] = {}
        self._keys: dict[int, int] = {}

    def state(self, pos: Position) -> int:
        """``pos`` (on this adapter's board) as a state."""
        state = 0
        for cell, mark in enumerate(pos.board):
            if mark != EMPTY:
                state |= self._marks[mark == O][cell]
        value = terminal_value(pos)
        if value is not None:
            self._terminal[state] = value
        return state

    def board(self, state: int) -> str:
        """The board text of ``state``, as in ``Position.board``."""
        cells = self._cells
        return "".join(X if state >> cell & 1 else O if state >> (cell + cells) & 1 else EMPTY for cell in range(cells))

    def moves(self, state: int) -> tuple[int, ...]:
        if state in self._terminal:
            return ()
        taken = (state | state >> self._cells) & self._full
        return tuple([cell for cell in range(self._cells) if not taken >> cell & 1])

    def play(self, state: int, move: int) -> int:
        # Like TicTacToe.play, only for the moves that moves() gave.
        cells = self._cells
        taken = (state | state >> cells) & self._full
        side = taken.bit_count() & 1  # 0 when X is to move
        child = state | self._marks[side][move]
        mine = child >> (cells * side) & self._full
        for line in self._lines_through[move]:
            if mine & line == line:
                self._terminal[child] = -(WIN + cells - 1 - taken.bit_count())
                return child
        if taken | 1 << move == self._full:
            self._terminal[child] = 0
        return child

    def terminal_value(self, state: int) -> int | None:
        return self._terminal.get(state)

    def static_value(self, state: int) -> int:
        g = self.geometry
        return static_value(Position._unchecked(self.board(state), g))

    def key(self, state: int) -> int:
        key = self._keys.get(state)
        if key is None:
            key = self._keys[state] = min(self._unpack(state.to_bytes(self._bytes, "little")))
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
    return OPEN_LINE * open_lines + _placement(board, g.n, me) - _placement(board, g.n, them)


def _placement(board: str, n: int, mark: str) -> int:
    corners = (0, n - 1, n * (n - 1), n * n - 1)
    bonus = sum(1 for c in corners if board[c] == mark)
    if n % 2 and board[n * n // 2] == mark:
        bonus += 2
    return bonus


GAME = TicTacToe()
# Perfect play on 3×3 runs on packed states; other boards' positions go to a solver of positions.
PACKED = PackedTicTacToe(geometry(DEFAULT.n, DEFAULT.k))
SOLVER = Solver(PACKED)
POSITION_SOLVER = Solver(GAME)


def exact(pos: Position) -> tuple[Solver[Any, int], Any]:
    """The solver for ``pos``'s board, and ``pos`` as a state of that solver's game."""
    if pos.geometry is PACKED.geometry:
        return SOLVER, PACKED.state(pos)
    return POSITION_SOLVER, pos


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
        from webapp.engine.big import levels as big

        playable(board)
        return big.candidates(board, level)
    if level == "minimax" and is_exact_board(board):
        from webapp.engine.exact import perfect

        playable(board)
        # 4×4 and 5×5: the book or the exact search, remembered for a bounded number of boards.
        return perfect.candidates(board)
    if len(board) != DEFAULT.cells:
        # Easy and Medium on 4×4 and 5×5 are cheap, and visitors choose these positions: nothing is kept.
        return _pick(board, level)
    return _candidates(board, level)


def search_view(board: str, budget: Budget | None = None) -> View | None:
    """What the top level's search made of ``board``: how far it looked, how many positions, its figure
    for each move. None on a solved board (3×3, 4×4, 5×5), whose values are exact and need no search."""
    if board_for(board).is_solved():
        return None
    from webapp.engine.big import levels as big

    playable(board)
    # The same search, remembered, as the move ``candidates`` picks: the view costs nothing more.
    return big.view(board, budget)


@cache
def _candidates(board: str, level: str) -> tuple[int, ...]:
    # 3×3 alone: at most 4,520 unfinished positions for each of the three levels.
    return _pick(board, level)


def _pick(board: str, level: str) -> tuple[int, ...]:
    pos = playable(board)
    if level == "random":
        return pos.legal_moves()
    if level == "one-ply":
        scores = lookahead_scores(GAME, pos)
        top = max(scores.values())
        return tuple(m for m, s in scores.items() if s == top)
    solver, state = exact(pos)
    return tuple(sorted(solver.best_moves(state)))


def choose_move(board: str, level: str, rng: random.Random | None = None) -> int:
    """The cell the computer plays in ``board`` at ``level`` ("random", "one-ply" or "minimax")."""
    # Without a generator of its own: the random module's, which Python reseeds in each forked child.
    choice = random.choice if rng is None else rng.choice
    return choice(candidates(board, level))


def analyze(board: str) -> dict[int, tuple[str, int | None]]:
    """For each legal cell: the result for the side to move under perfect play after it,
    and the plies until the game ends, that move included.

    >>> analyze("XOXOXO...")  # 7 wins too, but only after a fork: in 3 plies, not 1
    {6: ('win', 1), 7: ('win', 3), 8: ('win', 1)}
    """
    pos = playable(board)
    if not board_for(board).is_solved():
        from webapp.engine.big import levels as big

        return big.analyze(board)
    if is_exact_board(board):
        from webapp.engine.exact import perfect

        return perfect.analyze(board)
    empties = pos.board.count(EMPTY)
    solver, state = exact(pos)
    return {cell: describe(value, empties) for cell, value in solver.move_values(state).items()}


def outlook(pos: Position) -> tuple[str, int | None]:
    """The result for the side to move under perfect play, and the plies until the game ends.

    >>> outlook(position("XX.OO...."))  # X to move wins at once
    ('win', 1)
    >>> outlook(position("XXXOO...."))  # already over: O, to move, has lost
    ('loss', 0)
    """
    if not pos.is_over() and not board_for(pos.board).is_solved():
        from webapp.engine.big.levels import UNCLEAR

        return UNCLEAR  # 7×7 and 15×15: nothing is claimed that was not proved
    if not pos.is_over() and is_exact_board(pos.board):
        from webapp.engine.exact import perfect

        return perfect.outlook(pos.board)
    solver, state = exact(pos)
    return describe(solver.value(state), pos.board.count(EMPTY))


def describe(value: int, empties: int) -> tuple[str, int]:
    """Turn a move's negamax value into (result, plies to the end, the move included)."""
    if value == 0:
        return "draw", empties
    left_at_end = abs(value) - WIN
    return ("win" if value > 0 else "loss"), empties - left_at_end
