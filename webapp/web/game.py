"""The web game's views: read the request, ask the table or the solver, save, and render."""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, current_app, g, redirect, request, url_for

from webapp.engine.boards import BOARDS
from webapp.engine.rules import IllegalMoveError, InvalidMoveError
from webapp.match import (
    DIGEST_LENGTH,
    LEVEL_NAMES,
    MODE_NAMES,
    ConfirmationNeeded,
    ConflictError,
    SettingError,
    Settings,
    StaleBoardError,
    Table,
    check_board,
    check_difficulty,
    check_mode,
    check_side,
    level_names,
    visible,
)
from webapp.serving.headers import vary_on
from webapp.web import friend, friend_store, randomness, state
from webapp.web.forms import FormError, optional_choice, whole_number
from webapp.web.present import (
    ANSWERS,
    Confirmation,
    board_rule,
    controls_state,
    game_view,
    question_words,
    score_view,
)
from webapp.web.rendering import is_htmx, page_or_fragment
from webapp.web.review import LinkError, link_problem, linked_board, shared_position

bp = Blueprint("game", __name__)


@bp.app_context_processor
def names():
    # level_names is the 3×3 names, as other pages use them; the game's own pages ask for their board's.
    return {
        "mode_names": MODE_NAMES,
        "level_names": LEVEL_NAMES,
        "boards": BOARDS,
        "level_names_on": level_names,
        "board_rule": board_rule,
    }


WRONG_CELL = "That square is not on the board."
WRONG_GAME = "This page is out of date. Reload it and try again."
# The refusals a person can cause and be told about; any other error is a bug and must not be hidden.
REFUSALS = (FormError, SettingError, ConflictError, InvalidMoveError, IllegalMoveError)


def drawn_from() -> str:
    """The ``game`` field: the digest of the game the page was drawn from (see Table.digest)."""
    digest = request.form.get("game", "")
    if len(digest) != DIGEST_LENGTH or not all(c in "0123456789abcdef" for c in digest):
        raise FormError(WRONG_GAME)
    return digest


def confirmed() -> bool:
    """Whether the person has already said yes to what this request throws away."""
    return request.form.get("confirm") == "1"


def respond_with_game(
    table: Table,
    *,
    previous: Table | None = None,
    message: str | None = None,
    error: ValueError | None = None,
    hint: bool = False,
    is_error: bool = False,
    confirm: Confirmation | None = None,
    status: int = 200,
    redraw: bool = False,
):
    """The one place that decides what a request gets back.

    htmx gets the fragment that changed, with a 4xx status if the request was refused. Without
    htmx, a GET gets the full page and a POST is answered with a redirect to the page, carrying
    its message in the session; a question that waits for a yes is the one POST answered with a page.
    The controls and the score are only sent again when they change (``previous`` is the table
    before the request): a click queued on a control is not lost to a redraw, and a move does not
    pay for drawing what it left alone. While a question waits for a yes, the settings show the choice it asks
    about; ``redraw`` sends them again as they are (the answer No).
    """
    if error is not None:
        status = 409 if isinstance(error, ConflictError | IllegalMoveError) else 400
        message, is_error = visible(str(error)), True  # it may quote the request (match.visible)
    if request.method == "POST" and not is_htmx() and confirm is None:
        state.save(table, notice=message, notice_is_error=is_error)
        response = redirect(url_for("game.index"), 303)
        vary_on(response, "HX-Request")
        return response
    if request.method == "POST" and error is None:
        state.save(table)
    score = score_view(table)
    controls = controls_state(table)
    game = game_view(table, hint=hint)
    return page_or_fragment(
        "index.html",
        "partials/update.html",
        status,
        apart={"score": "partials/score_swap.html"},
        # Drawn once for each different game view, but never when the response carries words that may
        # come from the request (an error, a notice, a question): no cache is keyed on a visitor's text.
        # Nor for the big boards, whose positions seldom recur (see present.REMEMBERED_UP_TO).
        pure=message is None and confirm is None and game.grid.is_remembered,
        settings=table.settings,
        # What the settings' dropdowns show: the choice a question waits on, else the game's own.
        choice=asked_settings(table, confirm),
        game=game,
        moves=table.moves,
        digest=table.digest,
        message=message,
        is_error=is_error,
        confirm=confirm,
        controls=controls,
        controls_changed=previous is None or controls_state(previous) != controls,
        score=score if previous is None or score_view(previous) != score else None,
        setup_changed=redraw or (previous is not None and setup_is_stale(previous, table, confirm)),
        settings_changed=previous is not None and previous.settings != table.settings,
    )


SETTING_FIELDS = ("board", "mode", "human", "difficulty", "x_level", "o_level")


def asked_settings(table: Table, confirm: Confirmation | None) -> Settings:
    """The settings a question about a new game asks about (its fields were checked before it was asked); the
    game's own settings when there is no such question."""
    if confirm is None or confirm.endpoint != "game.new":
        return table.settings
    return replace(table.settings, **{name: value for name, value in confirm.fields if name in SETTING_FIELDS})


def setup_is_stale(previous: Table, table: Table, confirm: Confirmation | None) -> bool:
    """Whether the settings form on the page no longer shows the settings, so it must be redrawn.

    A change made in the form itself is already on show: redrawing the form then would throw away a
    choice made in another dropdown while the answer was on its way. It is redrawn after a question
    (its dropdown shows the choice still waiting for a yes), after the yes, and after a change made
    elsewhere (Play again as O).
    """
    if confirm is not None or confirmed():
        return True
    if previous.settings.board != table.settings.board:
        return True  # the difficulty's top level changes its name (Impossible or Hard), and its help with it
    if previous.settings == table.settings:
        return False
    sent = {name: request.form.get(name) for name in SETTING_FIELDS}
    return sent != {name: getattr(table.settings, name) for name in SETTING_FIELDS}


def act_on_table(action, says=None):
    """Load the table, check that the form was drawn from it, apply ``action``, and respond.

    A refused action leaves the game exactly as it was. ``says``, given the new table, is a
    message for the player about what changed.
    """
    loaded = state.load_table()
    if loaded.reset:
        return respond_with_game(loaded.table, message=loaded.notice)
    table = loaded.table
    g.replies = randomness.for_request(table)
    try:
        table.check_drawn_from(drawn_from())
        changed = action(table)
    except ConfirmationNeeded as question:
        assert request.endpoint is not None, "a view runs under its endpoint"
        confirm = Confirmation.of(question, request.endpoint, request.form, table)
        return respond_with_game(table, previous=table, confirm=confirm)
    except StaleBoardError:
        # Not the player's fault: the same move sent twice (a double click without JavaScript) is already
        # played; a page that another tab or window overtook is refused all the same (409), but brought up to
        # date with a plain notice, not an error.
        if repeated(table):
            return respond_with_game(table, previous=table)
        return respond_with_game(table, previous=table, message=OVERTAKEN, status=409)
    except REFUSALS as error:
        return respond_with_game(table, previous=table, error=error)
    return respond_with_game(changed, previous=table, message=says(changed, table) if says else None)


OVERTAKEN = "The game had changed since this page was drawn; here it is as it is now."


def repeated(table: Table) -> bool:
    """Whether this request is a move the game already has: sent from the page drawn just before it was played,
    with the computer's reply (if any) after it."""
    if request.endpoint != "game.move":
        return False
    sent, cell = request.form.get("game", ""), request.form.get("cell", "")
    return any(
        len(table.moves) >= back
        and str(table.moves[-back]) == cell
        and replace(table, moves=table.moves[:-back]).digest == sent
        for back in (1, 2)
    )


@bp.get("/")
def index():
    if "moves" in request.args:
        return shared_position()  # a position from a link, shown read-only
    if "board" in request.args:
        return open_board()
    loaded = state.load_table()
    return respond_with_game(
        loaded.table,
        message=loaded.notice,
        is_error=loaded.notice_is_error,
        hint="hint" in request.args,
        redraw="kept" in request.args,  # No to a question: the settings go back to the game's own
    )


def open_board():
    """A link to a board, such as /?board=7x7: a new game on it, asking first if a game is under way there."""
    try:
        board = linked_board(request.args)
    except LinkError as error:
        return link_problem(error)
    loaded = state.load_table()
    table = loaded.table
    if table.settings.board == board.key and not (table.moves and table.position.is_over()):
        return respond_with_game(table, message=loaded.notice, is_error=loaded.notice_is_error)
    if table.is_in_progress():
        # Nothing changes until the yes: the question's form starts the game with the link's board.
        fields = (("board", board.key),)
        question = question_words(table, "game.new", dict(fields))
        return respond_with_game(table, confirm=Confirmation(question, "game.new", fields, ANSWERS["game.new"]))
    fresh = table.new_game(replace(table.settings, board=board.key), randomness.for_request(table))
    state.save(fresh)
    response = redirect(url_for("game.index"), 303)
    vary_on(response, "HX-Request")
    return response


@bp.post("/move")
def move():
    def play(table: Table) -> Table:
        if "cell" not in request.form:
            raise FormError("Choose a square to play.")
        cell = whole_number(request.form, "cell", 0, table.position.geometry.cells - 1, WRONG_CELL)
        return table.move(cell, randomness.replies())

    return act_on_table(play, says=practice_message)


@bp.post("/new")
def new():
    if request.form.get("mode") == friend.MODE or request.form.get("friend") == "1":
        # A game with a friend lives in the friends' store, not in this visitor's cookie, which it leaves alone.
        return friend.start(request.form.get("board"))

    def start(table: Table) -> Table:
        s = table.settings
        settings = Settings(
            board=optional_choice(request.form, "board", check_board) or s.board,
            mode=optional_choice(request.form, "mode", check_mode) or s.mode,
            human=optional_choice(request.form, "human", check_side) or s.human,
            difficulty=optional_choice(request.form, "difficulty", check_difficulty) or s.difficulty,
            x_level=optional_choice(request.form, "x_level", check_difficulty) or s.x_level,
            o_level=optional_choice(request.form, "o_level", check_difficulty) or s.o_level,
        )
        # The New game button says so itself; a dropdown changed in the middle of a game asks first.
        return table.new_game(settings, randomness.replies(), confirmed=confirmed() or request.form.get("start") == "1")

    return act_on_table(start)


@bp.post("/levels")
def levels():
    return act_on_table(
        lambda table: table.with_levels(
            difficulty=request.form.get("difficulty"),
            x_level=request.form.get("x_level"),
            o_level=request.form.get("o_level"),
        ),
        says=levels_message,
    )


def levels_message(table: Table, _before: Table) -> str:
    s = table.settings
    names = level_names(s.board)
    if table.moves and table.position.is_over():
        # Nothing more is played in a finished game: the level is the next game's.
        if s.mode == "cvc":
            return f"Next game: X plays {names[s.x_level]}, O plays {names[s.o_level]}."
        return f"Next game against {names[s.difficulty]}."
    if s.mode == "cvc":
        return f"X plays {names[s.x_level]} and O plays {names[s.o_level]} from the next move."
    if table.moves and not table.position.is_over() and table.counts_as != s.difficulty:
        return (
            f"Difficulty: {names[s.difficulty]}, from the computer's next move. "
            f"This game still counts as {names[table.counts_as]}."
        )
    return f"Difficulty: {names[s.difficulty]}, from the computer's next move."


# After the end, Undo tries again from an earlier move: the finished game is already in the score.
PRACTICE = "This game is already in the score; playing on from here is practice."
PRACTICE_OVER = "Practice: this game was already in the score, so this result is not counted again."
# A game from "Play from here" never counted: a position from a link may have been played by anyone (Table.play_from).
FROM_LINK_OVER = "Practice: this game started from a position of a link, so its result is not counted."


def practice_message(table: Table, before: Table) -> str | None:
    """Say so while a game already in the score goes on after Undo, and when it ends again; and, when a game
    played from a link's position ends, that it does not count, and why."""
    if not (before.is_counted() and table.is_counted()):
        return None
    if table.position.is_over():
        if before.position.is_over():
            return None
        return FROM_LINK_OVER if table.practice else PRACTICE_OVER
    # The score says so all along a game from a link (present.PRACTICE); only Undo after the end needs telling.
    return None if table.practice else PRACTICE


@bp.post("/undo")
def undo():
    return act_on_table(lambda table: table.undo(), says=practice_message)


@bp.post("/step")
def step():
    return act_on_table(lambda table: table.step(randomness.replies()))


@bp.post("/pause")
def pause():
    def pause_or_resume(table: Table) -> Table:
        return table.set_paused(
            bool(whole_number(request.form, "paused", 0, 1, "Pause takes 1 (pause) or 0 (resume)."))
        )

    return act_on_table(pause_or_resume)


@bp.post("/values")
def values():
    def show_or_hide(table: Table) -> Table:
        return table.with_values(
            bool(whole_number(request.form, "show", 0, 1, "Move values takes 1 (show) or 0 (hide)."))
        )

    return act_on_table(show_or_hide)


@bp.post("/score/reset")
def reset_score():
    return act_on_table(lambda table: table.reset_score(confirmed=confirmed()))


@bp.get("/healthz")
def healthz():
    # Friend games' store failing leaves everything else working: the check still passes, and names the store, as
    # read from the store itself, so that every worker says the same.
    store = friend_store.of(current_app)
    try:
        store.check()
    except friend_store.StoreDown:
        return {"status": "degraded", "failing": f"friend games' store ({store.name})"}
    except friend_store.StoreFull:
        most = current_app.config["FRIEND_GAMES_MOST"]
        return {
            "status": "degraded",
            "failing": f"friend games' store ({store.name}) is full: FRIEND_GAMES_MOST={most}",
        }
    return {"status": "ok"}
