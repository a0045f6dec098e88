"""The review of a game on a big board (7×7, 15×15): every move graded, by proof where there is one, else by
Hard's estimate.

No big board is solved. A move is graded by proof where a forced win is proved before or after it
(``solver.game_facts``): one that completes five, or keeps a proved forced win, is best; one that gives up a proved
forced win, or lets the opponent's through where another move tried stops it, is a mistake (a blunder if it does
both). Every other move is graded by Hard's estimate (``solver.estimate``), as a chess site grades with its engine:
the mover's chance of winning after the move Hard would have played, against after the move played. A loss of
INACCURACY or more is an inaccuracy, then a mistake and a blunder; the page says such a grade is an estimate.

The moves are graded one at a time, in order (``graded_moves``), so that a page can fetch a long game's grades in
pieces, each within a request's time, and nothing about a game has to be kept between them.

>>> from webapp.engine.boards import BY_KEY
>>> race = (0, 7, 1, 8, 2, 9, 3, 10, 4)  # 7×7: X fills the top row; O's 10 leaves X's four open
>>> graded = graded_moves(race, BY_KEY["7x7"])
>>> [move.grade for move in graded][-2:], graded[7].best_cells, graded[7].is_estimate
(['mistake', 'best'], (4,), False)
>>> explain_big_move(graded[7], 7)  # doctest: +NORMALIZE_WHITESPACE
"Move 8, O row 2, column 4, was a mistake: it leaves X's four open, and X makes five next.
 Better: row 1, column 5."
>>> graded_moves(race, BY_KEY["7x7"], start=7)[0] == graded[7]  # the same, graded alone
True
"""

from __future__ import annotations

from collections.abc import Callable

from webapp import solver
from webapp.engine.boards import Board
from webapp.engine.rules import Position, other
from webapp.learn.grading import UNCLEAR, GradedMove, Outlook
from webapp.learn.squares import place, places, spot

# What a move's grade rests on, as GradedMove.why says it: proved ("five" to "allowed"), or Hard's "estimate".
WHY = ("five", "keeps", "kept", "missed", "four", "allowed", "estimate")
# The mover's chance of winning, by Hard's estimate, that a move may lose against the move Hard would have played
# before it is an inaccuracy, a mistake and a blunder. Wider than a chess engine's steps (5, 10 and 15 points on
# lichess): the estimate is rougher. Hard's own moves at its full budget lost 5 points or more by it 11 % of the
# time in the dev half's games, 10 points 8.9 %, 20 points 3.4 %, 30 points 0.8 % (237 moves).
INACCURACY, MISTAKE, BLUNDER = 0.10, 0.20, 0.30


def always() -> bool:
    return True


def graded_moves(
    moves: tuple[int, ...], board: Board, start: int = 0, more: Callable[[], bool] = always
) -> tuple[GradedMove, ...]:
    """Grade the moves of a checked move list on a big ``board``, from move ``start`` (0 for the first) on, while
    ``more()`` says there is time for another (one move at least); fewer if the request's time runs out mid-move.

    A move's grade depends on the game up to it alone: graded alone or in a piece of any length, it is the same.
    """
    boards = _boards(moves, board)
    facts = solver.game_facts(board.n, board.k, moves, start)
    judged: dict[str, solver.Estimate] = {}  # this call's, so that a position shared by two moves is judged once

    def judge(text: str) -> solver.Estimate:
        if text not in judged:
            judged[text] = solver.estimate(text)
        return judged[text]

    graded: list[GradedMove] = []
    try:
        for at in range(start, len(moves)):
            if graded and not more():
                break
            graded.append(_graded(at + 1, moves[at], next(facts), boards[at], judge, board))
    except solver.OutOfBudget:
        pass  # the request's time ran out in the middle of a move: the next request grades it
    return tuple(graded)


def _boards(moves: tuple[int, ...], board: Board) -> list[Position]:
    pos = Position.empty(board.n, board.k)
    found = [pos]
    for cell in moves:
        pos = pos.play(cell)
        found.append(pos)
    return found


def _chance_after(pos: Position, mover: str, judge) -> float:
    """The mover's chance of winning once it has moved into ``pos``: by the rules if the game is over, else by
    Hard's estimate for the other side, to move there."""
    if pos.is_over():
        return 0.5 if pos.winner is None else float(pos.winner == mover)
    return 1 - judge(pos.board).chance


def _graded(number: int, cell: int, fact, pos: Position, judge, board: Board) -> GradedMove:
    mover = pos.to_move
    after = pos.play(cell)
    if fact.wins:
        return GradedMove(number, cell, mover, Outlook("win", 1), Outlook("win", 1), "best", (cell,), "five", 1, 1)
    had, allows = fact.had, fact.allows
    if had is not None:
        win = Outlook("win", had.plies)
        if fact.kept is not None:
            why = "keeps" if cell == had.first else "kept"
            return GradedMove(number, cell, mover, Outlook("win", fact.kept), win, "best", (had.first,), why, 1, 1)
        chance = 0.0 if allows else _chance_after(after, mover, judge)
        grade = "blunder" if allows else "mistake"
        loses = Outlook("loss", 1 + allows.plies) if allows else UNCLEAR
        return GradedMove(number, cell, mover, loses, win, grade, (had.first,), "missed", 1, chance, chance < 0.5)
    if allows is not None and fact.better:
        why = "four" if allows.plies == 1 else "allowed"
        loses = Outlook("loss", 1 + allows.plies)
        return GradedMove(number, cell, mover, loses, UNCLEAR, "mistake", fact.better, why, None, 0.0, True)
    # Nothing proved either way (or a forced win of the opponent's that no move tried could stop): Hard's estimate.
    hard = judge(pos.board).move
    chance = _chance_after(after, mover, judge)
    before = chance if cell == hard else _chance_after(pos.play(hard), mover, judge)
    grade = "best" if cell == hard else estimated_grade(before - chance)
    turned = grade in ("mistake", "blunder") and before >= 0.5 > chance
    return GradedMove(number, cell, mover, UNCLEAR, UNCLEAR, grade, (hard,), "estimate", before, chance, turned)


def estimated_grade(loss: float) -> str:
    """The grade of a move that loses ``loss`` of the mover's chance of winning, by Hard's estimate.

    >>> [estimated_grade(loss) for loss in (-0.05, 0.05, 0.1, 0.25, 0.6)]
    ['good', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    if loss < INACCURACY:
        return "good"
    if loss < MISTAKE:
        return "inaccuracy"
    return "mistake" if loss < BLUNDER else "blunder"


def turning_point(moves: tuple[GradedMove, ...], winner: str | None, before: int | None = None) -> int | None:
    """The number of the move the review points to: the loser's last move that changed the game (in a draw or a game
    not over, anyone's), among ``moves`` and, before them, move ``before`` if any.

    A game can change hands more than once: the last change is the one that decided it.

    >>> moves = (GradedMove(3, 0, "X", UNCLEAR, UNCLEAR, "mistake", (1,), "estimate", 0.6, 0.3, True),)
    >>> turning_point(moves, "O"), turning_point(moves, "X"), turning_point(moves, "X", before=1)
    (3, None, 1)
    """
    found = [move.number for move in moves if move.turned and (winner is None or move.mover != winner)]
    return found[-1] if found else before


def chance(value: float) -> str:
    """A chance of winning in words, never more exact than an estimate is.

    >>> chance(0.624), chance(0.999), chance(0.0)
    ('about 62 %', 'almost certain', 'almost none')
    """
    if value >= 0.995:
        return "almost certain"
    if value <= 0.005:
        return "almost none"
    return f"about {round(100 * value)} %"


def _squares(cells: tuple[int, ...], n: int) -> str:
    """Better squares in a few words: "row 8, column 7 or 11" when they share a row.

    >>> _squares((112, 116), 15), _squares((0,), 15)
    ('row 8, column 8 or 12', 'the top-left corner')
    """
    rows = {cell // n for cell in cells}
    if len(cells) > 1 and len(rows) == 1:
        columns = [str(cell % n + 1) for cell in cells]
        return f"row {cells[0] // n + 1}, column {', '.join(columns[:-1])} or {columns[-1]}"
    return places(cells, n)


def _within(plies: int) -> str:
    return "at once" if plies == 1 else f"by force within {plies} moves of both sides"


def _plies(outlook: Outlook) -> int:
    """The length of a proved outlook: a move is explained by its length only where a win or loss was proved."""
    assert outlook.plies is not None, f"{outlook} is not proved"
    return outlook.plies


def _chances(move: GradedMove) -> tuple[float, float]:
    """The mover's chances after Hard's choice and after the move, which every estimated move has."""
    assert move.before is not None and move.after is not None, f"move {move.number} has no estimate"
    return move.before, move.after


def explain_big_move(move: GradedMove, n: int) -> str:
    """What one move of a big board's game did, in a sentence or two.

    >>> explain_big_move(GradedMove(9, 48, "X", UNCLEAR, Outlook("win", 1), "mistake", (4,), "missed", 1, 0.6), 7)
    'Move 9, X bottom-right, was a mistake: it gives up a win. Better: row 1, column 5, which wins at once.'
    >>> explain_big_move(GradedMove(12, 20, "O", UNCLEAR, UNCLEAR, "mistake", (24,), "estimate", 0.55, 0.3, True), 7)
    ... # doctest: +NORMALIZE_WHITESPACE
    "Move 12, O row 3, column 7, was a mistake by Hard's estimate: O's chance of winning falls from about 55 %
     to about 30 %, and the lead goes to X. Hard would have played the centre."
    """
    head = f"Move {move.number}, {move.mover} {spot(move.cell, n)}"
    them = other(move.mover)
    better = _squares(move.best_cells, n) if move.best_cells else ""
    if move.why == "five":
        return f"{head}, was a best move: it makes five in a row."
    if move.why in ("keeps", "kept"):
        start = "it plays" if move.why == "keeps" else "it keeps"
        return (
            f"{head}, was a best move: {start} {move.mover}'s proved forced win, five within {move.value.plies} moves."
        )
    if move.why == "missed":
        also = f" and lets {them} win {_within(_plies(move.value) - 1)}" if move.grade == "blunder" else ""
        wins = _within(_plies(move.best))
        return f"{head}, was a {move.grade}: it gives up a win{also}. Better: {better}, which wins {wins}."
    if move.why == "four":
        return f"{head}, was a mistake: it leaves {them}'s four open, and {them} makes five next. Better: {better}."
    if move.why == "allowed":
        lets = f"it lets {them} win {_within(_plies(move.value) - 1)}"
        return f"{head}, was a mistake: {lets}. Better: {better}, after which no forced win is found."
    if move.why != "estimate":
        return f"{head}, is not graded."
    before, after_it = _chances(move)
    after = f"{move.mover}'s chance of winning is {chance(after_it)} after it"
    if move.grade == "best":
        return f"{head}, was Hard's choice too. By Hard's estimate, {after}."
    if move.grade == "good":
        return f"{head}, was good by Hard's estimate: {after}, {chance(before)} after Hard's choice, {better}."
    turn = f", and the lead goes to {them}" if move.turned else ""
    return (
        f"{head}, was {'an' if move.grade == 'inaccuracy' else 'a'} {move.grade} by Hard's estimate: {move.mover}'s "
        f"chance of winning falls from {chance(before)} to {chance(after_it)}{turn}. Hard would have played "
        f"{better}."
    )


def summary(turning: GradedMove | None, board: Board, you: str | None, total: int, winner: str | None = None) -> str:
    """One line on what the review of a big board's game found, once every move is graded: the move that decided it.

    >>> summary(None, Board("7x7", 7, 5, "draw", "", False), None, 0)
    'No moves yet.'
    >>> summary(None, Board("7x7", 7, 5, "draw", "", False), "X", 30, "O")
    "No one move of yours lost the game by what is proved or by Hard's estimate: O pulled ahead a little at a time."
    """
    if not total:
        return "No moves yet."
    if turning is None:
        if winner is None:
            return "No move changed the game, by what is proved and by Hard's estimate."
        loser = "yours" if other(winner) == you else other(winner) + "'s"
        return (
            f"No one move of {loser} lost the game by what is proved or by Hard's estimate: "
            f"{'you' if winner == you else winner} pulled ahead a little at a time."
        )
    whose = "Your" if turning.mover == you else f"{turning.mover}'s"
    them = "you" if other(turning.mover) == you else other(turning.mover)
    played, better = place(turning.cell, board.n), _squares(turning.best_cells, board.n)
    if turning.why == "missed":
        return f"{whose} move {turning.number}, {played}, gave up a win; {better} won."
    if turning.why == "four":
        return f"{whose} move {turning.number}, {played}, left a four open for {them}; {better} blocked it."
    if turning.why == "allowed":
        return f"{whose} move {turning.number}, {played}, let {them} win by force; {better} was better."
    before, after = _chances(turning)
    return (
        f"{whose} move {turning.number}, {played}, handed the game to {them} by Hard's estimate: "
        f"{'your' if turning.mover == you else whose} chance of winning fell from {chance(before)} to "
        f"{chance(after)}. "
        f"Hard would have played {better}."
    )
