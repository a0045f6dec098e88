"""The review of a game on a big board (7×7, 15×15): each move graded from the forced wins the engine proves.

No big board is solved, so a move's value is known only where a forced win is proved before or after it
(``solver.game_facts``). A move that completes five is best; one that gives up a proved forced win, or lets
the opponent's through where another move tried stops it, is a mistake (a blunder if it does both). The rest
are not graded, and their sentence says what is proved about them.

>>> from webapp.engine.boards import BY_KEY
>>> race = (0, 7, 1, 8, 2, 9, 3, 10, 4)  # 7×7: X fills the top row; O's 10 leaves X's four open
>>> graded = graded_moves(race, BY_KEY["7x7"])
>>> [move.grade for move in graded][-2:], graded[7].best_cells
(['mistake', 'best'], (4,))
>>> explain(graded[7], 7)  # doctest: +NORMALIZE_WHITESPACE
"Move 8, O row 2, column 4, was a mistake: it leaves X's four open, and X makes five next.
 Better: row 1, column 5."
"""

from __future__ import annotations

from webapp import solver
from webapp.engine.boards import Board
from webapp.engine.rules import other
from webapp.learn.grading import UNCLEAR, GradedMove, Outlook
from webapp.learn.squares import place, places, spot

# What is proved about a move, as GradedMove.why says it.
WHY = ("five", "missed", "four", "allowed", "lost", "kept", "")


def graded_moves(moves: tuple[int, ...], board: Board) -> tuple[GradedMove, ...]:
    """Grade every move of a checked move list on a big ``board``."""
    facts = solver.game_facts(board.n, board.k, moves)
    return tuple(_graded(number, cell, fact) for number, (cell, fact) in enumerate(zip(moves, facts, strict=True), 1))


def _graded(number: int, cell: int, fact) -> GradedMove:
    mover = "X" if number % 2 else "O"
    loses = Outlook("loss", 1 + fact.allows.plies) if fact.allows else UNCLEAR
    if fact.wins:
        return GradedMove(number, cell, mover, Outlook("win", 1), Outlook("win", 1), "best", (cell,), "five")
    if not fact.looked:
        return GradedMove(number, cell, mover, UNCLEAR, UNCLEAR, "unclear", ())
    if fact.had is not None:
        if fact.kept is not None:
            return GradedMove(number, cell, mover, Outlook("win", fact.kept), UNCLEAR, "unclear", (), "kept")
        grade = "blunder" if fact.allows else "mistake"
        best = Outlook("win", fact.had.plies)
        return GradedMove(number, cell, mover, loses, best, grade, (fact.had.first,), "missed")
    if fact.allows is not None:
        if fact.better:
            why = "four" if fact.allows.plies == 1 else "allowed"
            return GradedMove(number, cell, mover, loses, UNCLEAR, "mistake", fact.better, why)
        return GradedMove(number, cell, mover, loses, UNCLEAR, "unclear", (), "lost")
    return GradedMove(number, cell, mover, UNCLEAR, UNCLEAR, "unclear", ())


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


def explain(move: GradedMove, n: int) -> str:
    """What one move of a big board's game did, in a sentence or two.

    >>> explain(GradedMove(9, 48, "X", UNCLEAR, Outlook("win", 1), "mistake", (4,), "missed"), 7)
    'Move 9, X bottom-right, was a mistake: it gives up a win. Better: row 1, column 5, which wins at once.'
    """
    head = f"Move {move.number}, {move.mover} {spot(move.cell, n)}"
    them = other(move.mover)
    better = _squares(move.best_cells, n) if move.best_cells else ""
    if move.why == "five":
        return f"{head}, was a best move: it makes five in a row."
    if move.why == "missed":
        also = f" and lets {them} win {_within(move.value.plies - 1)}" if move.grade == "blunder" else ""
        wins = _within(move.best.plies)
        return f"{head}, was a {move.grade}: it gives up a win{also}. Better: {better}, which wins {wins}."
    if move.why == "four":
        return f"{head}, was a mistake: it leaves {them}'s four open, and {them} makes five next. Better: {better}."
    if move.why == "allowed":
        lets = f"it lets {them} win {_within(move.value.plies - 1)}"
        return f"{head}, was a mistake: {lets}. Better: {better}, after which no forced win is found."
    if move.why == "lost":
        return f"{head}, is not graded: {them} already had a forced win that no move tried could stop."
    if move.why == "kept":
        return (
            f"{head}, is not graded: it keeps {move.mover}'s forced win, five within {move.value.plies} moves of "
            f"both sides; whether a quicker one was on offer is not proved."
        )
    return f"{head}, is not graded: no forced win is proved here for either side."


def summary(moves: tuple[GradedMove, ...], board: Board, turning: GradedMove | None, you: str | None) -> str:
    """One line on what the review of a big board's game found.

    >>> summary((), Board("7x7", 7, 5, "draw", "", False), None, None)
    'No moves yet.'
    """
    if not moves:
        return "No moves yet."
    if turning is None:
        graded = sum(1 for move in moves if move.grade != "unclear")
        return (
            f"No mistake is proved: on {board.name} a move is graded only where a forced win is proved, "
            f"so {graded} of {len(moves)} moves are graded."
        )
    whose = "Your" if turning.mover == you else f"{turning.mover}'s"
    them = "you" if other(turning.mover) == you else other(turning.mover)
    played, better = place(turning.cell, board.n), _squares(turning.best_cells, board.n)
    if turning.why == "missed":
        return f"{whose} move {turning.number}, {played}, gave up a win; {better} won."
    if turning.why == "four":
        return f"{whose} move {turning.number}, {played}, left a four open for {them}; {better} blocked it."
    return f"{whose} move {turning.number}, {played}, let {them} win by force; {better} was better."
