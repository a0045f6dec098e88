"""Blueprint: a game with a friend on another device, through a link (/friend/<code>) and its live stream.

Each game lives in the friends' store (webapp.web.friend_store) under a code of 128 random bits. Each seat is
bound to its browser by a cookie of its own, signed like the session (state.GameSessionInterface's signer under
a salt of its own) and scoped to the game's path, so that it is sent with that game's requests alone.

A page learns of the friend's moves through a server-sent event stream (/friend/<code>/events, served by
webapp.web.relay): each change sends that viewer's fragment, drawn once for every page of its role, which htmx's
SSE extension swaps in. Without JavaScript, a page that waits for someone else reloads
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
    Flask,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from itsdangerous import BadSignature
from werkzeug.wrappers import Response as BaseResponse

from webapp.engine.rules import IllegalMoveError, InvalidMoveError
from webapp.friend_game import SEATS, FriendGame
from webapp.match import ConflictError, SettingError, StaleBoardError, check_board
from webapp.serving import costs
from webapp.serving.headers import vary_on
from webapp.web import friend_store, presence, relay
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
# Without JavaScript, a page waiting for someone else reloads itself this often.
REFRESH_SECONDS = 3
MODE = "friend"


def gone() -> str:
    """The words for a link that leads to no game, with the expiry as FRIEND_EXPIRY_SECONDS sets it."""
    expiry = presence.span_words(current_app.config["FRIEND_EXPIRY_SECONDS"])
    return (
        f"There is no game at this link. A game with a friend ends after {expiry} without a move, "
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
        abort(404, description=gone())
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
        abort(404, description=gone())
    # "code:seat" as first given, "code:seat:moves" once the seat has moved.
    parts = value.split(":") if isinstance(value, str) else []
    if not (2 <= len(parts) <= 3 and parts[0] == code and parts[1] in SEATS):
        abort(404, description=gone())
    moved = parts[2] if len(parts) == 3 else "0"
    if not (moved.isdigit() and len(moved) < 10):
        abort(404, description=gone())
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
        abort(404, description=gone())
    try:
        return FriendGame.from_line(saved.line), saved.version
    except ValueError:
        abort(404, description=gone())


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


def seat_view(code: str, game: FriendGame, version: int, seat: str | None) -> FriendView:
    return friend_view(code, game, version, seat, link_to(code))


def context(view: FriendView, message: str | None = None, is_error: bool = False, seen=None) -> dict:
    """What the friend game's templates are drawn from; ``seen`` is each seat's presence (webapp.web.presence)."""
    refresh = REFRESH_SECONDS if view.refreshes else None
    return {"view": view, "message": message, "is_error": is_error, "refresh": refresh, "no_undo": NO_UNDO} | {
        "watching": WATCHING,
        "presence": seen,
        "drawn": relay.drawing_key(view.version, seen),
        "now": time.time(),
        "span_words": presence.span_words,
    }


def respond(view: FriendView, *, message: str | None = None, status: int = 200):
    """The page, or for htmx the fragment; a successful form without htmx is answered with a redirect."""
    if request.method == "POST" and not is_htmx() and status < 400:
        return go_to(view.code)
    seen = presence.of_store(store()).seen(view.code)
    response = page_or_fragment(
        "friend.html", "partials/friend_update.html", status, **context(view, message, status >= 400, seen)
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
            presence.of_store(store()).beat([(code, "guest")], presence.PAGE_HOLDER)
            return give_seat(respond(seat_view(code, game, version, "guest")), code, "guest")
    if seat is not None:
        presence.of_store(store()).beat([(code, seat)], presence.PAGE_HOLDER)  # how a page without JavaScript counts
    if is_htmx() and request.args.get("drawn") == relay.drawing_key(version, presence.of_store(store()).seen(code)):
        return "", 204  # a page past the streams' bounds, polling: nothing new to draw
    return respond(seat_view(code, game, version, seat))


def act(code: str, change):
    """A form of the game's page: ``change(game, seat)`` applied and stored; a refusal leaves the game as it was."""
    code = checked_code(code)
    try:
        game, version = changed(code, lambda game: change(game, seat_of(code, game)))
    except REFUSALS as error:
        game, version = loaded(code)
        status = 409 if isinstance(error, ConflictError | IllegalMoveError) else 400
        return respond(seat_view(code, game, version, seat_of(code, game)), message=str(error), status=status)
    return respond(seat_view(code, game, version, seat_of(code, game)))


@bp.post("/<code>/join")
def join(code: str):
    code = checked_code(code)
    if cookie_seat(code) is not None:
        game, version = loaded(code)
        return respond(seat_view(code, game, version, seat_of(code, game)))
    try:
        game, version = changed(code, lambda game: game.joined_by_guest())
    except ConflictError as error:
        return respond(seat_view(code, *loaded(code), None), message=str(error), status=409)
    return give_seat(respond(seat_view(code, game, version, "guest")), code, "guest")


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


def stream_drawing(
    app: Flask, code: str, saved: friend_store.Saved | None, role: str, seen, key: str, site: str
) -> str:
    """One role's fragment of the game as ``saved`` (None: it expired), for the live streams: drawn once, sent to
    each stream of that role, outside any request (as if at ``site``, for the link's address)."""
    with app.test_request_context(f"{bp.url_prefix}/{code}", base_url=site):
        if saved is None:
            return render_template("partials/friend_gone.html", gone=gone())
        seat = None if role == relay.WATCHING else role
        game = FriendGame.from_line(saved.line)
        return render_template(
            "partials/friend_update.html", **context(seat_view(code, game, saved.version, seat), seen=seen)
        )


def stream_role(saved: friend_store.Saved, claim: tuple[str, int] | None) -> str:
    """A stream's role at the game as ``saved``: the seat its cookie claims while the seat is still there."""
    if claim is None:
        return relay.WATCHING
    return seat_in(FriendGame.from_line(saved.line), claim) or relay.WATCHING


@bp.get("/<code>/events")
def events(code: str):
    """The live stream: this viewer's fragment after every change, a comment in between (webapp.web.relay).

    It begins with the page's current drawing unless the page shows it already (``v``, or Last-Event-ID on a
    reconnection); past the streams' bounds it sends one ``full`` event, and the page reloads its fragment every
    few seconds instead.
    """
    code = checked_code(code)
    claim = cookie_seat(code)
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    live = relay.for_app(app, lambda *drawing: stream_drawing(app, *drawing), stream_role)
    last_seen = request.headers.get("Last-Event-ID") or request.args.get("v", "")
    once = request.args.get("once") == "1"
    # gunicorn's own socket for the request, or the development server's: to see whether the page has gone.
    connection = request.environ.get("gunicorn.socket") or request.environ.get("werkzeug.socket")
    client = costs.client_key(request.remote_addr)
    return live.response(code, claim, client, last_seen[:40], once, connection, request.host_url)
