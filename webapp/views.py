"""The web game's views: read the request, ask the table or the solver, save, and render."""

from __future__ import annotations

import random

from flask import Blueprint, current_app, redirect, request, url_for

from webapp import state
from webapp.forms import FormError, optional_choice, whole_number
from webapp.game import IllegalMoveError
from webapp.match import (
    LEVEL_NAMES,
    MODE_NAMES,
    ConflictError,
    Settings,
    Table,
    check_difficulty,
    check_mode,
    check_side,
)
from webapp.present import controls_state, game_view
from webapp.rendering import is_htmx, page_or_fragment

bp = Blueprint("game", __name__)


@bp.app_context_processor
def names():
    return {"mode_names": MODE_NAMES, "level_names": LEVEL_NAMES}


WRONG_CELL = "That square is not on the board."
WRONG_PLY = "This page is out of date. Reload it and try again."


def rng() -> random.Random:
    return current_app.extensions["rng"]


def sent_ply(required: bool = True) -> int | None:
    """The ``ply`` field: how many moves were on the board when the page was drawn."""
    if not required and "ply" not in request.form:
        return None
    return whole_number(request.form, "ply", 0, 9, WRONG_PLY)


def respond(
    table: Table,
    *,
    previous: Table | None = None,
    message: str | None = None,
    error: ValueError | None = None,
    hint: bool = False,
    is_error: bool = False,
):
    """The one place that decides what a request gets back.

    htmx gets the fragment that changed, with a 4xx status if the request was refused. Without
    htmx, a GET gets the full page and a POST is answered with a redirect to the page, carrying
    its message in the session. The controls are only sent again when they change (``previous``
    is the table before the request), so a click queued on them is not lost to a redraw.
    """
    status = 200
    if error is not None:
        status = 409 if isinstance(error, (ConflictError, IllegalMoveError)) else 400
        message, is_error = str(error), True
    if request.method == "POST" and not is_htmx():
        state.save(table, notice=message, notice_is_error=is_error)
        response = redirect(url_for("game.index"), 303)
        response.vary.add("HX-Request")
        return response
    if request.method == "POST" and error is None:
        state.save(table)
    return page_or_fragment(
        "index.html",
        "partials/update.html",
        status,
        table=table,
        game=game_view(table, hint=hint),
        message=message,
        is_error=is_error,
        controls_changed=previous is None or controls_state(previous) != controls_state(table),
    )


def act(action, says=None):
    """Load the table, apply ``action`` to it, and respond; a refused action leaves the game as it was.

    ``says``, given the new table, is a message for the player about what changed.
    """
    loaded = state.load()
    if loaded.reset:
        return respond(loaded.table, message=loaded.notice)
    try:
        table = action(loaded.table)
    except ValueError as error:
        return respond(loaded.table, previous=loaded.table, error=error)
    return respond(table, previous=loaded.table, message=says(table) if says else None)


@bp.get("/")
def index():
    loaded = state.load()
    return respond(loaded.table, message=loaded.notice, is_error=loaded.notice_is_error, hint="hint" in request.args)


@bp.post("/move")
def move():
    def play(table: Table) -> Table:
        if "cell" not in request.form:
            raise FormError("Choose a square to play.")
        cell = whole_number(request.form, "cell", 0, 8, WRONG_CELL)
        return table.move(cell, sent_ply(), rng())

    return act(play)


@bp.post("/new")
def new():
    def start(table: Table) -> Table:
        s = table.settings
        settings = Settings(
            mode=optional_choice(request.form, "mode", check_mode) or s.mode,
            human=optional_choice(request.form, "human", check_side) or s.human,
            difficulty=optional_choice(request.form, "difficulty", check_difficulty) or s.difficulty,
            x_level=optional_choice(request.form, "x_level", check_difficulty) or s.x_level,
            o_level=optional_choice(request.form, "o_level", check_difficulty) or s.o_level,
        )
        return table.new_game(settings, rng())

    return act(start)


@bp.post("/levels")
def levels():
    return act(
        lambda table: table.with_levels(
            difficulty=request.form.get("difficulty"),
            x_level=request.form.get("x_level"),
            o_level=request.form.get("o_level"),
        ),
        says=levels_message,
    )


def levels_message(table: Table) -> str:
    s = table.settings
    if s.mode == "cvc":
        return f"X plays {LEVEL_NAMES[s.x_level]} and O plays {LEVEL_NAMES[s.o_level]} from the next move."
    return f"Difficulty: {LEVEL_NAMES[s.difficulty]}, from the computer's next move."


@bp.post("/undo")
def undo():
    return act(lambda table: table.undo(sent_ply(required=False)))


@bp.post("/step")
def step():
    return act(lambda table: table.step(sent_ply(required=False), rng()))


@bp.post("/pause")
def pause():
    def pause_or_resume(table: Table) -> Table:
        if "paused" not in request.form:
            return table.set_paused(not table.paused)
        return table.set_paused(
            bool(whole_number(request.form, "paused", 0, 1, "Pause takes 1 (pause) or 0 (resume)."))
        )

    return act(pause_or_resume)


@bp.post("/values")
def values():
    return act(lambda table: table.toggle_values())


@bp.post("/score/reset")
def reset_score():
    return act(lambda table: table.reset_score())


@bp.get("/healthz")
def healthz():
    return {"status": "ok"}
