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
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class View:
    """What the Hard search made of a position: the moves it prefers, how far and how wide it looked,
    and its figure for each move it weighed. Every figure is a judgement, not a proof."""

    best: tuple[int, ...]
    depth: int  # plies of the last look-ahead it finished (for "fours", of the forced win); 0 if none
    nodes: int  # positions it visited, threat search included
    reason: str  # as hard.Result.reason: "search" when it looked ahead and weighed moves
    # (move, figure) for each move weighed, best first: the figure is the static evaluation at the
    # horizon, from the side to move's point of view, exact for the best moves and an upper bound for the rest.
    scores: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, result: hard.Result) -> View:
        ranked = sorted(result.scores.items(), key=lambda item: (-item[1], item[0]))
        return cls(result.best, result.depth, result.nodes, result.reason, tuple(ranked))

    @property
    def top(self) -> int | None:
        """The best figure: the only one known exactly (None if no move was weighed)."""
        return self.scores[0][1] if self.scores else None

    def score(self, move: int) -> int | None:
        """The figure for ``move``, or None if the search did not weigh it."""
        return dict(self.scores).get(move)


def candidates(board: str, level: str, budget: hard.Budget | None = None) -> tuple[int, ...]:
    """The moves ``level`` picks among in a valid, unfinished ``board``."""
    if level == "random":
        return tuple(game_for(board).legal())
    if level == "one-ply":
        return one_ply(game_for(board))
    return view(board, budget).best


def view(board: str, budget: hard.Budget | None = None) -> View:
    """The Hard search's view of a valid, unfinished ``board``: one search, shared with ``candidates``.

    >>> found = view("X" * 4 + "." * 3 + "O" * 4 + "." * 38)  # 7×7: X completes the top row at 4
    >>> found.best, found.reason, found.scores
    ((4,), 'win', ())
    """
    if budget is not None:
        return View.of(hard.search(game_for(board), budget))
    return _hard(board)


# Bounded: the boards come from visitors. Remembering the last few means a Hint and the move that
# follows it, a page drawn twice, or the tree and the game, agree without searching twice.
@lru_cache(maxsize=64)
def _hard(board: str) -> View:
    return View.of(hard.search(game_for(board)))


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
