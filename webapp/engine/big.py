"""The levels on the boards too big to solve (7×7 and 15×15, five in a row): Easy, Medium, Hard and the analysis.

Hard is the time-budgeted search of ``hard.py`` on the threat-tracking board of ``gomoku.py``; Medium
looks one move ahead with the same static evaluation; the analysis reports a result only where it is
proved (an immediate win or loss, a forced win by fours for either side, or a board where nobody can
ever complete a line) and "unclear" everywhere else.

>>> board = "XXXX..." + "OOOO..." + "." * 35  # 7×7: X completes the top row at 4, or loses to O at 11
>>> candidates(board, "minimax"), candidates(board, "one-ply")
((4,), (4,))
>>> analyze(board)[4], analyze(board)[5]
(('win', 1), ('loss', 2))
"""

from __future__ import annotations

import time
from functools import lru_cache

from webapp.engine import hard
from webapp.engine.boards import board_for
from webapp.engine.gomoku import Gomoku

# What Medium sees when the opponent could win at once after its move: worse than any quiet position.
THREAT = 10**8

UNCLEAR = ("unclear", None)


def game_for(board: str) -> Gomoku:
    """The threat-tracking board for ``board``, which the caller has already validated."""
    spec = board_for(board)
    return Gomoku.from_text(board, spec.n, spec.k)


def candidates(board: str, level: str, budget: hard.Budget | None = None) -> tuple[int, ...]:
    """The moves ``level`` picks among in a valid, unfinished ``board``."""
    if level == "random":
        return tuple(game_for(board).legal())
    if level == "one-ply":
        return one_ply(game_for(board))
    if budget is not None:
        return hard.search(game_for(board), budget).best
    return _hard(board)


# Bounded: the boards come from visitors. Remembering the last few means a Hint and the move that
# follows it, or a page drawn twice, agree without searching twice.
@lru_cache(maxsize=64)
def _hard(board: str) -> tuple[int, ...]:
    return hard.search(game_for(board)).best


def one_ply(game: Gomoku) -> tuple[int, ...]:
    """Medium: every legal move judged by the static evaluation of the position it leaves.

    Takes a win, blocks a five, and otherwise falls for whatever a deeper look would see.
    """
    wins = game.wins()
    if wins:
        return tuple(wins)
    scores = {}
    for move in game.legal():
        game.play(move)
        # The opponent is to move now: its immediate win is the worst we could leave it.
        scores[move] = -(THREAT if game.wins() else game.evaluate())
        game.undo()
    top = max(scores.values())
    return tuple(m for m, s in scores.items() if s == top)


def analyze(board: str, seconds: float = hard.DEFAULT_BUDGET.seconds) -> dict[int, tuple[str, int | None]]:
    """For each legal cell, a result only where proved within ``seconds`` of CPU, else ("unclear", None).

    Plies of a win or loss by fours are those of the shortest sequence of fours found: the game
    ends in at most that many, since the defender's only alternative to each block loses sooner.
    """
    return dict(_analyze(board, seconds))


@lru_cache(maxsize=16)
def _analyze(board: str, seconds: float) -> tuple[tuple[int, tuple[str, int | None]], ...]:
    game = game_for(board)
    legal = game.legal()
    result: dict[int, tuple[str, int | None]] = dict.fromkeys(legal, UNCLEAR)
    if game.dead():
        # Nobody can ever complete a line: whatever is played, the board fills up drawn.
        return tuple((m, ("draw", len(legal))) for m in legal)
    wins = game.wins()
    for move in wins:
        result[move] = ("win", 1)
    threats = game.wins(opponent=True)
    if not wins and len(threats) > 1:
        return tuple((m, ("loss", 2)) for m in legal)
    search = hard.Search(game, hard.Budget(seconds=seconds))
    try:
        if not wins:
            if threats:
                for move in legal:
                    if move != threats[0]:
                        result[move] = ("loss", 2)
            else:
                for move, plies in search.winning_fours(8, 4000).items():
                    result[move] = ("win", plies)
        # The opponent's answers: an immediate win, or a win by fours, after each move still open.
        deadline = search.start + seconds * 0.8
        near = [m for m in game.moves() if result[m] == UNCLEAR]
        open_moves = near + sorted(m for m in legal if result[m] == UNCLEAR and m not in set(near))
        for move in open_moves:
            if time.process_time() > deadline:
                break
            game.play(move)
            try:
                if game.wins():
                    result[move] = ("loss", 2)
                elif not game.wins(opponent=True):
                    fours = search.winning_fours(6, 300)
                    if fours:
                        result[move] = ("loss", 1 + min(fours.values()))
            finally:
                game.undo()
    except hard.OutOfBudget:
        pass
    return tuple(result.items())
