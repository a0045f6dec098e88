"""The learning pages: the game tree explorer, the numbers and the tournament."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from flask import Blueprint, abort, request

from webapp.engine import pacing
from webapp.engine.boards import BOARDS, board_for
from webapp.learn import charts, numbers
from webapp.learn.tournament import StrengthFileError, standings, strength, tournament
from webapp.learn.tree import COUNT_EMPTIES, Tree, explore, parse_path, root_board
from webapp.match import LEVEL_NAMES
from webapp.web import budgets
from webapp.web.errors import refuse
from webapp.web.rendering import page_or_fragment

bp = Blueprint("learn", __name__)

TOURNAMENT_GAMES = 100
TOURNAMENT_SEED = 2026
OUTCOMES = (("x", "X wins"), ("draw", "draws"), ("o", "O wins"))


def tree_request() -> tuple[str, tuple[int, ...], bool]:
    """The board (a board's key, such as 4x4, or the position itself), path and pruning on or off of a tree request."""
    try:
        board = root_board(request.args.get("board"))
        path = parse_path(request.args.get("path", ""), board_for(board))
    except ValueError as error:
        refuse(error)
    return board, path, request.args.get("pruning") == "1"


def explored(board: str, path: tuple[int, ...], *, open_last: bool = True) -> Tree:
    try:
        with pacing.within(budgets.TREE_SECONDS):
            return explore(board, path, open_last=open_last)
    except ValueError as error:
        refuse(error)


TREE_CONTEXT: dict[str, Any] = {
    "boards": BOARDS,
    "count_empties": COUNT_EMPTIES,
    "names": numbers.NAMES,
    "known": numbers.known,
    "unproved_here": numbers.unproved_here,
    "results": numbers.RESULTS,
}


@bp.get("/tree")
def tree():
    board, path, pruning = tree_request()
    return page_or_fragment(
        "tree.html", "partials/tree_view.html", tree=explored(board, path), pruning=pruning, **TREE_CONTEXT
    )


@bp.get("/tree/children")
def tree_children():
    """One move with its replies opened (or folded, with fold=1); without htmx, the page opened there."""
    board, path, pruning = tree_request()
    if not path:
        abort(400, description="Name the move to open as a path of cells, such as path=4 or path=4.0.")
    found = explored(board, path, open_last=request.args.get("fold") != "1")
    return page_or_fragment(
        "tree.html", "partials/tree_branch.html", tree=found, node=found.node(path), pruning=pruning, **TREE_CONTEXT
    )


def figures() -> dict:
    found = numbers.numbers()
    chart = charts.log_bars(
        [(numbers.NAMES[search["name"]], search["nodes"]) for search in found["searches"]],
        title="Nodes visited to choose the first move, on a log scale",
    )
    # Bigger boards are counted ahead of time (numbers.write_counts); a missing file is said so on the page.
    bigger = [(board, numbers.counted(board.key)) for board in numbers.COUNTED_BOARDS]
    return {
        "numbers": found,
        "chart": chart,
        "bigger": bigger,
        "boards": BOARDS,
        "names": numbers.NAMES,
        "known": numbers.known,
    }


@bp.get("/numbers")
def numbers_page():
    # The count takes seconds the first time; the production server does it before the workers
    # start (webapp/web/warm.py), so the page comes at once, with its figures.
    return page_or_fragment("numbers.html", "partials/numbers_figures.html", **figures())


@bp.get("/numbers/figures")
def numbers_figures():
    """The address the figures once had of their own, kept for links to it: the same as /numbers."""
    return numbers_page()


@cache
def tournament_results() -> tuple:
    """The tournament, played once per process from a fixed seed so that every visit shows the same."""
    pairings = tournament(TOURNAMENT_GAMES, random.Random(TOURNAMENT_SEED))
    chart = charts.stacked_bars(
        [(f"{LEVEL_NAMES[p.x_level]} vs {LEVEL_NAMES[p.o_level]}", (p.x_wins, p.draws, p.o_wins)) for p in pairings],
        OUTCOMES,
        title=f"Results of {TOURNAMENT_GAMES} games for each pairing, X’s level first",
    )
    return pairings, standings(pairings), chart


@bp.get("/tournament")
def tournament_page():
    pairings, table, chart = tournament_results()
    try:
        measured, unreadable = strength(), None
    except StrengthFileError as error:
        measured, unreadable = None, str(error)
    return page_or_fragment(
        "tournament.html",
        "partials/tournament_results.html",
        pairings=pairings,
        standings=table,
        chart=chart,
        games=TOURNAMENT_GAMES,
        strength=measured,
        unreadable=unreadable,
    )
