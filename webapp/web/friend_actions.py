"""Blueprint: what a friend game's players do besides moving, and the link's QR code.

* **Resign**, in two steps that work without JavaScript: the first post asks, the second (``confirm=1``) resigns.
* **Draws**: offer one, and accept or decline the friend's.
* **Move a seat** to another browser ("Continue on another device"): the seat's holder gets a one-time link,
  signed and expiring after TRANSFER_SECONDS, whose nonce the game keeps (FriendGame.with_transfer); the first
  browser to confirm it takes the seat, and the game counts the seat's move, so that the browser it left watches.
  Opening the link changes nothing by itself (a messenger's preview opens links); its page's button does.
* **QR codes** of the game's link, drawn on the server as SVG (segno), and of a transfer's link inline.
"""

from __future__ import annotations

import io
import secrets
from dataclasses import replace
from typing import cast

import segno
from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for
from itsdangerous import BadSignature, SignatureExpired
from markupsafe import Markup
from werkzeug.wrappers import Response

from webapp.friend_game import FriendGame, TransferError
from webapp.match import SettingError, check_board
from webapp.serving.headers import vary_on
from webapp.web import friend, randomness, state
from webapp.web.friend import changed, checked_code, context, cookie_seat, give_seat, loaded, seat_of, seat_view
from webapp.web.friend_present import seat_words
from webapp.web.rendering import page_or_fragment
from webapp.web.state import GameSessionInterface

bp = Blueprint("friend_actions", __name__, url_prefix="/friend")

TRANSFER_SALT = "friend-transfer"
# A transfer link works this long after it is made: enough to open it on a phone lying beside you.
TRANSFER_SECONDS = 600
DRAW_ANSWERS = {
    "offer": FriendGame.offer_draw,
    "accept": FriendGame.accept_draw,
    "decline": FriendGame.decline_draw,
}
# The longest link drawn as a QR code: a transfer's on a long host name is about 200 characters (3-11 ms of CPU).
QR_MOST = 400
USED = (
    "This link to move a seat has been used already, has expired, or was replaced by a newer one. "
    "Ask the player to make a new one from their game's page."
)


@bp.post("/<code>/resign")
def resign(code: str) -> Response:
    """Resign with ``confirm=1``; without it, the page asks first and nothing changes."""
    if request.form.get("confirm") == "1":
        return friend.act(code, lambda game, seat: game.resign(seat))
    code = checked_code(code)
    game, version = loaded(code)
    view = seat_view(code, game, version, seat_of(code, game))
    # No reloading itself without JavaScript while it asks: the question would go before it is answered.
    drawn = context(view) | {"refresh": None, "asking": "resign"}
    response = page_or_fragment("friend.html", "partials/friend_update.html", 200, **drawn)
    vary_on(response, "Cookie")
    return response


@bp.post("/<code>/draw")
def draw(code: str) -> Response:
    """Offer a draw, or answer the friend's offer (``answer`` is offer, accept or decline)."""
    answer = DRAW_ANSWERS.get(request.form.get("answer", ""))
    if answer is None:
        abort(400, description="Offer a draw, or accept or decline your friend's offer.")
    return friend.act(code, lambda game, seat: answer(game, seat))


@bp.post("/computer")
def computer() -> Response:
    """ "Play the computer instead": a new game against the computer on the friend game's board, whatever this
    browser played last (a game between two people on one screen, say), as the game page's ?board= link does."""
    try:
        board = check_board(request.form.get("board", ""))
    except SettingError as error:
        abort(400, description=str(error))
    table = state.load_table().table
    s = table.settings
    if not (s.mode == "hvc" and s.board == board and table.is_in_progress()):  # else that game goes on
        state.save(table.new_game(replace(s, board=board, mode="hvc"), randomness.for_request(table)))
    response = redirect(url_for("game.index"), 303)
    vary_on(response, "HX-Request")
    return response


def qr_svg(text: str) -> str:
    """``text`` as a QR code in SVG, dark on a light square so that it reads in a dark page too; 400 for a text
    longer than QR_MOST (a link on a host name sent that long), which would cost a QR code's CPU for nothing."""
    if len(text) > QR_MOST:
        abort(400, description="This address is too long for a QR code: copy the link instead.")
    out = io.BytesIO()
    code = segno.make(text, error="m", micro=False)
    code.save(out, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False, svgclass="qr-code")
    return out.getvalue().decode()


@bp.get("/<code>/qr.svg")
def qr(code: str) -> Response:
    """The QR code of the game's whole link, as anyone with the link may see it."""
    code = checked_code(code)
    loaded(code)  # no code of a game that does not exist
    response = Response(qr_svg(friend.link_to(code)), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


def transfer_signer():
    interface = cast(GameSessionInterface, current_app.session_interface)  # create_app sets it
    return interface.get_signing_serializer(current_app, TRANSFER_SALT)


@bp.post("/<code>/transfer")
def transfer(code: str) -> Response:
    """A one-time link that moves this browser's seat to the browser that opens it; any earlier one stops working."""
    code = checked_code(code)
    nonce = secrets.token_urlsafe(16)
    try:
        game, _ = changed(code, lambda game: game.with_transfer(seat_of(code, game), nonce))
    except ValueError as error:
        abort(409, description=str(error))
    seat = seat_of(code, game)
    token = transfer_signer().dumps(f"{code}:{nonce}")
    link = friend.site() + url_for("friend_actions.take_seat", code=code, token=token)
    response = make_response(
        render_template(
            "friend_transfer.html",
            code=code,
            link=link,
            qr=Markup(qr_svg(link)),  # segno draws paths only: no text of the link is in it
            seat=seat_words(seat or ""),
            minutes=TRANSFER_SECONDS // 60,
        )
    )
    response.headers["Cache-Control"] = "no-store"  # the link is a key to the seat
    return response


def opened_transfer(code: str, token: str) -> str:
    """The nonce of a transfer link made for game ``code``: 404 for a link that is not ours, 410 once expired."""
    try:
        value = transfer_signer().loads(token, max_age=TRANSFER_SECONDS)
    except SignatureExpired:
        abort(410, description=USED)
    except (BadSignature, ValueError, RecursionError):
        abort(404, description=friend.gone())
    link_code, _, nonce = value.partition(":") if isinstance(value, str) else ("", "", "")
    if link_code != code:
        abort(404, description=friend.gone())
    return nonce


@bp.get("/<code>/seat/<token>")
def take_seat(code: str, token: str) -> Response:
    """The transfer link's page: a button takes the seat, so that a link preview takes nothing."""
    code = checked_code(code)
    opened_transfer(code, token)
    game, _ = loaded(code)
    if not game.transfer:
        abort(410, description=USED)
    response = make_response(render_template("friend_take_seat.html", code=code, token=token))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/<code>/seat/<token>")
def taken_seat(code: str, token: str) -> Response:
    """Take the seat the link moves: once, and only while it is the game's open transfer."""
    code = checked_code(code)
    nonce = opened_transfer(code, token)
    claim = cookie_seat(code)
    moved: dict[str, str] = {}

    def take(game: FriendGame) -> FriendGame:
        after, seat = game.transferred(nonce)
        if claim is not None and claim[0] != seat and seat_of(code, game) is not None:
            abort(409, description="This browser holds the other seat already: open the link on another one.")
        moved["seat"] = seat
        return after

    try:
        game, _ = changed(code, take)
    except TransferError:
        abort(410, description=USED)
    seat = moved["seat"]
    return give_seat(friend.go_to(code), code, seat, game.moves_of(seat))
