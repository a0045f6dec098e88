"""The levels on the boards too big to solve (7×7 and 15×15, five in a row): Easy, Medium, Hard and the analysis.

Hard is the time-budgeted search of ``hard.py`` on the threat-tracking board of ``board.py``; Medium
looks one move ahead with the same static evaluation; the analysis reports a result only where it is
proved (an immediate win or loss, a forced win by continuous fours or by fours and threes for either
side, or a board where nobody can ever complete a line) and "unclear" everywhere else.

>>> board = "XXXX..." + "OOOO..." + "." * 35  # 7×7: X completes the top row at 4, or loses to O at 11
>>> candidates(board, "minimax"), candidates(board, "one-ply")
((4,), (4,))
>>> analyze(board)[4], analyze(board)[5]
(('win', 1), ('loss', 2))
"""

from __future__ import annotations

from functools import lru_cache

from webapp.engine import pacing
from webapp.engine.answers import Estimate, View
from webapp.engine.big import hard
from webapp.engine.big.alphabeta import AlphaBeta
from webapp.engine.big.board import Gomoku
from webapp.engine.big.budget import Budget, Exhausted, Meter, OutOfBudget
from webapp.engine.big.evaluation import win_probability
from webapp.engine.big.lines import FOUR_W, THREE_W
from webapp.engine.big.moves import generate
from webapp.engine.big.parameters import (
    ANALYSIS_CACHE,
    ANALYSIS_FRACTION,
    CHECK_NODES,
    ESTIMATE_DEPTH,
    ESTIMATE_NODES,
    MEDIUM_THREAT,
    ROOT_WIDTH,
    SECONDS,
    THREES,
    VIEW_CACHE,
)
from webapp.engine.big.threats import DEPTH, ThreatSearch
from webapp.engine.rules import other

UNCLEAR = ("unclear", None)


def estimate(board: str) -> Estimate:
    """Hard's judgement of a valid, unfinished ``board`` within a small budget (``ESTIMATE_DEPTH`` plies, at most
    ``ESTIMATE_NODES``): the same for the same board, whatever asked for it. The chance is the fitted evaluation's
    own logistic. OutOfBudget if the request's time ran out meanwhile.

    >>> round(estimate("." * 112 + "X" + "." * 112).chance, 1)  # 15×15, O to move after X's centre: X is ahead
    0.4
    """
    game = Gomoku.for_board(board)
    mine, _ = game.completions(game.mover)
    if mine:
        return Estimate(1.0, mine[0])
    moves = generate(game, ROOT_WIDTH) or game.legal()
    meter = Meter(nodes=ESTIMATE_NODES)
    scores, _ = AlphaBeta(game, meter, ESTIMATE_DEPTH).deepen(moves)
    if meter.timed_out:
        raise OutOfBudget  # cut short by the clock: it would not be the same judgement
    best = max(moves, key=lambda move: scores[move])
    return Estimate(win_probability(scores[best]), best)


def view_of(result: hard.Result) -> View:
    """A search's result as the pages read it: its figures best first."""
    ranked = sorted(result.scores.items(), key=lambda item: (-item[1], item[0]))
    return View(result.best, result.depth, result.nodes, result.reason, tuple(ranked), result.forced)


def candidates(board: str, level: str, budget: Budget | None = None) -> tuple[int, ...]:
    """The moves ``level`` picks among in a valid, unfinished ``board``."""
    if level == "random":
        return tuple(Gomoku.for_board(board).legal())
    if level == "one-ply":
        return one_ply(Gomoku.for_board(board))
    return view(board, budget).best


def view(board: str, budget: Budget | None = None) -> View:
    """The Hard search's view of a valid, unfinished ``board``: one search, shared with ``candidates``.

    >>> found = view("X" * 4 + "." * 3 + "O" * 4 + "." * 38)  # 7×7: X completes the top row at 4
    >>> found.best, found.reason, found.scores
    ((4,), 'win', ())
    """
    if budget is not None:
        return view_of(hard.search(Gomoku.for_board(board), budget))
    return _hard(board, _has_its_whole_budget())


def _has_its_whole_budget() -> bool:
    """Whether a search started now may spend Hard's whole budget before the pace's deadline."""
    pace = pacing.current()
    return pace.deadline is None or pace.deadline - pace.clock() >= SECONDS


# Bounded: the boards come from visitors. Remembering the last few means a page drawn twice, or the game
# and a later look at it, agree without searching twice. A search cut short by its request's deadline (the
# tree's, or one after a hint's analysis) is remembered apart, so the game never plays from one.
@lru_cache(maxsize=VIEW_CACHE)
def _hard(board: str, whole: bool) -> View:
    return view_of(hard.search(Gomoku.for_board(board)))


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
        scores[move] = -(MEDIUM_THREAT if game.wins() else game.evaluate())
        game.undo()
    top = max(scores.values())
    return tuple(m for m, s in scores.items() if s == top)


def analyze(board: str, seconds: float = SECONDS) -> dict[int, tuple[str, int | None]]:
    """For each legal cell, a result only where proved within ``seconds`` of CPU, else ("unclear", None).

    A win is a move that starts a forced win by continuous fours, or by fours and threes; a loss is a
    move after which the opponent has one. Plies are those of the sequence found, against the
    defender's longest resistance in it: the game ends within that many, the move included.
    """
    return dict(_analyze(board, seconds))


@lru_cache(maxsize=ANALYSIS_CACHE)
def _analyze(board: str, seconds: float) -> tuple[tuple[int, tuple[str, int | None]], ...]:
    game = Gomoku.for_board(board)
    legal = game.legal()
    result: dict[int, tuple[str, int | None]] = dict.fromkeys(legal, UNCLEAR)
    if game.dead():
        # Nobody can ever complete a line: whatever is played, the board fills up drawn.
        return tuple((m, ("draw", len(legal))) for m in legal)
    me = game.mover
    them = other(me)
    mine, theirs = game.completions(me)
    for move in mine:
        result[move] = ("win", 1)
    if not mine and len(theirs) > 1:
        return tuple((m, ("loss", 2)) for m in legal)
    meter = Meter(seconds=seconds)
    try:
        if not mine:
            if theirs:
                for move in legal:
                    if move != theirs[0]:
                        result[move] = ("loss", 2)
            else:
                _own_wins(game, me, meter, result)
        # The opponent's answers: a forced win after each move still open, the likeliest moves first.
        deadline = meter.start + seconds * ANALYSIS_FRACTION
        near = [m for m in game.moves() if result[m] == UNCLEAR]
        seen = set(near)
        open_moves = near + [m for m in legal if result[m] == UNCLEAR and m not in seen]
        theirs_search = ThreatSearch(game, them, meter)
        for move in open_moves:
            if meter.clock() > deadline:
                break
            game.play(move)
            try:
                plies = _plies(theirs_search, meter)
                if plies is not None:
                    result[move] = ("loss", 1 + plies)
            finally:
                game.undo()
    except OutOfBudget:
        pass
    return tuple(result.items())


def _own_wins(game: Gomoku, me: str, meter: Meter, result: dict[int, tuple[str, int | None]]) -> None:
    """Mark in ``result`` each of our threats (fours and open threes) that starts a forced win."""
    own = ThreatSearch(game, me, meter)
    for move in game.threats(me, THREE_W):
        cost = 0 if game.worth(move, me) >= FOUR_W else 1
        game.play(move)
        try:
            with meter.share(CHECK_NODES):
                plies = own.defend(THREES - cost, DEPTH - 1)
        except Exhausted:
            plies = None
        finally:
            game.undo()
        if plies is not None:
            result[move] = ("win", 1 + plies)


def _plies(search: ThreatSearch, meter: Meter) -> int | None:
    """The plies of the forced win ``search``'s side has, to move in the position, or None if none is found."""
    try:
        with meter.share(CHECK_NODES):
            for threes in range(THREES + 1):
                plies = search.attack(threes, DEPTH)
                if plies is not None:
                    return plies
    except Exhausted:
        pass
    return None
