"""A game as a list of moves: read from a link, graded move by move by the solver, told in one line.

Pure Python, like the rules. A move list is written as cells separated by dots or commas, such
as ``4.0.8`` or ``4,0,8``; every move is checked against the rules before anything is graded.
A game is played on one board of the catalogue (3×3 unless it says otherwise).

On the solved boards (3×3, 4×4, 5×5) every move is graded from ``analyze``. On the big ones a move is
graded from the forced wins the engine proves before and after it, and otherwise by Hard's estimate, which the
page calls an estimate (big_review.py); a long game's moves are graded there in pieces (``review_piece``).

>>> game = review(parse_moves("4.1.0.8.6.3.2"))  # O answered the centre on an edge and lost to a fork
>>> [move.grade for move in game.moves]
['best', 'mistake', 'best', 'best', 'best', 'best', 'best']
>>> game.summary
'O held the draw until move 2; the top edge let X win. Any corner held.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from webapp.engine.boards import DEFAULT, Board, board_for
from webapp.engine.rules import Position, cell_name, other
from webapp.learn import big_review
from webapp.learn.grading import (
    GRADE_WORDS,
    UNCLEAR,
    GradedMove,
    Outlook,
    best_of,
    grade,
    outlook_words,
)
from webapp.learn.squares import capitalised, place, places, spot
from webapp.match import ECHO, visible  # how much of a visitor's own text is shown back to them, and how
from webapp.solver import analyze

# The biggest board solved (5×5): beyond, a review grades from the forced wins proved (big_review.py).
BIGGEST_SOLVED = 5
# The most steps line_to() takes looking for an order of play: on a big board a search that fails
# could otherwise try orders without end.
LINE_STEPS = 20_000


class MoveListError(ValueError):
    """A move list that does not describe a game; the message names the first bad move."""


class JunkMovesError(MoveListError):
    """The text is not cells separated by dots or commas."""


class TooManyMovesError(MoveListError):
    """More moves than the board has squares."""


class TakenSquareError(MoveListError):
    """A move on a square that was already taken."""


class MoveAfterEndError(MoveListError):
    """A move after the game had already ended."""


def echo(text: str) -> str:
    """``text`` cut short enough to show back to the person who sent it, its bidirectional controls as escapes.

    >>> echo("1" * 50)
    '1111111111111111111111111111111111111111…'
    """
    return visible(text if len(text) <= ECHO else text[:ECHO] + "…")


def format_moves(moves: tuple[int, ...], separator: str = ".") -> str:
    """A move list as written in an address.

    >>> format_moves((4, 0, 8))
    '4.0.8'
    """
    return separator.join(str(cell) for cell in moves)


def parse_moves(text: str, board: Board = DEFAULT) -> tuple[int, ...]:
    """Read and check a move list; raise a MoveListError naming the first bad move.

    >>> parse_moves("4,0,8")
    (4, 0, 8)
    >>> parse_moves("4.4")
    Traceback (most recent call last):
    ...
    webapp.learn.review.TakenSquareError: Move 2 (square 4, row 2, column 2) is on a square already taken.
    """
    cells, n = board.cells, board.n
    if text == "":
        return ()
    # Twice the longest list that could make sense, checked before the text is split into pieces:
    # a little over the limit still gets told how many moves it has.
    if len(text) > 2 * cells * (len(str(cells - 1)) + 1):
        raise TooManyMovesError(f"That is too long to be a game: a game has at most {cells} moves.")
    parts = re.split(r"[.,]", text)
    for number, part in enumerate(parts, 1):
        if not (part.isascii() and part.isdigit() and int(part) < cells):
            shown = f"“{echo(part)}”" if part else "nothing"
            raise JunkMovesError(
                f"Move {number} is {shown}, which is not a square: squares are numbered 0 to {cells - 1}, "
                f"and moves are separated by dots, such as 4.0.8."
            )
    if len(parts) > cells:
        raise TooManyMovesError(f"There are {len(parts)} moves, but a game has at most {cells}.")
    moves = tuple(int(part) for part in parts)
    pos = Position.empty(n, board.k)
    for number, cell in enumerate(moves, 1):
        where = f"Move {number} (square {cell}, {cell_name(cell, n).lower()})"
        if pos.is_over():
            ended = "in a draw" if pos.is_draw() else f"when {pos.winner} won"
            raise MoveAfterEndError(f"{where} comes after the game ended {ended} on move {number - 1}.")
        if pos.board[cell] != ".":
            raise TakenSquareError(f"{where} is on a square already taken.")
        pos = pos.play(cell)
    return moves


def positions(moves: tuple[int, ...], board: Board = DEFAULT) -> tuple[Position, ...]:
    """The position before the first move and after each move of a checked move list."""
    found = [Position.empty(board.n, board.k)]
    for cell in moves:
        found.append(found[-1].play(cell))
    return tuple(found)


# --- grading -------------------------------------------------------------------------------


def proved_choices(board: str) -> tuple[Outlook, tuple[int, ...], dict[int, Outlook]]:
    """For a reachable, unfinished board: the best outlook, the cells that keep it, every move's outlook.

    On a solved board from ``analyze``, remembered; on the others from what the lines prove at once
    (see proved_at_once), which is quicker to work out again than a big board's entry is to keep.
    """
    if board_for(board).is_solved():
        return _solved_choices(board)
    return _choices(proved_at_once(Position(board, *_size(board))))


# Bounded: at most 2,048 boards, whatever visitors send; a 5×5 board's entry is about 3.3 KB (7 MB in all).
@lru_cache(maxsize=1 << 11)
def _solved_choices(board: str) -> tuple[Outlook, tuple[int, ...], dict[int, Outlook]]:
    return _choices(
        {cell: Outlook(*found) if found[0] != "unclear" else UNCLEAR for cell, found in analyze(board).items()}
    )


def _choices(values: dict[int, Outlook]) -> tuple[Outlook, tuple[int, ...], dict[int, Outlook]]:
    best = best_of(values)
    cells = tuple(cell for cell, value in values.items() if value == best) if best.is_proved else ()
    return best, cells, values


def _size(board: str) -> tuple[int, int]:
    found = board_for(board)
    return found.n, found.k


def proved_at_once(pos: Position) -> dict[int, Outlook]:
    """Each move's outlook as far as one look at the lines proves it, with no search.

    A move that completes a line wins in 1. When the side to move could win at once, any other move
    that leaves the opponent a win at once loses in 2; when it cannot, a move that leaves one of the
    opponent's wins at once open loses in 2 (with two or more open, every move does). The rest are unclear.

    >>> proved_at_once(Position("XX.OO...."))[2], proved_at_once(Position("XX.OO...."))[6]
    (Outlook(result='win', plies=1), Outlook(result='loss', plies=2))
    >>> proved_at_once(Position("X...O...."))[1]
    Outlook(result='unclear', plies=None)
    """
    side = pos.to_move
    mine, theirs = threat_cells(pos, side), threat_cells(pos, other(side))
    values = {}
    for cell in pos.legal_moves():
        if cell in mine:
            values[cell] = Outlook("win", 1)
        elif theirs - {cell}:
            # The opponent still has a line one short with its last square empty: it wins next move.
            values[cell] = Outlook("loss", 2)
        else:
            values[cell] = UNCLEAR
    return values


def grade_move(pos: Position, cell: int, number: int) -> GradedMove:
    """Judge ``cell`` played in ``pos``, which must be a legal move."""
    best, best_cells, values = proved_choices(pos.board)
    value = values[cell]
    return GradedMove(number, cell, pos.to_move, value, best, grade(value, best), best_cells)


# --- the review ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Review:
    """A whole game graded: every move, the move to look at first, and a one-line summary."""

    moves: tuple[GradedMove, ...]
    final: Position
    turning: GradedMove | None  # the first mistake that mattered, or None
    summary: str
    board: Board = DEFAULT

    @property
    def is_over(self) -> bool:
        return self.final.is_over()

    @property
    def unclear(self) -> int:
        """How many moves could not be graded because their value is not proved."""
        return sum(1 for move in self.moves if move.grade == "unclear")


def review(moves: tuple[int, ...], you: str | None = None, board: Board = DEFAULT) -> Review:
    """Grade every move of a checked move list; ``you`` names the side the reader played, if any."""
    seen = positions(moves, board)
    final = seen[-1]
    if not board.is_solved():
        # Every move at once: for the command line, the API's short games and the tests; the page grades in pieces.
        graded = big_review.graded_moves(moves, board)
        number = big_review.turning_point(graded, final.winner)
        turning = graded[number - 1] if number else None
        return Review(graded, final, turning, big_review.summary(turning, board, you, len(moves), final.winner), board)
    graded = tuple(
        grade_move(pos, cell, number) for number, (pos, cell) in enumerate(zip(seen, moves, strict=False), 1)
    )
    turning = turning_move(graded, final.winner)
    return Review(graded, final, turning, summarise(graded, final, turning, you), board)


@dataclass(frozen=True, slots=True)
class Piece:
    """Some moves of a big board's game graded in one request, and where the review stands after them."""

    moves: tuple[GradedMove, ...]
    next: int | None  # the number of moves graded so far, where the next piece starts; None once all are
    turning: int | None  # the number of the move the review points to, as far as the game is graded


def review_piece(
    moves: tuple[int, ...], board: Board, start: int, turning: int | None = None, more=big_review.always
) -> Piece:
    """Grade the moves of a checked move list on a big board from move ``start`` (0 for the first), while ``more()``
    says there is time; ``turning`` is the move the pieces before pointed to (see big_review.turning_point)."""
    graded = big_review.graded_moves(moves, board, start, more)
    stop = start + len(graded)
    winner = positions(moves, board)[-1].winner
    return Piece(graded, stop if stop < len(moves) else None, big_review.turning_point(graded, winner, turning))


def graded_move(moves: tuple[int, ...], board: Board, at: int) -> GradedMove | None:
    """The grade of move ``at`` + 1 of a checked move list on a big board, alone; None if the time ran out."""
    graded = big_review.graded_moves(moves, board, at, lambda: False)
    return graded[0] if graded else None


def turning_move(moves: tuple[GradedMove, ...], winner: str | None) -> GradedMove | None:
    """The move to highlight: the loser's first mistake, or in a draw (or an unfinished game) anyone's."""
    return next((m for m in moves if m.is_error and (winner is None or m.mover != winner)), None)


def summarise(moves, final: Position, turning: GradedMove | None, you: str | None = None) -> str:
    """One line on what happened, such as "You held the draw until move 4; the top edge let O win."."""
    n = final.geometry.n
    board = board_for(final.board)

    def name(side: str) -> str:
        return "you" if side == you else side

    if turning is None:
        if not moves:
            return "No moves yet: every first move holds the draw." if n == 3 else "No moves yet."
        unclear = sum(1 for move in moves if move.grade == "unclear")
        if unclear:
            graded = len(moves) - unclear
            return f"No mistake is proved: {graded} of {len(moves)} moves were worked out within the time limit."
        if final.is_over():
            return "Both sides played perfectly, so the game was a draw." if final.is_draw() else "Perfect play."
        return "No mistakes so far: both sides have kept what they had."
    side, opponent = name(turning.mover), name(other(turning.mover))
    held = "held the draw" if turning.best.result == "draw" else "were winning" if side == "you" else "was winning"
    if turning.value.result == "draw":
        cost = f"let {opponent} escape with a draw"
    elif final.winner == other(turning.mover):
        after = positions(tuple(move.cell for move in moves[: turning.number]), board)[-1]
        cost = f"let {opponent} {how_it_is_won(after)}"
    else:
        cost = f"gave {opponent} a winning game"
    better = places(turning.best_cells, n)
    verb = "held" if turning.best.result == "draw" else "won"
    return (
        f"{capitalised(side)} {held} until move {turning.number}; "
        f"{place(turning.cell, n)} {cost}. {capitalised(better)} {verb}."
    )


def threat_cells(pos: Position, side: str) -> set[int]:
    """The empty squares where ``side`` would complete a line at once.

    >>> sorted(threat_cells(Position("XX.OO...."), "O"))
    [5]
    """
    g = pos.geometry
    found = set()
    for line, marks_of in zip(g.lines, g.line_marks, strict=True):
        marks = marks_of(pos.board)
        if marks.count(side) == g.k - 1 and marks.count(".") == 1:
            found.add(line[marks.index(".")])
    return found


def how_it_is_won(pos: Position) -> str:
    """How the side to move wins from ``pos``, which it does: "win at once", "fork" or "win".

    >>> how_it_is_won(Position("X.O.X...."))  # O to move: X threatens 8
    'win'
    >>> how_it_is_won(Position("...O..XOX"))  # X in the top-right corner threatens 4 and 5 at once
    'fork'
    """
    side = pos.to_move
    if threat_cells(pos, side):
        return "win at once"
    _, best_cells, _ = proved_choices(pos.board)
    if any(len(threat_cells(pos.play(cell), side)) >= 2 for cell in best_cells):
        return "fork"
    return "win"


# --- a line of play to any board -----------------------------------------------------------


def line_to(board: str, hint: str | None = None) -> tuple[int, ...]:
    """A legal move list that ends at ``board`` (which must be a valid position): ``hint`` if it does.

    The game tree names positions by their board alone; this gives it back an order of play, so
    that it can link to the review and to "Play from here".

    >>> line_to("XO..X....")
    (0, 1, 4)
    >>> line_to("XO..X....", hint="4.1.0")
    (4, 1, 0)
    """
    size = board_for(board)
    if hint:
        try:
            moves = parse_moves(hint, size)
        except MoveListError:
            moves = None
        if moves is not None and positions(moves, size)[-1].board == board:
            return moves
    return _line_to(board, size)


def _line_to(board: str, size: Board) -> tuple[int, ...]:
    marks = {side: [i for i, c in enumerate(board) if c == side] for side in ("X", "O")}
    steps = 0

    def extend(pos: Position, moves: tuple[int, ...]) -> tuple[int, ...] | None:
        nonlocal steps
        steps += 1
        if pos.board == board:
            return moves
        if pos.is_over() or steps > LINE_STEPS:
            return None
        for cell in marks[pos.to_move]:
            if pos.board[cell] == ".":
                found = extend(pos.play(cell), (*moves, cell))
                if found is not None:
                    return found
        return None

    found = extend(Position.empty(size.n, size.k), ())
    if found is None:
        raise ValueError(f"No game reaches the board {board}, or none was found quickly.")
    return found


# --- what a page shows -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveItem:
    """One move in the move list: "7. X centre", numbered as the review and links number it, with its grade
    once the game is reviewed."""

    number: int
    mover: str
    spot: str
    grade: str = ""
    estimate: bool = False  # the grade is Hard's estimate, not a proof (a big board's)
    turned: bool = False  # a big board's mistake that changed the game

    @property
    def words(self) -> str:
        return f"{self.number}. {self.mover} {self.spot}"


def move_list(moves: tuple[int, ...], graded: tuple[GradedMove, ...] = (), n: int = 3) -> tuple[MoveItem, ...]:
    """Every move, numbered 1, 2, 3… with its mover, as the review, the status and ``at=`` in a link count them;
    those in ``graded`` (any of the game's moves) with their grades.

    >>> [item.words for item in move_list((4, 0, 8))]
    ['1. X centre', '2. O top-left', '3. X bottom-right']
    """
    grades = {move.number: move for move in graded}
    items = []
    for number, cell in enumerate(moves, 1):
        move = grades.get(number)
        mover, where = "X" if number % 2 else "O", spot(cell, n)
        if move is None:
            items.append(MoveItem(number, mover, where))
        else:
            items.append(MoveItem(number, mover, where, move.grade, move.is_estimate, move.turned))
    return tuple(items)


@dataclass(frozen=True, slots=True)
class BoardCell:
    """One square of a board drawn read-only, with what the review marks on it."""

    index: int
    mark: str  # "X", "O" or ""
    label: str  # what a screen reader says
    is_last: bool = False  # the move that led to this position
    is_winning: bool = False
    played: str = ""  # the grade of the move that led to this position, on its square, if that is shown
    is_better: bool = False  # a better square for the move that led to this position


def board_cells(pos: Position, last: int | None, graded: GradedMove | None = None) -> tuple[BoardCell, ...]:
    """The squares of ``pos``, reached by the move on ``last``; with ``graded`` (that move's grade), its grade on its
    square and, if it fell short, the better squares, still empty after it."""
    n = pos.geometry.n
    better_cells = graded.best_cells if graded is not None and graded.grade != "best" else ()
    estimate = graded is not None and graded.is_estimate
    cells = []
    for index, mark in enumerate(pos.board):
        mark = "" if mark == "." else mark
        played = graded.grade if graded is not None and graded.cell == index else ""
        better = index in better_cells
        words = [cell_name(index, n), mark or "empty"]
        if index == last:
            words.append("the last move")
        if played:
            words.append(f"{GRADE_WORDS[played]}{', by estimate' if estimate else ''}")
        if better:
            words.append("Hard's choice" if estimate else "a better move")
        cells.append(BoardCell(index, mark, ", ".join(words), index == last, index in pos.winning_line, played, better))
    return tuple(cells)


def explain(move: GradedMove, n: int = 3) -> str:
    """What one graded move did, in a sentence.

    >>> explain(review(parse_moves("4.1")).moves[1])
    'Move 2, O top, was a mistake: it turns a draw into a loss in 6 moves. Better: any corner.'
    """
    if n > BIGGEST_SOLVED:
        return big_review.explain_big_move(move, n)
    head = f"Move {move.number}, {move.mover} {spot(move.cell, n)}"
    if move.grade == "unclear":
        return f"{head}, is not graded: {unclear_reason(move, n)}"
    better = f" Better: {places(move.best_cells, n)}."
    if move.grade == "best":
        return f"{head}, was a best move: it keeps {outlook_words(move.value)}."
    if move.grade == "good":
        offer = outlook_words(move.best)
        return f"{head}, was good: it keeps {outlook_words(move.value)}, where {offer} was on offer.{better}"
    return f"{head}, was a {move.grade}: it turns {outlook_words(move.best)} into {outlook_words(move.value)}.{better}"


def unclear_reason(move: GradedMove, n: int = 3) -> str:
    """Why a move of a solved board is not graded: its value was not worked out within the time limit.

    >>> unclear_reason(GradedMove(5, 3, "X", UNCLEAR, Outlook("win", 1), "unclear", (2,)))
    'X could have won at once on the top-right corner; whether this move still wins is not proved.'
    """
    if move.best.result == "win" and move.best.plies == 1:
        where = places(move.best_cells, n)
        return f"{move.mover} could have won at once on {where}; whether this move still wins is not proved."
    return "its value was not worked out within the time limit."
