"""The JSON API: a position's analysis, the computer's move and a game's review."""

from __future__ import annotations

import json

from flask import Blueprint, abort, request

from webapp.engine import pacing
from webapp.engine.boards import BOARDS, position
from webapp.learn import big_review
from webapp.learn.review import MoveListError, parse_moves, positions, review, review_piece
from webapp.solver import LEVELS, analyze, choose_move
from webapp.web import budgets, randomness
from webapp.web.errors import refuse
from webapp.web.present import status_of
from webapp.web.review import MOVES_HELP, LinkError, linked_board, piece_start

bp = Blueprint("api", __name__, url_prefix="/api")

SIZES = ", ".join(str(board.cells) for board in BOARDS[:-1]) + f" or {BOARDS[-1].cells}"
BOARD_HELP = f'the board as {SIZES} characters X, O or "." row by row (3×3 up to 15×15), such as "X...O...."'
EXAMPLE = '{"board": "X...O....", "level": "minimax"}'
FIELD_HELP = {"board": BOARD_HELP, "level": "one of " + ", ".join(f'"{level}"' for level in LEVELS)}


@bp.get("/analyze")
def analyze_position():
    board = request.args.get("board")
    if board is None:
        abort(400, description=f"Give {BOARD_HELP}: /api/analyze?board=X...O....")
    try:
        moves = analyze(board)
    except ValueError as error:
        refuse(error)
    pos = position(board)
    return {
        "board": board,
        "to_move": pos.to_move,
        "status": status_of(pos),
        "moves": [{"cell": cell, "result": result, "plies": plies} for cell, (result, plies) in sorted(moves.items())],
    }


def json_object() -> dict:
    """The request's body, which must be a JSON object."""
    if not request.is_json:
        abort(415, description="Send a JSON object with the header Content-Type: application/json.")
    try:
        body = json.loads(request.get_data())
    except ValueError:
        abort(400, description=f"The body is not valid JSON; send an object such as {EXAMPLE}.")
    except RecursionError:
        abort(400, description=f"The body is nested too deeply; send an object such as {EXAMPLE}.")
    if not isinstance(body, dict):
        abort(400, description=f"The body must be a JSON object, such as {EXAMPLE}.")
    return body


def text_field(body: dict, name: str) -> str:
    if name not in body:
        abort(400, description=f'The body needs a "{name}" field: {FIELD_HELP[name]}.')
    if not isinstance(body[name], str):
        abort(400, description=f'The "{name}" field must be a string: {FIELD_HELP[name]}.')
    return body[name]


@bp.post("/move")
def move():
    body = json_object()
    board, level = text_field(body, "board"), text_field(body, "level")
    try:
        cell = choose_move(board, level, randomness.replies())
    except ValueError as error:
        refuse(error)
    after = position(board).play(cell)
    return {"cell": cell, "board": after.board, "status": status_of(after)}


@bp.get("/review")
def review_game():
    """A game's review. On 7×7 and 15×15 the moves are graded in pieces: as many as fit in one request from move
    ``start`` (0 by default), with ``next`` saying where the next request starts (null once the last is graded);
    the summary and the turning point come only with a review done in one request."""
    text = request.args.get("moves")
    if text is None:
        abort(400, description=f"Give the game to review: {MOVES_HELP}.")
    try:
        board = linked_board(request.args)
        moves = parse_moves(text, board)
        start = piece_start(request.args, len(moves))[0] if "start" in request.args else 0
    except (MoveListError, LinkError) as error:
        abort(400, description=str(error))
    final = positions(moves, board)[-1]
    if board.is_solved() or not moves:
        game = review(moves, board=board)
        graded, following, turning, summary = game.moves, None, game.turning, game.summary
    else:
        pace = pacing.current()
        began = pace.clock()
        piece = review_piece(moves, board, start, more=lambda: pace.clock() - began < budgets.PIECE_SECONDS)
        graded, following = piece.moves, piece.next
        turning = summary = None
        if start == 0 and following is None:  # the whole game in one piece
            turning = graded[piece.turning - 1] if piece.turning else None
            summary = big_review.summary(turning, board, None, len(moves), final.winner)
    return {
        "board_size": board.key,
        "moves": [graded_move_fields(move) for move in graded],
        "next": following,
        "board": final.board,
        "status": status_of(final),
        "turning_point": turning.number if turning else None,
        "summary": summary,
    }


def graded_move_fields(move) -> dict:
    found = {
        "move": move.number,
        "cell": move.cell,
        "mover": move.mover,
        "value": {"result": move.value.result, "plies": move.value.plies},
        "best": {"result": move.best.result, "plies": move.best.plies},
        "grade": move.grade,
        "best_cells": list(move.best_cells),
    }
    if move.is_estimate:
        # Hard's judgement, not a proof: the mover's chance of winning after Hard's move and after the move played.
        found["estimate"] = {"before": round(move.before, 3), "after": round(move.after, 3)}
    return found
