"""The review of a game, a position from a link, and "Play from here": thin views over webapp.review."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, request, url_for

from webapp import state
from webapp.engine.rules import GameOverError, Position
from webapp.match import LEVEL_NAMES, Settings, StaleBoardError, Table, check_difficulty
from webapp.present import status_of
from webapp.rendering import page_or_fragment
from webapp.review import (
    MoveListError,
    board_cells,
    echo,
    explain,
    format_moves,
    line_to,
    move_list,
    parse_moves,
    positions,
    review,
    spot,
)
from webapp.solver import LEVELS

bp = Blueprint("review", __name__)

LAST_CELL = Position.empty().geometry.cells - 1
MOVES_HELP = f"moves are squares 0 to {LAST_CELL} separated by dots, such as moves=4.0.8"
CHANGED = "Your game changed in another tab or window since this page was drawn; here it is as it is now."


class LinkError(ValueError):
    """A link's ``at`` does not name a move of its game."""


# The live board's move list (partials/moves.html) is drawn from the moves alone.
bp.add_app_template_global(move_list, "move_rows")


@bp.app_template_global()
def line_text(board: str, hint: str | None = None, then: tuple[int, ...] = ()) -> str | None:
    """The moves that reach ``board`` (``hint`` if it does), then ``then``, as in a link; None if none can."""
    try:
        return format_moves(line_to(board, hint) + tuple(then))
    except ValueError:
        return None


def link_problem(error: ValueError, status: int = 400):
    """A friendly page for a link that does not hold a game: what is wrong, and the way back."""
    # The way back to a fresh game is the New game form, which carries the digest of the visitor's game.
    digest = state.load().table.digest
    return page_or_fragment(
        "link_problem.html", "partials/problem.html", status, message=str(error), last_cell=LAST_CELL, digest=digest
    )


def read_link() -> tuple[tuple[int, ...], int | None]:
    """The ``moves`` and ``at`` of a link; raises a ValueError that says what is wrong."""
    moves = parse_moves(request.args.get("moves", ""))
    at = request.args.get("at")
    if at is None:
        return moves, None
    if not (at.isascii() and at.isdigit() and len(at) <= 3 and int(at) <= len(moves)):
        has = f"{len(moves)} move{'' if len(moves) == 1 else 's'}"
        raise LinkError(
            f"The link asks for move “{echo(at)}”, but this game has {has}: "
            f"choose a number from 0 (the start) to {len(moves)}."
        )
    return moves, int(at)


def show_game(graded: bool):
    """The review (``graded``) or the plain move history of a link, read-only, at the move it names."""
    try:
        moves, at = read_link()
    except ValueError as error:
        return link_problem(error)
    table = state.load().table
    # "You" only when the link is the visitor's own game against the computer.
    you = table.settings.human if table.settings.mode == "hvc" and table.moves == moves else None
    game = review(moves, you) if graded else None
    if at is None:
        at = game.turning.number - 1 if game and game.turning else len(moves)
    seen = positions(moves)
    pos = seen[at]
    next_move = game.moves[at] if game and at < len(moves) else None
    moves_text = format_moves(moves)
    endpoint = "review.review_page" if graded else "game.index"
    return page_or_fragment(
        "review.html",
        "partials/review_update.html",
        graded=graded,
        endpoint=endpoint,
        moves=moves,
        moves_text=moves_text,
        at=at,
        total=len(moves),
        pos=pos,
        where=status_words(moves, at, pos),
        cells=board_cells(pos, moves[at - 1] if at else None, next_move),
        rows=move_list(moves, game.moves if game else ()),
        game=game,
        explanation=explain(next_move) if next_move else "",
        link=url_for(endpoint, moves=moves_text or None, at=at if at != len(moves) else None, _external=True),
    )


def status_words(moves: tuple[int, ...], at: int, pos: Position) -> str:
    """Where the reader is in the game, such as "You are looking at move 3 of 7: X top-left."."""
    total = len(moves)
    if total == 0:
        return "You are looking at the empty board, before the first move."
    if at == 0:
        return f"You are looking at the start of the game, before move 1 of {total}."
    where = f"You are looking at move {at} of {total}: {pos.board[moves[at - 1]]} {spot(moves[at - 1])}"
    if pos.is_over():
        return f"{where}. {'It is a draw.' if pos.is_draw() else f'{pos.winner} wins.'}"
    return f"{where}. {pos.to_move} to move."


def shared_position():
    """The read-only position of a link such as /?moves=4.0.8&at=2, for views.index."""
    return show_game(graded=False)


@bp.get("/review")
def review_page():
    return show_game(graded=True)


@bp.get("/api/review")
def api_review():
    text = request.args.get("moves")
    if text is None:
        abort(400, description=f"Give the game to review: {MOVES_HELP}, or moves=4,0,8.")
    try:
        moves = parse_moves(text)
    except MoveListError as error:
        abort(400, description=str(error))
    game = review(moves)
    return {
        "moves": [
            {
                "move": move.number,
                "cell": move.cell,
                "mover": move.mover,
                "value": {"result": move.value.result, "plies": move.value.plies},
                "best": {"result": move.best.result, "plies": move.best.plies},
                "grade": move.grade,
                "best_cells": list(move.best_cells),
            }
            for move in game.moves
        ],
        "board": game.final.board,
        "status": status_of(game.final),
        "turning_point": game.turning.number if game.turning else None,
        "summary": game.summary,
    }


# --- play from here --------------------------------------------------------------------------


def confirm_page(table: Table, moves: tuple[int, ...], status: int = 200, message: str | None = None):
    pos = positions(moves)[-1]
    return page_or_fragment(
        "play_from.html",
        "play_from.html",
        status,
        moves=moves,
        moves_text=format_moves(moves),
        pos=pos,
        cells=board_cells(pos, moves[-1] if moves else None),
        table=table,
        digest=table.digest,
        levels=LEVELS,
        message=message,
    )


@bp.get("/play-from")
def play_from_confirm():
    """Ask before the visitor's game is replaced: nothing changes until they confirm."""
    try:
        moves = parse_moves(request.args.get("moves", ""))
        if positions(moves)[-1].is_over():
            raise GameOverError("That position is the end of the game; choose an earlier move to play from.")
    except ValueError as error:
        return link_problem(error)
    return confirm_page(state.load().table, moves)


@bp.post("/play-from")
def play_from():
    """Replace the visitor's game with the position of a link, keeping the score."""
    loaded = state.load()
    table = loaded.table
    try:
        moves = parse_moves(request.form.get("moves", ""))
    except MoveListError as error:
        return link_problem(error)
    try:
        table.check_drawn_from(request.form.get("game", ""))
    except StaleBoardError:
        return confirm_page(table, moves, 409, CHANGED)
    try:
        settings = chosen_settings(table, positions(moves)[-1])
        played = table.play_from(moves, settings, current_app.extensions["rng"])
    except ValueError as error:
        return link_problem(error)
    state.save(played, notice=started_words(played, len(moves)))
    return redirect(url_for("game.index"), 303)


def chosen_settings(table: Table, pos: Position) -> Settings:
    """The players from here: as they are now, or the visitor against the computer at a level."""
    if request.form.get("against") != "computer":
        return table.settings
    s = table.settings
    level = check_difficulty(request.form.get("level", s.difficulty))
    return Settings("hvc", pos.to_move, level, s.x_level, s.o_level)


def started_words(table: Table, at: int) -> str:
    s = table.settings
    start = f"Playing on from move {at}" if at else "Playing from the empty board"
    if s.mode == "hvc":
        return f"{start}: you play {s.human} against {LEVEL_NAMES[s.difficulty]}."
    return f"{start}."
