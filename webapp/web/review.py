"""The review of a game, a position from a link, and "Play from here": thin views over webapp.learn.review."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Blueprint, abort, current_app, redirect, request, url_for

from webapp.engine import pacing
from webapp.engine.boards import BOARDS, BY_KEY, DEFAULT, Board
from webapp.engine.rules import GameOverError, Position
from webapp.learn import big_review
from webapp.learn.review import (
    MoveListError,
    board_cells,
    echo,
    explain,
    format_moves,
    graded_move,
    line_to,
    move_list,
    parse_moves,
    positions,
    review,
    review_piece,
)
from webapp.learn.squares import spot
from webapp.match import LEVEL_NAMES, Settings, StaleBoardError, Table, check_difficulty, visible
from webapp.solver import LEVELS
from webapp.web import budgets, randomness, state
from webapp.web.rendering import is_htmx, page_or_fragment

bp = Blueprint("review", __name__)

MOVES_HELP = "moves are squares separated by dots, such as moves=4.0.8, and board=4x4 names a board other than 3×3"
CHANGED = "Your game changed in another tab or window since this page was drawn; here it is as it is now."
BOARD_KEYS = ", ".join(board.key for board in BOARDS[:-1]) + f" or {BOARDS[-1].key}"


class LinkError(ValueError):
    """A link's ``at`` does not name a move of its game."""


class UnknownBoardError(LinkError):
    """A link's ``board`` is not a board of the catalogue."""


def linked_board(args) -> Board:
    """The board a link names with ``board=4x4``; a link without one is a 3×3 game, as links were before."""
    key = args.get("board")
    if key is None:
        return DEFAULT
    board = BY_KEY.get(key)
    if board is None:
        raise UnknownBoardError(
            f"The link asks for the board “{echo(key)}”, which this game does not have: choose {BOARD_KEYS}."
        )
    return board


class EndingError(LinkError):
    """A link's ``ending`` is not a way a game ends off the board, or its moves had already ended the game."""


# How a friend game ended off the board (friend_present.review_ending), as a link's ``ending`` says, and the words
# the review states it in, as it states a win or a draw.
ENDINGS = {"resigned-x": "X resigned: O wins.", "resigned-o": "O resigned: X wins.", "agreed": "Drawn by agreement."}


def linked_ending(args, final: Position) -> str | None:
    """The ``ending`` of a link, None without one; refused when the moves already end the game on the board."""
    text = args.get("ending")
    if text is None:
        return None
    if text not in ENDINGS:
        raise EndingError(
            f"The link says the game ended “{echo(text)}”, which is not a way a game ends: "
            f"choose {', '.join(list(ENDINGS)[:-1])} or {list(ENDINGS)[-1]}, or leave ending out."
        )
    if final.is_over():
        result = "a draw" if final.is_draw() else f"{final.winner} winning"
        raise EndingError(
            f"The link says the game ended by {'agreement' if text == 'agreed' else 'resignation'}, but its moves "
            f"already end it in {result}: leave ending out."
        )
    return text


def board_key(board: Board) -> str | None:
    """The ``board`` parameter of a link: left out for 3×3, so that older links and new ones agree."""
    return None if board == DEFAULT else board.key


# The live board's move list (partials/moves.html) is drawn from the moves alone.
bp.add_app_template_global(move_list, "move_items")


bp.add_app_template_global(board_key, "board_key")


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
    table = state.load_table().table
    return page_or_fragment(
        "link_problem.html",
        "partials/problem.html",
        status,
        message=visible(str(error)),
        digest=table.digest,
        has_game=bool(table.moves),
    )


def read_link() -> tuple[Board, tuple[int, ...], int | None]:
    """The ``board``, ``moves`` and ``at`` of a link; raises a ValueError that says what is wrong."""
    board = linked_board(request.args)
    moves = parse_moves(request.args.get("moves", ""), board)
    at = request.args.get("at")
    if at is None:
        return board, moves, None
    if not (at.isascii() and at.isdigit() and len(at) <= 3 and int(at) <= len(moves)):
        has = f"{len(moves)} move{'' if len(moves) == 1 else 's'}"
        raise LinkError(
            f"The link asks for move “{echo(at)}”, but this game has {has}: "
            f"choose a number from 0 (the start) to {len(moves)}."
        )
    return board, moves, int(at)


def reader(moves: tuple[int, ...], final: Position) -> str | None:
    """The side the visitor played, when the link is their own game against the computer on the same board."""
    table = state.load_table().table
    own = table.settings.mode == "hvc" and table.moves == moves and table.position.board == final.board
    return table.settings.human if own else None


def show_game(graded: bool):
    """The review (``graded``) or the plain move history of a link, read-only, at the move it names.

    On 3×3 to 5×5 the whole review is worked out at once. A big board's grades come in pieces that the page
    fetches (``grades``); this request grades only the move that reached the position shown.
    """
    try:
        board, moves, at = read_link()
        seen = positions(moves, board)
        ending = linked_ending(request.args, seen[-1])
    except ValueError as error:
        return link_problem(error)
    table = state.load_table().table
    you = reader(moves, seen[-1])
    game = review(moves, you, board) if graded and board.is_solved() else None
    if at is None:
        # The review opens on the move it points to, explained: the board after it, and the better squares.
        at = game.turning.number if game and game.turning else len(moves)
    pos = seen[at]
    picked = None  # the move that reached the position shown: the move picked in the list, and the one explained
    if graded and at > 0:
        picked = game.moves[at - 1] if game else graded_move(moves, board, at - 1)
    moves_text = format_moves(moves)
    endpoint = "review.review_page" if graded else "game.index"
    key = board_key(board)
    return page_or_fragment(
        "review.html",
        "partials/review_update.html",
        graded=graded,
        endpoint=endpoint,
        board=board,
        board_param=key,
        moves=moves,
        moves_text=moves_text,
        at=at,
        total=len(moves),
        pos=pos,
        ending=ending,
        where=status_words(moves, at, pos, ending),
        cells=board_cells(pos, moves[at - 1] if at else None, picked),
        previous=moves[at - 2] if at > 1 else None,
        items=move_list(moves, game.moves if game else (), board.n),
        game=game,
        # A big board's review: its grades come in pieces, from this address (see grades).
        grader=url_for("review.grades", board=key, moves=moves_text, ending=ending, start=0)
        if graded and game is None
        else None,
        picked=picked,
        explanation=explain(picked, board.n) if picked else "",
        link=share_link(
            url_for(endpoint, board=key, moves=moves_text or None, ending=ending, at=at if at != len(moves) else None)
        ),
        # A visitor with a game of their own goes back to it; one who came by a link has none yet.
        has_game=bool(table.moves),
    )


def piece_start(args, total: int) -> tuple[int, int | None]:
    """The ``start`` (moves already graded) and ``turning`` (the move the review points to so far) of a piece."""
    found: list[int | None] = []
    for name, most in (("start", total - 1), ("turning", total)):
        text = args.get(name)
        if text is None and name == "turning":
            found.append(None)
            continue
        if not (text and text.isascii() and text.isdigit() and len(text) <= 3 and 0 <= int(text) <= most):
            raise LinkError(f"The review's {name} must be a move number from 0 to {most}.")
        found.append(int(text))
    start, turning = found
    assert start is not None, "the start is never left out"
    return start, turning or None


@bp.get("/review/grades")
def grades():
    """The next piece of a big board's review: the grades of as many moves as fit in PIECE_SECONDS, for htmx to put
    into the move list, then the address of the next piece, or the summary once every move is graded.

    Nothing is kept between pieces: each says where the next begins and which move the review points to so far."""
    if not is_htmx():
        # The pieces are for the page's script; a person who follows the address gets the review itself.
        args: dict[str, Any] = request.args.to_dict()
        return redirect(url_for("review.review_page", **args), 303)
    try:
        board, moves, _ = read_link()
        if board.is_solved() or not moves:
            raise LinkError("Only a game on 7×7 or 15×15 is graded in pieces, and it needs a move at least.")
        start, turning = piece_start(request.args, len(moves))
        final = positions(moves, board)[-1]
        ending = linked_ending(request.args, final)
    except ValueError as error:
        abort(400, description=str(error))
    pace = pacing.current()
    began = pace.clock()
    piece = review_piece(moves, board, start, turning, lambda: pace.clock() - began < budgets.PIECE_SECONDS)
    summary = pointed = None
    if piece.next is None:
        # The move the pieces pointed to is graded again, not taken on trust from the address.
        pointed = graded_move(moves, board, piece.turning - 1) if piece.turning else None
        if pointed is not None and not pointed.turned:
            pointed = None
        summary = big_review.summary(pointed, board, reader(moves, final), len(moves), final.winner)
    key, moves_text = board_key(board), format_moves(moves)
    return page_or_fragment(
        "review.html",
        "partials/review_grades.html",
        board=board,
        board_param=key,
        moves_text=moves_text,
        ending=ending,
        items=move_list(moves, piece.moves, board.n)[start : start + len(piece.moves)],
        graded_count=start + len(piece.moves),
        total=len(moves),
        summary=summary,
        pointed=pointed.number if summary and pointed else None,
        grader=None
        if piece.next is None
        else url_for(
            "review.grades", board=key, moves=moves_text, ending=ending, start=piece.next, turning=piece.turning
        ),
    )


def share_link(path: str) -> str:
    """The address to share for ``path``: on the configured SITE_URL, else the path alone, which the
    page's script completes from the address the browser shows. Never from the Host header, which
    anyone can set, so that a link shared from a page cannot point to another site."""
    return current_app.config.get("SITE_URL", "") + path


def status_words(moves: tuple[int, ...], at: int, pos: Position, ending: str | None = None) -> str:
    """Where the reader is in the game, such as "You are looking at move 3 of 7: X top-left."; at its end, how
    the game ended: on the board, or by the link's ``ending`` (a resignation or an agreed draw)."""
    total = len(moves)
    ended = f" {ENDINGS[ending]}" if ending and at == total else ""
    if total == 0:
        return f"You are looking at the empty board, before the first move.{ended}"
    if at == 0:
        return f"You are looking at the start of the game, before move 1 of {total}."
    n = pos.geometry.n
    where = f"You are looking at move {at} of {total}: {pos.board[moves[at - 1]]} {spot(moves[at - 1], n)}"
    if pos.is_over():
        return f"{where}. {'It is a draw.' if pos.is_draw() else f'{pos.winner} wins.'}"
    return f"{where}.{ended}" if ended else f"{where}. {pos.to_move} to move."


def shared_position():
    """The read-only position of a link such as /?moves=4.0.8&at=2, for views.index."""
    return show_game(graded=False)


@bp.get("/review")
def review_page():
    return show_game(graded=True)


def confirm_page(table: Table, board: Board, moves: tuple[int, ...], status: int = 200, message: str | None = None):
    pos = positions(moves, board)[-1]
    return page_or_fragment(
        "play_from.html",
        "play_from.html",
        status,
        board=board,
        board_param=board_key(board),
        moves=moves,
        moves_text=format_moves(moves),
        pos=pos,
        cells=board_cells(pos, moves[-1] if moves else None),
        previous=moves[-2] if len(moves) > 1 else None,
        table=table,
        digest=table.digest,
        levels=LEVELS,
        message=message,
    )


@bp.get("/play-from")
def play_from_confirm():
    """Ask before the visitor's game is replaced: nothing changes until they confirm."""
    try:
        board = linked_board(request.args)
        moves = parse_moves(request.args.get("moves", ""), board)
        if positions(moves, board)[-1].is_over():
            raise GameOverError("That position is the end of the game; choose an earlier move to play from.")
    except ValueError as error:
        return link_problem(error)
    return confirm_page(state.load_table().table, board, moves)


@bp.post("/play-from")
def play_from():
    """Replace the visitor's game with the position of a link, keeping the score."""
    loaded = state.load_table()
    table = loaded.table
    try:
        board = linked_board(request.form)
        moves = parse_moves(request.form.get("moves", ""), board)
    except (MoveListError, LinkError) as error:
        return link_problem(error)
    try:
        table.check_drawn_from(request.form.get("game", ""))
    except StaleBoardError:
        return confirm_page(table, board, moves, 409, CHANGED)
    try:
        settings = replace(chosen_settings(table, positions(moves, board)[-1]), board=board.key)
        played = table.play_from(moves, settings, randomness.for_request(table))
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
    return replace(s, mode="hvc", human=pos.to_move, difficulty=level)


def started_words(table: Table, at: int) -> str:
    s = table.settings
    start = f"Playing on from move {at}" if at else "Playing from the empty board"
    if s.mode == "hvc":
        return f"{start}: you play {s.human} against {LEVEL_NAMES[s.difficulty]}."
    return f"{start}."
