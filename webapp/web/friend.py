"""Blueprint: a game with a friend on another device, through a link (/friend/<code>) and its live stream.

Each game lives in the friends' store (webapp.web.friend_store) under a code of 128 random bits. Each seat is
bound to its browser by a cookie of its own, signed like the session (state.GameSessionInterface's signer under
a salt of its own) and scoped to the game's path, so that it is sent with that game's requests alone.

A page learns of the friend's moves through a server-sent event stream (/friend/<code>/events): each change
sends that viewer's fragment, which htmx's SSE extension swaps in; a comment every HEARTBEAT_SECONDS keeps the
connection within the server's idle deadline. Without JavaScript, a page that waits for someone else reloads
itself every few seconds, and every control is a form that posts.
"""

from __future__ import annotations

import math
import re
import secrets
import time
from typing import cast

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from itsdangerous import BadSignature
from werkzeug.wrappers import Response as BaseResponse

from webapp.engine.rules import IllegalMoveError, InvalidMoveError
from webapp.friend_game import SEATS, FriendGame
from webapp.match import ConflictError, SettingError, StaleBoardError, check_board
from webapp.serving import costs
from webapp.serving.headers import vary_on
from webapp.web import friend_store
from webapp.web.forms import FormError, whole_number
from webapp.web.friend_present import NO_UNDO, WATCHING, FriendView, friend_view
from webapp.web.friend_store import ClientFull, StoreDown, StoreFull
from webapp.web.rendering import is_htmx, page_or_fragment
from webapp.web.state import GameSessionInterface

bp = Blueprint("friend", __name__, url_prefix="/friend")

# 16 random bytes, as secrets.token_urlsafe writes them: 22 characters.
CODE = re.compile(r"[A-Za-z0-9_-]{22}")
SEAT_COOKIE = "seat"
SEAT_SALT = "friend-seat"
# A comment this often keeps a waiting stream within the server's 10 s idle deadline (webapp.serving.worker).
HEARTBEAT_SECONDS = 5.0
# A long poll (``?once=1``) is answered within this, nothing having changed: under the same deadline.
POLL_SECONDS = 8.0
# A stream ends after this long and the browser opens the next one, so that none is held for ever.
STREAM_SECONDS = 300.0
# How soon a browser opens a new stream after one ends or breaks.
RETRY_MS = 1000
# Without JavaScript, a page waiting for someone else reloads itself this often.
REFRESH_SECONDS = 3
MODE = "friend"

GONE = (
    "There is no game at this link. A game with a friend ends after a day without a move, "
    "so this one may have expired; or the link is not complete."
)
DOWN = (
    "Games with a friend are not available just now: their store does not answer. "
    "Please try again in a few minutes; meanwhile you can play the computer."
)
OUT_OF_DATE = "This page is out of date. Reload it and try again."
FULL = "There are as many games with a friend as the server can hold just now."
REFUSALS = (FormError, SettingError, ConflictError, InvalidMoveError, IllegalMoveError)


def store() -> friend_store.Store:
    return friend_store.of(current_app)


def checked_code(code: str) -> str:
    if not CODE.fullmatch(code):
        abort(404, description=GONE)
    return code


def seat_signer():
    interface = cast(GameSessionInterface, current_app.session_interface)  # create_app sets it
    return interface.get_signing_serializer(current_app, SEAT_SALT)


def cookie_seat(code: str) -> tuple[str, int] | None:
    """The seat this browser's cookie names at game ``code``, and the seat's moves when it was given; None without a
    seat cookie. A cookie that is not ours (forged, signed with another key, for another game) is answered 404, as a
    link that leads nowhere."""
    text = request.cookies.get(SEAT_COOKIE)
    if text is None:
        return None
    lifetime = int(current_app.permanent_session_lifetime.total_seconds())
    try:
        value = seat_signer().loads(text, max_age=lifetime)
    except (BadSignature, ValueError, RecursionError):
        abort(404, description=GONE)
    # "code:seat" as first given, "code:seat:moves" once the seat has moved.
    parts = value.split(":") if isinstance(value, str) else []
    if not (2 <= len(parts) <= 3 and parts[0] == code and parts[1] in SEATS):
        abort(404, description=GONE)
    moved = parts[2] if len(parts) == 3 else "0"
    if not (moved.isdigit() and len(moved) < 10):
        abort(404, description=GONE)
    return parts[1], int(moved)


def seat_of(code: str, game: FriendGame) -> str | None:
    """The seat this browser holds at ``game``: None without a seat cookie, or once the seat has moved to another
    browser (friend_actions), which leaves this one watching."""
    return seat_in(game, cookie_seat(code))


def seat_in(game: FriendGame, claim: tuple[str, int] | None) -> str | None:
    """The seat a cookie's ``claim`` (cookie_seat) holds at ``game``: none once the seat has moved on."""
    if claim is None:
        return None
    seat, moved = claim
    return seat if game.moves_of(seat) == moved else None


def give_seat(response, code: str, seat: str, moved: int = 0):
    """Bind ``seat`` of game ``code`` to this browser: a signed cookie sent only with that game's requests."""
    response.set_cookie(
        SEAT_COOKIE,
        seat_signer().dumps(f"{code}:{seat}" + (f":{moved}" if moved else "")),
        max_age=int(current_app.permanent_session_lifetime.total_seconds()),
        path=url_for("friend.game_page", code=code),
        secure=bool(current_app.config["SESSION_COOKIE_SECURE"] or request.is_secure),
        httponly=True,
        samesite="Lax",
    )
    vary_on(response, "Cookie")
    return response


def loaded(code: str) -> tuple[FriendGame, int]:
    """The game under ``code`` and its version: 404 if there is none, 503 if the store is down."""
    try:
        saved = store().load(code)
    except StoreDown:
        abort(503, description=DOWN)
    if saved is None:
        abort(404, description=GONE)
    try:
        return FriendGame.from_line(saved.line), saved.version
    except ValueError:
        abort(404, description=GONE)


def changed(code: str, change) -> tuple[FriendGame, int]:
    """Apply ``change`` to the game as stored and store the result, again if another change landed in between."""
    for _ in range(5):
        game, version = loaded(code)
        after = change(game)
        try:
            new_version = store().replace(code, version, after.to_line(), waiting=not after.has_guest)
        except StoreDown:
            abort(503, description=DOWN)
        if new_version is not None:
            return after, new_version
    abort(409, description="The game is changing too fast just now; reload the page.")


def start(board: str | None):
    """Make a game on ``board`` with this browser in the inviter's seat (as X), and go to its page.

    Called by the game page's New game form when its mode is "Play a friend" (game.new).
    """
    try:
        board = check_board(board or "3x3")
    except SettingError as error:
        abort(400, description=str(error))
    secret = current_app.secret_key
    assert isinstance(secret, str), "settings.require_secret_key starts no app without a key"
    # Counted per client as the search queue counts them: an IPv4 address, or an IPv6 /64.
    client = friend_store.hashed_client(secret, costs.client_key(request.remote_addr))
    try:
        wait = store().creation_wait(client, current_app.config["FRIEND_CREATIONS_PER_MINUTE"])
        if wait:
            most = current_app.config["FRIEND_CREATIONS_PER_MINUTE"]
            seconds = math.ceil(wait)
            abort(
                429,
                description=f"You have started {most} games with a friend in the last minute. "
                f"Try again in {seconds} s.",
                retry_after=seconds,
            )
        code = secrets.token_urlsafe(16)
        store().create(code, FriendGame(board).to_line(), client)
    except StoreDown:
        abort(503, description=DOWN)
    except StoreFull as full:
        abort(503, description=f"{FULL} {try_again(full.seconds)}", retry_after=math.ceil(max(full.seconds, 1)))
    except ClientFull as many:
        abort(429, description=too_many(many), retry_after=math.ceil(max(many.seconds, 1)))
    return give_seat(go_to(code), code, "inviter")


def try_again(seconds: float) -> str:
    """When to try again, in whole minutes.

    >>> try_again(59), try_again(3600)
    ('Try again in 1 minute.', 'Try again in 60 minutes.')
    """
    minutes = max(1, math.ceil(seconds / 60))
    return f"Try again in {minutes} minute{'s' if minutes > 1 else ''}."


def too_many(refusal: ClientFull) -> str:
    """Why this client may not start another game just now, and when it may."""
    when = try_again(refusal.seconds)
    if refusal.waiting:
        return f"Your friends have not opened the links of your last games yet: send one of those. {when}"
    return f"You have as many games with a friend under way as one player may. {when}"


def go_to(code: str):
    """A redirect to the game's page: htmx is told to load it whole (its head has the live stream's script)."""
    address = url_for("friend.game_page", code=code)
    response: BaseResponse
    if is_htmx():
        response = make_response("", 204)
        response.headers["HX-Redirect"] = address
    else:
        response = redirect(address, 303)
    vary_on(response, "HX-Request")
    return response


def site() -> str:
    """The site's address as links to it begin: SITE_URL if configured, else the host this request was sent to,
    as the proxies trusted under PROXY_COUNT report it (ProxyFix)."""
    return current_app.config.get("SITE_URL") or request.host_url.removesuffix("/")


def link_to(code: str) -> str:
    """The whole address to send the friend, which works without JavaScript too."""
    return site() + url_for("friend.game_page", code=code)


def view_of(code: str, game: FriendGame, version: int, seat: str | None) -> FriendView:
    return friend_view(code, game, version, seat, link_to(code))


def context(view: FriendView, message: str | None = None, is_error: bool = False) -> dict:
    """What the friend game's templates are drawn from."""
    refresh = REFRESH_SECONDS if view.refreshes else None
    return {"view": view, "message": message, "is_error": is_error, "refresh": refresh, "no_undo": NO_UNDO} | {
        "watching": WATCHING
    }


def respond(view: FriendView, *, message: str | None = None, status: int = 200):
    """The page, or for htmx the fragment; a successful form without htmx is answered with a redirect."""
    if request.method == "POST" and not is_htmx() and status < 400:
        return go_to(view.code)
    response = page_or_fragment(
        "friend.html", "partials/friend_update.html", status, **context(view, message, is_error=status >= 400)
    )
    vary_on(response, "Cookie")
    return response


def opened_by_a_person() -> bool:
    """Whether this GET is a person opening the link in a browser tab, not a link preview or a prefetch: only a
    browser's own navigation says Sec-Fetch-Dest: document, and a prefetch says so in Sec-Purpose or Purpose."""
    headers = request.headers
    return headers.get("Sec-Fetch-Dest") == "document" and not (headers.get("Sec-Purpose") or headers.get("Purpose"))


@bp.get("/<code>")
def game_page(code: str):
    code = checked_code(code)
    has_cookie = cookie_seat(code) is not None
    game, version = loaded(code)
    seat = seat_of(code, game)
    if not has_cookie and not game.has_guest and opened_by_a_person():
        # The first other browser to open the link takes the free seat; a second one, at the same instant, watches.
        try:
            game, version = changed(code, lambda game: game.joined_by_guest())
        except ConflictError:
            game, version = loaded(code)
        else:
            return give_seat(respond(view_of(code, game, version, "guest")), code, "guest")
    return respond(view_of(code, game, version, seat))


def act(code: str, change):
    """A form of the game's page: ``change(game, seat)`` applied and stored; a refusal leaves the game as it was."""
    code = checked_code(code)
    try:
        game, version = changed(code, lambda game: change(game, seat_of(code, game)))
    except REFUSALS as error:
        game, version = loaded(code)
        status = 409 if isinstance(error, ConflictError | IllegalMoveError) else 400
        return respond(view_of(code, game, version, seat_of(code, game)), message=str(error), status=status)
    return respond(view_of(code, game, version, seat_of(code, game)))


@bp.post("/<code>/join")
def join(code: str):
    code = checked_code(code)
    if cookie_seat(code) is not None:
        game, version = loaded(code)
        return respond(view_of(code, game, version, seat_of(code, game)))
    try:
        game, version = changed(code, lambda game: game.joined_by_guest())
    except ConflictError as error:
        return respond(view_of(code, *loaded(code), None), message=str(error), status=409)
    return give_seat(respond(view_of(code, game, version, "guest")), code, "guest")


@bp.post("/<code>/move")
def move(code: str):
    def play(game: FriendGame, seat: str | None) -> FriendGame:
        if "cell" not in request.form:
            raise FormError("Choose a square to play.")
        cell = whole_number(
            request.form, "cell", 0, game.position.geometry.cells - 1, "That square is not on the board."
        )
        drawn_in = whole_number(request.form, "round", 1, 10**9, OUT_OF_DATE)
        drawn_at = whole_number(request.form, "ply", 0, game.position.geometry.cells, OUT_OF_DATE)
        if drawn_in != game.round:
            raise ConflictError("A rematch has started since this page was drawn: here is the new game.")
        if is_repeat(game, seat, cell, drawn_at):
            return game  # the same move sent twice (a double click without JavaScript): played once
        if drawn_at != len(game.moves) and seat is not None:  # a watcher is told it watches, below
            raise StaleBoardError("The game moved on before your move arrived: here is the board as it is now.")
        return game.move(seat, cell)

    return act(code, play)


def is_repeat(game: FriendGame, seat: str | None, cell: int, drawn_at: int) -> bool:
    """Whether this move, drawn at move ``drawn_at``, is ``seat``'s last move sent again."""
    moves = game.moves
    return seat is not None and game.last_by == seat and drawn_at == len(moves) - 1 and moves[-1] == cell


@bp.post("/<code>/side")
def side(code: str):
    return act(code, lambda game, seat: game.with_inviter_playing(seat, request.form.get("side", "")))


@bp.post("/<code>/rematch")
def rematch(code: str):
    def again(game: FriendGame, seat: str | None) -> FriendGame:
        drawn_in = whole_number(request.form, "round", 1, 10**9, "This page is out of date. Reload it and try again.")
        if drawn_in != game.round:
            return game  # the friend started it first: one rematch, not two
        return game.rematch(seat)

    return act(code, again)


def event_for(code: str, saved: friend_store.Saved, claim: tuple[str, int] | None) -> str:
    """The stream's event for the game as ``saved``: this viewer's fragment, or only its id for the viewer's own
    change, which the answer to its own request has already drawn."""
    game = FriendGame.from_line(saved.line)
    seat = seat_in(game, claim)
    if seat is not None and game.last_by == seat:
        return f"id: {saved.version}\n\n"
    html = render_template("partials/friend_update.html", **context(view_of(code, game, saved.version, seat)))
    data = "".join(f"data: {line}\n" for line in html.splitlines())
    return f"id: {saved.version}\nevent: update\n{data}\n"


@bp.get("/<code>/events")
def events(code: str):
    """The live stream: this viewer's fragment after every change the other side makes, a comment in between.

    With ``once=1`` it is a long poll instead: it ends after the first change, or after POLL_SECONDS without one.
    The page uses the stream, which costs a worker a fraction of the long poll's CPU (docs/serving.md); the long
    poll is for a client behind a proxy that holds a stream's events back.
    """
    code = checked_code(code)
    _, current = loaded(code)
    claim = cookie_seat(code)
    last_seen = request.headers.get("Last-Event-ID") or request.args.get("v", "")
    version = int(last_seen) if last_seen.isdigit() and len(last_seen) < 10 else current
    shelf = store()
    once = request.args.get("once") == "1"

    def stream():
        seen = version
        yield f"retry: {RETRY_MS}\n\n"
        ends = time.monotonic() + (POLL_SECONDS if once else STREAM_SECONDS)
        try:
            with shelf.watching(code) as changed:
                saved = shelf.load(code)
                while True:
                    if saved is None:
                        yield "event: gone\ndata: gone\n\n"
                        return
                    if saved.version != seen:
                        seen = saved.version
                        yield event_for(code, saved, claim)
                        if once:
                            return
                    left = ends - time.monotonic()
                    if left <= 0:
                        return
                    if not changed.wait(min(HEARTBEAT_SECONDS, left)):
                        yield ": waiting\n\n"
                        continue
                    changed.clear()
                    saved = shelf.load(code)
        except StoreDown:
            return  # the browser opens another stream, and hears of the failure there

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    response.headers["X-Accel-Buffering"] = "no"  # a proxy that buffers would hold every event back
    return response
