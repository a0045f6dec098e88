"""A game as a list of moves: read from a link, graded move by move by the solver, told in one line.

Pure Python, like the rules. A move list is written as cells separated by dots or commas, such
as ``4.0.8`` or ``4,0,8``; every move is checked against the rules before anything is graded.

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

from webapp.engine.rules import Position, cell_name, other
from webapp.match import ECHO  # how much of a visitor's own text is shown back to them
from webapp.solver import analyze

GRADES = ("best", "good", "mistake", "blunder")
RESULT_RANK = {"loss": 0, "draw": 1, "win": 2}
GRADE_WORDS = {"best": "a best move", "good": "a good move", "mistake": "a mistake", "blunder": "a blunder"}


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
    """``text`` cut short enough to show back to the person who sent it.

    >>> echo("1" * 50)
    '1111111111111111111111111111111111111111…'
    """
    return text if len(text) <= ECHO else text[:ECHO] + "…"


def format_moves(moves: tuple[int, ...], separator: str = ".") -> str:
    """A move list as written in an address.

    >>> format_moves((4, 0, 8))
    '4.0.8'
    """
    return separator.join(str(cell) for cell in moves)


def parse_moves(text: str, n: int = 3, k: int = 3) -> tuple[int, ...]:
    """Read and check a move list; raise a MoveListError naming the first bad move.

    >>> parse_moves("4,0,8")
    (4, 0, 8)
    >>> parse_moves("4.4")
    Traceback (most recent call last):
    ...
    webapp.review.TakenSquareError: Move 2 (square 4, row 2, column 2) is on a square already taken.
    """
    cells = n * n
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
    pos = Position.empty(n, k)
    for number, cell in enumerate(moves, 1):
        where = f"Move {number} (square {cell}, {cell_name(cell, n).lower()})"
        if pos.is_over():
            ended = "in a draw" if pos.is_draw() else f"when {pos.winner} won"
            raise MoveAfterEndError(f"{where} comes after the game ended {ended} on move {number - 1}.")
        if pos.board[cell] != ".":
            raise TakenSquareError(f"{where} is on a square already taken.")
        pos = pos.play(cell)
    return moves


def positions(moves: tuple[int, ...], n: int = 3, k: int = 3) -> tuple[Position, ...]:
    """The position before the first move and after each move of a checked move list."""
    found = [Position.empty(n, k)]
    for cell in moves:
        found.append(found[-1].play(cell))
    return tuple(found)


# --- words for squares ---------------------------------------------------------------------


def spot(cell: int, n: int = 3) -> str:
    """A square in a word or two, for the move list: "top-left", "top", "centre".

    >>> [spot(cell) for cell in (0, 1, 4, 8)]
    ['top-left', 'top', 'centre', 'bottom-right']
    """
    row, col = divmod(cell, n)
    vertical = "top" if row == 0 else "bottom" if row == n - 1 else ""
    horizontal = "left" if col == 0 else "right" if col == n - 1 else ""
    if vertical and horizontal:
        return f"{vertical}-{horizontal}"
    if n % 2 and row == col == n // 2:
        return "centre"
    if vertical or horizontal:
        # On a bigger board an edge has several squares, so say which one.
        return (vertical or horizontal) if n == 3 else f"{vertical or horizontal} edge, {cell_name(cell, n).lower()}"
    return cell_name(cell, n).lower()


def place(cell: int, n: int = 3) -> str:
    """A square as a sentence names it: "the top-left corner", "the top edge", "the centre".

    >>> [place(cell) for cell in (0, 1, 4)]
    ['the top-left corner', 'the top edge', 'the centre']
    """
    row, col = divmod(cell, n)
    name = spot(cell, n)
    if row in (0, n - 1) and col in (0, n - 1):
        return f"the {name} corner"
    if row in (0, n - 1) or col in (0, n - 1):
        return f"the {name} edge" if n == 3 else f"the {name}"
    return "the centre" if name == "centre" else name


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def places(cells: tuple[int, ...], n: int = 3) -> str:
    """Several squares in a few words: "any corner", or their places joined by "or".

    >>> places((0, 2, 6, 8))
    'any corner'
    >>> places((1, 4))
    'the top edge or the centre'
    """
    corners = {0, n - 1, n * (n - 1), n * n - 1}
    edges = {cell for cell in range(n * n) if cell // n in (0, n - 1) or cell % n in (0, n - 1)} - corners
    if set(cells) == corners:
        return "any corner"
    if set(cells) == edges:
        return "any edge"
    names = [place(cell, n) for cell in cells]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


# --- grading -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outlook:
    """How the game ends for one side under perfect play: the result and the plies to the end."""

    result: str  # "win", "draw" or "loss"
    plies: int

    @property
    def words(self) -> str:
        return "draw" if self.result == "draw" else f"{self.result} in {self.plies}"


@dataclass(frozen=True, slots=True)
class GradedMove:
    """One move of a game, judged from the mover's side against the best move on offer."""

    number: int  # 1 for the first move
    cell: int
    mover: str
    value: Outlook  # what the move keeps for the mover with perfect play after it
    best: Outlook  # what the best move would have kept
    grade: str  # one of GRADES
    best_cells: tuple[int, ...]

    @property
    def is_error(self) -> bool:
        return self.grade in ("mistake", "blunder")


def rank(outlook: Outlook) -> tuple[int, int]:
    """Order outlooks from the mover's side: a better result, then a faster win or a slower loss."""
    speed = -outlook.plies if outlook.result == "win" else outlook.plies
    return RESULT_RANK[outlook.result], speed


def grade(value: Outlook, best: Outlook) -> str:
    """The grade of a move that keeps ``value`` where ``best`` was on offer.

    >>> grade(Outlook("draw", 5), Outlook("win", 3))
    'mistake'
    """
    drop = RESULT_RANK[best.result] - RESULT_RANK[value.result]
    if drop == 0:
        return "best" if value == best else "good"
    return "mistake" if drop == 1 else "blunder"


@lru_cache(maxsize=1 << 13)
def choices(board: str) -> tuple[Outlook, tuple[int, ...], dict[int, Outlook]]:
    """For a reachable, unfinished board: the best outlook, the cells that keep it, every move's outlook.

    Boards reach here only after parse_moves() has checked them, and there are 4,520 of them.
    """
    values = {cell: Outlook(*found) for cell, found in analyze(board).items()}
    best = max(values.values(), key=rank)
    return best, tuple(cell for cell, value in values.items() if value == best), values


def grade_move(pos: Position, cell: int, number: int) -> GradedMove:
    """Judge ``cell`` played in ``pos``, which must be a legal move."""
    best, best_cells, values = choices(pos.board)
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

    @property
    def is_over(self) -> bool:
        return self.final.is_over()


def review(moves: tuple[int, ...], you: str | None = None, n: int = 3, k: int = 3) -> Review:
    """Grade every move of a checked move list; ``you`` names the side the reader played, if any."""
    seen = positions(moves, n, k)
    graded = tuple(
        grade_move(pos, cell, number) for number, (pos, cell) in enumerate(zip(seen, moves, strict=False), 1)
    )
    final = seen[-1]
    turning = turning_point(graded, final.winner)
    return Review(graded, final, turning, summarise(graded, final, turning, you))


def turning_point(moves: tuple[GradedMove, ...], winner: str | None) -> GradedMove | None:
    """The move to highlight: the loser's first mistake, or in a draw (or an unfinished game) anyone's."""
    return next((m for m in moves if m.is_error and (winner is None or m.mover != winner)), None)


def summarise(moves, final: Position, turning: GradedMove | None, you: str | None = None) -> str:
    """One line on what happened, such as "You held the draw until move 4; the top edge let O win."."""
    n = final.geometry.n

    def name(side: str) -> str:
        return "you" if side == you else side

    if turning is None:
        if not moves:
            return "No moves yet: every first move holds the draw." if n == 3 else "No moves yet."
        if final.is_over():
            return "Both sides played perfectly, so the game was a draw." if final.is_draw() else "Perfect play."
        return "No mistakes so far: both sides have kept what they had."
    side, opponent = name(turning.mover), name(other(turning.mover))
    held = "held the draw" if turning.best.result == "draw" else "were winning" if side == "you" else "was winning"
    if turning.value.result == "draw":
        cost = f"let {opponent} escape with a draw"
    elif final.winner == other(turning.mover):
        after = positions(tuple(move.cell for move in moves[: turning.number]), n, final.geometry.k)[-1]
        cost = f"let {opponent} {how_it_is_won(after)}"
    else:
        cost = f"gave {opponent} a winning game"
    better = places(turning.best_cells, n)
    verb = "held" if turning.best.result == "draw" else "won"
    return (
        f"{_capitalised(side)} {held} until move {turning.number}; "
        f"{place(turning.cell, n)} {cost}. {_capitalised(better)} {verb}."
    )


def threats(pos: Position, side: str) -> set[int]:
    """The empty squares where ``side`` would complete a line at once.

    >>> sorted(threats(Position("XX.OO...."), "O"))
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
    if threats(pos, side):
        return "win at once"
    _, best_cells, _ = choices(pos.board)
    if any(len(threats(pos.play(cell), side)) >= 2 for cell in best_cells):
        return "fork"
    return "win"


# --- a line of play to any board -----------------------------------------------------------


def line_to(board: str, hint: str | None = None, n: int = 3, k: int = 3) -> tuple[int, ...]:
    """A legal move list that ends at ``board`` (which must be a valid position): ``hint`` if it does.

    The game tree names positions by their board alone; this gives it back an order of play, so
    that it can link to the review and to "Play from here".

    >>> line_to("XO..X....")
    (0, 1, 4)
    >>> line_to("XO..X....", hint="4.1.0")
    (4, 1, 0)
    """
    if hint:
        try:
            moves = parse_moves(hint, n, k)
        except MoveListError:
            moves = None
        if moves is not None and positions(moves, n, k)[-1].board == board:
            return moves
    return _line_to(board, n, k)


def _line_to(board: str, n: int, k: int) -> tuple[int, ...]:
    marks = {side: [i for i, c in enumerate(board) if c == side] for side in ("X", "O")}

    def extend(pos: Position, moves: tuple[int, ...]) -> tuple[int, ...] | None:
        if pos.board == board:
            return moves
        if pos.is_over():
            return None
        for cell in marks[pos.to_move]:
            if pos.board[cell] == ".":
                found = extend(pos.play(cell), (*moves, cell))
                if found is not None:
                    return found
        return None

    found = extend(Position.empty(n, k), ())
    if found is None:
        raise ValueError(f"No game reaches the board {board}.")
    return found


# --- what a page shows -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveItem:
    """One move in the move list: "X centre", with its grade once the game is reviewed."""

    number: int
    mover: str
    spot: str
    grade: str = ""

    @property
    def words(self) -> str:
        return f"{self.mover} {self.spot}"


def move_list(
    moves: tuple[int, ...], graded: tuple[GradedMove, ...] = (), n: int = 3
) -> tuple[tuple[MoveItem, ...], ...]:
    """The moves in rounds of two, X's move and O's reply, as a list numbered by round shows them.

    >>> [[item.words for item in row] for row in move_list((4, 0, 8))]
    [['X centre', 'O top-left'], ['X bottom-right']]
    """
    grades = [move.grade for move in graded] + [""] * (len(moves) - len(graded))
    items = [
        MoveItem(number, "X" if number % 2 else "O", spot(cell, n), grades[number - 1])
        for number, cell in enumerate(moves, 1)
    ]
    return tuple(tuple(items[i : i + 2]) for i in range(0, len(items), 2))


@dataclass(frozen=True, slots=True)
class BoardCell:
    """One square of a board drawn read-only, with what the review marks on it."""

    index: int
    mark: str  # "X", "O" or ""
    label: str  # what a screen reader says
    is_last: bool = False  # the move that led to this position
    is_winning: bool = False
    played: str = ""  # the grade of the move played here next, if that is shown
    is_better: bool = False  # a better move than the one played next


def board_cells(pos: Position, last: int | None, next_move: GradedMove | None = None) -> tuple[BoardCell, ...]:
    """The squares of ``pos``; with ``next_move``, where it went and, if it fell short, the better squares."""
    n = pos.geometry.n
    show_better = next_move is not None and next_move.grade != "best"
    cells = []
    for index, mark in enumerate(pos.board):
        mark = "" if mark == "." else mark
        played = next_move.grade if next_move is not None and next_move.cell == index else ""
        better = show_better and index in next_move.best_cells
        words = [cell_name(index, n), mark or "empty"]
        if index == last:
            words.append("the last move")
        if played:
            words.append(f"played next, {GRADE_WORDS[played]}")
        if better:
            words.append("a better move")
        cells.append(BoardCell(index, mark, ", ".join(words), index == last, index in pos.winning_line, played, better))
    return tuple(cells)


def outlook_words(outlook: Outlook) -> str:
    """An outlook as a phrase: "a win in 3 moves", "a draw", "a loss in 2 moves"."""
    if outlook.result == "draw":
        return "a draw"
    return f"a {outlook.result} in {outlook.plies} move{'s' if outlook.plies != 1 else ''}"


def explain(move: GradedMove, n: int = 3) -> str:
    """What one graded move did, in a sentence.

    >>> explain(review(parse_moves("4.1")).moves[1])
    'Move 2, O top, was a mistake: it turns a draw into a loss in 6 moves. Better: any corner.'
    """
    head = f"Move {move.number}, {move.mover} {spot(move.cell, n)}"
    better = f" Better: {places(move.best_cells, n)}."
    if move.grade == "best":
        return f"{head}, was a best move: it keeps {outlook_words(move.value)}."
    if move.grade == "good":
        offer = outlook_words(move.best)
        return f"{head}, was good: it keeps {outlook_words(move.value)}, where {offer} was on offer.{better}"
    return f"{head}, was a {move.grade}: it turns {outlook_words(move.best)} into {outlook_words(move.value)}.{better}"
