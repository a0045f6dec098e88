"""The cold costs, paid once in the gunicorn master before it forks the workers.

Each of these is worked out on first use and then remembered for the life of the process: the
solver's tables (its first call solves the game), the big boards' engine, the numbers page's count (plain minimax over
the whole tree takes seconds), the tournament, and the templates, which Jinja compiles on first
use. Done in the master (gunicorn.conf.py's when_ready), every worker is forked with them already
in memory, a worker restarted after a crash too, so no visitor ever waits for them. Under
`flask run` they are still worked out on first use.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from flask import Flask

from webapp import solver
from webapp.engine.boards import BOARDS
from webapp.engine.rules import Position
from webapp.learn import numbers
from webapp.solver import LEVELS, analyze, candidates
from webapp.web import learn


def solve_every_position() -> None:
    """Every level's choices and every move's value, in every position a game can reach."""
    for pos in numbers.reachable(Position.empty()):
        if not pos.is_over():
            for level in LEVELS:
                candidates(pos.board, level)
            analyze(pos.board)


def load_the_big_boards_engine() -> None:
    """The 7×7 and 15×15 engine, which the solver imports on first use, and each big board's lines: loaded once
    here, shared by the workers (a search process's first 15×15 move spent 0.1 s on the lines, without a pause)."""
    solver.load_big_boards_engine()
    for board in BOARDS:
        if not board.is_solved():
            solver.choose_move("." * board.cells, "one-ply", random.Random(0))  # lays out the board's lines


COLD_COSTS: dict[str, Callable[[], object]] = {
    "the solver": solve_every_position,
    "the big boards' engine": load_the_big_boards_engine,
    "the numbers": numbers.numbers,
    "the tournament": learn.tournament_results,
}


def compile_templates(app: Flask) -> None:
    """Every template compiled to Python once, rather than by each worker on its first page of each kind."""
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)


def warm_up(app: Flask | None = None) -> dict[str, float]:
    """Pay each cold cost now, ``app``'s templates too; return the seconds each took."""
    costs = dict(COLD_COSTS)
    if app is not None:
        costs["the templates"] = lambda: compile_templates(app)
    took = {}
    for name, pay in costs.items():
        start = time.perf_counter()
        pay()
        took[name] = time.perf_counter() - start
    return took


def warmed_app() -> Flask:
    """The app from the environment with its cold costs paid: what each process of the search pool serves."""
    from webapp import create_app

    app = create_app()
    warm_up(app)
    return app
